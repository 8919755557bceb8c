/**
 * The job summary: a heading, lines, tables, rendered to Markdown. Every value
 * is escaped here (operations hand over plain text), and the whole stays under
 * the runner's 1 MiB step-summary limit, counted in bytes.
 */
import { MAX_TABLE_ROWS, type Summary } from '../operations/types.js'
import { redact, redactValue } from '../secrets/secrets.js'
import { maskText } from '../secrets/secret-positions.js'
import { defused } from '../values/markup.js'
import { cutToBytes, logLine, markdownText } from './text.js'

/** The runner drops a step summary over 1 MiB; stay well under it. */
export const MAX_SUMMARY_BYTES = 900 * 1024
/** One cell or line never takes more than this. */
const MAX_CELL_BYTES = 4 * 1024
const MAX_LINE_BYTES = 16 * 1024
/** Room kept for the "not shown" notes. */
const NOTE_ROOM = 1024

/**
 * Redact, escape, defuse and cut one value: shown as written, and nothing in
 * it becomes a link, an image, a mention or a reference where GitHub renders
 * it (the job summary, a comment, an issue).
 */
export function markdownValue(value: unknown, secrets: readonly string[], maxBytes: number): string {
  const text =
    typeof value === 'number'
      ? String(redactValue(value, secrets))
      : maskText(redact(value === undefined || value === null ? '' : String(value), secrets))
  return cutToBytes(defused(markdownText(text)), maxBytes)
}

/** Where a summary goes: its size limit (bytes), what to say when cut, and when to fold a table. */
export interface RenderOptions {
  maxBytes: number
  /** Why rows or lines were left out, said after "N more rows not shown: ". */
  limit: string
  /** Why a table was cut short, when it is not only the row cap. */
  tableCut?: string
  /** Tables with more rows than this are folded in a <details> block. */
  foldOver?: number
}

export const JOB_SUMMARY: RenderOptions = { maxBytes: MAX_SUMMARY_BYTES, limit: 'the summary is kept under 1 MiB' }

/**
 * A pull-request comment: GitHub refuses a body over 65,536 characters (bytes
 * count at least as many), and a long plan is folded so the thread stays short.
 */
export const PR_COMMENT: RenderOptions = {
  maxBytes: 60_000,
  limit: "a comment is kept under GitHub's 65,536 characters; the job summary has them all",
  tableCut: "a comment is kept under GitHub's 65,536 characters; the job summary has more",
  foldOver: 10
}

export function renderSummary(
  summary: Summary,
  operation: string,
  secrets: string[],
  options: RenderOptions = JOB_SUMMARY
): string {
  const parts: string[] = []
  let bytes = 0
  const budget = options.maxBytes - NOTE_ROOM
  /** Add a piece if it fits; false when the budget is spent. */
  const add = (piece: string): boolean => {
    const size = Buffer.byteLength(piece) + 1
    if (bytes + size > budget) return false
    parts.push(piece)
    bytes += size
    return true
  }
  let linesLeft = 0
  add(`### ${markdownValue(summary.title, secrets, MAX_LINE_BYTES)}`)
  add('')
  add(`Operation: ${markdownValue(operation, secrets, 200)}`)
  add('')
  for (const [i, line] of summary.lines.entries()) {
    if (!add(markdownValue(line, secrets, MAX_LINE_BYTES)) || !add('')) {
      linesLeft = summary.lines.length - i
      break
    }
  }
  let rowsLeft = 0
  for (const table of summary.tables) {
    const count = table.total ?? table.rows.length
    const fold = options.foldOver !== undefined && count > options.foldOver
    if (fold && !(add(`<details><summary>${count} rows</summary>`) && add(''))) {
      rowsLeft += count
      continue
    }
    const head = table.head.map(h => markdownValue(h, secrets, MAX_CELL_BYTES))
    if (!add(`| ${head.join(' | ')} |`) || !add(`| ${head.map(() => '---').join(' | ')} |`)) {
      rowsLeft += count
      if (fold) parts.push('', '</details>', '')
      continue
    }
    let shown = 0
    for (const row of table.rows.slice(0, MAX_TABLE_ROWS)) {
      if (!add(`| ${row.map(value => markdownValue(value, secrets, MAX_CELL_BYTES)).join(' | ')} |`)) break
      shown++
    }
    const notShown = count - shown
    if (notShown > 0)
      parts.push('', `_${notShown} more rows not shown${options.tableCut ? `: ${options.tableCut}` : ''}._`)
    parts.push('')
    if (fold) parts.push('</details>', '')
  }
  for (const block of summary.details ?? []) {
    const lines = block.lines.map(line => logLine(maskText(redact(line, secrets))))
    // A fence longer than any run of backticks inside: nothing in the text can close it early.
    const fence = '`'.repeat(
      Math.max(3, ...lines.map(l => Math.max(0, ...(l.match(/`+/g) ?? []).map(r => r.length + 1))))
    )
    if (
      !add(`<details><summary>${markdownValue(block.title, secrets, 200)}</summary>`) ||
      !add('') ||
      !add(`${fence}text`)
    )
      break
    let shown = 0
    for (const line of lines) {
      if (Buffer.byteLength(line) > budget - bytes - 64 || !add(line)) break
      shown++
    }
    parts.push(fence, '', '</details>', '')
    if (shown < lines.length) {
      parts.push(
        `_${lines.length - shown} more not shown here: ${options.limit}; the result output and plan-file hold every value._`,
        ''
      )
    }
  }
  if (linesLeft > 0) parts.push(`_${linesLeft} more lines not shown: ${options.limit}._`, '')
  if (rowsLeft > 0) parts.push(`_${rowsLeft} more rows not shown: ${options.limit}._`, '')
  return parts.join('\n')
}
