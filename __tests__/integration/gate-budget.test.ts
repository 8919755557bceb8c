/**
 * The error budget as a release gate (`slo`, `slo-window`, `availability`,
 * `error-budget-remaining`, outcome `budget-exhausted`): each check's history
 * in the window read once before any poll, a spent budget closing the gate at
 * once, too few results skipped with a warning, the reports, long and faulty
 * history reads, the timeout and a cancel. As in gate-baseline, a scripted
 * clock sets each check's next result between polls; the past is seeded.
 */
import { describe, expect, it } from '@jest/globals'
import { XMLParser } from 'fast-xml-parser'
import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { type Clock, realClock } from '../../src/api/pacer.js'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
/** Long histories: no rate limit at the server (the action's own pacing is what a test looks at). */
const roomy = useEmulator({ rateLimit: false, pageSize: 50 })
const dir = mkdtempSync(join(tmpdir(), 'gate-budget-'))
const START = Date.parse('2026-11-23T08:00:00Z')
const MINUTE = 60_000
const at = (s: number) => new Date(START + s * 1000).toISOString()

/**
 * `count` results a minute apart before the start, newest first as the service lists them; the
 * ones at the indices in `down` (0 = the newest) were down.
 */
function past(count: number, down: number[] = [], everyMs = MINUTE) {
  const downs = new Set(down)
  return Array.from({ length: count }, (_, i) => ({
    status: downs.has(i) ? 'down' : 'up',
    responseTime: downs.has(i) ? 30_000 : 100,
    checkedAt: new Date(START - (i + 1) * everyMs).toISOString()
  }))
}

/** A clock that starts at START; each sleep moves it on and makes each check's result fresh and up. */
function scripted(on: Emulator, ids: string[]): Clock & { elapsed: () => number } {
  let now = START
  let poll = 0
  return {
    elapsed: () => now - START,
    now: () => now,
    sleep: async ms => {
      now += ms
      poll++
      for (const id of ids) {
        Object.assign(on.checks.get(id) as object, { status: 'up', responseTime: 100, lastCheckedAt: at(poll) })
      }
    }
  }
}

function gate(
  inputs: Record<string, string>,
  ids: string[],
  options: { on?: Emulator; pacing?: boolean; clock?: Clock } = {}
) {
  const on = options.on ?? emulator
  for (const id of ids) {
    Object.assign(on.checks.get(id) as object, { status: 'up', responseTime: 100, lastCheckedAt: at(0.5) })
  }
  return runAction(
    on,
    { operation: 'wait-for-check', 'poll-interval': '1s', timeout: '5s', slo: '99.9%', ...inputs },
    { clock: options.clock ?? scripted(on, ids), env: { GITHUB_WORKSPACE: dir }, pacing: options.pacing }
  )
}

const polls = (on: Emulator, id: string) => on.requests.filter(r => r.path === `/checks/${id}`).length
const historyReads = (on: Emulator, id: string) => on.requests.filter(r => r.path.startsWith(`/checks/${id}/history`))
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' })

describe('a spent budget closes the gate before any poll', () => {
  it('budget-exhausted: the check named with its availability and budget; no poll; outputs, result, summary, JUnit', async () => {
    const spent = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const healthy = emulator.seedCheck({ name: 'api', url: 'https://api.example.com/' })
    // 1000 results: 2 down is 99.8%, twice the 0.1% budget (left: 1 - 0.2 / 0.1 = -100%)
    emulator.history.set(spent.id, past(1000, [10, 500]))
    emulator.history.set(healthy.id, past(1000))
    const { core } = await gate({ 'check-id': `${spent.id},${healthy.id}`, 'junit-file': 'budget.xml' }, [
      spent.id,
      healthy.id
    ])
    expect(core.outputs).toMatchObject({
      passed: 'false',
      outcome: 'budget-exhausted',
      availability: '99.8',
      'error-budget-remaining': '-100',
      'check-id': spent.id
    })
    const named = `shop (${spent.id}): availability 99.8% (998 of 1000 result(s) up) in the 30d before the step started against an objective of 99.9%: error budget spent (-100% left)`
    expect(core.failed).toBe(
      `wait-for-check: the error budget is spent for 1 of 2 check(s); the gate closed before any poll: ${named}`
    )
    // the target lookups and one history read each: no poll
    expect(polls(emulator, spent.id)).toBe(1)
    expect(polls(emulator, healthy.id)).toBe(1)
    expect(historyReads(emulator, spent.id)).toHaveLength(20) // 1000 results, pages of 50
    expect(core.logs.filter(l => l.startsWith('group: Poll'))).toEqual([])
    const result = resultOf(core) as Array<{ id: string; errorBudget: Record<string, unknown> }>
    expect(result.map(r => [r.id, r.errorBudget.availability, r.errorBudget.remaining, r.errorBudget.spent])).toEqual([
      [spent.id, 99.8, -100, true],
      [healthy.id, 100, 100, false]
    ])
    expect(result[0].errorBudget).toMatchObject({
      objective: 99.9,
      results: 1000,
      up: 998,
      from: at(-30 * 86_400),
      to: at(0)
    })
    const failed = JSON.parse(core.outputs['failed-checks']) as Array<{ id: string; reason: string }>
    // failed-checks lists the check that failed; the one never polled is named apart (result, summary)
    expect(failed.map(f => [f.id, f.reason])).toEqual([
      [spent.id, `error budget spent: ${named.slice(named.indexOf(': ') + 2)}`]
    ])
    expect((result as Array<{ notPolled?: boolean }>).map(r => r.notPolled)).toEqual([undefined, true])
    const text = core.summaryText
    expect(text).toContain('### Release gate closed: the error budget is spent')
    expect(text).toContain('1 of 2 check(s) had spent the error budget: the gate closed before any poll')
    expect(text).toContain('| Check | Window | Results | Up | Availability (%) | Objective (%) | Error budget left |')
    expect(text).toContain('| shop | 30d | 1000 | 998 | 99\\.8 | 99\\.9 | ░░░░░░░░░░ spent (-100% left) |')
    expect(text).toContain('| api | 30d | 1000 | 1000 | 100 | 99\\.9 | ██████████ 100% left |')
    const xml = parser.parse(readFileSync(join(dir, 'budget.xml'), 'utf8')) as {
      testsuites: {
        testsuite: {
          failures: string
          skipped: string
          testcase: Array<{ failure: { type: string; message: string; '#text': string }; skipped: string }>
        }
      }
    }
    const suite = xml.testsuites.testsuite
    expect(suite).toMatchObject({ failures: '1', skipped: '1' })
    expect(suite.testcase[0].failure).toMatchObject({ type: 'budget-exhausted' })
    expect(suite.testcase[0].failure.message).toContain('error budget spent: availability 99.8%')
    // Each thing once: the message says why (the budget); the text adds the check's last result, and no line repeats.
    const failure = suite.testcase[0].failure
    const said = [failure.message, ...failure['#text'].split('\n')]
    expect(said).toEqual([failure.message, expect.stringMatching(/^shop \(chk_\w+\): status up, response time 100 ms/)])
    for (const [i, line] of said.entries())
      expect(said.filter((other, j) => j !== i && other.includes(line))).toEqual([])
    expect(suite.testcase[1].skipped).toContain('not polled')
  })

  it('exactly at the budget (left 0) is spent: the arithmetic is exact, 99.9% of 1000 with 1 down', async () => {
    const c = emulator.seedCheck({ name: 'edge', url: 'https://edge.example.com/' })
    emulator.history.set(c.id, past(1000, [3]))
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(core.outputs).toMatchObject({
      outcome: 'budget-exhausted',
      availability: '99.9',
      'error-budget-remaining': '0'
    })
    // one fewer down result and the gate polls and passes
    emulator.history.set(c.id, past(1000))
    const ok = await gate({ 'check-id': c.id, slo: '99.8%' }, [c.id])
    expect(ok.core.outputs).toMatchObject({ outcome: 'passed', availability: '100', 'error-budget-remaining': '100' })
  })

  it('only results in [start - slo-window, start) count: older downs and downs at or after the start do not', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const inWindow = past(100) // the 100 minutes before the start
    const older = past(100, [...Array(100).keys()], 86_400_000).slice(2) // 3 to 100 days back, all down
    const after = [{ status: 'down', responseTime: 1, checkedAt: at(0) }]
    emulator.history.set(c.id, [...after, ...inWindow, ...older])
    const { core } = await gate({ 'check-id': c.id, 'slo-window': '2d' }, [c.id])
    expect(core.outputs).toMatchObject({ outcome: 'passed', availability: '100', 'error-budget-remaining': '100' })
    expect((resultOf(core) as Array<{ errorBudget: { results: number } }>)[0].errorBudget.results).toBe(100)
  })
})

describe('too few results, and a healthy budget', () => {
  it('fewer than 5 results with a status: skipped with a warning; the gate polls and passes; the outputs are empty', async () => {
    const c = emulator.seedCheck({ name: 'new-check', url: 'https://new.example.com/' })
    emulator.history.set(c.id, [...past(4, [0, 1, 2, 3]), { checkedAt: at(-30), responseTime: 5 }])
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(core.outputs).toMatchObject({
      outcome: 'passed',
      passed: 'true',
      availability: '',
      'error-budget-remaining': ''
    })
    const why = '4 result(s) with a status in the 30d before the step started (5 needed)'
    expect(core.logs).toContain(`warning: new-check (${c.id}): no error budget: ${why}; the budget is not judged.`)
    expect((resultOf(core) as Array<{ errorBudget: unknown }>)[0].errorBudget).toMatchObject({
      availability: null,
      remaining: null,
      spent: false,
      skipped: why
    })
    expect(core.summaryText).toContain(`new-check: no error budget: ${why}; the budget is not judged for it.`)
    expect(core.summaryText).toContain('| new-check | 30d | 4 | 0 | too few results (4) | 99\\.9 | not judged |')
    // The headline does not claim a budget it did not judge.
    expect(core.summaryText).toMatch(
      /Every check met: an error budget not spent \(99\.9% over 30d\), .* \(the error budget not judged for 1 of 1 check\(s\): see below\)/
    )
  })

  it('healthy: the gate passes with availability and error-budget-remaining of its check', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(2000, [7])) // 99.95%: half the budget left
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({
      passed: 'true',
      outcome: 'passed',
      availability: '99.95',
      'error-budget-remaining': '50'
    })
    expect(core.logs).toContain(
      `info: shop (${c.id}): availability 99.95% (1999 of 2000 result(s) up) in the 30d before the step started against an objective of 99.9%: error budget 50% left`
    )
    expect(core.summaryText).toContain('| shop | 30d | 2000 | 1999 | 99\\.95 | 99\\.9 | █████░░░░░ 50% left |')
    expect(core.summaryText).toContain('an error budget not spent (99.9% over 30d)')
    expect(core.summaryText).not.toContain('not judged for')
  })

  it('with baseline and consecutive-passes: one history read per check serves both; the gate passes on three results', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, past(200, [150]))
    const { core } = await gate(
      {
        'check-id': c.id,
        slo: '99%',
        'slo-window': '7d',
        baseline: '1h',
        'max-response-time-increase': '20%',
        'consecutive-passes': '3'
      },
      [c.id]
    )
    expect(core.outputs).toMatchObject({
      outcome: 'passed',
      'baseline-p95': '100',
      availability: '99.5',
      'error-budget-remaining': '50'
    })
    // 4 pages read once at the start (the budget's window holds the baseline's), then one read per newer result
    const reads = historyReads(emulator, c.id)
    expect(reads.slice(0, 4).map(r => r.path)).toEqual([
      `/checks/${c.id}/history`,
      ...[2, 3, 4].map(p => `/checks/${c.id}/history?page=${p}`)
    ])
    expect(core.logs.filter(l => l.includes(': baseline p95 ') || l.includes(': availability '))).toHaveLength(2)
  })
})

describe('long and faulty history reads', () => {
  it('7 days of a one-minute check (10,080 results, 202 pages of 50) are read past the usual 100-page cap, paced to 100 a minute', async () => {
    const c = roomy.seedCheck({ name: 'week', url: 'https://week.example.com/' })
    roomy.history.set(c.id, past(7 * 24 * 60 + 30, [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]))
    const clock = scripted(roomy, [c.id])
    const { core } = await gate({ 'check-id': c.id, 'slo-window': '7d', timeout: '5m' }, [c.id], {
      on: roomy,
      pacing: true,
      clock
    })
    expect(core.outputs).toMatchObject({ outcome: 'budget-exhausted', availability: '99.8908' })
    expect((resultOf(core) as Array<{ errorBudget: { results: number } }>)[0].errorBudget.results).toBe(10_080)
    // 202 pages hold the window; the 203rd, wholly older than it, ends the read
    expect(historyReads(roomy, c.id)).toHaveLength(203)
    // 203 requests (and the target's) at 100 a minute: more than two minutes of the step's clock
    expect(clock.elapsed()).toBeGreaterThanOrEqual(2 * 60_000)
  })

  it('a window that cannot be read within the timeout is an error, never a pass, and says what to do', async () => {
    const c = roomy.seedCheck({ name: 'week', url: 'https://week.example.com/' })
    roomy.history.set(c.id, past(7 * 24 * 60))
    const { core } = await gate({ 'check-id': c.id, 'slo-window': '7d', timeout: '1m' }, [c.id], {
      on: roomy,
      pacing: true
    })
    expect(core.outputs).toMatchObject({
      passed: 'false',
      outcome: 'error',
      availability: '',
      'error-budget-remaining': ''
    })
    expect(core.failed).toMatch(
      /^the error budget's window \(7d\) of week \(chk_\w+\) could not be read within the timeout \(60 s\): GET \/checks\/chk_\w+\/history\?page=\d+ was not sent: .* would pass the operation's time limit\. A long window of a frequent check takes many requests at the API's 100 a minute: raise timeout/
    )
    expect(polls(roomy, c.id)).toBe(1)
  })

  it('pages that repeat a row (offset paging while the service writes) count each result once', async () => {
    const c = roomy.seedCheck({ name: 'shifty', url: 'https://shifty.example.com/' })
    // 200 results, the down one the last of page 1: each later page starts a row early, so page 2 repeats
    // it (the last row comes on a further page). Counted twice, the figures would be 2 of 201 down.
    roomy.history.set(
      c.id,
      past(200, [49]).map((e, i) => ({ ...e, id: `h${i}` }))
    )
    roomy.inject({ method: 'GET', path: `/checks/${c.id}/history`, shift: 'repeat', times: Infinity })
    const { core } = await gate({ 'check-id': c.id, slo: '99%' }, [c.id], { on: roomy })
    const budget = (resultOf(core) as Array<{ errorBudget: { results: number; up: number } }>)[0].errorBudget
    expect(budget).toMatchObject({ results: 200, up: 199 })
    expect(core.outputs).toMatchObject({ outcome: 'passed', availability: '99.5', 'error-budget-remaining': '50' })
  })

  it('a slow history (each page 300 ms) within the timeout is read whole; an API error reading it is outcome error', async () => {
    const c = emulator.seedCheck({ name: 'slow', url: 'https://slow.example.com/' })
    emulator.history.set(c.id, past(120, [1, 2]))
    emulator.latency = { [`GET /checks/${c.id}/history`]: 300 }
    try {
      const { core } = await gate({ 'check-id': c.id, slo: '99.5%' }, [c.id])
      expect(core.outputs).toMatchObject({ outcome: 'budget-exhausted', availability: '98.3333' })
      expect(historyReads(emulator, c.id)).toHaveLength(3)
    } finally {
      emulator.latency = {}
    }
    emulator.inject({
      path: `/checks/${c.id}/history`,
      status: 500,
      body: { message: 'history on fire' },
      times: Infinity
    })
    const { core } = await gate({ 'check-id': c.id, 'max-retries': '0' }, [c.id])
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error', availability: '' })
    expect(core.failed).toMatch(/history failed: HTTP 500.*history on fire/)
  })

  it('a real-time read cut off at the deadline: outcome error within the timeout, no poll', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    emulator.latency = { [`GET /checks/${c.id}/history`]: 2_500 }
    try {
      const started = Date.now()
      const { core } = await runAction(
        emulator,
        { operation: 'wait-for-check', 'check-id': c.id, timeout: '800ms', slo: '99.9%', 'require-fresh': 'false' },
        { clock: realClock, env: { GITHUB_WORKSPACE: dir } }
      )
      expect(Date.now() - started).toBeLessThan(1_500)
      expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
      expect(core.failed).toMatch(
        /could not be read within the timeout \(0\.8 s\): GET \/checks\/chk_\w+\/history was cut off/
      )
      expect(emulator.requests.map(r => r.path)).toEqual([`/checks/${c.id}`, `/checks/${c.id}/history`])
    } finally {
      emulator.latency = {}
    }
  })

  it('a cancel (SIGINT) during the read ends the gate at once: outcome error, never a pass', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    const path = `/checks/${c.id}/history`
    emulator.inject({ method: 'GET', path, trickle: 'body', trickleIntervalMs: 100, trickleForMs: 20_000 })
    const signals = new EventEmitter()
    const running = runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, timeout: '60s', slo: '99.9%', 'junit-file': 'cancel.xml' },
      { clock: realClock, signals, env: { GITHUB_WORKSPACE: dir } }
    )
    const wait = setInterval(() => {
      if (emulator.count('GET', path) > 0) {
        clearInterval(wait)
        signals.emit('SIGINT')
      }
    }, 20)
    const started = Date.now()
    const { core } = await running
    clearInterval(wait)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.failed).toContain('the job is being cancelled')
    expect(readFileSync(join(dir, 'cancel.xml'), 'utf8')).toContain('<error')
    expect(polls(emulator, c.id)).toBe(1)
  })
})

describe('inputs', () => {
  /** The rule every refused slo states: the sign, the range and the decimals. */
  const SLO_RULE = 'a percentage with its % sign, above 0% and below 100%, with at most 6 decimals (99.9%, 99.95%)'

  it('each bad slo or slo-window is an input error naming it, before any request', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    for (const [inputs, message] of [
      [{ slo: '99.9' }, `slo must be ${SLO_RULE}, got "99.9": a bare number is refused`],
      [{ slo: '100%' }, `slo must be ${SLO_RULE}, got "100%": an objective of 100% or more has no budget`],
      [{ slo: '0%' }, `slo must be ${SLO_RULE}, got "0%": an objective of 0% allows every failure`],
      [{ slo: 'three nines' }, `slo must be ${SLO_RULE}, got "three nines": not a percentage`],
      [{ slo: '99.1234567%' }, `slo must be ${SLO_RULE}, got "99.1234567%": 7 decimals`],
      [{ 'slo-window': '91d' }, 'slo-window must be at most 90d, got "91d"'],
      [
        { 'slo-window': '30' },
        'slo-window "30" has no unit: write 30h or 30d (at most 90d; a bare number is refused here)'
      ],
      [{ 'slo-window': '0d' }, 'slo-window must be longer than 0'],
      [{ slo: '', 'slo-window': '7d' }, 'slo-window needs slo (an objective such as 99.9%)']
    ] as const) {
      const { core } = await gate({ 'check-id': c.id, ...inputs }, [])
      expect(core.failed).toContain(message)
      expect(core.outputs).toMatchObject({ outcome: 'error', passed: 'false' })
    }
    expect(emulator.count()).toBe(0)
  })

  it('slo for another operation is a warning that it is ignored', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-id': c.id, slo: '99.9%' })
    expect(core.logs).toContain('warning: slo applies to wait-for-check, not get-check: it is ignored.')
  })
})

describe('hostile names', () => {
  it('a name with Markdown, HTML and a workflow command stays data in the summary and the log', async () => {
    const c = emulator.seedCheck({ name: 'shop | <img src=x>\n::error::owned', url: 'https://s.example.com/' })
    emulator.history.set(c.id, past(100, [1, 2, 3]))
    const { core } = await gate({ 'check-id': c.id }, [c.id])
    expect(core.outputs.outcome).toBe('budget-exhausted')
    expect(core.summaryText).not.toContain('<img')
    expect(core.summaryText).toMatch(/\| shop \\\| &lt;img src=x&gt; ::error::owned \| 30d \| 100 \| 97 \|/)
    expect(core.logs.some(l => /\n::error::/.test(l))).toBe(false)
  })
})
