/**
 * The gate's baseline (src/operations/gate/baseline.ts) at its edges: which
 * response times count (0 ms does; a negative or endless one does not), an
 * empty status, rows whose time cannot be placed, the limit near the largest
 * number, and the words and JSON the log, the reports and the outputs carry.
 */
import { describe, expect, it } from '@jest/globals'
import type { HistoryEntry } from '../../src/api/schemas.js'
import { baselineJson, baselineOf, baselineText, increaseText, limitOf } from '../../src/operations/gate/baseline.js'
import { windowText } from '../../src/values/parse.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const HOUR = 3_600_000
const DAY = 86_400_000
const at = (msBefore: number) => new Date(START - msBefore).toISOString()
const row = (minutesBefore: number, status: string | undefined, responseTime: unknown): HistoryEntry => ({
  ...(status !== undefined ? { status } : {}),
  responseTime: responseTime as number,
  checkedAt: at(minutesBefore * 60_000)
})
const TWENTY = { percent: 20 }
const ofHour = (entries: HistoryEntry[]) => baselineOf(entries, START - HOUR, START, TWENTY)

describe('which results a baseline counts', () => {
  it('a response time of 0 ms counts; a negative, endless or non-number one does not', () => {
    const zeros = [1, 2, 3, 4, 5].map(m => row(m, 'up', 0))
    expect(ofHour(zeros)).toMatchObject({ results: 5, p95: 0, limitMs: 0, noResponseTime: 0 })
    const odd = [row(6, 'up', -1), row(7, 'up', Infinity), row(8, 'up', '120'), row(9, 'up', Number.NaN)]
    expect(ofHour([...zeros, ...odd])).toMatchObject({ results: 5, noResponseTime: 4, notUp: 0 })
  })

  it('an empty status is no status: counted; any other but up is left out as not up', () => {
    const b = ofHour([row(1, '', 100), row(2, '', 100), row(3, 'UP', 100), row(4, undefined, 100), row(5, 'up', 100)])
    expect(b).toMatchObject({ results: 5, notUp: 0, p95: 100 })
    const degraded = ofHour([row(1, 'degraded', 100), row(2, 'paused', 100), row(3, 'up', 100)])
    expect(degraded).toMatchObject({ results: 1, notUp: 2 })
  })

  it('a status not up is left out even when it has a response time: it is never a latency, nor a missing one', () => {
    const b = ofHour([...[1, 2, 3, 4, 5].map(m => row(m, 'up', 100)), row(6, 'down', null)])
    expect(b).toMatchObject({ notUp: 1, noResponseTime: 0 })
  })

  it('too few: the reason names the rows whose time cannot be placed, with the first such form', () => {
    const b = ofHour([
      row(1, 'up', 100),
      { status: 'up', responseTime: 100, checkedAt: 'yesterday' },
      { status: 'up', responseTime: 100, checkedAt: 'last week' },
      { status: 'up', responseTime: 100 }
    ])
    expect(b.skipped).toBe(
      '1 result(s) up with a response time in the 1h before the step started (5 needed; left out: 3 with a time the action cannot place, such as "yesterday")'
    )
    expect(ofHour([{ status: 'up', responseTime: 100 }]).skipped).toBe(
      '0 result(s) up with a response time in the 1h before the step started (5 needed; left out: 1 with a time the action cannot place, such as no checkedAt)'
    )
  })
})

describe('the limit', () => {
  it('is held to a finite number near the largest, and is the exact sum where only the hundredths overflow', () => {
    expect(limitOf(Number.MAX_VALUE, TWENTY)).toBe(Number.MAX_VALUE)
    expect(limitOf(Number.MAX_VALUE, { ms: 150 })).toBe(Number.MAX_VALUE)
    // 6e306 in hundredths overflows; the limit is the sum itself, not the largest number.
    expect(limitOf(5e306, TWENTY)).toBe(5e306 + (5e306 * 20) / 100)
    expect(limitOf(5e306, TWENTY)).toBeLessThan(Number.MAX_VALUE)
  })

  it('is rounded to a hundredth, half up', () => {
    expect(limitOf(100, { ms: 0.333 })).toBe(100.33)
    expect(limitOf(100, { ms: 0.335 })).toBe(100.34)
    expect(limitOf(10, { percent: 0.05 })).toBe(10.01) // 10.005
  })
})

describe('windowText and increaseText', () => {
  it('days only past a day and whole, else hours, minutes, seconds', () => {
    expect(windowText(30 * DAY)).toBe('30d')
    expect(windowText(2 * DAY)).toBe('2d')
    expect(windowText(DAY)).toBe('24h')
    expect(windowText(1.5 * DAY)).toBe('36h')
    expect(windowText(HOUR)).toBe('1h')
    expect(windowText(90 * 60_000)).toBe('90m')
    expect(windowText(60_000)).toBe('1m')
    expect(windowText(45_000)).toBe('45s')
    expect(windowText(1_500)).toBe('1.5s')
  })

  it('an increase as a percentage or as milliseconds', () => {
    expect(increaseText({ percent: 12.5 })).toBe('+12.5%')
    expect(increaseText({ ms: 150 })).toBe('+150 ms')
  })
})

describe('a baseline in words and as JSON', () => {
  const five = [1, 2, 3, 4, 5].map(m => row(m, 'up', 100 + m))

  it('in words: the p95, its results, the window, what was left out, and the limit', () => {
    expect(baselineText(ofHour(five), TWENTY)).toBe(
      'baseline p95 105 ms of 5 result(s) in the 1h before the step started; limit 126 ms (+20%)'
    )
    const left = baselineOf([...five, row(6, 'down', 100), row(7, 'up', null)], START - 2 * DAY, START, { ms: 50 })
    expect(baselineText(left, { ms: 50 })).toBe(
      'baseline p95 105 ms of 5 result(s) in the 2d before the step started (2 left out: not up or without a response time); limit 155 ms (+50 ms)'
    )
  })

  it('as JSON: null where unknown, the window as times, and why it was skipped when it was', () => {
    expect(baselineJson(undefined)).toBeNull()
    // Plain JSON: no key whose value is undefined (a baseline that was not skipped has no `skipped`).
    expect(baselineJson(ofHour(five))).toStrictEqual({
      p95: 105,
      limit: 126,
      results: 5,
      from: at(HOUR),
      to: at(0)
    })
    const skipped = ofHour(five.slice(0, 2))
    expect(baselineJson(skipped)).toEqual({
      p95: null,
      limit: null,
      results: 2,
      from: at(HOUR),
      to: at(0),
      skipped: skipped.skipped
    })
  })
})
