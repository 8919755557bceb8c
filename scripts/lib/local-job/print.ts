/**
 * How a local job shows what each step did: the step's own lines (workflow
 * commands read as the runner reads them: masks applied, groups indented,
 * debug lines only with ACTIONS_STEP_DEBUG=true), its outputs, and its job
 * summary as text.
 */

/** Values the runner would mask (`::add-mask::`, the secrets): replaced by *** in every line shown. */
export class Masks {
  private values: string[] = []
  add(value: string): void {
    if (value.trim() !== '' && !this.values.includes(value)) {
      this.values.push(value)
      this.values.sort((a, b) => b.length - a.length)
    }
  }
  apply(line: string): string {
    return this.values.reduce((text, value) => text.split(value).join('***'), line)
  }
}

/** A workflow command's data, unescaped as the runner does (%25 %0D %0A). */
const unescape = (text: string) => text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')

/**
 * The lines of a step's log as the runner shows them, each prefixed with
 * `  | `: `::add-mask::` recorded and hidden, `::group::` as `> title` with
 * its lines indented, `::error::` / `::warning::` / `::notice::` as
 * `error: ...`.
 */
export function logLines(output: string, masks: Masks, debug: boolean): string[] {
  const shown: string[] = []
  let indent = ''
  for (const line of output.split('\n')) {
    const command = /^::([a-zA-Z-]+)(?: ([^:]*))?::(.*)$/.exec(line)
    const name = command?.[1]
    const message = command ? unescape(command[3]) : line
    if (name === 'add-mask') {
      masks.add(message)
      continue
    }
    if (name === 'endgroup') {
      indent = ''
      continue
    }
    if (name === 'debug' && !debug) continue
    if (!command && line === '') continue
    const text =
      name === 'group'
        ? `> ${message}`
        : name === 'error' || name === 'warning' || name === 'notice' || name === 'debug'
          ? `${name}: ${message}`
          : line
    for (const part of text.split('\n')) shown.push(`  | ${indent}${masks.apply(part)}`)
    if (name === 'group') indent = '  '
  }
  return shown
}

const LONG = 120

/** A step's outputs, one a line; a long value cut, with its length said. */
export function outputLines(outputs: Record<string, string>, masks: Masks): string[] {
  const names = Object.keys(outputs)
  if (names.length === 0) return []
  return [
    '  outputs:',
    ...names.map(name => {
      const value = masks.apply(outputs[name]).replace(/\n/g, '\\n')
      return `    ${name}: ${value.length > LONG ? `${value.slice(0, LONG)}... (${value.length} characters)` : value}`
    })
  ]
}

const ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", '#39': "'" }

/**
 * A job summary (Markdown) as text to read in a terminal: HTML comments and
 * <details> tags dropped, entities and Markdown escapes undone, the
 * invisible characters that keep GitHub from linking a URL removed.
 */
export function summaryText(markdown: string): string[] {
  const text = markdown
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?details>/g, '')
    .replace(/<summary>([\s\S]*?)<\/summary>/g, '$1')
    .replace(/&(quot|amp|lt|gt|apos|#39);/g, (_, name: string) => ENTITIES[name])
    .replace(/\\([\\`*_{}[\]()#+\-.!<>~])/g, '$1')
    .replace(/[\u200b\u2060]/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return text === '' ? [] : ['  summary:', ...text.split('\n').map(line => `    ${line}`.trimEnd())]
}
