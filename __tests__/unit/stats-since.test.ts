import { describe, expect, it } from '@jest/globals'
import { parseSince } from '../../src/values/parse.js'
import { ago, percentile, sparkline, spreadOf } from '../../src/operations/gate/stats.js'

describe('since', () => {
  it('takes durations of minutes, hours (past 24) and days', () => {
    expect(parseSince('90m')).toEqual({ agoMs: 90 * 60_000 })
    expect(parseSince('48h')).toEqual({ agoMs: 48 * 3_600_000 })
    expect(parseSince('7d')).toEqual({ agoMs: 7 * 86_400_000 })
  })

  it('takes a date (midnight UTC) or a time with its offset', () => {
    expect(parseSince('2026-11-23')).toEqual({ at: Date.UTC(2026, 10, 23) })
    expect(parseSince('2026-11-23T08:00:00Z')).toEqual({ at: Date.UTC(2026, 10, 23, 8) })
    expect(parseSince('2026-11-23T10:00:00+02:00')).toEqual({ at: Date.UTC(2026, 10, 23, 8) })
  })

  it('refuses junk, a day that does not exist, a time without an offset, and more than a year', () => {
    expect(() => parseSince('2026-11-23 junk')).toThrow(/must be a duration \(90m, 48h, 7d\) or an ISO 8601 time/)
    expect(() => parseSince('2026-02-31')).toThrow('names a day that does not exist')
    expect(() => parseSince('2026-11-23T08:00:00')).toThrow(/ISO 8601 time with its offset/)
    expect(() => parseSince('400d')).toThrow('reaches back more than 366 days')
    expect(() => parseSince('yesterday')).toThrow(/must be a duration/)
  })
})

describe('figures', () => {
  it('relative times round first, then choose the unit', () => {
    const now = Date.UTC(2026, 10, 23, 8)
    const before = (s: number) => new Date(now - s * 1000).toISOString()
    expect(ago(before(59), now)).toBe('59 s ago (07:59:01 UTC)')
    expect(ago(before(3570), now)).toBe('1 h ago (07:00:30 UTC)')
    expect(ago(before(23.6 * 3600), now)).toMatch(/^1 d ago/)
    expect(ago(new Date(now + 5000).toISOString(), now)).toBe('in 5 s (08:00:05 UTC)')
    expect(ago(null, now)).toBe('never')
  })

  it('p95 is the nearest rank; min/avg over many values without a stack overflow; a sparkline per value', () => {
    expect(percentile([], 95)).toBeUndefined()
    expect(percentile([5], 95)).toBe(5)
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95
      )
    ).toBe(95)
    const many = Array.from({ length: 300_000 }, (_, i) => i % 1000)
    expect(spreadOf(many)).toEqual({ min: 0, avg: 500, p95: 949 })
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█')
    expect(sparkline([3, 3])).toBe('▁▁')
    expect(sparkline(Array.from({ length: 400 }, (_, i) => i)).length).toBe(40)
  })
})
