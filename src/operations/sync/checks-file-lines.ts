/**
 * The entries of a part of a checks file (checks-file-parts.ts) read line by
 * line, without the YAML parser, in the forms people and export-checks write:
 * `- key: value` then `  key: value` lines; a value plain, double- or
 * single-quoted on its line, a whole number, a `[a, "b"]` list on its line, or
 * a list of such values as `- value` lines under its key; comments and blank
 * lines anywhere. Each form is read here exactly as YAML (the 1.2 core schema)
 * reads it; anything else (an anchor, a tag, a block scalar, a nested mapping,
 * a tab, a repeated key, a value YAML would read otherwise) gives undefined,
 * and the YAML parser reads the part.
 */
import type { Mapping } from '../../values/values.js'
import type { EntryLines } from './checks-file-entries.js'

/** A value's text with its templates filled (checks-file-templates.ts filledValue; `plain`: not quoted). */
export type Fill = (text: string, plain: boolean) => unknown

/** The entries read, and the line of each entry and of each of its keys (in the entry's order). */
export interface LineEntries extends EntryLines {
  list: Mapping[]
}

/** Characters YAML does not take as they are (controls, tabs, a byte-order mark, line separators): left to it. */
const UNREAD = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|\t|\r(?!\n)/

/** `key: value` or `key:` (a list follows): a word; YAML's implicit keys are at most 1024 characters. */
const KEY = /^([A-Za-z][A-Za-z0-9_-]{0,200}):(?: +(.*))?$/
/** A whole number every YAML schema reads the same (no sign, no leading 0, exact as a double). */
const NUMBER = /^(0|[1-9][0-9]{0,14})$/
/** The first character of a plain value that is text in YAML's core schema (never a number, null or an indicator). */
const PLAIN_FIRST = /^[A-Za-z$/\u00a0-\uffff]/
/** Words the core schema reads as booleans or null. */
const NOT_TEXT = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL'])

/** Without the blanks at the start, or at the end: YAML's blanks are spaces here (never Unicode's others). */
const afterBlanks = (text: string) => text.replace(/^ +/, '')
const beforeBlanks = (text: string) => text.replace(/ +$/, '')

/** A scalar read from the start of a text: its value and what follows it. */
interface Read {
  value: unknown
  rest: string
}

/**
 * A plain scalar that ends at `end` (in a list on one line: at `,` or `]`;
 * elsewhere at a comment or the line's end): text, a whole number, or undefined.
 */
function plain(text: string, inList: boolean, fill: Fill): Read | undefined {
  const end = inList ? text.search(/[,\]]/) : text.search(/ #|$/)
  const raw = text.slice(0, end < 0 ? text.length : end)
  const value = beforeBlanks(afterBlanks(raw))
  if (NUMBER.test(value)) return { value: Number(value), rest: text.slice(raw.length) }
  if (!PLAIN_FIRST.test(value) || NOT_TEXT.has(value) || value.includes(': ') || value.endsWith(':')) return undefined
  // In a list, `[`, `]`, `{`, `}` end or open a collection, ` #` a comment, and `: ` or `:` before one of those a pair.
  if (inList && /[[\]{}]| #|:(?=[ ,[\]{}]|$)/.test(value)) return undefined
  return { value: fill(value, true), rest: text.slice(raw.length) }
}

/** A double- or single-quoted scalar closed on its line, or undefined. */
function quoted(text: string, fill: Fill): Read | undefined {
  const quote = text[0]
  for (let at = 1; at < text.length; at++) {
    if (quote === '"' && text[at] === '\\') at++
    else if (text[at] === quote && quote === "'" && text[at + 1] === "'") at++
    else if (text[at] === quote) {
      const inner = text.slice(1, at)
      let value: string
      if (quote === "'") value = inner.replaceAll("''", "'")
      else if (!inner.includes('\\')) value = inner
      else {
        // JSON's escapes are YAML's, with the same meaning; YAML's others are left to it.
        try {
          value = JSON.parse(`"${inner}"`) as string
        } catch {
          return undefined
        }
      }
      return { value: fill(value, false), rest: text.slice(at + 1) }
    }
  }
  return undefined
}

/** One scalar at the start of `text`. */
const scalar = (text: string, inList: boolean, fill: Fill): Read | undefined =>
  text[0] === '"' || text[0] === "'" ? quoted(text, fill) : plain(text, inList, fill)

/** What may follow a value on its line: nothing, or a comment after a blank. */
const ends = (rest: string) => rest === '' || /^ +(#.*)?$/.test(rest)

/** A `[a, "b"]` list closed on its line (no empty item), or undefined. */
function flowList(text: string, fill: Fill): Read | undefined {
  const values: unknown[] = []
  let rest = afterBlanks(text.slice(1))
  if (rest.startsWith(']')) return { value: values, rest: rest.slice(1) }
  for (;;) {
    const item = scalar(rest, true, fill)
    if (!item) return undefined
    values.push(item.value)
    rest = afterBlanks(item.rest)
    // A copy of its own length: a list grown by push keeps room for more (a fleet keeps thousands).
    if (rest.startsWith(']')) return { value: values.slice(), rest: rest.slice(1) }
    if (!rest.startsWith(',')) return undefined
    rest = afterBlanks(rest.slice(1))
  }
}

/** A value on its line (a list in `[...]` or a scalar), with nothing after it but a comment; else undefined. */
function lineValue(text: string, fill: Fill): { value: unknown } | undefined {
  const read = text[0] === '[' ? flowList(text, fill) : scalar(text, false, fill)
  return read && ends(read.rest) ? { value: read.value } : undefined
}

/**
 * One string for equal short texts (keys, and values such as `http` and
 * `email`), as JSON.parse gives them: a fleet's entries then hold one copy of
 * each, not one each. The first few dozen are remembered (a name is seen
 * once: remembering every one would only hold them longer).
 */
function sharedStrings(): (text: string) => string {
  const shared = new Map<string, string>()
  return text => {
    if (text.length > 16) return text
    const known = shared.get(text)
    if (known !== undefined) return known
    if (shared.size < 64) shared.set(text, text)
    return text
  }
}

/**
 * The entries of `text` (a part whose entries' `-` stand at column
 * `indent`; `firstLine` lines before it), read line by line; undefined when
 * a line is not in a form read here.
 */
export function lineEntries(text: string, firstLine: number, indent: number, given: Fill): LineEntries | undefined {
  if (UNREAD.test(text)) return undefined
  const shared = sharedStrings()
  const fill: Fill = (written, plain) => {
    const value = given(written, plain)
    return typeof value === 'string' ? shared(value) : value
  }
  const list: Mapping[] = []
  // Numbers, not an object a key: a fleet's part holds a thousand keys, and only a warning asks for one.
  const entryLines: number[] = []
  const keyLines: number[][] = []
  let keyColumn = -1
  // A key whose value is the list of `- value` lines under it: its items so far, their column.
  let open: { key: string; values: unknown[]; column: number } | undefined
  const close = () => {
    if (open && open.values.length === 0) return false
    if (open) list[list.length - 1][open.key] = open.values.slice()
    open = undefined
    return true
  }
  // Line by line without splitting the part: only the line at hand is held (a fleet's parts are many).
  for (let at = 0, i = 0; at < text.length; at = text.indexOf('\n', at) + 1 || text.length, i++) {
    const end = text.indexOf('\n', at)
    const raw = text.slice(at, end < 0 ? text.length : text[end - 1] === '\r' ? end - 1 : end)
    const line = beforeBlanks(raw)
    const column = line.length - afterBlanks(line).length
    if (line === '' || line[column] === '#') continue
    const dash = line.startsWith('- ', column)
    if (open && dash && column >= keyColumn && (open.column < 0 || column === open.column)) {
      const item = lineValue(afterBlanks(line.slice(column + 2)), fill)
      if (!item || Array.isArray(item.value)) return undefined
      open.column = column
      open.values.push(item.value)
      continue
    }
    if (!close()) return undefined
    let rest: string
    if (column === indent && dash) {
      rest = afterBlanks(line.slice(column + 2))
      keyColumn = line.length - rest.length
      list.push({})
      entryLines.push(firstLine + i + 1)
      keyLines.push([])
    } else if (column === keyColumn && list.length > 0) {
      rest = line.slice(column)
    } else return undefined
    const field = KEY.exec(rest)
    const entry = list[list.length - 1]
    // A key YAML reads as a boolean or null is not the text written (`True` is "true", `null` is "").
    if (!field || NOT_TEXT.has(field[1]) || Object.hasOwn(entry, field[1])) return undefined
    const key = shared(field[1])
    const written = field[2]
    keyLines[keyLines.length - 1].push(firstLine + i + 1)
    if (written === undefined) {
      open = { key, values: [], column: -1 }
      continue
    }
    const read = lineValue(written, fill)
    if (!read) return undefined
    entry[key] = read.value
  }
  if (!close() || list.length === 0) return undefined
  return {
    list,
    entry: index => entryLines[index],
    // Keys stand in an entry in the order of their lines (a list's key is set before the next key's line is read).
    field: (index, key) => keyLines[index][Object.keys(list[index]).indexOf(key)]
  }
}
