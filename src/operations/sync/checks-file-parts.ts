/**
 * A checks file cut between its entries: a list at the top level, or the
 * list under a `checks:` key alone at the top level, each after comments.
 * Each part is read on its own (checks-file.ts), so that the YAML document of
 * a fleet's whole file is never held at once; most parts are read line by
 * line (checks-file-lines.ts) without building one.
 */

/** A node of the YAML document, where it stands. */
export interface Located {
  range?: [number, number, number] | null
}

/** A part of a checks file: its text, the lines and the entries before it. */
export interface Part {
  text: string
  line: number
  index: number
}

/**
 * Entries per part (see entryParts). Few: a part's entries and its lines' readings are held
 * until the part is checked (sync then keeps them packed: plan.ts), and a part that outlives two
 * of V8's young-generation collections is promoted. With 200, a fleet's file of 10,000 entries
 * left some 2.5 MiB promoted in its reading, against some 1 with 50 (docs/benchmark-rows.md).
 */
const PART_ENTRIES = 50

const [SPACE, TAB, CR, LF, HASH, DASH] = [' ', '\t', '\r', '\n', '#', '-'].map(c => c.charCodeAt(0))

/** The `checks:` key, alone on its line (a comment after it). */
const CHECKS_KEY = /^checks:(?:[ ]+(?:#.*)?)?\r?$/

/**
 * A checks file whose entries can be cut apart, in parts of PART_ENTRIES
 * entries: comment and blank lines, then either a list whose `-` stand at
 * column 0, or `checks:` and a list under it whose `-` all stand at one
 * column; below them only the entries' own lines (deeper), comments and
 * blank lines; no alias anywhere (an alias may name an anchor of another
 * part). `indent` is the column of the entries' `-`. Anything else:
 * undefined, and the file is read whole. A cut that is not between entries
 * shows as a problem in a part, which sends the whole file through one parse.
 */
export function entryParts(text: string): { parts: Part[]; indent: number } | undefined {
  if (text.includes('*')) return undefined
  const starts: number[] = []
  let indent = 0
  let listed = false
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf('\n', at)
    const end = newline < 0 ? text.length : newline
    let column = at
    while (text.charCodeAt(column) === SPACE) column++
    const first = column < end ? text.charCodeAt(column) : LF
    const dash = first === DASH && [SPACE, TAB, CR, LF].includes(column + 1 < end ? text.charCodeAt(column + 1) : LF)
    if (first === LF || first === CR || first === HASH) {
      // A blank line or a comment: anywhere.
    } else if (starts.length > 0) {
      // Below the first entry: another at the same column, or a line of the entry above (deeper).
      if (column - at === indent ? !dash : column - at < indent || first === TAB) return undefined
      if (column - at === indent) starts.push(at)
    } else if (!listed && column === at && CHECKS_KEY.test(text.slice(at, end))) {
      listed = true
    } else if (dash && (listed || column === at)) {
      indent = column - at
      starts.push(at)
    } else {
      return undefined
    }
    at = end + 1
  }
  if (starts.length === 0) return undefined
  const parts: Part[] = []
  let line = 0
  for (let at = text.indexOf('\n'); at >= 0 && at < starts[0]; at = text.indexOf('\n', at + 1)) line++
  for (let index = 0; index < starts.length; index += PART_ENTRIES) {
    const from = starts[index]
    const to = index + PART_ENTRIES < starts.length ? starts[index + PART_ENTRIES] : text.length
    parts.push({ text: text.slice(from, to), line, index })
    for (let at = text.indexOf('\n', from); at >= 0 && at < to; at = text.indexOf('\n', at + 1)) line++
  }
  return { parts, indent }
}
