/** check-history: a check's probe results, with uptime and response-time figures. */
import type { HistoryEntry } from '../../api/schemas.js'
import { checkOutputs, targetCheck } from '../names/check-targets.js'
import { canonical, str } from '../common.js'
import { timeOf } from '../../values/values.js'
import { ago, percentile, sparkline, spreadOf, spreadText, statusMark } from './stats.js'
import type { Operation } from '../types.js'

/** Percentage of entries that are up, among entries that carry a status. */
export function uptimeOf(entries: HistoryEntry[]): string {
  const withStatus = entries.filter(e => typeof e.status === 'string')
  if (withStatus.length === 0) return ''
  const up = withStatus.filter(e => str(e.status).toLowerCase() === 'up').length
  return ((up / withStatus.length) * 100).toFixed(2)
}

/** Rows the summary's table shows; the rest are counted in a line. */
const SHOWN = 50

export const checkHistory: Operation = async ctx => {
  const { check } = await targetCheck(ctx)
  const all = await ctx.api.checkHistory(check.id)
  const now = ctx.clock.now()
  const since = ctx.config.since
  const from = since === undefined ? undefined : 'at' in since ? since.at : ctx.startedAt - since.agoMs
  // With since, only entries that say when they were checked, from that moment on.
  const entries = from === undefined ? all : all.filter(e => timeOf(e.checkedAt) >= from)
  const uptime = uptimeOf(entries)
  const times = entries.map(e => e.responseTime).filter((t): t is number => typeof t === 'number')
  const p95 = percentile(times, 95)
  // The API's order is kept in `result`; the chart reads oldest first when the entries say when.
  const when = (e: HistoryEntry) => timeOf(e.checkedAt) || 0
  const chronological = [...entries].sort((a, b) => when(a) - when(b))
  const trend = sparkline(chronological.map(e => e.responseTime).filter((t): t is number => typeof t === 'number'))
  const shown = entries.slice(0, SHOWN)
  return {
    outputs: {
      ...checkOutputs(check),
      result: entries,
      count: entries.length,
      uptime,
      'response-time-p95': p95 === undefined ? '' : String(p95)
    },
    summary: {
      title: `History of ${str(check.name) || check.id}`,
      lines: [
        `${entries.length} entries${from !== undefined ? ` since ${new Date(from).toISOString()} (${all.length - entries.length} older or undated left out)` : ''}${uptime ? `; up in ${uptime}% of those with a status` : ''}.`,
        ...(times.length > 0
          ? [`Response time min / avg / p95: ${spreadText(spreadOf(times))} ms.`, `Trend (oldest first): ${trend}`]
          : []),
        ...(entries.length > shown.length
          ? [
              `The table shows the first ${shown.length}; ${entries.length - shown.length} more rows not shown (every entry is in the result output).`
            ]
          : [])
      ],
      tables: [
        {
          head: ['', 'Checked', 'Status', 'Response time (ms)', 'Details'],
          rows: shown.map(e => {
            const { checkedAt, status, responseTime, ...rest } = e
            return [
              statusMark(status),
              ago(checkedAt, now),
              status,
              responseTime,
              Object.keys(rest).length ? canonical(rest) : ''
            ]
          })
        }
      ]
    }
  }
}
