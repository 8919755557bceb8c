/** The gate's baseline: which history entries count, their p95, the limit, and a result judged against it. */
import { describe, expect, it } from '@jest/globals'
import { newestFirstUntil } from '../../src/api/monitoring.js'
import { MIN_BASELINE_RESULTS, baselineOf, baselineText, limitOf } from '../../src/operations/gate/baseline.js'
import { judge } from '../../src/operations/gate/judge.js'
import { percentile } from '../../src/operations/gate/stats.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const HOUR = 3_600_000
const at = (msBefore: number) => new Date(START - msBefore).toISOString()
const up = (msBefore: number, responseTime: number) => ({ status: 'up', responseTime, checkedAt: at(msBefore) })
const twenty = { percent: 20 }

describe('baselineOf', () => {
  it('is the nearest-rank p95 of the up results in [start - window, start), as check-history computes it', () => {
    const times = [100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 900]
    const entries = times.map((t, i) => up((i + 1) * 60_000, t))
    const b = baselineOf(entries, START - HOUR, START, twenty)
    expect(b.p95).toBe(percentile(times, 95))
    expect(b.p95).toBe(280) // 20 values: rank ceil(0.95 * 20) = 19
    expect(b).toMatchObject({ results: 20, limitMs: 336, notUp: 0, noResponseTime: 0 })
    expect(b.skipped).toBeUndefined()
  })

  it('leaves out results outside the window: older fast ones never lower it, nor one at or after the start', () => {
    const inside = [200, 210, 220, 230, 240].map((t, i) => up((i + 1) * 60_000, t))
    const older = Array.from({ length: 50 }, (_, i) => up(HOUR + (i + 1) * 60_000, 20))
    const atStart = [up(0, 5), up(-60_000, 5)]
    const b = baselineOf([...older, ...inside, ...atStart], START - HOUR, START, twenty)
    expect(b).toMatchObject({ results: 5, p95: 240, limitMs: 288 })
    // exactly at start - window is inside
    expect(baselineOf([...inside, up(HOUR, 1_000)], START - HOUR, START, twenty).p95).toBe(1_000)
  })

  it('leaves out results that were not up (a down probe times out: not latency), undated ones and those without a response time', () => {
    const entries = [
      ...[100, 100, 100, 100, 100].map((t, i) => up((i + 1) * 60_000, t)),
      { status: 'down', responseTime: 30_000, checkedAt: at(10 * 60_000) },
      { status: 'DOWN', responseTime: 30_000, checkedAt: at(11 * 60_000) },
      { status: 'paused', responseTime: null, checkedAt: at(12 * 60_000) },
      { status: 'up', responseTime: null, checkedAt: at(13 * 60_000) },
      { status: 'up', checkedAt: at(14 * 60_000) },
      { status: 'up', responseTime: 5_000, checkedAt: null },
      { status: 'up', responseTime: 5_000, checkedAt: 'yesterday' },
      { status: 'up', responseTime: 5_000 }
    ]
    const b = baselineOf(entries, START - HOUR, START, twenty)
    expect(b).toMatchObject({ results: 5, p95: 100, limitMs: 120, notUp: 3, noResponseTime: 2 })
  })

  it('counts an entry without a status (the API does not promise one) and a status UP in any case', () => {
    const entries = [
      { responseTime: 100, checkedAt: at(60_000) },
      { status: 'Up', responseTime: 100, checkedAt: at(120_000) },
      ...[100, 100, 100].map((t, i) => up((i + 3) * 60_000, t))
    ]
    expect(baselineOf(entries, START - HOUR, START, twenty).results).toBe(5)
  })

  it('counts each probe time once, should a shifting page show a row twice', () => {
    const five = [100, 100, 100, 100, 300].map((t, i) => up((i + 1) * 60_000, t))
    const b = baselineOf([...five, five[4], five[4], five[4]], START - HOUR, START, twenty)
    expect(b).toMatchObject({ results: 5 })
  })

  it('two distinct entries at the same instant both count; a repeated row (same id, or the same entry) once', () => {
    const same = at(60_000)
    const entries = [
      ...[100, 100, 100, 100].map((t, i) => up((i + 2) * 60_000, t)),
      { status: 'up', responseTime: 900, checkedAt: same, region: 'eu' },
      { status: 'up', responseTime: 100, checkedAt: same, region: 'us' },
      { status: 'down', responseTime: 30_000, checkedAt: same, region: 'ap' },
      { status: 'up', responseTime: 100, checkedAt: same, region: 'us' }, // the same entry again
      { id: 'h1', status: 'up', responseTime: 800, checkedAt: at(7 * 60_000) },
      { id: 'h1', status: 'up', responseTime: 800, checkedAt: at(7 * 60_000), note: 're-read' } // same id
    ]
    const b = baselineOf(entries, START - HOUR, START, twenty)
    expect(b).toMatchObject({ results: 7, notUp: 1, p95: 900 })
  })

  it('a limit is always finite, however large the p95', () => {
    for (const p95 of [1e306, 1e308, Number.MAX_VALUE]) {
      expect(Number.isFinite(limitOf(p95, twenty))).toBe(true)
      expect(Number.isFinite(limitOf(p95, { ms: 150 }))).toBe(true)
      expect(limitOf(p95, twenty)).toBeGreaterThanOrEqual(p95)
    }
  })

  it(`fewer than ${MIN_BASELINE_RESULTS} results: skipped, with why, and no p95 or limit`, () => {
    const entries = [
      ...[100, 100, 100, 100].map((t, i) => up((i + 1) * 60_000, t)),
      { status: 'down', responseTime: 30_000, checkedAt: at(10 * 60_000) },
      { status: 'up', responseTime: null, checkedAt: at(11 * 60_000) }
    ]
    const b = baselineOf(entries, START - HOUR, START, twenty)
    expect(b.p95).toBeUndefined()
    expect(b.limitMs).toBeUndefined()
    expect(b.skipped).toBe(
      '4 result(s) up with a response time in the 1h before the step started (5 needed; left out: 1 not up, 1 without a response time)'
    )
    expect(baselineText(b, twenty)).toBe(`no baseline: ${b.skipped}; the comparison is skipped`)
    expect(baselineOf([], START - 30 * 60_000, START, twenty).skipped).toBe(
      '0 result(s) up with a response time in the 30m before the step started (5 needed)'
    )
  })
})

describe('limitOf', () => {
  it('adds a percentage of the p95, or a duration', () => {
    expect(limitOf(120, { percent: 20 })).toBe(144)
    expect(limitOf(123, { percent: 12.5 })).toBe(138.38)
    expect(limitOf(120, { percent: 0 })).toBe(120)
    expect(limitOf(120, { ms: 150 })).toBe(270)
  })
})

describe('judge with a baseline', () => {
  const baseline = baselineOf(
    [120, 120, 120, 120, 120].map((t, i) => up((i + 1) * 60_000, t)),
    START - HOUR,
    START,
    twenty
  )
  const rules = { expectedStatus: 'up', increase: twenty }
  const result = (responseTime: number | null) => ({ id: 'c', status: 'up', responseTime, lastCheckedAt: at(-1000) })

  it('passes a result at the limit, misses one above it naming the result, the limit and the baseline p95', () => {
    expect(judge(result(144), rules, baseline).passed).toBe(true)
    expect(judge(result(250), rules, baseline).missed).toEqual([
      'response time 250 ms is above the limit 144 ms (baseline p95 120 ms +20%)'
    ])
    expect(judge(result(null), rules, baseline).missed).toEqual(['no response time reported'])
  })

  it('a skipped baseline judges nothing; max-response-time still applies beside it', () => {
    const skipped = baselineOf([], START - HOUR, START, twenty)
    expect(judge(result(10_000), rules, skipped).passed).toBe(true)
    expect(judge(result(250), { ...rules, maxResponseTimeMs: 200 }, baseline).missed).toEqual([
      'response time 250 ms is above 200 ms',
      'response time 250 ms is above the limit 144 ms (baseline p95 120 ms +20%)'
    ])
    // one missing response time is said once
    expect(judge(result(null), { ...rules, maxResponseTimeMs: 200 }, baseline).missed).toEqual([
      'no response time reported'
    ])
  })
})

describe('newestFirstUntil: when a history read may stop', () => {
  const from = START - HOUR
  const page = (...msBefore: number[]) => msBefore.map(ms => up(ms, 100))

  it('stops at the first page wholly older than the window while the pages read are newest first', () => {
    const enough = newestFirstUntil(from)
    expect(enough(page(1_000, 2_000))).toBe(false)
    expect(enough(page(HOUR - 1, HOUR + 1))).toBe(false) // part of it is in the window
    expect(enough(page(HOUR + 2, HOUR + 2, 2 * HOUR))).toBe(true) // equal times keep the order
  })

  it('never stops once an entry is out of order or undated: the order is not known', () => {
    const unordered = newestFirstUntil(from)
    expect(unordered(page(2_000, 1_000))).toBe(false)
    expect(unordered(page(2 * HOUR, 3 * HOUR))).toBe(false)
    const undated = newestFirstUntil(from)
    expect(undated([{ status: 'up', responseTime: 100 }, ...page(1_000)])).toBe(false)
    expect(undated(page(2 * HOUR))).toBe(false)
    expect(newestFirstUntil(from)([])).toBe(false)
  })
})
