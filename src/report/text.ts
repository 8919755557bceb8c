/**
 * Text from the server or from inputs, made safe for the two places the
 * action writes it: the job log (where a line that starts with `::` is a
 * workflow command) and the job summary (Markdown with HTML).
 */
import { markdownEscaped } from '../values/markup.js'

/** Every character the runner or a Markdown renderer treats as the end of a line. */
const LINE_BREAKS = /\r\n|[\r\n\u000b\u000c\u0085\u2028\u2029]/g

const VISIBLE: Record<string, string> = {
  '\r\n': '\\r\\n',
  '\r': '\\r',
  '\n': '\\n',
  '\u000b': '\\v',
  '\u000c': '\\f',
  '\u0085': '\\u0085',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029'
}

/** Other control characters (NUL, ESC, DEL, C1): never written as they are (ESC colours a terminal, NUL cuts text). */
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f\u0080-\u0084\u0086-\u009f]/g
const codeOf = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * One log line: line breaks inside become visible (`\n`, `\r`, `\u2028`...),
 * so a value can never start a new line; and a line that would start with
 * `::` (after the blanks the runner skips) is prefixed with a backslash, so it
 * is never read as a workflow command.
 */
export function logLine(text: string): string {
  const flat = text.replace(LINE_BREAKS, ch => VISIBLE[ch]).replace(CONTROLS, codeOf)
  return /^\s*::/.test(flat) ? `\\${flat}` : flat
}

/**
 * Text for a Markdown paragraph or table cell, shown as written: HTML is
 * escaped (`<prod>` shows as `<prod>`), Markdown punctuation is backslash-
 * escaped (`|` never splits a cell), line breaks become spaces (a lone `\r`
 * never ends a row), and what would make a block at the start (a heading, a
 * list, a rule, a code block) is escaped too.
 */
export function markdownText(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value)
  return markdownEscaped(text.replace(LINE_BREAKS, ' ').replace(CONTROLS, '\uFFFD'))
    .replace(/^\s+/, '')
    .replace(/^[#+=-]/, ch => `\\${ch}`)
    .replace(/^(\d+)([.)])/, '$1\\$2')
}

/**
 * `text` cut to at most `maxBytes` of UTF-8, at a character boundary, with
 * `…` when it was cut. Never splits a surrogate pair.
 */
export function cutToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text
  const room = maxBytes - Buffer.byteLength('…')
  if (room < 0) return ''
  let bytes = 0
  let end = 0
  for (const ch of text) {
    const size = Buffer.byteLength(ch)
    if (bytes + size > room) break
    bytes += size
    end += ch.length
  }
  return `${text.slice(0, end)}…`
}
