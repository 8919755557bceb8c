/**
 * What a gate's report says of the rules read from the past before any poll:
 * the error budget (`slo`) and the burn rate (`max-burn-rate`). Either closes
 * the gate at once (outcomes `budget-exhausted`, `budget-burning`); which
 * checks held it, what the others were (not polled), the rules in words and a
 * table of each check's figures.
 */
import { windowText } from '../../values/parse.js'
import { str } from '../common.js'
import type { SummaryTable } from '../types.js'
import { Budget, budgetBar, budgetText } from './budget.js'
import { Burn, BurnWindow, burnChart, burnText } from './burn.js'
import type { Outcome, Track } from './judge.js'
import { historyCost } from './past.js'

/** The outcomes of a gate closed before any poll by its past. */
export type ClosedEarly = 'budget-exhausted' | 'budget-burning'

export const closedEarly = (outcome: Outcome): outcome is ClosedEarly =>
  outcome === 'budget-exhausted' || outcome === 'budget-burning'

/** Whether `t` is one of the checks that closed the gate (its budget spent, or burning too fast). */
export const heldBy = (outcome: ClosedEarly, t: Track): boolean =>
  outcome === 'budget-exhausted' ? t.budget?.spent === true : t.burn?.burning === true

const nameOf = (t: Track) => `${str(t.check.name) || t.check.id} (${t.check.id})`

/** Why a check did not pass a gate its past closed: its own figures, or another check's. */
export function closedReason(outcome: ClosedEarly, t: Track): string {
  if (heldBy(outcome, t)) {
    return outcome === 'budget-exhausted'
      ? `error budget spent: ${budgetText(t.budget as Budget)}`
      : `error budget burning too fast: ${burnText(t.burn as Burn)}`
  }
  return `not polled: the gate closed before any poll, as another check's error budget ${outcome === 'budget-exhausted' ? 'is spent' : 'burns too fast'}`
}

/** The summary's first line for a gate its past closed. */
export function closedLine(outcome: ClosedEarly, tracks: Track[], elapsed: string): string {
  const held = tracks.filter(t => heldBy(outcome, t)).length
  const what = outcome === 'budget-exhausted' ? 'had spent the error budget' : 'burned the error budget too fast'
  return `${held} of ${tracks.length} check(s) ${what}: the gate closed before any poll (${elapsed} s).`
}

/** The line naming the checks never polled, as another closed the gate. */
export function notPolledLine(outcome: ClosedEarly, notPolled: Track[]): string {
  const why =
    outcome === 'budget-exhausted' ? 'their budgets are not spent' : 'none of them was judged burning too fast'
  return `Not polled (the gate closed before any poll; ${why}): ${notPolled.map(nameOf).join(', ')}.`
}

/** The error budget's rule, what reading the history cost, and a line for each check whose budget was not judged. */
export function budgetLines(tracks: Track[], pastReads: number): string[] {
  return [
    "Error budget: each check's results with a status in the window before the step started; availability is the up ones among them, and the budget left is 1 - (1 - availability) / (1 - objective). A check whose budget is spent closes the gate before any poll.",
    historyCost(pastReads),
    ...tracks
      .filter(t => t.budget?.skipped !== undefined)
      .map(t => `${str(t.check.name) || t.check.id}: ${budgetText(t.budget as Budget)} for it.`)
  ]
}

/** Each check's availability, objective and budget left (with a bar). */
export function budgetTable(tracks: Track[]): SummaryTable {
  return {
    head: ['Check', 'Window', 'Results', 'Up', 'Availability (%)', 'Objective (%)', 'Error budget left'],
    rows: tracks.map(t => {
      const b = t.budget
      if (!b) return [t.check.name ?? t.check.id, '', '', '', 'not read', '', '']
      return [
        t.check.name ?? t.check.id,
        windowText(b.to - b.from),
        b.results,
        b.up,
        b.unplaced
          ? `unknown (${b.unplaced.rows} row(s) not placed)`
          : (b.availability ?? `too few results (${b.results})`),
        b.objective,
        b.skipped !== undefined ? 'not judged' : budgetBar(b)
      ]
    })
  }
}

/** The burn rate's rule, and a line for each check whose short window or whole rate was not judged. */
export function burnLines(tracks: Track[], max: number, windowMs: number): string[] {
  const long = windowText(windowMs)
  const short = windowText(Math.round(windowMs / 12))
  return [
    `Burn rate: the share of failed results in a window divided by 1 - objective (1 spends the budget exactly over the objective's window). A check whose rate is over ${max} in the ${long} before the step started and in its last ${short} closes the gate before any poll; with fewer than 5 results in the ${short}, the ${long} alone decides. The chart shows failures in each twelfth of the ${long}, oldest first (· no result, ▁ none failed, █ all failed); the last bar is the ${short}.`,
    ...tracks
      .filter(t => t.burn && (t.burn.skipped !== undefined || !t.burn.short.judged))
      .map(t => `${str(t.check.name) || t.check.id}: ${burnText(t.burn as Burn)}.`)
  ]
}

/** A window's rate in a cell: `20.5 (41/200)`, with the max it is over, or why it is not judged. */
function rateCell(w: BurnWindow): string {
  const counts = `${w.failed}/${w.results} failed`
  if (!w.judged) return `not judged (${counts})`
  return `${w.rate} (${counts})${w.over ? ' over' : ''}`
}

/** Each check's rate over both windows against the max, and its failures over the long window. */
export function burnTable(tracks: Track[]): SummaryTable {
  const first = tracks.find(t => t.burn)?.burn
  const long = first ? windowText(first.long.to - first.long.from) : 'long'
  const short = first ? windowText(first.short.to - first.short.from) : 'short'
  return {
    head: ['Check', `Burn rate, ${long}`, `Burn rate, ${short}`, 'Max', `Failures over ${long}`, 'Verdict'],
    rows: tracks.map(t => {
      const b = t.burn
      if (!b) return [t.check.name ?? t.check.id, 'not read', '', '', '', '']
      if (b.unplaced)
        return [t.check.name ?? t.check.id, 'unknown', 'unknown', b.max, '', `${b.unplaced.rows} row(s) not placed`]
      return [
        t.check.name ?? t.check.id,
        rateCell(b.long),
        rateCell(b.short),
        b.max,
        burnChart(b),
        b.skipped !== undefined ? 'not judged' : b.burning ? 'burning too fast' : 'within the max'
      ]
    })
  }
}
