/**
 * The job summary: a heading, lines, tables, rendered to Markdown. Every value
 * is escaped here (operations hand over plain text), and the whole stays under
 * the runner's 1 MiB step-summary limit, counted in bytes.
 */
import type { Summary } from '../operations/types.js'
import { redact } from '../secrets.js'
import { cutToBytes, markdownText } from './text.js'

/** The runner drops a step summary over 1 MiB; stay well under it. */
export const MAX_SUMMARY_BYTES = 900 * 1024
const MAX_ROWS = 500
/** One cell or line never takes more than this. */
const MAX_CELL_BYTES = 4 * 1024
const MAX_LINE_BYTES = 16 * 1024
/** Room kept for the "not shown" notes. */
const NOTE_ROOM = 1024

/** Redact, escape and cut one value. */
function safe(value: unknown, secrets: string[], maxBytes: number): string {
  const text = redact(value === undefined || value === null ? '' : String(value), secrets)
  return cutToBytes(markdownText(text), maxBytes)
}

export function renderSummary(summary: Summary, operation: string, secrets: string[]): string {
  const parts: string[] = []
  let bytes = 0
  const budget = MAX_SUMMARY_BYTES - NOTE_ROOM
  /** Add a piece if it fits; false when the budget is spent. */
  const add = (piece: string): boolean => {
    const size = Buffer.byteLength(piece) + 1
    if (bytes + size > budget) return false
    parts.push(piece)
    bytes += size
    return true
  }
  let linesLeft = 0
  add(`### ${safe(summary.title, secrets, MAX_LINE_BYTES)}`)
  add('')
  add(`Operation: ${safe(operation, secrets, 200)}`)
  add('')
  for (const [i, line] of summary.lines.entries()) {
    if (!add(safe(line, secrets, MAX_LINE_BYTES)) || !add('')) {
      linesLeft = summary.lines.length - i
      break
    }
  }
  let rowsLeft = 0
  for (const table of summary.tables) {
    const head = table.head.map(h => safe(h, secrets, MAX_CELL_BYTES))
    if (!add(`| ${head.join(' | ')} |`) || !add(`| ${head.map(() => '---').join(' | ')} |`)) {
      rowsLeft += table.rows.length
      continue
    }
    let shown = 0
    for (const row of table.rows.slice(0, MAX_ROWS)) {
      if (!add(`| ${row.map(value => safe(value, secrets, MAX_CELL_BYTES)).join(' | ')} |`)) break
      shown++
    }
    const notShown = table.rows.length - shown
    if (notShown > 0) parts.push('', `_${notShown} more rows not shown._`)
    parts.push('')
  }
  if (linesLeft > 0) parts.push(`_${linesLeft} more lines not shown: the summary is kept under 1 MiB._`, '')
  if (rowsLeft > 0) parts.push(`_${rowsLeft} more rows not shown: the summary is kept under 1 MiB._`, '')
  return parts.join('\n')
}
