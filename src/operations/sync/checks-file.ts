/**
 * The checks file of sync-checks, parsed into validated check specs (its text
 * is read from disk by checks-file-read.ts), with errors that name the file,
 * the entry and its line.
 */
import { load } from '../../lazy/modules.cjs'
import yaml from '../../lazy/yaml.cjs'
import {
  aliasTargets,
  keyWritten,
  valueProblem,
  withoutBom,
  yamlDocument,
  yamlSyntaxError,
  yamlValue
} from '../../values/parse-yaml.js'
import { ChecksFileSchema } from '../../run/specs.js'
import { Mapping, isMapping } from '../../values/values.js'
import { secretName } from '../../secrets/secret-positions.js'
import type { FilePlace } from '../types.js'
import {
  ChecksFileError,
  ChecksFileOptions,
  EntryLines,
  NO_LINES,
  checkEntries,
  suggestField
} from './checks-file-entries.js'
import { jsonValue } from './checks-file-json.js'
import { Fill, lineEntries } from './checks-file-lines.js'
import { Located, Part, entryParts } from './checks-file-parts.js'
import { OFF_LIMITS, ValueOf, failUnset, fillTemplates, filledValue } from './checks-file-templates.js'
import { topLevelKeys } from './checks-file-top.js'

export { ChecksFileError, type ChecksFileOptions, suggestField } from './checks-file-entries.js'

/**
 * Parse and validate a checks file's text: a list of specs, or `{checks: [...]}`
 * (beside which a key may only hold anchors the entries use: checks-file-top.ts).
 * `${NAME}` in a value is read from the environment (after parsing, so a
 * variable can never add structure: a plain `${PORT}` that holds 8080 is the
 * number 8080, anything else stays text). Errors name the file and the line.
 */
export function parseChecksFile(text: string, file: string, options: ChecksFileOptions = {}): Mapping[] {
  const bare = withoutBom(text)
  return withoutDocument(bare, file, options, parsePart) ?? parsePart(bare, file, options, wholeFile())
}

/** Where a file's entries go as they are checked: a list, or one that keeps them packed (plan.ts `PackedSpecs`). */
export interface SpecList {
  push(spec: Mapping): unknown
}

/**
 * parseChecksFile, loading the YAML parser only when the file needs it: a
 * file read whole by JSON.parse or line by line (as export-checks and most
 * hands write one) is read without it, so such a sync never compiles the parser.
 * The entries go into a list `into` makes (a new one for each way the file is
 * read), a part at a time when the file is read in parts.
 */
export async function parseChecksFileLoading<L extends SpecList = Mapping[]>(
  text: string,
  file: string,
  options: ChecksFileOptions = {},
  into: () => L = () => [] as unknown as L
): Promise<L> {
  const read = withoutDocument(withoutBom(text), file, options, undefined, into)
  if (read) return read
  await load('yaml')
  return pushed(into(), parseChecksFile(text, file, options))
}

/** `list` with `specs` pushed into it. */
function pushed<L extends SpecList>(list: L, specs: Mapping[]): L {
  for (const spec of specs) list.push(spec)
  return list
}

/** Where a part begins (lines and entries before it), and the names of the entries so far. */
interface At {
  line: number
  index: number
  names: Map<string, number>
}
const wholeFile = (): At => ({ line: 0, index: 0, names: new Map() })

/** Reads a part with the YAML parser (parsePart). */
type PartParser = (text: string, file: string, options: ChecksFileOptions, at: Part & At) => Mapping[]

/**
 * The file read without the YAML document of the whole of it: JSON by
 * JSON.parse (checks-file-json.ts), else in parts (checks-file-parts.ts), each
 * read line by line (checks-file-lines.ts) or, when `yamlPart` is given, by
 * the YAML parser. Undefined when the file cannot be read so, or has any
 * problem: the whole file's parse then names it, at its line, as for any
 * file. Warnings and secrets are told only once the whole file is read.
 */
function withoutDocument<L extends SpecList = Mapping[]>(
  text: string,
  file: string,
  options: ChecksFileOptions,
  yamlPart?: PartParser,
  into: () => L = () => [] as unknown as L
): L | undefined {
  const told: Array<() => void> = []
  const quiet: ChecksFileOptions = {
    ...options,
    warn: (message, place) => told.push(() => options.warn?.(message, place)),
    secret: value => told.push(() => options.secret?.(value))
  }
  let specs: L | undefined
  try {
    const json = jsonFile(text, file, quiet)
    specs = json ? pushed(into(), json) : inParts(text, file, quiet, yamlPart, into)
  } catch {
    return undefined
  }
  // A part the lines cannot read: the whole file is read again (by the YAML parser), which tells its own.
  if (specs === undefined) return undefined
  for (const tell of told) tell()
  return specs
}

/** The parts of a file (entryParts), each read line by line, else by `yamlPart`; undefined when one cannot be. */
function inParts<L extends SpecList>(
  text: string,
  file: string,
  options: ChecksFileOptions,
  yamlPart: PartParser | undefined,
  into: () => L
): L | undefined {
  const cut = entryParts(text)
  if (!cut) return undefined
  const names = new Map<string, number>()
  const specs = into()
  for (const part of cut.parts) {
    const at = { ...part, names }
    const lines = secretsKept(options, fill => lineEntries(part.text, part.line, cut.indent, fill))
    const read = lines ? checkEntries(lines.list, lines, file, options, at) : yamlPart?.(part.text, file, options, at)
    if (read === undefined) return undefined
    for (const spec of read) specs.push(spec)
  }
  return specs
}

/**
 * A file written as JSON, read by JSON.parse (jsonValue). It keeps no lines,
 * so a file with something to say at a line (a field name that is a slip of
 * a known one) is left to the YAML parser, as is a mapping with other keys
 * than `checks`.
 */
function jsonFile(text: string, file: string, options: ChecksFileOptions): Mapping[] | undefined {
  return secretsKept(options, fill => {
    const value = jsonValue(text, fill)
    if (value === undefined || (isMapping(value) && Object.keys(value).some(key => key !== 'checks'))) return undefined
    const shape = ChecksFileSchema.safeParse(value)
    if (!shape.success) return undefined
    const list = shape.data as unknown[]
    const slips = (entry: unknown) =>
      isMapping(entry) && Object.keys(entry).some(key => suggestField(key) !== undefined)
    return list.some(slips) ? undefined : checkEntries(list, NO_LINES, file, options, wholeFile())
  })
}

/**
 * `read` (a reader without the YAML parser) given how to fill a value's
 * templates: a variable unset or off limits, or a number JSON cannot carry,
 * is a problem the whole file's parse names at its line, so here it ends the
 * reading (a throw). The secrets it met are handed to `options.secret` only
 * when it read the text: else the YAML parser reads it, and meets them again.
 */
function secretsKept<T>(options: ChecksFileOptions, read: (fill: Fill) => T | undefined): T | undefined {
  const secrets: string[] = []
  const collecting: ChecksFileOptions = { ...options, secret: secret => void secrets.push(secret) }
  const valueOf: ValueOf = (name, marked) => {
    const value = variable(name, marked, collecting)
    if (typeof value !== 'string') throw new Error(`\${${name}} is ${value.refused}: read by the whole file's parse`)
    return value
  }
  const result = read((text, plain) => {
    const value = filledValue(text, plain, valueOf)
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new Error(`${value}: read by the whole file's parse`)
    return value
  })
  if (result !== undefined) for (const secret of secrets) options.secret?.(secret)
  return result
}

/**
 * What `${NAME}` stands for (`marked`: written `${secret:NAME}`): the
 * variable's value, handed to `options.secret` when marked or named as a
 * secret (secret-positions.ts); refused when it is the runner's or the
 * action's own, or unset.
 */
function variable(
  name: string,
  marked: boolean,
  options: ChecksFileOptions
): string | { refused: 'off limits' | 'unset' } {
  if (OFF_LIMITS.test(name)) return { refused: 'off limits' }
  const value = options.env?.[name]
  if (value === undefined) return { refused: 'unset' }
  if (marked || secretName(name)) options.secret?.(value)
  return value
}

/**
 * Parse one checks file, or one part of a long one, with the YAML parser:
 * `at` says where the part begins (lines and entries before it) and holds
 * the names of the entries so far.
 */
function parsePart(text: string, file: string, options: ChecksFileOptions, at: At): Mapping[] {
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
    const value = variable(name, marked, options)
    if (typeof value === 'string') return value
    if (value.refused === 'off limits') {
      fail(
        `line ${lineOf(node)}: \${${name}} is a variable of the runner or of the action; a checks file cannot read it`,
        lineOf(node)
      )
    }
    const written = marked ? `\${secret:${name}}` : `\${${name}}`
    unset.set(written, [...(unset.get(written) ?? []), lineOf(node) ?? 0])
    return ''
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
  const items = yaml.isSeq(seq) ? (seq.items as Located[]) : []
  const shape = ChecksFileSchema.safeParse(yamlValue(doc))
  if (!shape.success) fail(shape.error.issues[0].message, lineOf(doc.contents as Located))
  let targets: ReturnType<typeof aliasTargets> | undefined
  const written = (i: number, key: string) => keyWritten(items[i], key, (targets ??= aliasTargets(doc)))
  const lines: EntryLines = {
    entry: i => lineOf(items[i]),
    field: (i, key) => {
      const place = written(i, key)
      return place?.holder === items[i] ? lineOf(place.key) : undefined
    },
    taken: (i, key) => {
      const place = written(i, key)
      return place && place.holder !== items[i] ? { line: lineOf(place.key), anchor: place.holder.anchor } : undefined
    }
  }
  return checkEntries(shape.data as unknown[], lines, file, options, at)
}
