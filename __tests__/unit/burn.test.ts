/** The burn rate (src/operations/gate/burn.ts) and its input (src/values/parse-objective.ts), at their edges. */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { HistoryEntry } from '../../src/api/schemas.js'
import {
  type Burn,
  burnChart,
  burnJson,
  burnOf,
  burnText,
  fastestBurn,
  shortFrom
} from '../../src/operations/gate/burn.js'
import { parseBurnRate, parseSlo } from '../../src/values/parse-objective.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const MIN = 60_000
const HOUR = 60 * MIN
const at = (msBefore: number, status: string, id?: string): HistoryEntry => ({
  ...(id !== undefined ? { id } : {}),
  status,
  checkedAt: new Date(START - msBefore).toISOString()
})
/** One result a minute over the last `minutes` minutes (newest first); `down(i)` says which fail (i = minutes ago - 1). */
const minutely = (minutes: number, down: (i: number) => boolean): HistoryEntry[] =>
  Array.from({ length: minutes }, (_, i) => at((i + 1) * MIN, down(i) ? 'down' : 'up'))

// 99% leaves 1% to fail: a rate of 1 is 1 failure in 100 results; 10 is 1 in 10.
const SLO = parseSlo('99%')
const burn = (entries: HistoryEntry[], max = '10', windowMs = HOUR) =>
  burnOf(entries, START, windowMs, SLO, parseBurnRate(max))

describe('max-burn-rate', () => {
  it('a multiple kept exact; a percentage, 0, no number or 7 decimals refused with the rule', () => {
    expect(parseBurnRate('14.4')).toEqual({ multiple: 14.4, scaled: 144, scale: 10 })
    expect(parseBurnRate(' 6 ')).toEqual({ multiple: 6, scaled: 6, scale: 1 })
    expect(parseBurnRate('0.000001')).toEqual({ multiple: 0.000001, scaled: 1, scale: 1_000_000 })
    const rule = 'must be a number above 0 with at most 6 decimals'
    expect(() => parseBurnRate('14.4%')).toThrow(`${rule}`)
    expect(() => parseBurnRate('14.4%')).toThrow('a multiple, not a percentage')
    expect(() => parseBurnRate('0')).toThrow('a rate of 0')
    expect(() => parseBurnRate('0.000')).toThrow('a rate of 0')
    expect(() => parseBurnRate('fast')).toThrow('not a number')
    expect(() => parseBurnRate('-1')).toThrow('not a number')
    expect(() => parseBurnRate('1e3')).toThrow('not a number')
    expect(() => parseBurnRate('14.1234567')).toThrow('7 decimals')
    expect(() => parseBurnRate('99999999999999999')).toThrow('too large')
  })
})

describe('burnOf', () => {
  it('exactly at the max is not over: 6 of 60 failed at 99% is a rate of 10, and 10 passes', () => {
    // Every tenth minute failed, the newest first: the last 5 minutes hold 1 failure in 5 (rate 20).
    const b = burn(minutely(60, i => i % 10 === 0))
    expect(b.long).toMatchObject({ results: 60, failed: 6, rate: 10, judged: true, over: false })
    expect(b.short).toMatchObject({ results: 5, failed: 1, rate: 20, judged: true, over: true })
    expect(b.burning).toBe(false)
    // One failure more in the hour is over, in both windows: burning.
    const more = burn(minutely(60, i => i % 10 === 0 || i === 59))
    expect(more.long).toMatchObject({ failed: 7, over: true })
    expect(more.burning).toBe(true)
    // The same rate with a max a millionth lower is over.
    expect(
      burn(
        minutely(60, i => i % 10 === 0),
        '9.999999'
      ).long.over
    ).toBe(true)
  })

  it('over in the long window only: an old spike does not hold the release', () => {
    const b = burn(minutely(60, i => i >= 30 && i < 45))
    expect(b.long.over).toBe(true)
    expect(b.short).toMatchObject({ results: 5, failed: 0, rate: 0, over: false })
    expect(b.burning).toBe(false)
  })

  it('over in the short window only: a fresh blip does not hold it', () => {
    const b = burn(minutely(60, i => i < 3))
    expect(b.short.over).toBe(true)
    expect(b.long).toMatchObject({ failed: 3, rate: 5, over: false })
    expect(b.burning).toBe(false)
  })

  it('over in both: burning, and the text names both rates against the max', () => {
    const b = burn(minutely(60, i => i < 15))
    expect(b.burning).toBe(true)
    expect(burnText(b)).toBe(
      'burn rate 25 over 1h (15 of 60 result(s) failed), 100 over 5m (5 of 5 result(s) failed), against a max of 10: burning too fast'
    )
  })

  it('the windows are [start - window, start) and its last twelfth: each edge included at its start, never at the end', () => {
    const entries = [
      at(0, 'down'), // at the step's start: after both windows
      at(HOUR, 'down'), // the long window's first instant: in it
      at(HOUR + 1, 'down'), // before it
      at(5 * MIN, 'down'), // the short window's first instant
      at(5 * MIN + 1, 'up'),
      ...minutely(4, () => false)
    ]
    const b = burn(entries)
    expect(b.long).toMatchObject({ results: 7, failed: 2 })
    expect(b.short).toMatchObject({ results: 5, failed: 1 })
    expect(shortFrom(START, HOUR)).toBe(START - 5 * MIN)
    expect(b.short.from).toBe(START - 5 * MIN)
    expect(b.long.from).toBe(START - HOUR)
    expect([b.long.to, b.short.to]).toEqual([START, START])
  })

  it('statuses: up in any case is up; down, degraded and any other word failed; an entry without a status is no result', () => {
    const statuses = ['UP', ' Up ', 'Down', 'degraded', 'paused', '', '  ']
    const entries = statuses.flatMap((status, i) =>
      Array.from({ length: 2 }, (_, j) => at((i * 2 + j + 1) * MIN, status))
    )
    const b = burn(entries, '50')
    expect(b.long).toMatchObject({ results: 10, failed: 6 })
    expect(b.short).toMatchObject({ results: 5, failed: 1 })
    expect(burn([at(MIN, '')]).long.results).toBe(0)
  })

  it('rows that cannot be told apart: once when up, each time when failed; a row with an id once', () => {
    const same = (status: string) => at(2 * MIN, status)
    const b = burn([same('down'), same('down'), same('down'), same('up'), same('up'), ...minutely(1, () => false)], '1')
    expect(b.long).toMatchObject({ results: 5, failed: 3 })
    const ids = burn([
      at(MIN, 'down', 'r1'),
      at(MIN, 'down', 'r1'),
      ...minutely(4, () => false).map(e => ({ ...e, checkedAt: new Date(START - 3 * MIN).toISOString() }))
    ])
    expect(ids.long.failed).toBe(1)
  })

  it('rows whose time cannot be placed make the rate unknown, with how many and an example', () => {
    const b = burn([
      ...minutely(60, () => false),
      { status: 'down', checkedAt: 1_700_000_000_000 } as unknown as HistoryEntry,
      { status: 'up' }
    ])
    expect(b.burning).toBe(false)
    expect(b.unplaced).toEqual({ rows: 2, example: '1700000000000' })
    expect(burnText(b)).toBe(
      'burn rate unknown: 2 history row(s) with a time the action cannot place (such as 1700000000000): the burn rate is unknown'
    )
    expect(burnJson(b)).toMatchObject({ burning: false, unplaced: { rows: 2, example: '1700000000000' } })
  })

  it('a check probed every 10 minutes: the short window is not judged and the long one alone decides', () => {
    const entries = Array.from({ length: 6 }, (_, i) => at(i * 10 * MIN + 2 * MIN, i < 2 ? 'down' : 'up'))
    const b = burn(entries)
    expect(b.short).toMatchObject({ results: 1, failed: 1, judged: false, over: false })
    expect(b.long).toMatchObject({ results: 6, failed: 2, judged: true, over: true })
    expect(b.burning).toBe(true)
    expect(burnText(b)).toContain('the 5m window not judged (1 result(s), 5 needed: the 1h window alone decides)')
    // Not over in the long window: the short one, not judged, holds nothing.
    expect(burn(entries, '40').burning).toBe(false)
  })

  it('fewer than 5 results in the long window: not judged, never burning', () => {
    const b = burn(minutely(4, () => true))
    expect(b).toMatchObject({ burning: false })
    expect(b.long.judged).toBe(false)
    expect(burnText(b)).toBe(
      'no burn rate: 4 result(s) with a status in the 1h before the step started (5 needed); the burn rate is not judged'
    )
    expect(burn(minutely(5, () => true)).burning).toBe(true)
  })

  it('the chart: each twelfth of the long window, oldest first, by its share failed', () => {
    // The oldest five minutes: 3 of 5 failed (bar ceil(0.6 * 7) = 5); 20 to 25 minutes ago 1 of 6 (bar 2); the last five all.
    const b = burn([...minutely(60, i => i < 5 || (i >= 55 && i % 2 === 1)), at(20 * MIN + 30_000, 'down')])
    expect(burnChart(b)).toBe('▆▁▁▁▁▁▁▃▁▁▁█')
    expect(burnChart(burn([at(MIN, 'up')]))).toBe('···········▁')
    expect(burnChart(burn([at(HOUR, 'degraded')]))).toBe('█···········')
    // A window whose twelfth is not a whole millisecond: the last bar still starts where the short window does.
    const odd = 12 * MIN + 6 // a twelfth of 60,000.5 ms, the short window rounded to 60,001
    const edgeCase = burn([at(60_001, 'down'), ...[1, 2, 3, 4].map(k => at(k * 10_000, 'up'))], '10', odd)
    expect(edgeCase.short).toMatchObject({ results: 5, failed: 1 })
    expect(edgeCase.cells[11]).toEqual({ results: 5, failed: 1 })
    expect(edgeCase.cells[10]).toEqual({ results: 0, failed: 0 })
  })
})

describe("the guide's worked example (docs/guides/error-budget.md)", () => {
  it('99.9%, 1 of 60 failed in the hour and 1 of the last 5: 16.6666 and 200 against 14.4, burning', () => {
    const entries = minutely(60, i => i === 2)
    const b = burnOf(entries, START, HOUR, parseSlo('99.9%'), parseBurnRate('14.4'))
    expect(burnText(b)).toBe(
      'burn rate 16.6666 over 1h (1 of 60 result(s) failed), 200 over 5m (1 of 5 result(s) failed), against a max of 14.4: burning too fast'
    )
    const guide = readFileSync(new URL('../../docs/guides/error-budget.md', import.meta.url), 'utf8')
    expect(guide.replace(/\s+/g, ' ')).toContain(burnText(b).replace(/\s+/g, ' '))
    // None of the last five failed: the spike is over.
    expect(
      burnOf(
        minutely(60, i => i === 7),
        START,
        HOUR,
        parseSlo('99.9%'),
        parseBurnRate('14.4')
      ).burning
    ).toBe(false)
  })
})

describe('the rate against an objective that leaves more than one part to fail', () => {
  // 95% leaves 5 in 100 (allowed 5, not 1): a rate of 1 is 5 failures in 100 results.
  const SLO95 = parseSlo('95%')
  it('exact at the max: 6 of 60 failed at 95% is a rate of 2; a max of 2 passes, 1.99 does not', () => {
    const entries = minutely(60, i => i % 10 === 5)
    expect(burnOf(entries, START, HOUR, SLO95, parseBurnRate('2')).long).toMatchObject({ rate: 2, over: false })
    expect(burnOf(entries, START, HOUR, SLO95, parseBurnRate('1.99')).long).toMatchObject({ rate: 2, over: true })
    // 7 of 60: 2.3333, cut to 4 decimals.
    const seven = burnOf(
      minutely(60, i => i % 10 === 5 || i === 0),
      START,
      HOUR,
      SLO95,
      parseBurnRate('2')
    )
    expect(seven.long).toMatchObject({ failed: 7, rate: 2.3333, over: true })
    expect(seven.short).toMatchObject({ failed: 1, rate: 4, over: true })
  })
})

describe('burnText and burnJson', () => {
  it('a judged rate within the max says so; the JSON states each window whole, null where there is no rate', () => {
    const b = burn(minutely(60, i => i === 30))
    expect(burnText(b)).toBe(
      'burn rate 1.6666 over 1h (1 of 60 result(s) failed), 0 over 5m (0 of 5 result(s) failed), against a max of 10: within it'
    )
    expect(burnJson(b)).toStrictEqual({
      max: 10,
      burning: false,
      long: {
        window: '1h',
        rate: 1.6666,
        results: 60,
        failed: 1,
        judged: true,
        over: false,
        from: new Date(START - HOUR).toISOString(),
        to: new Date(START).toISOString()
      },
      short: {
        window: '5m',
        rate: 0,
        results: 5,
        failed: 0,
        judged: true,
        over: false,
        from: new Date(START - 5 * MIN).toISOString(),
        to: new Date(START).toISOString()
      }
    })
    const none = burnJson(burn([]))
    expect(none).toMatchObject({ long: { rate: null, results: 0 }, short: { rate: null, results: 0 } })
    expect(none?.skipped).toBe('0 result(s) with a status in the 1h before the step started (5 needed)')
    expect(burnJson(undefined)).toBeNull()
  })
})

describe('fastestBurn', () => {
  const track = (name: string, entries: HistoryEntry[]) => ({ name, burn: burn(entries) })
  it('a burning check before a faster one that is not; among equals the first; unjudged ones never', () => {
    const oldSpike = track(
      'old-spike',
      minutely(60, i => i >= 20)
    ) // long 66.6, short 0
    const burning = track(
      'burning',
      minutely(60, i => i < 10)
    )
    const burningFaster = track(
      'burning-faster',
      minutely(60, i => i < 12)
    )
    const few = track(
      'few',
      minutely(3, () => true)
    )
    expect(fastestBurn([few, oldSpike, burning, burningFaster])?.name).toBe('burning-faster')
    expect(fastestBurn([few, oldSpike])?.name).toBe('old-spike')
    // A burning check first stays the fastest, though one after it has a higher rate over the hour.
    expect(fastestBurn([burning, oldSpike])?.name).toBe('burning')
    expect(
      fastestBurn([
        burning,
        track(
          'again',
          minutely(60, i => i < 10)
        )
      ])?.name
    ).toBe('burning')
    expect(fastestBurn([few])).toBeUndefined()
    expect(fastestBurn<{ name: string; burn?: Burn }>([{ name: 'unread' }])).toBeUndefined()
  })
})
