/**
 * The entries of a checks file, however they were read (the YAML document, a
 * part read line by line, JSON): each checked the same way, with errors and
 * warnings that name the file, the entry and its line.
 */
import { CheckEntrySchema, specProblem } from '../../run/specs.js'
import { Mapping, closest, isMapping } from '../../values/values.js'
import type { FilePlace } from '../types.js'

export class ChecksFileError extends Error {
  constructor(
    message: string,
    /** Where in the repository the problem is, when known: the failure is annotated there. */
    readonly place?: FilePlace,
    /** The system's code when the file could not be opened (ENOENT: none there; the failure's hint says where to look). */
    readonly code?: string
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

/** The fields of a check the action knows; the others pass through. */
const KNOWN_FIELDS = ['name', 'url', 'type', 'interval', 'alertChannels', 'status']

/** The known field a name is a slip of (within two edits, case aside), if any. */
export function suggestField(name: string): string | undefined {
  return KNOWN_FIELDS.includes(name) ? undefined : closest(name, KNOWN_FIELDS, 1, 2)[0]
}

/** Where each entry of a part and each of its fields stand, as far as its reader knows (JSON.parse knows none). */
export interface EntryLines {
  entry(index: number): number | undefined
  /** The line of a field the entry writes itself. */
  field(index: number, key: string): number | undefined
  /**
   * A field the entry takes from elsewhere in the file (a merge key, or an
   * entry written as an alias): the line it is written at, and the anchor
   * of the mapping that holds it, when that mapping has one.
   */
  taken?(index: number, key: string): { line: number | undefined; anchor?: string } | undefined
}
export const NO_LINES: EntryLines = { entry: () => undefined, field: () => undefined }

/** Each entry checked: a mapping, the fields a check needs, a name of its own; slips of field names warned about. */
export function checkEntries(
  list: unknown[],
  lines: EntryLines,
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
    const line = lines.entry(i)
    const where = `entry ${at.index + i + 1}${line !== undefined ? ` (line ${line})` : ''}`
    if (!isMapping(entry)) fail(`${where} must be a mapping of check fields`, line)
    const spec = entry as Mapping
    const named = typeof spec.name === 'string' && spec.name.trim() !== '' ? ` (${JSON.stringify(spec.name)})` : ''
    // A field taken from an anchor is named at the anchor's line, and said to come from there.
    const fieldAt = (field: string): { line: number | undefined; from: string } => {
      const taken = lines.taken?.(i, field)
      if (taken === undefined) return { line: lines.field(i, field) ?? line, from: '' }
      const from = taken.anchor === undefined ? 'merged' : `from &${taken.anchor}`
      return { line: taken.line ?? line, from: ` (${from} at line ${taken.line})` }
    }
    const problem = specProblem(CheckEntrySchema, spec)
    if (problem?.startsWith('needs a ')) {
      // A required field written otherwise (`URL`, `ur`, `Name`) is the likely cause: name it, at its line.
      const wanted = problem.slice('needs a '.length)
      const slip = Object.keys(spec).find(key => suggestField(key) === wanted)
      const at = slip === undefined ? { line, from: '' } : fieldAt(slip)
      const has = slip === undefined ? '' : `: it has ${JSON.stringify(slip)} (did you mean ${JSON.stringify(wanted)}?)`
      fail(`${where}${named} ${problem}${has}${at.from}`, at.line)
    }
    if (problem) {
      const at = fieldAt(problem.split(' ')[0].split('.')[0])
      fail(`${where}${named}: ${problem}${at.from}`, at.line)
    }
    const earlier = names.get(spec.name as string)
    if (earlier !== undefined)
      fail(`${where}: the name ${JSON.stringify(spec.name)} is also used by entry ${earlier}`, line)
    names.set(spec.name as string, at.index + i + 1)
    for (const key of Object.keys(spec)) {
      const suggestion = suggestField(key)
      if (suggestion) {
        const said = JSON.stringify(key)
        const at = fieldAt(key)
        options.warn?.(
          suggestion in spec
            ? `checks-file ${file}: ${where}${named} has both ${JSON.stringify(suggestion)} and ${said}${at.from}: ${said} is sent as written, as a field of its own (fields the action does not know pass through).`
            : `checks-file ${file}: ${where}${named} has the field ${said}${at.from}: did you mean ${JSON.stringify(suggestion)}? It is sent as written (fields the action does not know pass through).`,
          placeOf(at.line)
        )
      }
    }
    return spec
  })
}
