/**
 * The simulation's error-budget rule judges the window the gate stated (its `result`'s errorBudget.to),
 * and only what holds whichever way a result at the window's edge falls (a view shows history times up
 * to a second early): it names a wrong outcome, and stays quiet where the action could be right.
 */
import { describe, expect, it } from '@jest/globals'
import type { Stored } from '../../emulator/store.js'
import { type After, type Before, budgetRule } from '../../scripts/lib/simulate/invariants.js'
import type { Run } from '../../scripts/lib/simulate/world.js'

const START = Date.parse('2026-11-26T10:00:00.000Z')
const STATED = START + 300 // the action's own start, after the process began
const was = { id: 'chk_b', name: 'b' } as Stored
const run = { n: 1, kind: 'budget-gate', inputs: {}, env: {}, startMs: 0, writes: false } as unknown as Run

/** `count` results in the hour before, `downs` of them down; `probes` made around the start. */
function judged(
  outcome: string,
  downs: number,
  probes: Array<{ at: number; status: string }> = [],
  count = 20
): string[] {
  const history = Array.from({ length: count }, (_, i) => ({
    checkedAt: new Date(START - (i + 1) * 60_000).toISOString(),
    status: i < downs ? 'down' : 'up'
  }))
  const before = { history: new Map([['chk_b', history]]) } as unknown as Before
  const after = { probed: probes.map(p => ({ ...p, id: 'chk_b' })) } as unknown as After
  const result = JSON.stringify([{ errorBudget: { to: new Date(STATED).toISOString() } }])
  const gate = {
    what: 'main',
    startedAt: START,
    bound: 1,
    inputs: {},
    result: {
      code: 0,
      signal: null,
      stdout: '',
      stderr: '',
      summary: '',
      state: {},
      ms: 2_000,
      all: '',
      outputs: { outcome, passed: String(outcome === 'passed'), result }
    }
  }
  return budgetRule(run, gate, was, before, after)
}

describe('the simulation budget rule', () => {
  it('budget left (1 down of 20 at 90%): budget-exhausted is named; passed is not', () => {
    expect(judged('budget-exhausted', 1)).toEqual([expect.stringContaining('said budget-exhausted with budget left')])
    expect(judged('passed', 1)).toEqual([])
  })

  it('spent (2 down of 20): passed is named, and so is timed-out', () => {
    expect(judged('passed', 2)).toEqual([expect.stringContaining('passed with its error budget spent')])
    expect(judged('timed-out', 2)).toEqual([expect.stringContaining('not budget-exhausted')])
  })

  // Eleven results, one down: 9.1% failed, budget left; one more down (2 of 12): spent.
  it('a down probe between the process start and the action start counts: in the window the action stated', () => {
    expect(judged('budget-exhausted', 1, [{ at: START + 100, status: 'down' }], 11)).toEqual([])
    expect(judged('passed', 1, [{ at: START + 100, status: 'down' }], 11)).toEqual([
      expect.stringContaining('passed with its error budget spent')
    ])
  })

  it('a down probe just after the stated start (a view may show it a second early): either outcome stands', () => {
    expect(judged('budget-exhausted', 1, [{ at: STATED + 500, status: 'down' }], 11)).toEqual([])
    expect(judged('passed', 1, [{ at: STATED + 500, status: 'down' }], 11)).toEqual([])
    // Two seconds after it, it is after the window: budget left, so budget-exhausted is wrong again.
    expect(judged('budget-exhausted', 1, [{ at: STATED + 2_000, status: 'down' }], 11)).toEqual([
      expect.stringContaining('said budget-exhausted with budget left')
    ])
  })
})
