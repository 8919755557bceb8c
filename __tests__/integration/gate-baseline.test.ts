/**
 * The gate against each check's own past (`baseline`, `max-response-time-increase`,
 * `baseline-p95`): the window read once at the start, its p95, the limit, a
 * slower result as a miss, several checks each with their own, the reports,
 * the request counts and the timeout. As in gate-outcomes, the emulator does not
 * probe: a scripted clock sets each check's next result between polls.
 */
import { describe, expect, it } from '@jest/globals'
import { XMLParser } from 'fast-xml-parser'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { realClock } from '../../src/api/pacer.js'
import {
  SCRIPT_START,
  type ScriptedResult,
  afterFirstRead,
  resultOf,
  runAction,
  useEmulator,
  scriptedClock
} from '../helpers/harness.js'

const emulator = useEmulator()
/** Pages of 10: the history of a check spans several. */
const paged = useEmulator({ pageSize: 10 })
const dir = mkdtempSync(join(tmpdir(), 'gate-baseline-'))
const START = SCRIPT_START
const MINUTE = 60_000
const at = (s: number) => new Date(START + s * 1000).toISOString()

type Result = ScriptedResult
const up = (s: number, responseTime: number): Result => ({ status: 'up', lastCheckedAt: at(s), responseTime })

/** History entries, newest first as the service lists them: `times[i]` checked `i + 1` minutes before the start. */
function past(times: number[], status = 'up', startMinutes = 1) {
  return times.map((responseTime, i) => ({
    status,
    responseTime,
    checkedAt: new Date(START - (startMinutes + i) * MINUTE).toISOString()
  }))
}

function gate(
  inputs: Record<string, string>,
  script: Record<string, Result[]>,
  options: { on?: Emulator; between?: (poll: number) => void } = {}
) {
  const on = options.on ?? emulator
  // The first result lands right after the step's first read: fresh (newer than what that read showed).
  afterFirstRead(on, Object.fromEntries(Object.entries(script).map(([id, results]) => [id, results[0]])))
  return runAction(
    on,
    {
      operation: 'wait-for-check',
      'poll-interval': '1s',
      timeout: '5s',
      baseline: '1h',
      'max-response-time-increase': '20%',
      ...inputs
    },
    { clock: scriptedClock(on, script, options.between), env: { GITHUB_WORKSPACE: dir } }
  )
}

const historyReads = (on: Emulator, id: string) => on.requests.filter(r => r.path.startsWith(`/checks/${id}/history`))
const progressOf = (logs: string[], name: string) =>
  logs
    .filter(l => l.startsWith(`info: ${name} (`) && l.includes('): status '))
    .map(l => l.slice(l.lastIndexOf(': ') + 2))

/** Twenty results of about 120 ms: p95 120, so the limit at +20% is 144 ms. */
const USUAL = [...Array<number>(10).fill(100), ...Array<number>(9).fill(120), 300]

describe('one check against its baseline', () => {
  it('passed: a fresh result within the baseline p95 + 20% passes; baseline-p95 and result carry the baseline', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(USUAL))
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1, 140)] })
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed', 'baseline-p95': '120' })
    expect((resultOf(core) as Array<{ baseline: unknown }>)[0].baseline).toEqual({
      p95: 120,
      limit: 144,
      results: 20,
      from: at(-3600),
      to: at(0)
    })
    expect(core.logs).toContain(
      `info: shop (${c.id}): baseline p95 120 ms of 20 result(s) in the 1h before the step started; limit 144 ms (+20%)`
    )
    expect(core.logs.filter(l => l.startsWith('warning:'))).toEqual([])
  })

  it('regression: a result above the limit is a miss; the gate closes naming the check, its result, the baseline p95 and the limit', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(USUAL))
    const { core } = await gate({ 'check-id': c.id, 'junit-file': 'regression.xml' }, { [c.id]: [up(1, 250)] })
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out', 'baseline-p95': '120' })
    const reason = 'response time 250 ms is above the limit 144 ms (baseline p95 120 ms +20%)'
    expect(core.failed).toContain(
      `wait-for-check: 1 of 1 check(s) did not pass within 5 s: shop (${c.id}): status up, response time 250 ms, checked ${at(1)}: ${reason}`
    )
    const [failed] = JSON.parse(core.outputs['failed-checks']) as Array<Record<string, unknown>>
    expect(failed).toMatchObject({ id: c.id, responseTime: 250, reason, baseline: { p95: 120, limit: 144 } })
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      readFileSync(join(dir, 'regression.xml'), 'utf8')
    ) as { testsuites: { testsuite: { testcase: { failure: { message: string; '#text': string } } } } }
    const failure = xml.testsuites.testsuite.testcase.failure
    expect(failure.message).toBe(reason)
    expect(failure['#text']).toContain('baseline p95 120 ms of 20 result(s) in the 1h before the step started')
  })

  it('older fast results outside the window never lower the baseline; results at or after the start are not in it', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const inWindow = past([200, 200, 200, 200, 200])
    const older = past(Array<number>(100).fill(50), 'up', 61) // 61 minutes and more before the start
    const after = [{ status: 'up', responseTime: 5, checkedAt: at(0) }]
    emulator.history.set(c.id, [...after, ...inWindow, ...older])
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1, 230)] })
    // With the older ones the p95 would be 50 and the limit 60: 230 would miss.
    expect(core.outputs).toMatchObject({ outcome: 'passed', 'baseline-p95': '200' })
  })

  it('down results and results without a response time are left out: a down probe is a timeout, not latency', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const downs = past(Array<number>(10).fill(30_000), 'down', 10)
    emulator.history.set(c.id, [
      ...past([100, 100, 100, 100, 100]),
      ...downs,
      { status: 'up', responseTime: null, checkedAt: at(-30 * 60) }
    ])
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1, 200)] })
    // With the downs counted the p95 would be 30000 ms and 200 ms would pass.
    expect(core.outputs).toMatchObject({ outcome: 'timed-out', 'baseline-p95': '100' })
    expect(core.logs).toContain(
      `info: shop (${c.id}): baseline p95 100 ms of 5 result(s) in the 1h before the step started (11 left out: not up or without a response time); limit 120 ms (+20%)`
    )
  })

  it('too few results (fewer than 5 up with a response time): skipped with a warning saying why, baseline-p95 empty', async () => {
    const c = emulator.seedCheck({ name: 'new-check', url: 'https://new.example.com/' })
    emulator.history.set(c.id, [...past([100, 100, 100, 100]), ...past([30_000], 'down', 5)])
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1, 10_000)] })
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed', 'baseline-p95': '' })
    const why = '4 result(s) up with a response time in the 1h before the step started (5 needed; left out: 1 not up)'
    expect(core.logs).toContain(
      `warning: new-check (${c.id}): no baseline: ${why}; the comparison is skipped: its results are judged without it.`
    )
    expect((resultOf(core) as Array<{ baseline: unknown }>)[0].baseline).toMatchObject({
      p95: null,
      limit: null,
      results: 4,
      skipped: why
    })
    expect(core.summaryText).toContain(`new-check: no baseline: ${why}; the comparison is skipped for it.`)
  })

  it('a duration increase adds milliseconds: 150ms over a p95 of 120 is a limit of 270', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(USUAL))
    const within = await gate({ 'check-id': c.id, 'max-response-time-increase': '150ms' }, { [c.id]: [up(1, 270)] })
    expect(within.core.outputs.outcome).toBe('passed')
    const above = await gate({ 'check-id': c.id, 'max-response-time-increase': '150ms' }, { [c.id]: [up(2, 271)] })
    expect(JSON.parse(above.core.outputs['failed-checks'])[0].reason).toBe(
      'response time 271 ms is above the limit 270 ms (baseline p95 120 ms +150 ms)'
    )
  })

  it('an invalid increase, or one without a baseline, is an input error: no request is sent', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    for (const [inputs, message] of [
      [
        { 'max-response-time-increase': 'a lot' },
        'max-response-time-increase must be a percentage (20%) or a duration (150ms), got "a lot"'
      ],
      [{ baseline: '', 'max-response-time-increase': '20%' }, 'max-response-time-increase needs baseline'],
      [{ 'max-response-time-increase': '' }, 'baseline needs max-response-time-increase']
    ] as const) {
      const { core } = await gate({ 'check-id': c.id, ...inputs }, {})
      expect(core.failed).toContain(message)
      expect(core.outputs).toMatchObject({ outcome: 'error', passed: 'false' })
    }
    expect(emulator.count()).toBe(0)
  })
})

describe('when the history cannot be read', () => {
  it('an API error reading it ends the gate with outcome error, naming the request; the gate never passes without it', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.inject({
      path: `/checks/${c.id}/history`,
      status: 500,
      body: { message: 'history on fire' },
      times: Infinity
    })
    const { core } = await gate({ 'check-id': c.id, 'max-retries': '0' }, { [c.id]: [up(1, 100)] })
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error', 'baseline-p95': '' })
    expect(core.failed).toMatch(/^GET \/checks\/chk_\w+\/history failed: HTTP 500.*history on fire/)
    expect(JSON.parse(core.outputs['failed-checks'])[0]).toMatchObject({ id: c.id, baseline: null })
    expect(emulator.requests.filter(r => r.path === `/checks/${c.id}`)).toHaveLength(1) // the lookup; no poll
  })
})

describe('paging and economy', () => {
  it('reads every page of the history, once, at the start: the slowest results on the last page count', async () => {
    const c = paged.seedCheck({ name: 'paged', url: 'https://paged.example.com/' })
    // 35 results: the three slowest are the oldest, on the 4th page.
    paged.history.set(c.id, past([...Array<number>(32).fill(100), 400, 400, 400]))
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1, 300)] }, { on: paged })
    // Page 1 alone would give a p95 of 100 (limit 120) and 300 would miss.
    expect(core.outputs).toMatchObject({ outcome: 'passed', 'baseline-p95': '400' })
    expect(historyReads(paged, c.id)).toHaveLength(4)
    expect(paged.requests.filter(r => r.path === `/checks/${c.id}`)).toHaveLength(2) // the target, one poll
  })

  it('a long history listed newest first: the read stops at the first page wholly older than the window', async () => {
    const c = emulator.seedCheck({ name: 'week', url: 'https://week.example.com/' })
    // 7 days of results a minute apart (10,080 entries, 202 pages of 50); the 1h window is on the first two.
    emulator.history.set(c.id, past(Array<number>(7 * 24 * 60).fill(100)))
    const { core } = await gate({ 'check-id': c.id, baseline: '1h' }, { [c.id]: [up(1, 110)] })
    expect(core.outputs).toMatchObject({ outcome: 'passed', 'baseline-p95': '100' })
    expect((resultOf(core) as Array<{ baseline: { results: number } }>)[0].baseline.results).toBe(60)
    expect(historyReads(emulator, c.id)).toHaveLength(3) // minutes 1-50, 51-100 (the window ends at 60), 101-150
  })

  it('a history not in newest-first order is read to its last page: a page older than the window proves nothing', async () => {
    const c = paged.seedCheck({ name: 'unordered', url: 'https://unordered.example.com/' })
    // 60 entries oldest first: the first page is three hours older than the window, the 10 in it are last.
    const recent = past(Array<number>(10).fill(400))
    const old = past(Array<number>(50).fill(100), 'up', 180)
    paged.history.set(c.id, [...recent, ...old].reverse())
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1, 450)] }, { on: paged })
    expect(core.outputs).toMatchObject({ outcome: 'passed', 'baseline-p95': '400' })
    expect(historyReads(paged, c.id)).toHaveLength(6)
  })

  it('with consecutive-passes, results between polls are judged against the baseline; the window is never read again', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(USUAL))
    const entry = (r: Result) => ({ status: r.status, responseTime: r.responseTime, checkedAt: r.lastCheckedAt })
    const polls = [up(1, 120), up(3, 120), up(5, 120), up(7, 120), up(9, 120)]
    const { core } = await gate(
      { 'check-id': c.id, 'consecutive-passes': '3', timeout: '10s' },
      { [c.id]: polls },
      {
        between: poll => {
          // Between polls 1 and 2 the service recorded a slow result; then, from poll 2 on, the history
          // also holds a past that would give another baseline if it were read again (p95 10 ms).
          const recorded = poll >= 1 ? [entry(up(2, 900))] : []
          const otherPast = poll >= 2 ? past(Array<number>(40).fill(10)) : past(USUAL)
          emulator.history.set(c.id, [...recorded, ...otherPast])
        }
      }
    )
    expect(progressOf(core.logs, 'shop')).toEqual([
      'met the condition (1/3)',
      'met the condition (1/3)', // the 900 ms result between polls 1 and 2 reset the count
      'met the condition (2/3)',
      'passed (3/3)'
    ])
    expect(core.outputs).toMatchObject({ outcome: 'passed', 'baseline-p95': '120' })
    expect(core.summaryText).toContain('✅❌✅✅✅')
    // One read for the baseline, then one per poll that saw a newer result: never the window again.
    expect(historyReads(emulator, c.id)).toHaveLength(1 + 3)
    expect(core.logs.filter(l => l.includes(': baseline p95 '))).toHaveLength(1)
  })
})

describe('several checks, each with its own baseline', () => {
  it('judges each against its own; baseline-p95 is the first check’s; result and failed-checks carry each one’s', async () => {
    const fast = emulator.seedCheck({ name: 'fast', url: 'https://fast.example.com/' })
    const slow = emulator.seedCheck({ name: 'slow', url: 'https://slow.example.com/' })
    const fresh = emulator.seedCheck({ name: 'fresh', url: 'https://fresh.example.com/' })
    emulator.history.set(fast.id, past(Array<number>(10).fill(100)))
    emulator.history.set(slow.id, past(Array<number>(10).fill(300)))
    emulator.history.set(fresh.id, past([50]))
    const { core } = await gate(
      { 'check-id': [fast.id, slow.id, fresh.id].join(','), 'consecutive-passes': '2', 'require-fresh': 'true' },
      {
        [fast.id]: [up(1, 250), up(2, 250)],
        [slow.id]: [up(1, 250), up(2, 250)],
        // two probes of 5 s each: more than 5 s apart, or they are one probe
        [fresh.id]: [up(-60, 100), up(1, 5_000), up(7, 5_000)]
      }
    )
    expect(core.outputs).toMatchObject({ outcome: 'timed-out', 'baseline-p95': '100' })
    const result = resultOf(core) as Array<{ id: string; baseline: { p95: number | null; limit: number | null } }>
    expect(result.map(r => [r.id, r.baseline.p95, r.baseline.limit])).toEqual([
      [fast.id, 100, 120],
      [slow.id, 300, 360],
      [fresh.id, null, null]
    ])
    const failed = JSON.parse(core.outputs['failed-checks']) as Array<{ id: string; reason: string; baseline: unknown }>
    expect(failed).toEqual([
      expect.objectContaining({
        id: fast.id,
        reason: 'response time 250 ms is above the limit 120 ms (baseline p95 100 ms +20%)',
        baseline: expect.objectContaining({ p95: 100, limit: 120 })
      })
    ])
    // The new check had no past: judged without the comparison, but still only on fresh results.
    expect(progressOf(core.logs, 'fresh')[0]).toMatch(/before this step started \(stale\)/)
    expect(core.outputs['check-id']).toBe(fast.id)
  })

  it('the summary shows each baseline p95, its limit and the results against it; names stay data', async () => {
    const a = emulator.seedCheck({ name: 'web | <img src=x>', url: 'https://w.example.com/' })
    const b = emulator.seedCheck({ name: 'api', url: 'https://a.example.com/' })
    emulator.history.set(a.id, past(USUAL))
    emulator.history.set(b.id, past([100]))
    const { core } = await gate(
      { 'check-id': `${a.id},${b.id}`, 'consecutive-passes': '3', timeout: '3s' },
      { [a.id]: [up(1, 130), up(2, 200), up(3, 140)], [b.id]: [up(1, 100)] }
    )
    const text = core.summaryText
    expect(text).toContain(
      '|  | Check | ID | Status | Response time (ms) | Baseline p95 (ms) | Limit (ms) | Checked | In a row | Verdict |'
    )
    expect(text).toMatch(/\| web \\\| &lt;img src=x&gt; \| chk\\_\w+ \| up \| 140 \| 120 \| 144 \|/)
    expect(text).toMatch(/\| api \| chk\\_\w+ \| up \| 100 \| too few results \(1\) \| none \|/)
    expect(text).toContain(
      '| Check | Polls, oldest first (✅ met, ❌ missed, ↺ no new result) | Response time min / avg / p95 (ms) | Trend | Against the limit |'
    )
    expect(text).toContain('| ✅❌✅↺ | 130 / 157 / 200 | ▁█▂ | 1 of 3 above 144 ms |')
    expect(text).toContain(
      "Baseline: each check's results in the 1h before the step started that were up and carry a response time; a result passes if it is at most their p95 +20%."
    )
    expect(text).toContain(
      'api: no baseline: 1 result(s) up with a response time in the 1h before the step started (5 needed); the comparison is skipped for it.'
    )
    expect(text).not.toContain('<img')
  })
})

describe('the timeout', () => {
  it('a slow history read never lets the gate run past it: the read is cut off at the deadline, the gate closes', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    emulator.latency = { [`GET /checks/${c.id}/history`]: 2_500 }
    try {
      const started = Date.now()
      const { core } = await runAction(
        emulator,
        {
          operation: 'wait-for-check',
          'check-id': c.id,
          timeout: '800ms',
          'request-timeout': '30s',
          baseline: '1h',
          'max-response-time-increase': '20%',
          'require-fresh': 'false'
        },
        { clock: realClock, env: { GITHUB_WORKSPACE: dir } }
      )
      expect(Date.now() - started).toBeLessThan(1_500)
      expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
      expect(core.failed).toContain('not polled before the time limit')
      expect(core.failed).toMatch(
        /polling stopped early: the time ran out reading the baseline: GET \/checks\/chk_\w+\/history was cut off after \d+ ms/
      )
      // the target's lookup and the history read; no poll
      expect(emulator.requests.map(r => r.path)).toEqual([`/checks/${c.id}`, `/checks/${c.id}/history`])
    } finally {
      emulator.latency = {}
    }
  })

  it('a paged read slow page by page sends no page after the deadline', async () => {
    const c = paged.seedCheck({ name: 'paged', url: 'https://paged.example.com/', status: 'up' })
    // 6 pages, all in the window (the clock is real: the last hour before now), so every page is wanted.
    const now = Date.now()
    const recent = Array.from({ length: 60 }, (_, i) => ({
      status: 'up',
      responseTime: 100,
      checkedAt: new Date(now - (i + 1) * MINUTE).toISOString()
    }))
    paged.history.set(c.id, recent)
    paged.latency = { GET: 300 }
    try {
      const started = Date.now()
      const { core } = await runAction(
        paged,
        {
          operation: 'wait-for-check',
          'check-id': c.id,
          timeout: '1s',
          baseline: '2h',
          'max-response-time-increase': '20%',
          'require-fresh': 'false'
        },
        { clock: realClock, env: { GITHUB_WORKSPACE: dir } }
      )
      expect(Date.now() - started).toBeLessThan(1_700)
      expect(core.outputs.outcome).toBe('timed-out')
      const last = Math.max(...paged.requests.map(r => r.at))
      expect(last - started).toBeLessThan(1_100)
      expect(historyReads(paged, c.id).length).toBeLessThan(6)
    } finally {
      paged.latency = {}
    }
  })
})
