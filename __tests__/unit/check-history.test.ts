/**
 * check-history (src/operations/gate/history.ts) over a plain fake API: which
 * entries `since` keeps (from that moment on, undated ones left out), the
 * uptime (up among entries with a status), the p95 and the trend (oldest
 * first, whatever order the API lists), and the summary's table of the first
 * 50 rows.
 */
import { describe, expect, it } from '@jest/globals'
import type { HistoryEntry } from '../../src/api/schemas.js'
import type { Since } from '../../src/run/config.js'
import { checkHistory, uptimeOf } from '../../src/operations/gate/history.js'
import { sparkline } from '../../src/operations/gate/stats.js'
import type { OperationContext } from '../../src/operations/types.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const MINUTE = 60_000
const at = (msBefore: number) => new Date(START - msBefore).toISOString()
const entry = (minutesBefore: number, status: string | null, responseTime: number | null): HistoryEntry => ({
  status,
  responseTime,
  checkedAt: at(minutesBefore * MINUTE)
})

/** check-history of check c1 (`name`) whose history is `entries`; the clock reads `nowAfterStart` after the start. */
function run(entries: HistoryEntry[], o: { since?: Since; name?: string; nowAfterStart?: number } = {}) {
  const reads: Array<unknown[]> = []
  const ctx = {
    config: { checkIds: ['c1'], checkNames: [], ...(o.since ? { since: o.since } : {}) },
    api: {
      getCheck: async (id: string) => ({ id, status: 'up', ...(o.name !== undefined ? { name: o.name } : {}) }),
      checkHistory: async (...args: unknown[]) => {
        reads.push(args)
        return entries
      }
    },
    clock: { now: () => START + (o.nowAfterStart ?? 0) },
    startedAt: START,
    log: { debug: () => {}, info: () => {}, warning: () => {}, notice: () => {} }
  } as unknown as OperationContext
  return checkHistory(ctx).then(result => ({ ...result, reads }))
}

describe('uptimeOf', () => {
  it('is the share up among entries with a status, to two decimals; up in any case', () => {
    expect(uptimeOf([entry(1, 'up', 1), entry(2, 'UP', 1), entry(3, 'down', 1)])).toBe('66.67')
    expect(uptimeOf([entry(1, 'Up', 1)])).toBe('100.00')
    expect(uptimeOf([entry(1, 'down', 1), entry(2, 'paused', 1)])).toBe('0.00')
  })

  it('leaves out entries without a status; none with one: empty, not 0', () => {
    expect(uptimeOf([entry(1, 'up', 1), entry(2, null, 1), { checkedAt: at(0) }, entry(3, 'down', 1)])).toBe('50.00')
    expect(uptimeOf([entry(1, null, 1), { responseTime: 5 }])).toBe('')
    expect(uptimeOf([])).toBe('')
  })
})

describe('check-history', () => {
  it('without since: every entry, in the API order, with the uptime, the p95 and the trend oldest first', async () => {
    // Newest first, as the service lists them; one undated (the trend puts it first).
    const entries = [
      entry(1, 'up', 300),
      entry(3, 'up', 100),
      { status: 'down', responseTime: 50 },
      entry(2, 'down', 200),
      entry(4, 'up', null)
    ]
    const result = await run(entries, { name: 'shop' })
    expect(result.reads).toEqual([['c1']])
    expect(result.outputs).toEqual({
      'check-id': 'c1',
      'check-name': 'shop',
      'check-status': 'up',
      'response-time': '',
      'last-checked-at': '',
      result: entries,
      count: 5,
      uptime: '60.00',
      'response-time-p95': '300'
    })
    expect(result.summary.title).toBe('History of shop')
    expect(result.summary.lines).toEqual([
      '5 entries; up in 60.00% of those with a status.',
      'Response time min / avg / p95: 50 / 163 / 300 ms.',
      `Trend (oldest first): ${sparkline([50, 100, 200, 300])}`
    ])
    expect(sparkline([50, 100, 200, 300])).not.toBe(sparkline([300, 100, 50, 200]))
  })

  it('since a duration: entries from that moment on (one exactly at it included), undated ones left out', async () => {
    const entries = [
      entry(1, 'up', 100),
      entry(30, 'down', 900), // exactly 30 minutes before the start
      entry(31, 'up', 5), // older
      { status: 'up', responseTime: 7 } // undated
    ]
    // Back from the step's start, not from now (the clock has moved on since).
    const result = await run(entries, { since: { agoMs: 30 * MINUTE }, nowAfterStart: 10 * MINUTE })
    expect(result.outputs).toMatchObject({
      result: entries.slice(0, 2),
      count: 2,
      uptime: '50.00',
      'response-time-p95': '900'
    })
    expect(result.summary.title).toBe('History of c1')
    expect(result.summary.lines[0]).toBe(
      `2 entries since ${at(30 * MINUTE)} (2 older or undated left out); up in 50.00% of those with a status.`
    )
  })

  it('since a time: the same, from that time', async () => {
    const entries = [entry(1, 'up', 100), entry(2, 'up', 120), entry(3, 'down', 900)]
    const result = await run(entries, { since: { at: START - 2 * MINUTE }, nowAfterStart: 10 * MINUTE })
    expect(result.outputs).toMatchObject({ count: 2, uptime: '100.00', 'response-time-p95': '120' })
    expect(result.summary.lines[0]).toBe(
      `2 entries since ${at(2 * MINUTE)} (1 older or undated left out); up in 100.00% of those with a status.`
    )
  })

  it('the p95 is the nearest rank: of 20 response times, the 19th smallest', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => entry(i + 1, 'up', (i + 1) * 10))
    const result = await run(twenty)
    expect(result.outputs['response-time-p95']).toBe('190')
    expect(result.summary.lines[1]).toBe('Response time min / avg / p95: 10 / 105 / 190 ms.')
  })

  it('no entry with a status or a response time: no uptime, no p95, no figures', async () => {
    const result = await run([{ checkedAt: at(MINUTE) }, { note: 'maintenance', checkedAt: at(2 * MINUTE) }])
    expect(result.outputs).toMatchObject({ count: 2, uptime: '', 'response-time-p95': '' })
    expect(result.summary.lines).toEqual(['2 entries.'])
  })

  it('the table: a mark, how long ago (from now, not the start), the status, the time and any other fields', async () => {
    const result = await run(
      [{ ...entry(1, 'up', 120), region: 'eu', id: 'h1' }, entry(2, 'paused', null), entry(3, 'down', 30_000)],
      { nowAfterStart: 5 * MINUTE }
    )
    expect(result.summary.tables).toEqual([
      {
        head: ['', 'Checked', 'Status', 'Response time (ms)', 'Details'],
        rows: [
          ['✅', '6 min ago (07:59:00 UTC)', 'up', 120, '{"id":"h1","region":"eu"}'],
          ['⏸', '7 min ago (07:58:00 UTC)', 'paused', null, ''],
          ['❌', '8 min ago (07:57:00 UTC)', 'down', 30_000, '']
        ]
      }
    ])
  })

  it('shows the first 50 rows and counts the rest; every entry stays in the result', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => entry(i + 1, 'up', 100))
    const fifty = await run(many(50))
    expect(fifty.summary.tables[0].rows).toHaveLength(50)
    expect(fifty.summary.lines.some(l => l.startsWith('The table shows'))).toBe(false)
    const more = await run(many(53))
    expect(more.summary.tables[0].rows).toHaveLength(50)
    expect(more.outputs.count).toBe(53)
    expect(more.summary.lines.at(-1)).toBe(
      'The table shows the first 50; 3 more rows not shown (every entry is in the result output).'
    )
  })
})
