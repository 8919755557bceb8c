/**
 * A long checks file read in parts: a fleet's file (export-checks writes
 * 10,000 entries and more) is cut between entries, and each part is read on
 * its own, so that the YAML document of the whole file is never held at once;
 * entries in the plainest form are read line by line, without building one.
 * What these cannot read as certainly the same as YAML goes to the YAML
 * parser (checks-file.ts), which also gives every error.
 */
import type { Mapping } from '../../values.js'

export interface Located {
  range?: [number, number, number] | null
  /** The line, when the entry was read line by line (plainEntries). */
  line?: number
}
export interface Pair {
  key: Located & { value?: unknown }
}

/** Entries per part of a long file (see entryParts). */
const PART_ENTRIES = 200

/**
 * A long checks file that is a plain top-level list (every line at column 0
 * an entry's `-`, a comment or blank; no alias), cut into parts of
 * PART_ENTRIES entries, each parsed on its own: the YAML document of a fleet
 * of 50,000 is never held whole. Any problem in a part (a cut that was not
 * between entries makes one) sends the whole file through one parse.
 */
export function entryParts(text: string): Array<{ text: string; line: number; index: number }> | undefined {
  if (text.includes('*') || /^(?![ \t]|#|-(?:[ \t\r]|$)|\r?$)/m.test(text)) return undefined
  const starts: number[] = []
  for (const match of text.matchAll(/^-(?=[ \t\r]|$)/gm)) starts.push(match.index)
  if (starts.length <= PART_ENTRIES) return undefined
  const parts: Array<{ text: string; line: number; index: number }> = []
  let line = 0
  let from = 0
  for (let index = 0; index < starts.length; index += PART_ENTRIES) {
    const to = index + PART_ENTRIES < starts.length ? starts[index + PART_ENTRIES] : text.length
    const part = text.slice(from, to)
    parts.push({ text: part, line, index })
    for (let at = part.indexOf('\n'); at >= 0; at = part.indexOf('\n', at + 1)) line++
    from = to
  }
  return parts
}

/** A key, and a value, that read the same in any YAML: a word; a whole number; text that starts with a letter. */
const PLAIN_KEY = /^([A-Za-z][A-Za-z0-9_]*): (.*)$/
const PLAIN_NUMBER = /^(0|[1-9][0-9]{0,14})$/
const PLAIN_TEXT = /^[A-Za-z][A-Za-z0-9_./:?=&%+,@~-]*$/
/** Words the core schema reads as booleans or null. */
const NOT_TEXT = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL'])

/**
 * The entries of a part written in the plainest form, as export-checks and
 * most hands write them (`- name: x` then `  url: y` lines, values words,
 * whole numbers or text starting with a letter, no spaces; blank and `#`
 * lines), read line by line; anything else (quotes, lists, templates,
 * comments after a value, a repeated field): undefined, and the YAML parser reads it.
 */
export function plainEntries(
  text: string,
  firstLine: number
): { list: Mapping[]; items: Array<{ line: number; items: Pair[] }> } | undefined {
  if (text.includes('\r')) return undefined
  const list: Mapping[] = []
  const items: Array<{ line: number; items: Pair[] }> = []
  const lines = text.split('\n')
  for (const [i, raw] of lines.entries()) {
    if (raw === '' || raw.startsWith('#')) continue
    const line = firstLine + i + 1
    const starts = raw.startsWith('- ')
    if (!starts && !(raw.startsWith('  ') && list.length > 0)) return undefined
    if (starts) {
      list.push({})
      items.push({ line, items: [] })
    }
    const field = PLAIN_KEY.exec(raw.slice(2))
    const entry = list[list.length - 1]
    if (!field || field[1] in entry) return undefined
    const [, key, value] = field
    if (PLAIN_NUMBER.test(value)) entry[key] = Number(value)
    else if (PLAIN_TEXT.test(value) && !value.endsWith(':') && !NOT_TEXT.has(value)) entry[key] = value
    else return undefined
    items[items.length - 1].items.push({ key: { value: key, line } })
  }
  return list.length > 0 ? { list, items } : undefined
}
