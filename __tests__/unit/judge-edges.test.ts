/**
 * The gate's judgement and its counting rule at their edges
 * (src/operations/gate/judge.ts; contract: "wait-for-status"): a status
 * empty, missing or in another case, a response time equal to a limit, a
 * baseline's limit with and without `max-response-time`, a time that cannot
 * be read, and what each kind of reading (new, repeat, before the step,
 * maybe before it, unplaceable, late) does to the count and the timeline.
 */
import { describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import type { Baseline } from '../../src/operations/gate/baseline.js'
import {
  type GateRules,
  type Track,
  countText,
  describeCheck,
  judge,
  observe,
  reasonOf
} from '../../src/operations/gate/judge.js'
import { checkReading, entryReading, openLedger } from '../../src/operations/gate/ledger.js'

const T0 = Date.parse('2026-03-01T10:00:00.000Z')
const at = (ms: number) => new Date(T0 + ms).toISOString()
const UP: GateRules = { expectedStatus: 'up' }

describe('judge at its edges', () => {
  it('an empty or missing status never passes, whatever is expected; case never matters', () => {
    for (const status of ['', undefined, null])
      expect(judge({ id: 'c', status } as Check, UP)).toEqual({
        passed: false,
        missed: ['status is empty, expected up']
      })
    expect(judge({ id: 'c', status: 'UP' }, { expectedStatus: 'Up' }).passed).toBe(true)
    expect(judge({ id: 'c', status: 'down' }, UP).missed).toEqual(['status is down, expected up'])
  })

  it("a baseline's limit: equal passes, above misses with the baseline named; no time is a miss once", () => {
    const baseline = { limitMs: 400, p95: 200 } as Baseline
    const rules: GateRules = { ...UP, increase: { percent: 100 } }
    expect(judge({ id: 'c', status: 'up', responseTime: 400 }, rules, baseline).passed).toBe(true)
    const above = judge({ id: 'c', status: 'up', responseTime: 401 }, rules, baseline)
    expect(above.passed).toBe(false)
    expect(above.missed).toHaveLength(1)
    expect(above.missed[0]).toMatch(/^response time 401 ms is above the limit 400 ms \(baseline p95 200 ms /)
    // Without a response time: one miss, said once even with max-response-time too.
    expect(judge({ id: 'c', status: 'up' }, rules, baseline).missed).toEqual(['no response time reported'])
    expect(judge({ id: 'c', status: 'up' }, { ...rules, maxResponseTimeMs: 500 }, baseline).missed).toEqual([
      'no response time reported'
    ])
    // Without `increase`, or a baseline without a limit (too few results), the baseline judges nothing.
    expect(judge({ id: 'c', status: 'up', responseTime: 900 }, UP, baseline).passed).toBe(true)
    expect(judge({ id: 'c', status: 'up', responseTime: 900 }, rules, { p95: 200 } as Baseline).passed).toBe(true)
  })

  it('require-fresh: a time the action cannot read is named, never counted as fresh; a readable one passes (whether it is fresh is for the ledger)', () => {
    const rules = { ...UP, requireFresh: true }
    expect(judge({ id: 'c', status: 'up', lastCheckedAt: ' yesterday ' }, rules).missed).toEqual([
      'last checked "yesterday", a time in a form the action cannot read: never counted as fresh'
    ])
    expect(judge({ id: 'c', status: 'up', lastCheckedAt: '   ' }, rules).missed).toEqual(['never checked'])
    expect(judge({ id: 'c', status: 'up', lastCheckedAt: at(0) }, rules).passed).toBe(true)
  })
})

describe('what a check shows', () => {
  it("describeCheck names the check, or its id without a name, and '-' or 'never' for what it lacks", () => {
    expect(describeCheck({ id: 'c1', name: 'shop', status: 'up', responseTime: 120, lastCheckedAt: at(0) })).toBe(
      `shop (c1): status up, response time 120 ms, checked ${at(0)}`
    )
    expect(describeCheck({ id: 'c1' })).toBe('c1 (c1): status -, response time - ms, checked never')
  })

  it('the count never shows past its target; the reason names the misses, or the count met', () => {
    const track = { streak: 3, verdict: { passed: true, missed: [] } } as unknown as Track
    expect(countText(track, 2)).toBe('2/2')
    expect(countText({ ...track, streak: 1 }, 2)).toBe('1/2')
    expect(reasonOf(track, 3)).toBe('met the condition in 3 of 3 results in a row')
    expect(reasonOf({ ...track, verdict: { passed: false, missed: ['a', 'b'] } }, 3)).toBe('a; b')
    expect(reasonOf({ ...track, verdict: undefined }, 3)).toBe('not polled before the time limit')
  })
})

describe('observe: what each reading does to the count', () => {
  const first: Check = { id: 'c', status: 'up', responseTime: 100, lastCheckedAt: at(0) }
  const trackOf = (fresh: boolean): Track => ({
    check: first,
    streak: 0,
    ledger: openLedger(first, T0 - 60_000, fresh),
    marks: [],
    times: []
  })
  const result = (check: Check) => ({ check, reading: checkReading(check) })
  const probe = (ms: number, status = 'up', responseTime: number | null = 100): Check => ({
    id: 'c',
    status,
    ...(responseTime !== null ? { responseTime } : {}),
    lastCheckedAt: at(ms)
  })

  it('a new pass counts, a repeat adds nothing, a new miss resets; passed once the count is met', () => {
    const track = trackOf(false)
    expect(observe(track, result(probe(60_000)), UP, 2, false)).toBe('met the condition')
    expect(observe(track, result(probe(60_000)), UP, 2, false)).toBe('no new result since the last poll')
    expect(observe(track, result(probe(120_000)), UP, 2, false)).toBe('passed')
    expect(observe(track, result(probe(120_000)), UP, 2, false)).toBe('passed')
    expect(track.streak).toBe(2)
    expect(observe(track, result(probe(180_000, 'down')), UP, 2, false)).toBe('status is down, expected up')
    expect(track.streak).toBe(0)
    expect(track.marks).toEqual(['✅', '↺', '✅', '↺', '❌'])
    expect(track.times).toEqual([100, 100, 100])
  })

  it('a repeat that misses resets: fewer passes, never more', () => {
    const track = trackOf(false)
    observe(track, result(probe(60_000)), UP, 3, false)
    expect(observe(track, result(probe(60_000)), { ...UP, maxResponseTimeMs: 50 }, 3, false)).toBe(
      'response time 100 ms is above 50 ms'
    )
    expect(track.streak).toBe(0)
    expect(track.marks).toEqual(['✅', '❌'])
  })

  it('a repeat is not a probe: a chain of readings each within one probe of the last counts those further apart', () => {
    // 100 ms probes read 80 ms apart: the second is the first again, the third (160 ms from the first) is new.
    const track = trackOf(false)
    for (const ms of [60_000, 60_080, 60_160]) observe(track, result(probe(ms)), UP, 3, false)
    expect(track.marks).toEqual(['✅', '↺', '✅'])
    expect(track.streak).toBe(2)
  })

  it('a new miss on two counts names both, joined', () => {
    const track = trackOf(false)
    expect(observe(track, result(probe(60_000, 'down', 300)), { ...UP, maxResponseTimeMs: 50 }, 1, false)).toBe(
      'status is down, expected up; response time 300 ms is above 50 ms'
    )
  })

  it('a result from before the step is neither a pass nor a miss; its time is shown', () => {
    const track = trackOf(true)
    const text = observe(track, result(first), { ...UP, requireFresh: true }, 1, false)
    expect(text).toBe(`last checked ${at(0)}, before this step started (stale), neither a pass nor a miss`)
    expect(track.verdict).toEqual({ passed: false, missed: [text], beforeStep: true })
    expect(track.marks).toEqual(['⏮'])
    expect(track.streak).toBe(0)
  })

  it('a reading maybe from before the step: a pass does not count, a miss resets', () => {
    // Whole seconds around the line: the first read's result at 0.5 s, a reading stamped in the same second.
    const coarse: Check = { ...first, lastCheckedAt: at(500) }
    const maybe = { ...first, lastCheckedAt: '2026-03-01T10:00:00Z' }
    const passing = trackOf(true)
    passing.ledger = openLedger(coarse, T0 - 60_000, true)
    observe(passing, result(maybe), { ...UP, requireFresh: true }, 1, false)
    expect(passing.marks).toEqual(['⏮'])
    const missing = trackOf(true)
    missing.ledger = openLedger(coarse, T0 - 60_000, true)
    missing.streak = 1
    observe(missing, result({ ...maybe, status: 'down' }), { ...UP, requireFresh: true }, 2, false)
    expect(missing.marks).toEqual(['❌'])
    expect(missing.streak).toBe(0)
  })

  it('an answer after the timeout never counts, even a new pass', () => {
    const track = trackOf(false)
    expect(observe(track, result(probe(60_000)), UP, 1, true)).toBe('the answer arrived after the timeout')
    expect(track.streak).toBe(0)
    expect(track.marks).toEqual(['❌'])
    expect(track.verdict).toEqual({ passed: false, missed: ['the answer arrived after the timeout'] })
  })

  it('a new probe without a response time counts but adds no time; a history row seen again is no poll', () => {
    const track = trackOf(false)
    observe(track, result(probe(60_000, 'up', null)), UP, 3, false)
    expect(track.times).toEqual([])
    const row = { id: 'h1', status: 'up', responseTime: 100, checkedAt: at(120_000) }
    observe(track, { check: probe(120_000), reading: entryReading(row) }, UP, 3, false)
    observe(track, { check: probe(120_000), reading: entryReading(row) }, UP, 3, false)
    expect(track.marks).toEqual(['✅', '✅'])
    expect(track.streak).toBe(2)
  })
})
