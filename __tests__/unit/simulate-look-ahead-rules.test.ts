/**
 * The simulation's rules for issue 52 (scripts/lib/simulate/look-ahead-rules.ts): the burn-rate gate is
 * named when it passes while both windows burn, or holds while neither does, and stays quiet where a
 * result at a window's edge could fall either way; a pattern pause is named when it touches its excluded
 * check or a name it does not match, or leaves a match unpaused.
 */
import { describe, expect, it } from '@jest/globals'
import type { Stored } from '../../emulator/store.js'
import type { After, Before, Executed } from '../../scripts/lib/simulate/invariants.js'
import { burnRule, checkApiRules, patternRules } from '../../scripts/lib/simulate/look-ahead-rules.js'
import type { Run } from '../../scripts/lib/simulate/world.js'

const START = Date.parse('2026-11-26T10:00:00.000Z')
const STATED = START + 300
const run = {
  n: 1,
  kind: 'burn-gate',
  inputs: { 'check-name': 'b' },
  env: {},
  startMs: 0,
  writes: false
} as unknown as Run

/** The burn gate's history (as schedule.ts draws it): 40 results 50 s apart, `down(i)` failed, then 200 up. */
function judged(outcome: string, down: (i: number) => boolean, probes: Array<{ at: number; status: string }> = []) {
  const history = [
    ...Array.from({ length: 40 }, (_, i) => ({
      checkedAt: new Date(START - (i + 1) * 50_000).toISOString(),
      status: down(i) ? 'down' : 'up'
    })),
    ...Array.from({ length: 200 }, (_, i) => ({
      checkedAt: new Date(START - 35 * 60_000 - i * 300_000).toISOString(),
      status: 'up'
    }))
  ]
  const before = { history: new Map([['chk_b', history]]) } as unknown as Before
  const after = { probed: probes.map(p => ({ ...p, id: 'chk_b' })) } as unknown as After
  const result = JSON.stringify([{ burnRate: { long: { to: new Date(STATED).toISOString() } } }])
  const gate = {
    startedAt: START,
    result: { code: 0, ms: 2_000, outputs: { outcome, passed: String(outcome === 'passed'), result } }
  } as unknown as Executed['steps'][number]
  return burnRule(run, gate, 'chk_b', before, after)
}

const recent = (i: number) => i < 4
const old = (i: number) => i >= 15 && i < 26

describe('the simulation burn rule', () => {
  it('recent failures burn both windows: passed is named, and so is timed-out; budget-burning is not', () => {
    expect(judged('passed', recent)).toEqual([expect.stringContaining('passed while both windows burn over the max')])
    expect(judged('timed-out', recent)).toEqual([expect.stringContaining('not budget-burning')])
    expect(judged('budget-burning', recent)).toEqual([])
    expect(judged('error', recent)).toEqual([])
  })

  it('older failures burn the hour only: budget-burning is named, passed is not', () => {
    expect(judged('budget-burning', old)).toEqual([
      expect.stringContaining('said budget-burning while neither window does')
    ])
    expect(judged('passed', old)).toEqual([])
    expect(judged('passed', () => false)).toEqual([])
  })

  it('a failure within a second of the short window edge decides it: either outcome stands', () => {
    // The hour burns (11 older failures); the five minutes hold 5 ups and one failure at their edge,
    // which a view may show a second early: in, 1 of 6 is over the max; out, none failed.
    const edge = [{ at: STATED - 300_000 + 500, status: 'down' }]
    expect(judged('passed', old, edge)).toEqual([])
    expect(judged('budget-burning', old, edge)).toEqual([])
    // Two seconds inside the window it is surely in: passing is named again.
    const inside = [{ at: STATED - 300_000 + 2_000, status: 'down' }]
    expect(judged('passed', old, inside)).toEqual([
      expect.stringContaining('passed while both windows burn over the max')
    ])
    // Three failures among the five: burning whichever way the edge falls.
    expect(judged('passed', (i: number) => i < 3, edge)).toHaveLength(1)
  })
})

describe('the simulation pattern rule', () => {
  const stored = (id: string, name: string, status = 'up', updatedAt = 't0') =>
    ({ id, name, status, updatedAt }) as Stored
  const names = ['sim-pp-1', 'sim-pp-2', 'sim-pp-3', 'sim-pp', 'x-sim-pp-4']
  const before = {
    checks: new Map(names.map((n, i) => [`c${i}`, stored(`c${i}`, n)]))
  } as unknown as Before
  const executed = (kinds: string[]) =>
    kinds.map(kind => ({ run: { kind }, steps: [{ result: { code: 0 } }] })) as unknown as Executed[]
  const world = (paused: string[]) => {
    const map = new Map(
      names.map((n, i) => [`c${i}`, paused.includes(n) ? stored(`c${i}`, n, 'paused', 't1') : stored(`c${i}`, n)])
    )
    return { midway: map, checks: new Map(names.map((n, i) => [`c${i}`, stored(`c${i}`, n)])) } as unknown as After
  }

  it('pauses every match but the excluded one, and touches nothing else: no violation', () => {
    expect(patternRules(before, world(['sim-pp-1', 'sim-pp-3']), executed(['pattern-pause']))).toEqual([])
  })

  it('the excluded check paused is named; with a prefix pause in the round it is not judged', () => {
    const all = world(['sim-pp-1', 'sim-pp-2', 'sim-pp-3'])
    expect(patternRules(before, all, executed(['pattern-pause']))).toEqual([
      'a pattern pause on sim-pp-* excluding sim-pp-2 touched "sim-pp-2" (during the round)'
    ])
    expect(patternRules(before, all, executed(['pattern-pause', 'prefix-pause']))).toEqual([])
  })

  it('a match left running, or a name the pattern does not match touched, is named', () => {
    expect(patternRules(before, world(['sim-pp-1']), executed(['pattern-pause']))).toEqual([
      'a pattern pause ended 0, and "sim-pp-3" (sim-pp-*) was not paused'
    ])
    expect(patternRules(before, world(['sim-pp-1', 'sim-pp-3', 'sim-pp']), executed(['pattern-pause']))).toEqual([
      'a pattern pause on sim-pp-* touched "sim-pp" (during the round)'
    ])
    expect(patternRules(before, world([]), executed(['gate']))).toEqual([])
  })
})

describe('the simulation check-api rule', () => {
  const check = (id: string, name: string) => ({ id, name, status: 'paused' }) as Stored
  const executed = [{ run: { kind: 'check-api' }, steps: [] }] as unknown as Executed[]
  const before = { checks: new Map([['c1', check('c1', 'shop')]]) } as unknown as Before

  it('its own check left on the account after the post steps is named; gone, nothing is', () => {
    const left = { checks: new Map([['c9', check('c9', 'check-api-1a2b3c4d')]]) } as unknown as After
    expect(checkApiRules(before, left, executed)).toEqual([
      'check-api left its own check "check-api-1a2b3c4d" (c9) on the account'
    ])
    const gone = { checks: new Map() } as unknown as After
    expect(checkApiRules(before, gone, executed)).toEqual([])
    expect(checkApiRules(before, left, [])).toEqual([])
  })
})
