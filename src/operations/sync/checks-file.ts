/**
 * The checks file of sync-checks, parsed into validated check specs (its text
 * is read from disk by checks-file-read.ts), with errors that name the file,
 * the entry and its line.
 */
import type { Document } from 'yaml'
import { load } from '../../lazy/modules.cjs'
import yaml from '../../lazy/yaml.cjs'
import { valueProblem, withoutBom, yamlDocument, yamlSyntaxError, yamlValue } from '../../parse-yaml.js'
import { CheckEntrySchema, ChecksFileSchema, specProblem } from '../../specs.js'
import { Mapping, closest, isMapping } from '../../values.js'
import { secretName } from '../../secret-positions.js'
import type { FilePlace } from '../types.js'
import { Located, Pair, entryParts, plainEntries } from './checks-file-parts.js'
import { topLevelKeys } from './checks-file-top.js'

export class ChecksFileError extends Error {
  constructor(
    message: string,
    /** Where in the repository the problem is, when known: the failure is annotated there. */
    readonly place?: FilePlace
  ) {
    super(message)
    this.name = 'ChecksFileError'
  }
}

export interface ChecksFileOptions {
  /** Where `${NAME}` is read from (the step's environment). */
  env?: NodeJS.ProcessEnv
  /** A problem worth a warning, not an error: a field name close to a known one. */
  warn?: (message: string, place: FilePlace) => void
  /** Worth seeing, not a problem: a top-level key that holds the entries' anchors, ignored. */
  notice?: (message: string) => void
  /** The file as annotations name it (relative to the repository); default: `file`. */
  annotateAs?: string
  /**
   * A value that came from a variable marked `${secret:NAME}`, or whose name
   * is a secret's (secret-positions.ts `secretName`): to be masked everywhere.
   */
  secret?: (value: string) => void
}

/** Variables of the runner and of the action itself: never readable from a checks file. */
const OFF_LIMITS = /^(ACTIONS_|RUNNER_|INPUT_|STATE_|GITHUB_TOKEN$)/
/** The fields of a check the action knows; the others pass through. */
const KNOWN_FIELDS = ['name', 'url', 'type', 'interval', 'alertChannels', 'status']

/** `${NAME}` (a variable), `${secret:NAME}` (a variable that is a secret), or `$${` (a literal `${`). */
const TEMPLATE = /\$\$\{|\$\{(secret:)?([A-Za-z_][A-Za-z0-9_]*)\}/g

/** The known field a name is a slip of (within two edits, case aside), if any. */
export function suggestField(name: string): string | undefined {
  return KNOWN_FIELDS.includes(name) ? undefined : closest(name, KNOWN_FIELDS, 1, 2)[0]
}

/**
 * Parse and validate a checks file's text: a list of specs, or `{checks: [...]}`
 * (beside which a key may only hold anchors the entries use: checks-file-top.ts).
 * `${NAME}` in a value is read from the environment (after parsing, so a
 * variable can never add structure: a plain `${PORT}` that holds 8080 is the
 * number 8080, anything else stays text). Errors name the file and the line.
 */
export function parseChecksFile(text: string, file: string, options: ChecksFileOptions = {}): Mapping[] {
  const bare = withoutBom(text)
  return inParts(bare, file, options, false) ?? wholeFile(bare, file, options)
}

/**
 * parseChecksFile, loading the YAML parser only when the file needs it: a
 * long file written in the plainest form (as export-checks writes one) is
 * read without it, so a fleet's sync never compiles the parser.
 */
export async function parseChecksFileLoading(
  text: string,
  file: string,
  options: ChecksFileOptions = {}
): Promise<Mapping[]> {
  const plain = inParts(withoutBom(text), file, options, true)
  if (plain) return plain
  await load('yaml')
  return parseChecksFile(text, file, options)
}

const wholeFile = (text: string, file: string, options: ChecksFileOptions) =>
  parsePart(text, file, options, { line: 0, index: 0, names: new Map() }) as Mapping[]

/**
 * A long file read in parts (entryParts); undefined when it is not one, when
 * a part has a problem (the whole file's parse then names it as for any
 * file), or, with `plainOnly`, when a part needs the YAML parser.
 */
function inParts(text: string, file: string, options: ChecksFileOptions, plainOnly: boolean): Mapping[] | undefined {
  const parts = entryParts(text)
  if (!parts) return undefined
  // Warnings and secrets are told once the whole file is read: a problem is told by the whole file's parse.
  const told: Array<() => void> = []
  const quiet: ChecksFileOptions = {
    ...options,
    warn: (message, place) => told.push(() => options.warn?.(message, place)),
    secret: value => told.push(() => options.secret?.(value))
  }
  const names = new Map<string, number>()
  const specs: Mapping[] = []
  try {
    for (const part of parts) {
      const read = parsePart(part.text, file, quiet, { ...part, names, parts: true, plainOnly })
      if (read === undefined) return undefined
      for (const spec of read) specs.push(spec)
    }
  } catch {
    return undefined
  }
  for (const tell of told) tell()
  return specs
}

/**
 * Parse one checks file, or one part of a long one: `at` says where the part
 * begins (lines and entries before it) and holds the names of the entries so far.
 */
function parsePart(
  text: string,
  file: string,
  options: ChecksFileOptions,
  at: { line: number; index: number; names: Map<string, number>; parts?: boolean; plainOnly?: boolean }
): Mapping[] | undefined {
  const plain = at.parts ? plainEntries(text, at.line) : undefined
  if (plain) return checkEntries(plain.list, plain.items, node => node?.line, file, options, at)
  if (at.plainOnly) return undefined
  const lineCounter = new yaml.LineCounter()
  const doc = yamlDocument(text, lineCounter)
  const lineOf = (node: Located | undefined) =>
    node?.range ? lineCounter.linePos(node.range[0]).line + at.line : undefined
  const placeOf = (line: number | undefined): FilePlace => ({ file: options.annotateAs ?? file, line })
  const fail = (message: string, line?: number): never => {
    throw new ChecksFileError(`checks-file ${file}: ${message}`, placeOf(line))
  }
  if (doc.errors.length > 0) {
    const { line, message } = yamlSyntaxError(doc.errors, lineCounter, text)
    fail(`not valid YAML or JSON (line ${line}): ${message}`, line)
  }
  // Every unset variable is named at once (as written, with its lines), not one per run.
  const unset = new Map<string, number[]>()
  fillTemplates(doc, (name, node, marked) => {
    if (OFF_LIMITS.test(name)) {
      fail(
        `line ${lineOf(node)}: \${${name}} is a variable of the runner or of the action; a checks file cannot read it`,
        lineOf(node)
      )
    }
    const value = options.env?.[name]
    if (value === undefined) {
      const written = marked ? `\${secret:${name}}` : `\${${name}}`
      unset.set(written, [...(unset.get(written) ?? []), lineOf(node) ?? 0])
      return ''
    }
    if (marked || secretName(name)) options.secret?.(value as string)
    return value as string
  })
  if (unset.size > 0) failUnset(unset, fail)
  // After the variables: one may hold a number JSON cannot carry (1e999).
  const problem = valueProblem(doc, lineCounter)
  if (problem) fail(`line ${problem.line + at.line}: ${problem.message}`, problem.line + at.line)
  let seq: unknown = doc.contents
  if (yaml.isMap(seq)) {
    const { holders, stray } = topLevelKeys(doc, seq)
    if (stray) {
      const meant = stray.meantChecks ? ' (did you mean "checks"?)' : ''
      fail(
        `line ${lineOf(stray.key)}: the top-level key ${JSON.stringify(stray.name)} is not one a checks file has${meant}: beside "checks", the top level holds only anchors the entries use (defaults: &defaults {...}, merged into an entry with <<: *defaults)`,
        lineOf(stray.key)
      )
    }
    for (const { key, name, anchors } of holders) {
      options.notice?.(
        `checks-file ${file}: line ${lineOf(key)}: the top-level key ${JSON.stringify(name)} holds anchors the entries use (${anchors.map(a => `&${a}`).join(', ')}); it is not a check, and is otherwise ignored`
      )
    }
    seq = seq.get('checks', true)
  }
  const items = yaml.isSeq(seq) ? (seq.items as Array<Located & { items?: Pair[] }>) : []
  const shape = ChecksFileSchema.safeParse(yamlValue(doc))
  if (!shape.success) fail(shape.error.issues[0].message, lineOf(doc.contents as Located))
  return checkEntries(shape.data as unknown[], items, lineOf, file, options, at)
}

/** Each entry checked: a mapping, the fields a check needs, a name of its own; slips of field names warned about. */
function checkEntries(
  list: unknown[],
  items: Array<Located & { items?: Pair[] }>,
  lineOf: (node: Located | undefined) => number | undefined,
  file: string,
  options: ChecksFileOptions,
  at: { index: number; names: Map<string, number> }
): Mapping[] {
  const placeOf = (line: number | undefined): FilePlace => ({ file: options.annotateAs ?? file, line })
  const fail = (message: string, line?: number): never => {
    throw new ChecksFileError(`checks-file ${file}: ${message}`, placeOf(line))
  }
  const names = at.names
  return list.map((entry, i) => {
    const node = items[i]
    const line = lineOf(node)
    const where = `entry ${at.index + i + 1}${line !== undefined ? ` (line ${line})` : ''}`
    if (!isMapping(entry)) fail(`${where} must be a mapping of check fields`, line)
    const spec = entry as Mapping
    const named = typeof spec.name === 'string' && spec.name.trim() !== '' ? ` (${JSON.stringify(spec.name)})` : ''
    const fieldLine = (field: unknown) => lineOf(node?.items?.find(pair => pair.key?.value === field)?.key) ?? line
    const problem = specProblem(CheckEntrySchema, spec)
    if (problem?.startsWith('needs a ')) {
      // A required field written otherwise (`URL`, `ur`, `Name`) is the likely cause: name it, at its line.
      const wanted = problem.slice('needs a '.length)
      const slip = Object.keys(spec).find(key => suggestField(key) === wanted)
      fail(
        `${where}${named} ${problem}${slip === undefined ? '' : `: it has ${JSON.stringify(slip)} (did you mean ${JSON.stringify(wanted)}?)`}`,
        slip === undefined ? line : fieldLine(slip)
      )
    }
    if (problem) fail(`${where}${named}: ${problem}`, fieldLine(problem.split(' ')[0].split('.')[0]))
    const earlier = names.get(spec.name as string)
    if (earlier !== undefined)
      fail(`${where}: the name ${JSON.stringify(spec.name)} is also used by entry ${earlier}`, line)
    names.set(spec.name as string, at.index + i + 1)
    for (const key of Object.keys(spec)) {
      const suggestion = suggestField(key)
      if (suggestion) {
        const said = JSON.stringify(key)
        options.warn?.(
          suggestion in spec
            ? `checks-file ${file}: ${where}${named} has both ${JSON.stringify(suggestion)} and ${said}: ${said} is sent as written, as a field of its own (fields the action does not know pass through).`
            : `checks-file ${file}: ${where}${named} has the field ${said}: did you mean ${JSON.stringify(suggestion)}? It is sent as written (fields the action does not know pass through).`,
          placeOf(fieldLine(key))
        )
      }
    }
    return spec
  })
}

/** The most unset variables one message names; the rest are counted. */
const MAX_UNSET_NAMED = 20

/** Unset variables (as written, with their lines): one error naming them all, at the first one's line. */
function failUnset(unset: Map<string, number[]>, fail: (message: string, line?: number) => never): never {
  const literal = '(write $${ for a literal ${)'
  const each = [...unset].map(([written, at]) => ({ written, lines: [...new Set(at)] }))
  const first = each[0].lines[0]
  if (each.length === 1) {
    const { written, lines } = each[0]
    const name = written.replace(/^\$\{(secret:)?|\}$/g, '')
    const where = `line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`
    return fail(`${where}: ${written} names the environment variable ${name}, which is not set ${literal}`, first)
  }
  const named = each
    .slice(0, MAX_UNSET_NAMED)
    .map(v => `${v.written} (line${v.lines.length > 1 ? 's' : ''} ${v.lines.join(', ')})`)
  const list =
    each.length > MAX_UNSET_NAMED
      ? `${named.join(', ')} and ${each.length - MAX_UNSET_NAMED} more`
      : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`
  return fail(
    `${list} name ${each.length} environment variables that are not set; set each in the step's env: (a secret as NAME: \${{ secrets.NAME }}) ${literal}`,
    first
  )
}

/**
 * Replace `${NAME}` in every value of the document (never in keys) with
 * `valueOf(NAME)` (`${secret:NAME}` tells it the value is a secret); `$${` is a literal `${`.
 */
function fillTemplates(doc: Document, valueOf: (name: string, node: Located, marked: boolean) => string): void {
  yaml.visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return
      const filled = node.value.replace(
        TEMPLATE,
        (_match: string, marked: string | undefined, name: string | undefined) => {
          return name === undefined ? '${' : valueOf(name, node as Located, marked !== undefined)
        }
      )
      node.value = node.type === 'PLAIN' ? scalarOf(filled) : filled
    }
  })
}

/** A plain value as YAML would read it, when that is a number or a boolean; else the text. */
function scalarOf(text: string): unknown {
  if (/^[-+]?(\d+|\d*\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) return Number(text)
  if (/^(true|True|TRUE|false|False|FALSE)$/.test(text.trim())) return /^t/i.test(text.trim())
  return text
}
