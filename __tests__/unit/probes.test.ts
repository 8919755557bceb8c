/** When two records of a check are one probe (the probe ledger, src/operations/gate/ledger.ts). */
import { describe, expect, it } from '@jest/globals'
import { UNREPORTED_PROBE_MS, oneProbe, readingOf, toleranceOf } from '../../src/operations/gate/ledger.js'

/** A history record (the same-figures rule holds where a history record is one of the two). */
const seenOf = (time: unknown, rt?: unknown, status?: unknown) => readingOf('history', time, rt, status)

const T = '2026-11-25T04:43:11.600Z'
const seen = (time: string, rt?: unknown) => seenOf(time, rt) as NonNullable<ReturnType<typeof seenOf>>

describe('one probe, two records', () => {
  it('the history at the probe start (T - its duration) is the check’s result at T', () => {
    expect(oneProbe(seen(T, 1_000), seen('2026-11-25T04:43:10.600Z', 1_000))).toBe(true)
    // a millisecond for each time's precision
    expect(toleranceOf(seen(T, 1_000), seen('2026-11-25T04:43:10.600Z', 1_000))).toBe(1_002)
  })

  it('whole seconds beside milliseconds: a second of precision either way', () => {
    expect(oneProbe(seen(T, 5), seen('2026-11-25T04:43:11Z', 5))).toBe(true)
    expect(oneProbe(seen(T, 5), seen('2026-11-25T04:43:12Z', 5))).toBe(true) // rounded up
    expect(toleranceOf(seen(T, 5), seen('2026-11-25 04:43:11', 5))).toBe(5 + 1 + 1_000)
  })

  it('two probes further apart than a duration and the precisions are two, when their figures differ', () => {
    expect(oneProbe(seen(T, 100), seen('2026-11-25T04:43:41.600Z', 120))).toBe(false)
    expect(oneProbe(seen(T, 100), seen('2026-11-25T04:43:13Z', 120))).toBe(false)
    expect(oneProbe(seenOf(T, 100, 'up')!, seenOf('2026-11-25T04:43:13Z', 100, 'down')!)).toBe(false)
    // the same figures further apart than the longest probe: two
    expect(oneProbe(seen(T, 100), seen('2026-11-25T04:43:45Z', 100))).toBe(false)
  })

  it('the same figures (response time, status) within the longest probe are one: a history stamped at the scheduled start', () => {
    // The check: finished at T after 20 ms; its history: a second earlier, as a service that stamps the start does.
    expect(oneProbe(seenOf(T, 20, 'up')!, seenOf('2026-11-25T04:43:10.600Z', 20, 'UP')!)).toBe(true)
    // ... and in whole seconds too
    expect(oneProbe(seenOf(T, 20, 'up')!, seenOf('2026-11-25T04:43:10Z', 20, 'up')!)).toBe(true)
    // a response time rounded differently in each record is the same figure
    expect(oneProbe(seenOf(T, 20, 'up')!, seenOf('2026-11-25T04:43:10.600Z', 21, 'up')!)).toBe(true)
    expect(oneProbe(seenOf(T, 20, 'up')!, seenOf('2026-11-25T04:43:10.600Z', 40, 'up')!)).toBe(false)
    // two probes 1.4 s apart with the same figures cannot be told from one: counted once (fewer, never more)
    expect(oneProbe(seen(T, 100), seen('2026-11-25T04:43:13Z', 100))).toBe(true)
  })

  it('without any response time the probe may have lasted up to 30 s: records that close are one (fewer, never more)', () => {
    expect(UNREPORTED_PROBE_MS).toBe(30_000)
    expect(oneProbe(seen(T), seen('2026-11-25T04:43:40Z'))).toBe(true)
    expect(oneProbe(seen(T, null), seen('2026-11-25T04:43:43Z', 'fast'))).toBe(false)
    // one record without its duration says nothing of it: it may have lasted the longest
    expect(oneProbe(seen(T, 200), seen('2026-11-25T04:43:40Z'))).toBe(true)
    expect(oneProbe(seen(T, 20), seen('2026-11-25T04:43:09.600Z'))).toBe(true) // a history without responseTime
    expect(oneProbe(seen(T, 200), seen('2026-11-25T04:43:45Z'))).toBe(false)
  })

  it('a time that cannot be placed is no record; a negative or endless response time is not a duration', () => {
    expect(seenOf('Nov 25 2026 04:43:11', 10)).toBeUndefined()
    expect(seenOf(T, -5)).toEqual({ from: 'history', at: Date.parse(T), precisionMs: 1 })
    expect(seenOf(T, Infinity)).toEqual({ from: 'history', at: Date.parse(T), precisionMs: 1 })
  })
})
