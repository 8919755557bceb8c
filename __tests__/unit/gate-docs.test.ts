/**
 * What the docs say of fresh results and of consecutive-passes is what the
 * gate does: each rule run through the gate's own counting (the probe ledger,
 * src/operations/gate/ledger.ts, and judge.ts's observe), next to the
 * sentences that state it in the README, action.yml and the release-gates
 * guide.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import type { Check } from '../../src/api/schemas.js'
import { type Track, observe } from '../../src/operations/gate/judge.js'
import { checkReading, openLedger } from '../../src/operations/gate/ledger.js'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const described = (input: string) =>
  (parse(read('action.yml')) as { inputs: Record<string, { description: string }> }).inputs[input].description
/** A page's text on one line: the docs wrap their sentences anywhere. */
const flat = (text: string) => text.replace(/\s+/g, ' ')

const START = Date.parse('2026-11-23T08:00:00.300Z')
const at = (s: number) => new Date(START + s * 1000).toISOString()
const result = (lastCheckedAt: string, status = 'up', responseTime = 40): Check => ({
  id: 'chk_1',
  status,
  responseTime,
  lastCheckedAt
})

/** A gate on one check asking `needed` passes, opened at the step's first read; returns each reading's count. */
function gate(first: Check, readings: Check[], requireFresh = true, needed = 3): number[] {
  const track: Track = {
    check: first,
    streak: 0,
    ledger: openLedger(first, START, requireFresh),
    marks: [],
    times: []
  }
  return readings.map(check => {
    observe(track, { check, reading: checkReading(check) }, { expectedStatus: 'up', requireFresh }, needed, false)
    return track.streak
  })
}

describe('fresh means newer than what the step first saw, beyond one probe', () => {
  it('a result probed after the step started, but shown by its first read, does not count', () => {
    expect(gate(result(at(1)), [result(at(1))])).toEqual([0])
  })

  it('one within one probe of that result (its duration plus the precisions) may be it: it does not pass', () => {
    // 40 ms probes in milliseconds: 42 ms of tolerance.
    expect(gate(result(at(1)), [result(at(1.03))])).toEqual([0])
    expect(gate(result(at(1)), [result(at(1.05))])).toEqual([1])
  })

  it('without a result at the first read, the step start is the line, with no allowance', () => {
    const never: Check = { id: 'chk_1', status: 'up' }
    expect(gate(never, [result(at(0))])).toEqual([0])
    expect(gate(never, [result(at(0.001))])).toEqual([1])
  })

  it('the README, action.yml, the guide and the reasoning say so, and no page says the start alone decides', () => {
    const readme = flat(read('README.md'))
    expect(readme).toContain("Only a result newer than the one the step's first read showed counts")
    expect(readme).toContain("(one within a probe's duration of it may be that probe: it never passes)")
    expect(flat(described('require-fresh'))).toContain('and not within one probe of it')
    expect(flat(read('docs/guides/release-gates.md'))).toContain(
      "**Fresh means newer than what the step first saw.** With `require-fresh` (the default), a result is fresh only when its `lastCheckedAt` is later than the newest result the step's first read of the check showed"
    )
    const reasoning = flat(read('docs/reasoning/gate.md'))
    expect(reasoning).toContain('A margin of one probe remains')
    for (const page of [readme, reasoning, flat(read('docs/troubleshooting.md'))]) {
      expect(page).not.toMatch(/probed after the step started count|later than the step's start, less \d+ seconds/)
    }
  })
})

describe('consecutive-passes and results from before the step', () => {
  it('with require-fresh, one from before the step neither counts nor resets; one that may be resets when it misses', () => {
    // The first read showed 08:00:05.300; a pass after it counts; an older miss leaves the count.
    expect(gate(result(at(5)), [result(at(70)), result(at(-30), 'down')])).toEqual([1, 1])
    // No result at the first read: a miss stamped in whole seconds at the start (08:00:00, the step began
    // 08:00:00.300) may be from before the step or after it: it resets.
    expect(gate({ id: 'chk_1' }, [result(at(70)), result('2026-11-23T08:00:00Z', 'down')])).toEqual([1, 0])
  })

  it('without require-fresh, every result counts, those from before the step too: a pass counts, a miss resets', () => {
    expect(gate(result(at(-100)), [result(at(-100)), result(at(-50), 'down'), result(at(-40))], false)).toEqual([
      1, 0, 1
    ])
  })

  it('action.yml and the guide say so', () => {
    const passes = flat(described('consecutive-passes'))
    expect(passes).toContain('With require-fresh, a result from before the step neither counts nor resets it')
    expect(passes).toContain('never counts but resets it when it misses')
    expect(passes).toContain('without require-fresh, every result counts, those from before the step too')
    expect(flat(described('require-fresh'))).toContain('false: every result counts, those from before the step too')
    expect(flat(read('docs/guides/release-gates.md'))).toContain(
      'With `require-fresh: false` every result counts, those from before the step too: a pass from before the step counts, and a miss from before it resets.'
    )
    expect(flat(read('README.md'))).toContain('one from before the step never resets the count')
  })
})
