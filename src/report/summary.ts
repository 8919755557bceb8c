/** The job summary: a heading, lines, tables, rendered to Markdown. */
import type { Summary } from '../operations/types.js'
import { redact } from './outputs.js'

export const MAX_SUMMARY_CHARS = 900 * 1024
const MAX_ROWS = 500

export function renderSummary(summary: Summary, operation: string, secrets: string[]): string {
  const parts: string[] = [`### ${summary.title}`, '', `Operation: \`${operation}\``, '']
  for (const line of summary.lines) parts.push(line, '')
  for (const table of summary.tables) {
    const rows = table.rows.slice(0, MAX_ROWS)
    parts.push(`| ${table.head.join(' | ')} |`, `| ${table.head.map(() => '---').join(' | ')} |`)
    for (const row of rows) parts.push(`| ${row.join(' | ')} |`)
    if (table.rows.length > rows.length) parts.push('', `_${table.rows.length - rows.length} more rows not shown._`)
    parts.push('')
  }
  let text = redact(parts.join('\n'), secrets)
  if (text.length > MAX_SUMMARY_CHARS) {
    text = `${text.slice(0, MAX_SUMMARY_CHARS)}\n\n_The summary was cut: it was longer than ${MAX_SUMMARY_CHARS} characters._\n`
  }
  return text
}
