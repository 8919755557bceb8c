/**
 * What the docs state that the code or action.yml already says, generated:
 * the README's compact inputs and outputs; docs/reference/inputs.md and
 * outputs.md (each input and output from action.yml, the bounds of every
 * duration from the input parsers); docs/reference/operations.md's table
 * (each operation from the registry, its own inputs from APPLIES_TO, linked
 * to its one section in docs/guides/); the checks file's JSON Schema, from
 * the zod schema; and the table of the actions the workflows pin
 * (docs/releasing.md), from .github/workflows/.
 *   npm run docs          rewrite them
 *   npm run docs -- --check   exit 1 if they are out of date
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as prettier from 'prettier'
import { parse } from 'yaml'
import { type InputName, parseInput } from '../src/inputs/table.js'
import { APPLIES_TO } from '../src/inputs/warnings.js'
import { OPERATIONS, entryOf } from '../src/operations/registry.js'
import { SCHEMA_PATH, schemaText } from './lib/checks-file-schema.js'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>
  outputs: Record<string, { description: string }>
}

const esc = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')

/** A heading's anchor as GitHub makes it (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** docs/reference/inputs.md's list: each input of action.yml with its description, default and the operations that read it. */
export function inputSections(actionYml: string): string {
  const action = parse(actionYml) as ActionYml
  const readBy = APPLIES_TO as Record<string, string[] | undefined>
  return Object.entries(action.inputs)
    .map(([name, i]) => {
      const facts = [
        i.required ? 'Required.' : '',
        i.default !== undefined ? `Default: \`${i.default}\`.` : '',
        readBy[name] ? `Read by: ${(readBy[name] ?? []).join(', ')}.` : ''
      ].filter(Boolean)
      return [`### \`${name}\``, esc(i.description), facts.join(' ')].filter(Boolean).join('\n\n')
    })
    .join('\n\n')
}

/** docs/reference/outputs.md's list: each output of action.yml with its description. */
export function outputSections(actionYml: string): string {
  const action = parse(actionYml) as ActionYml
  return Object.entries(action.outputs)
    .map(([name, o]) => `### \`${name}\`\n\n${esc(o.description)}`)
    .join('\n\n')
}

const accepts = (name: InputName, value: string): boolean => {
  try {
    parseInput(name, value)
    return true
  } catch {
    return false
  }
}
const sameAs = (name: InputName, a: string, b: string) =>
  JSON.stringify(parseInput(name, a)) === JSON.stringify(parseInput(name, b))

/** A duration input as its parser takes it: the largest value, whether days are a unit, what a bare number means. */
export interface DurationBounds {
  input: InputName
  maxMs: number
  days: boolean
  bareNumber: 'seconds' | 'milliseconds' | 'refused'
  /** Forms it takes besides a duration. */
  also: string[]
}

/**
 * Every input whose parser reads a duration (it takes `1s` and `500ms` and
 * refuses a word), found by asking the parsers themselves, with its bounds:
 * the largest `<n>ms` it accepts, found by bisection.
 */
export function durationBounds(): DurationBounds[] {
  const inputs = Object.keys(parse(readFileSync(`${ROOT}action.yml`, 'utf8')).inputs) as InputName[]
  return inputs
    .filter(name => accepts(name, '1s') && accepts(name, '500ms') && !accepts(name, 'soon'))
    .map(input => {
      let low = 1000 // accepted: 1s
      let high = 10 ** 13 // refused: over 300 years
      if (accepts(input, `${high}ms`)) throw new Error(`${input} takes durations of any length`)
      while (high - low > 1) {
        const mid = Math.floor((low + high) / 2)
        if (accepts(input, `${mid}ms`)) low = mid
        else high = mid
      }
      const bareNumber = !accepts(input, '2')
        ? 'refused'
        : sameAs(input, '2', '2s')
          ? 'seconds'
          : sameAs(input, '2', '2ms')
            ? 'milliseconds'
            : undefined
      if (!bareNumber) throw new Error(`${input}: a bare number is neither seconds nor milliseconds`)
      const also = [
        accepts(input, '2000-01-01T00:00:00Z') ? 'an ISO 8601 date or time (no bound)' : '',
        accepts(input, '20%') ? 'a percentage' : ''
      ].filter(Boolean)
      return { input, maxMs: low, days: accepts(input, '1d'), bareNumber, also }
    })
}

/** A length of time as an input would take it: the largest unit it divides into (days only where they are a unit). */
function durationText(ms: number, days: boolean): string {
  const units: Array<[string, number]> = [
    ...(days ? [['d', 86_400_000] as [string, number]] : []),
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
    ['ms', 1]
  ]
  const [unit, size] = units.find(([, size]) => ms % size === 0) ?? ['ms', 1]
  return `${ms / size}${unit}`
}

/** docs/reference/inputs.md's table of the durations' bounds. */
export function durationsTable(bounds = durationBounds()): string {
  return [
    '| Input | A duration, at most | Days (`d`) | A bare number | Also |',
    '| --- | --- | --- | --- | --- |',
    ...bounds.map(
      b =>
        `| [\`${b.input}\`](#${slug(b.input)}) | \`${durationText(b.maxMs, b.days)}\` | ${b.days ? 'yes' : 'no'} | ${b.bareNumber} | ${b.also.join(', ')} |`
    )
  ].join('\n')
}

/** Where each operation's section is: the guide (docs/guides/*.md) holding its one `## \`name\`` heading. */
export function guideOf(guides: Array<{ file: string; text: string }>): Map<string, string> {
  const where = new Map<string, string>()
  for (const name of OPERATIONS) {
    const found = guides.filter(g => g.text.split('\n').includes(`## \`${name}\``))
    if (found.length !== 1)
      throw new Error(`${name} has ${found.length} sections (## \`${name}\`) in docs/guides/: it needs exactly one`)
    where.set(name, found[0].file)
  }
  return where
}

/** The project's guides, as guideOf reads them. */
export function projectGuides(root = ROOT): Array<{ file: string; text: string }> {
  const dir = `${root}docs/guides/`
  return readdirSync(dir)
    .filter(f => f.endsWith('.md'))
    .sort()
    .map(f => ({ file: f, text: readFileSync(`${dir}${f}`, 'utf8') }))
}

/** docs/reference/operations.md's table: each operation of the registry, what it does, its own inputs, whether it writes. */
export function operationsTable(guides = projectGuides()): string {
  const where = guideOf(guides)
  const readBy = APPLIES_TO as Record<string, string[] | undefined>
  const own = (name: string) =>
    Object.keys(readBy)
      .filter(input => readBy[input]?.includes(name))
      .map(input => `\`${input}\``)
      .join(', ')
  return [
    '| Operation | What it does | Its inputs, besides the targets and the common ones | Sets `changed` |',
    '| --- | --- | --- | --- |',
    ...OPERATIONS.map(
      name =>
        `| [\`${name}\`](../guides/${where.get(name)}#${slug(name)}) | ${esc(entryOf(name).summary)} | ${own(name)} | ${entryOf(name).writes ? 'yes' : 'no'} |`
    )
  ].join('\n')
}

/** The README's compact tables: each input with its default and the operations that read it; the outputs by name. */
export function compactTables(actionYml: string): { inputs: string; outputs: string } {
  const action = parse(actionYml) as ActionYml
  const readBy = APPLIES_TO as Record<string, string[] | undefined>
  // Lists, not a table (a table is padded to its widest cell), one per set of operations that read them.
  const groups = new Map<string, string[]>()
  for (const [name, i] of Object.entries(action.inputs)) {
    const notes = [i.required ? 'required' : '', i.default !== undefined ? `default \`${i.default}\`` : ''].filter(
      Boolean
    )
    const key = readBy[name] ? (readBy[name] ?? []).join(', ') : 'every operation'
    groups.set(key, [...(groups.get(key) ?? []), `\`${name}\`${notes.length ? ` (${notes.join('; ')})` : ''}`])
  }
  const inputs = [...groups].map(([key, names]) => `- ${key}: ${names.join(', ')}`).join('\n')
  const outputs = `Outputs: ${Object.keys(action.outputs)
    .map(name => `\`${name}\``)
    .join(', ')}.`
  return { inputs: `Inputs, by the operations that read them:\n\n${inputs}`, outputs }
}

/** `text` with each marked block (`<!-- key:start -->` ... `<!-- key:end -->`) replaced. */
function fill(text: string, blocks: Record<string, string>, file: string): string {
  let out = text
  for (const [key, table] of Object.entries(blocks)) {
    const re = new RegExp(`(<!-- ${key}:start -->)[\\s\\S]*?(<!-- ${key}:end -->)`)
    if (!re.test(out)) throw new Error(`${file} has no <!-- ${key}:start --> ... <!-- ${key}:end --> markers`)
    out = out.replace(re, (_all, start: string, end: string) => `${start}\n${table}\n${end}`)
  }
  return out
}

export function render(readme: string, actionYml: string): string {
  return fill(readme, compactTables(actionYml), 'README.md')
}

async function formatted(file: string, text: string): Promise<string> {
  const options = (await prettier.resolveConfig(`${ROOT}${file}`)) ?? {}
  return prettier.format(text, { ...options, parser: 'markdown' })
}

/** The README with fresh compact tables, formatted as Prettier (the project's formatter) would. */
export async function renderFormatted(readme: string, actionYml: string): Promise<string> {
  return formatted('README.md', render(readme, actionYml))
}

/** A page of docs/reference/ with its generated parts fresh. */
export async function renderReference(
  which: 'inputs' | 'outputs' | 'operations',
  page: string,
  actionYml: string,
  guides = projectGuides()
): Promise<string> {
  const file = `docs/reference/${which}.md`
  const blocks: Record<string, string> =
    which === 'inputs'
      ? { durations: durationsTable(), inputs: inputSections(actionYml) }
      : which === 'outputs'
        ? { outputs: outputSections(actionYml) }
        : { operations: operationsTable(guides) }
  return formatted(file, fill(page, blocks, file))
}

export interface Pin {
  action: string
  version: string
  sha: string
  /** The workflow files that use it. */
  files: string[]
}

/** Every action the workflows pin by commit SHA (`owner/repo@<sha> # vX.Y.Z`; a sub-action counts as its repository). */
export function pinsOf(workflows: Array<{ file: string; text: string }>): Pin[] {
  const pins = new Map<string, Pin>()
  for (const { file, text } of workflows) {
    for (const m of text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)(?:\/[\w./-]+)?@([0-9a-f]{40})\s*#\s*(v\S+)/g)) {
      const [, action, sha, version] = m
      const pin = pins.get(`${action}@${sha}`) ?? { action, version, sha, files: [] }
      if (!pin.files.includes(file)) pin.files.push(file)
      pins.set(`${action}@${sha}`, pin)
    }
  }
  return [...pins.values()].sort((a, b) => a.action.localeCompare(b.action) || a.version.localeCompare(b.version))
}

/** The project's workflows, as pinsOf reads them. */
export function projectWorkflows(root = ROOT): Array<{ file: string; text: string }> {
  const dir = `${root}.github/workflows/`
  return readdirSync(dir)
    .filter(f => /\.ya?ml$/.test(f))
    .sort()
    .map(f => ({ file: f, text: readFileSync(`${dir}${f}`, 'utf8') }))
}

/** docs/releasing.md with a fresh table of the pinned actions. */
export async function renderReleasing(doc: string, workflows = projectWorkflows()): Promise<string> {
  const table = [
    '| Action | Version | Commit | Used in |',
    '| --- | --- | --- | --- |',
    ...pinsOf(workflows).map(p => `| \`${p.action}\` | ${p.version} | \`${p.sha}\` | ${p.files.join(', ')} |`)
  ].join('\n')
  return formatted('docs/releasing.md', fill(doc, { pins: table }, 'docs/releasing.md'))
}

/** Where the command's help finds each input (src/cli/help-table.ts), written from action.yml. */
export const HELP_TABLE = 'src/cli/help-table.ts'

/**
 * The command's --help table: each input of action.yml with its description,
 * whether it is required and its default, so that `monitoring-ci --help`
 * reads the table that writes the inputs reference (one table, never a second list).
 */
export async function helpTable(actionYml: string): Promise<string> {
  const action = parse(actionYml) as ActionYml
  const rows = Object.entries(action.inputs).map(([name, i]) => ({
    name,
    description: i.description.replace(/\s+/g, ' ').trim(),
    ...(i.required ? { required: true } : {}),
    ...(i.default !== undefined ? { default: String(i.default) } : {})
  }))
  const text = [
    '// Generated by npm run docs from action.yml: every input, for monitoring-ci --help. Do not edit.',
    '',
    'export interface HelpRow {',
    '  name: string',
    '  description: string',
    '  required?: true',
    '  default?: string',
    '}',
    '',
    `export const HELP_ROWS: readonly HelpRow[] = ${JSON.stringify(rows)}`,
    ''
  ].join('\n')
  return prettier.format(text, {
    ...(await prettier.resolveConfig(`${ROOT}${HELP_TABLE}`)),
    filepath: `${ROOT}${HELP_TABLE}`
  })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const actionYml = readFileSync(`${ROOT}action.yml`, 'utf8')
  const files: Array<[string, string]> = [
    [HELP_TABLE, await helpTable(actionYml)],
    ['README.md', await renderFormatted(readFileSync(`${ROOT}README.md`, 'utf8'), actionYml)],
    ...(await Promise.all(
      (['inputs', 'outputs', 'operations'] as const).map(async which => {
        const file = `docs/reference/${which}.md`
        return [file, await renderReference(which, readFileSync(`${ROOT}${file}`, 'utf8'), actionYml)] as [
          string,
          string
        ]
      })
    )),
    [SCHEMA_PATH, await schemaText(ROOT)],
    ['docs/releasing.md', await renderReleasing(readFileSync(`${ROOT}docs/releasing.md`, 'utf8'))]
  ]
  if (process.argv.includes('--check')) {
    const stale = files.filter(
      ([file, text]) => !existsSync(`${ROOT}${file}`) || readFileSync(`${ROOT}${file}`, 'utf8') !== text
    )
    for (const [file] of stale) console.error(`${file} is out of date: run npm run docs`)
    if (stale.length > 0) process.exit(1)
    console.log(
      "README.md, docs/reference/, the command's help table, the checks file schema and the pins in docs/releasing.md are up to date"
    )
  } else {
    for (const [file, text] of files) writeFileSync(`${ROOT}${file}`, text)
    console.log(
      "README.md, docs/reference/ tables and the command's help table written from action.yml; the checks file schema from zod; the pins in docs/releasing.md from the workflows"
    )
  }
}
