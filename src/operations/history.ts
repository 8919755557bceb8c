/** check-history: a check's probe results, with uptime. */
import type { HistoryEntry } from '../api/schemas.js'
import { checkOutputs, targetCheck } from './check-targets.js'
import { canonical, str } from './common.js'
import type { Operation } from './types.js'

/** Percentage of entries that are up, among entries that carry a status. */
export function uptimeOf(entries: HistoryEntry[]): string {
  const withStatus = entries.filter(e => typeof e.status === 'string')
  if (withStatus.length === 0) return ''
  const up = withStatus.filter(e => str(e.status).toLowerCase() === 'up').length
  return ((up / withStatus.length) * 100).toFixed(2)
}

export const checkHistory: Operation = async ctx => {
  const { check } = await targetCheck(ctx, false)
  const entries = await ctx.api.checkHistory(check.id)
  const uptime = uptimeOf(entries)
  const shown = entries.slice(0, 50)
  return {
    outputs: { ...checkOutputs(check), result: entries, count: entries.length, uptime },
    summary: {
      title: `History of ${str(check.name) || check.id}`,
      lines: [
        `${entries.length} entries${uptime ? `; up in ${uptime}% of those with a status` : ''}.`,
        ...(entries.length > shown.length ? [`The table shows the first ${shown.length}.`] : [])
      ],
      tables: [
        {
          head: ['Checked at', 'Status', 'Response time (ms)', 'Details'],
          rows: shown.map(e => {
            const { checkedAt, status, responseTime, ...rest } = e
            return [checkedAt, status, responseTime, Object.keys(rest).length ? canonical(rest) : '']
          })
        }
      ]
    }
  }
}
