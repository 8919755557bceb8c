/**
 * What the error budget's history read costs, as the gate says it: every
 * request the read sent (each page, each retry, for every check of a fleet),
 * counted as it went out, in the summary and the log, with its share of the
 * key's 100 requests a minute. The count is held against what the emulator
 * saw, at its edges too (0 when the history was never read, 1, exactly 100).
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Clock } from '../../src/api/pacer.js'
import { runAction, useEmulator } from '../helpers/harness.js'

/** No rate limit at the server: the counts are the action's, and a long read is not cut by a 429. */
const emulator = useEmulator({ rateLimit: false, pageSize: 50 })
const dir = mkdtempSync(join(tmpdir(), 'gate-budget-cost-'))
const START = Date.parse('2026-11-23T08:00:00Z')
const MINUTE = 60_000
const at = (s: number) => new Date(START + s * 1000).toISOString()

/** `count` up results a minute apart before the start, newest first as the service lists them. */
const past = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    status: 'up',
    responseTime: 100,
    checkedAt: new Date(START - (i + 1) * MINUTE).toISOString()
  }))

/** A clock from START; each sleep moves it on and gives every check a fresh up result. */
function scripted(ids: string[]): Clock {
  let now = START
  let poll = 0
  return {
    now: () => now,
    sleep: async ms => {
      now += ms
      poll++
      for (const id of ids) Object.assign(emulator.checks.get(id) as object, { status: 'up', lastCheckedAt: at(poll) })
    }
  }
}

function gate(inputs: Record<string, string>, ids: string[]) {
  for (const id of ids) {
    Object.assign(emulator.checks.get(id) as object, { status: 'up', responseTime: 100, lastCheckedAt: at(0.5) })
  }
  return runAction(
    emulator,
    { operation: 'wait-for-check', 'poll-interval': '1s', timeout: '5m', slo: '99%', ...inputs },
    { clock: scripted(ids), env: { GITHUB_WORKSPACE: dir } }
  )
}

/** Every request the emulator saw for these checks' histories, whatever it answered. */
const historyRequests = (ids: string[]) =>
  emulator.requests.filter(r => ids.some(id => r.path.split('?')[0] === `/checks/${id}/history`)).length

const line = (requests: string, share: string) =>
  `The result history took ${requests} (${share} of the key's 100 a minute).`

describe("the summary and the log say what the error budget's history read took, as the emulator saw it", () => {
  it('a history over several pages: each page is a request', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(120)) // pages of 50, 50 and 20
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(core.outputs.outcome).toBe('passed')
    expect(historyRequests([c.id])).toBe(3)
    expect(core.summaryText).toContain(line('3 requests', '3%'))
    expect(core.logs).toContain(`info: ${line('3 requests', '3%')}`)
  })

  it('a fleet of 3: every page and every retry of every check, counted once, in one figure', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map(name => emulator.seedCheck({ name, url: `https://${name}.example.com/` }))
    // a: 120 results, 3 pages; b: 3000 results, 2880 of them in a 2d window: 58 pages hold the window and
    // the 59th, wholly older, ends the read; c: 40 results, 1 page.
    emulator.history.set(a.id, past(120))
    emulator.history.set(b.id, past(3000))
    emulator.history.set(c.id, past(40))
    // A 429 on a's first page and a 500 on b's: each retried once, each one request more; c's page is
    // redirected within the origin: the hop is a request too.
    emulator.inject({ method: 'GET', path: `/checks/${a.id}/history`, status: 429, headers: { 'Retry-After': '1' } })
    emulator.inject({ method: 'GET', path: `/checks/${b.id}/history`, status: 500, body: { message: 'busy' } })
    const moved = { Location: `/v1/checks/${c.id}/history?page=1` }
    emulator.inject({ method: 'GET', path: `/checks/${c.id}/history`, status: 307, headers: moved })
    const ids = [a.id, b.id, c.id]
    const { core } = await gate({ 'check-id': ids.join(','), 'slo-window': '2d' }, ids)
    expect(core.outputs.outcome).toBe('passed')
    expect(historyRequests(ids)).toBe(3 + 1 + 59 + 1 + 1 + 1)
    expect(core.summaryText).toContain(line('66 requests', '66%'))
    expect(core.logs).toContain(`info: ${line('66 requests', '66%')}`)
    // Said once for the fleet, after every check's read (and again in the result's log line, from the summary).
    expect(core.logs.filter(l => l.startsWith('info: The result history took'))).toHaveLength(1)
  })

  it('exactly 100 requests are 100% of the minute: 5,000 results at 50 a page', async () => {
    const c = emulator.seedCheck({ name: 'busy', url: 'https://busy.example.com/' })
    emulator.history.set(c.id, past(5000))
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(historyRequests([c.id])).toBe(100)
    expect(core.summaryText).toContain(line('100 requests', '100%'))
  })

  it('a check with no history yet: one request, said in the singular', async () => {
    const c = emulator.seedCheck({ name: 'new', url: 'https://new.example.com/' })
    emulator.history.set(c.id, [])
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(historyRequests([c.id])).toBe(1)
    expect(core.summaryText).toContain(line('1 request', '1%'))
  })

  it('a history never read (the target is not found): 0 requests, 0%', async () => {
    const { core } = await gate({ 'check-name': 'nowhere' }, [])
    expect(core.outputs.outcome).toBe('error')
    expect(emulator.requests.filter(r => r.path.includes('/history'))).toEqual([])
    expect(core.summaryText).toContain(line('0 requests', '0%'))
  })

  it('a read the timeout ends: what was sent before it is counted, the refused request is not', async () => {
    const c = emulator.seedCheck({ name: 'long', url: 'https://long.example.com/' })
    emulator.history.set(c.id, past(7 * 24 * 60))
    // Paced at 100 a minute, the history's 101st request would start after the one-minute timeout.
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, timeout: '1m', slo: '99%', 'slo-window': '7d' },
      { clock: scripted([c.id]), env: { GITHUB_WORKSPACE: dir }, pacing: true }
    )
    expect(core.outputs.outcome).toBe('error')
    const sent = historyRequests([c.id])
    // The target's GET and 99 pages fill the minute's 100 starts.
    expect(sent).toBe(99)
    expect(core.summaryText).toContain(line('99 requests', '99%'))
    expect(core.logs).toContain(`info: ${line('99 requests', '99%')}`)
  })
})
