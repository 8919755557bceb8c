/** The probe ledger at its edges (src/operations/gate/ledger.ts): what a reading is, and how a window's rows count. */
import { describe, expect, it } from '@jest/globals'
import { budgetOf } from '../../src/operations/gate/budget.js'
import { judge } from '../../src/operations/gate/judge.js'
import {
  KEPT,
  between,
  checkReading,
  decide,
  entryReading,
  oneProbe,
  openLedger,
  readingOf,
  record,
  takeOnce,
  toleranceOf,
  windowRows
} from '../../src/operations/gate/ledger.js'
import { parseSlo } from '../../src/values/parse-objective.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const at = (s: number) => new Date(START + s * 1000).toISOString()
const check = (time: string | undefined, responseTime?: number, status = 'up') =>
  checkReading({ id: 'c', status, responseTime, lastCheckedAt: time })
const counted = (...readings: Array<ReturnType<typeof check>>) => {
  const ledger = openLedger({ id: 'c' }, START, true)
  for (const r of readings) record(ledger, r!)
  return ledger
}

describe('what a reading is', () => {
  it('equal times are one probe: a repeat', () => {
    expect(decide(counted(check(at(5), 40)), check(at(5), 40))).toBe('repeat')
  })

  it('whole seconds beside milliseconds, at two polls: one probe (a second of precision plus the duration)', () => {
    const ledger = counted(check('2026-11-23T08:00:06Z', 40))
    expect(decide(ledger, check('2026-11-23T08:00:06.480Z', 40))).toBe('repeat')
    expect(decide(ledger, check('2026-11-23T08:00:07.100Z', 40))).toBe('new')
  })

  it('two readings with different response times: the tolerance is from the larger; durations within max(2 ms, 5%) are close', () => {
    const a = readingOf('check', at(5), 100)!
    const b = readingOf('check', at(5.9), 950)!
    expect(toleranceOf(a, b)).toBe(950 + 1 + 1)
    expect(oneProbe(a, b)).toBe(true)
    expect(oneProbe(a, readingOf('check', at(6.2), 950)!)).toBe(false)
    // a history entry stamped 10 s earlier with the same figures: one probe; a response time 6% off: two
    const h = (rt: number) => readingOf('history', at(-5), rt, 'up')!
    expect(oneProbe(readingOf('check', at(5), 100, 'up')!, h(105))).toBe(true)
    expect(oneProbe(readingOf('check', at(5), 100, 'up')!, h(106))).toBe(false)
    expect(oneProbe(readingOf('check', at(5), 1, 'up')!, h(3))).toBe(true) // within 2 ms
  })

  it('fresh is newer than the first read showed; without one, than the start, with no allowance', () => {
    const none = openLedger({ id: 'c' }, START, true)
    // exactly at the old 5 s allowance, inside it, at the start: all before the step
    expect(decide(none, check(at(-5), 40))).toBe('before-step')
    expect(decide(none, check(at(-2.4), 40))).toBe('before-step')
    expect(decide(none, check(at(0), 40))).toBe('before-step')
    expect(decide(none, check(at(0.001), 40))).toBe('new')
    const shown = openLedger({ id: 'c', lastCheckedAt: at(3), responseTime: 40 }, START, true)
    expect(decide(shown, check(at(3), 40))).toBe('before-step')
    // The same probe at another precision, or a new one within its duration: maybe the first read's probe
    // (a pass there does not count; a miss resets: judge.ts).
    expect(decide(shown, check('2026-11-23T08:00:03.020Z', 40))).toBe('maybe-before')
    // Whole seconds around the line: 08:00:03 may be after 08:00:03.040: maybe before; a second earlier is before.
    const line = openLedger({ id: 'c', lastCheckedAt: '2026-11-23T08:00:03.040Z', responseTime: 40 }, START, true)
    expect(decide(line, check('2026-11-23T08:00:02Z', 40, 'down'))).toBe('before-step')
    expect(decide(line, readingOf('history', '2026-11-23T08:00:03Z', 10_000, 'down'))).toBe('maybe-before')
    // The first read's own time, to the millisecond: that result, before the step.
    expect(decide(line, check('2026-11-23T08:00:03.040Z', 40))).toBe('before-step')
    expect(decide(shown, check(at(4), 40))).toBe('new')
    // without require-fresh, nothing is before the step
    expect(decide(openLedger({ id: 'c' }, START, false), check(at(-60), 40))).toBe('new')
  })

  it('a time it cannot place is unplaceable; an older one than the newest counted adds nothing', () => {
    expect(decide(counted(), check('Nov 23 2026 08:00:05', 40))).toBe('unplaceable')
    expect(decide(counted(), check(undefined))).toBe('unplaceable')
    expect(decide(counted(check(at(9), 40)), check(at(5), 40))).toBe('repeat')
    // Without freshness: after a placed result is counted, an unplaced one cannot be told new: fewer, never more.
    const loose = openLedger({ id: 'c' }, START, false)
    record(loose, check(at(5), 40))
    expect(decide(loose, check(undefined))).toBe('unplaceable')
  })

  it('at the edges: a time exactly the tolerance apart is one probe; one at the newest counted time adds nothing', () => {
    // 100 ms probes at millisecond precision: within 100 + 1 + 1 ms is one probe, a millisecond more is two.
    const a = readingOf('check', at(5), 100, 'up')!
    expect(oneProbe(a, readingOf('check', at(5.102), 100, 'up')!)).toBe(true)
    expect(oneProbe(a, readingOf('check', at(5.103), 100, 'up')!)).toBe(false)
    // Another status at the very time counted cannot be told newer: it adds nothing.
    expect(decide(counted(check(at(5), 40, 'down')), check(at(5), 40, 'up'))).toBe('repeat')
  })

  it('a whole second that ends at the freshness line is before the step, not maybe: a miss there never resets', () => {
    const line = openLedger({ id: 'c', lastCheckedAt: '2026-11-23T08:00:03.000Z', responseTime: 40 }, START, true)
    expect(decide(line, check('2026-11-23T08:00:02Z', 40, 'down'))).toBe('before-step')
  })

  it('an upper-case status is the same status; an empty or missing one never passes', () => {
    expect(entryReading({ checkedAt: at(1), status: 'UP' })?.status).toBe('up')
    expect(entryReading({ checkedAt: at(1), status: 'PAUSED' })?.status).toBe('paused')
    expect(judge({ id: 'c', status: 'UP' }, { expectedStatus: 'up' }).passed).toBe(true)
    expect(judge({ id: 'c', status: 'PAUSED' }, { expectedStatus: 'up' }).passed).toBe(false)
    expect(judge({ id: 'c', status: '' }, { expectedStatus: 'up' }).missed).toEqual(['status is empty, expected up'])
    expect(judge({ id: 'c' }, { expectedStatus: 'up' }).passed).toBe(false)
  })
})

describe("a window's rows", () => {
  const slo = parseSlo('99%')
  const row = (s: number, status: string, extra = {}) => ({ checkedAt: at(s), status, responseTime: 100, ...extra })

  it('identical rows without an id: ups once, failures each time; a row with an id once', () => {
    const rows = [row(-10, 'down'), row(-10, 'down'), row(-20, 'up'), row(-20, 'up'), row(-30, 'down', { id: 'h1' })]
    expect(windowRows([...rows, rows[4]], START - 60_000, START).rows).toHaveLength(4)
    // A degraded result is a failed one: identical degraded rows count each time too.
    expect(windowRows([row(-10, 'degraded'), row(-10, 'degraded')], START - 60_000, START).rows).toHaveLength(2)
  })

  it('a degraded result is not up; exactly 5 results are judged, not skipped', () => {
    const five = [row(-1, 'up'), row(-2, 'UP'), row(-3, 'degraded'), row(-4, 'up'), row(-5, 'up')]
    const b = budgetOf(five, START - 60_000, START, slo)
    expect(b).toMatchObject({ results: 5, up: 4, availability: 80, spent: true })
    expect(b.skipped).toBeUndefined()
  })

  it('rows without a status are not results; a row whose time cannot be placed makes the budget unknown', () => {
    const ok = [1, 2, 3, 4, 5].map(i => row(-i, 'up'))
    expect(
      budgetOf([...ok, { checkedAt: at(-6) }, { checkedAt: at(-7), status: '' }], START - 60_000, START, slo)
    ).toMatchObject({
      results: 5
    })
    const b = budgetOf([...ok, row(0, 'up', { checkedAt: 'Mon, 23 Nov 2026 07:59:00' })], START - 60_000, START, slo)
    expect(b).toMatchObject({ spent: false, unplaced: { rows: 1, example: '"Mon, 23 Nov 2026 07:59:00"' } })
  })
})

describe('between: the history rows judged between two polls', () => {
  const ledger = () => {
    const l = openLedger({ id: 'c' }, START, true)
    record(l, readingOf('check', at(2), 50, 'up'))
    return l
  }
  const current = readingOf('check', at(7), 50, 'up')!

  it("the current result's own row (within one probe, reading alike) is left to the current reading", () => {
    expect(between(ledger(), readingOf('history', at(6.98), 50, 'up')!, current)).toBe(false)
    expect(between(ledger(), readingOf('history', at(6.98), 51, 'UP')!, current)).toBe(false)
  })

  it('a row within one probe of it that reads otherwise (slow, or another status) is another probe: judged', () => {
    expect(between(ledger(), readingOf('history', at(6), 3000, 'up')!, current)).toBe(true)
    expect(between(ledger(), readingOf('history', at(6.9), 50, 'down')!, current)).toBe(true)
  })

  it('a row that lacks what the current reading reports (a status, a response time) does not read alike: judged', () => {
    expect(between(ledger(), readingOf('history', at(6.98), 50)!, current)).toBe(true)
    expect(between(ledger(), readingOf('history', at(6.98), undefined, 'up')!, current)).toBe(true)
    // Neither reports a response time: alike by status.
    const bare = readingOf('check', at(7), undefined, 'up')!
    expect(between(ledger(), readingOf('history', at(6.98), undefined, 'up')!, bare)).toBe(false)
  })

  it('a row at the current time or later is not between', () => {
    expect(between(ledger(), readingOf('history', at(7), 3000, 'up')!, current)).toBe(false)
  })
})

describe('what a reading is, at the edges mutation testing found unguarded', () => {
  it('a response time of 0 is a reported one: two such readings a second apart are two probes', () => {
    const a = readingOf('check', at(5), 0, 'up')!
    expect(a.durationMs).toBe(0)
    expect(oneProbe(a, readingOf('check', at(6), 0, 'up')!)).toBe(false)
  })

  it('a status is read trimmed and in lower case', () => {
    expect(readingOf('check', at(5), 10, ' UP ')!.status).toBe('up')
  })

  it('two statuses at the same time are two probes (one probe has one status)', () => {
    expect(oneProbe(readingOf('check', at(5), 40, 'up')!, readingOf('check', at(5), 40, 'down')!)).toBe(false)
  })

  it('close response times are within 5% of the larger: 100 and 105.2 ms are one probe', () => {
    const h = readingOf('history', at(-5), 105.2, 'up')!
    expect(oneProbe(readingOf('check', at(5), 100, 'up')!, h)).toBe(true)
  })

  it('the same figures further apart than one probe: one probe only beside a history entry, and only when both say the same status', () => {
    const checkAt = (s: number, status?: string) => readingOf('check', at(s), 100, status)!
    // Two readings of the check itself 20 s apart are two probes, whatever their figures.
    expect(oneProbe(checkAt(5, 'up'), checkAt(25, 'up'))).toBe(false)
    // A history entry without a status beside a check that says up: not the same figures.
    expect(oneProbe(checkAt(25, 'up'), readingOf('history', at(5), 100)!)).toBe(false)
    expect(oneProbe(checkAt(25, 'up'), readingOf('history', at(5), 100, 'up')!)).toBe(true)
  })

  it('the same figures exactly 30 s and both precisions apart are one probe; a millisecond more, two', () => {
    const c = readingOf('check', '2026-11-23T08:00:40.000Z', 100, 'up')!
    const h = (time: string) => readingOf('history', time, 100, 'up')!
    // Milliseconds on both: 30 s + 1 ms + 1 ms.
    expect(oneProbe(c, h('2026-11-23T08:00:09.998Z'))).toBe(true)
    expect(oneProbe(c, h('2026-11-23T08:00:09.997Z'))).toBe(false)
    // A whole-second history stamp: its second of precision widens the window (30 s + 1 s + 1 ms).
    expect(oneProbe(c, h('2026-11-23T08:00:09Z'))).toBe(true)
    expect(oneProbe(h('2026-11-23T08:00:09Z'), c)).toBe(true)
    expect(oneProbe(c, h('2026-11-23T08:00:08Z'))).toBe(false)
  })

  it('without freshness, the first reading without a time is a result; after it, none is', () => {
    const ledger = openLedger({ id: 'c' }, START, false)
    expect(decide(ledger, undefined)).toBe('new')
    record(ledger, undefined)
    expect(decide(ledger, undefined)).toBe('unplaceable')
    // With freshness, a reading without a time is never fresh.
    expect(decide(openLedger({ id: 'c' }, START, true), undefined)).toBe('unplaceable')
  })
})

describe("a window's rows, at the edges", () => {
  it('rows with different ids are different rows, however alike', () => {
    const row = (id: string) => ({ id, checkedAt: at(-10), status: 'up', responseTime: 100 })
    expect(windowRows([row('h1'), row('h2'), row('h1')], START - 60_000, START).rows).toHaveLength(2)
  })

  it('a row up to a probe (30 s) and its precision before the newest counted one may still be between two polls; one further back is not', () => {
    const l = openLedger({ id: 'c' }, START, true)
    record(l, readingOf('check', at(40), 50, 'up'))
    const current = readingOf('check', at(60), 50, 'up')!
    const h = (time: string) => readingOf('history', time, 50, 'down')!
    expect(between(l, h('2026-11-23T08:00:10.000Z'), current)).toBe(true)
    expect(between(l, h('2026-11-23T08:00:09.999Z'), current)).toBe(false)
    // A whole second: it may have been stamped up to a second before its probe.
    expect(between(l, h('2026-11-23T08:00:10Z'), current)).toBe(true)
    expect(between(l, h('2026-11-23T08:00:09Z'), current)).toBe(false)
  })
})

describe('what the ledger remembers', () => {
  it(`the latest ${KEPT} probes counted: after ${KEPT + 1}, a later reading of the newest is still that probe`, () => {
    // Probes a minute apart, 100 ms each; the newest read again 50 ms later (within one probe of it, after it).
    const probes = Array.from({ length: KEPT + 1 }, (_, i) => check(at(60 * (i + 1)), 100))
    const ledger = counted(...probes)
    expect(decide(ledger, check(at(60 * (KEPT + 1) + 0.05), 100))).toBe('repeat')
    expect(decide(ledger, check(at(60 * (KEPT + 2)), 100))).toBe('new')
  })

  it('a history entry between polls is taken once: by its id, or without one by what it says', () => {
    const ledger = counted()
    const row = { status: 'up', responseTime: 100, checkedAt: at(5) }
    expect(takeOnce(ledger, { id: 'h1', ...row })).toBe(true)
    expect(takeOnce(ledger, { id: 'h1', ...row, status: 'down' })).toBe(false)
    expect(takeOnce(ledger, { id: 'h2', ...row })).toBe(true)
    expect(takeOnce(ledger, row)).toBe(true)
    expect(takeOnce(ledger, { ...row })).toBe(false)
    expect(takeOnce(ledger, { ...row, responseTime: 101 })).toBe(true)
  })
})
