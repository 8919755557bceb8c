/**
 * The error budget (`slo`, `slo-window`): each check's history in the window
 * `[start - slo-window, start)`, read once before the first poll, gives its
 * availability (up results over results with a status); the budget is the
 * `1 - slo` share of them that may fail, and what is left of it is
 * `1 - (1 - availability) / (1 - slo)`. A check whose budget is spent (left
 * at or below 0) closes the gate before any poll: outcome `budget-exhausted`.
 */
import type { HistoryEntry } from '../../api/schemas.js'
import type { Slo } from '../../run/config.js'
import { str } from '../common.js'
import { windowText } from '../../values/parse.js'
import { windowRows } from './ledger.js'

/** Fewer results with a status than this in the window: the budget is not judged (a new check has no past). */
export const MIN_BUDGET_RESULTS = 5

export interface Budget {
  /** The window, ms since the epoch: from (included) to (excluded). */
  from: number
  to: number
  objective: number
  /** Results in the window with a status, and of those the ones up. */
  results: number
  up: number
  /** Percent, cut (never rounded up) to 4 decimals; undefined when skipped. */
  availability?: number
  /** Percent of the window's budget left, cut to 4 decimals (negative when overspent); undefined when skipped. */
  remaining?: number
  /** Left at or below 0, decided exactly (not from the cut figures). */
  spent: boolean
  /** Why the budget is not judged for this check; undefined when it is. */
  skipped?: string
  /** Rows whose time cannot be placed, and the first such form: the budget is unknown, the gate errs closed. */
  unplaced?: { rows: number; example: string }
}

/** `numerator / denominator` in ten-thousandths, rounded down (toward minus infinity), exactly. */
export function cut(numerator: bigint, denominator: bigint): number {
  const scaled = numerator * 10_000n
  let q = scaled / denominator
  if (scaled % denominator !== 0n && scaled < 0n !== denominator < 0n) q -= 1n
  return Number(q) / 10_000
}

/** What a window of history holds for the budget's rules: its results, the up ones, and the rows not placed. */
export interface WindowResults {
  /** The results, in the history's order: rows with a status, counted by the probe ledger. */
  rows: HistoryEntry[]
  results: number
  up: number
  /** Rows with a status whose time cannot be placed, and the first such form. */
  unplaced: number
  example?: string
}

/** Whether a result is up: `up` in any case, blanks around it aside; any other status is a failure. */
export const isUp = (entry: HistoryEntry): boolean => str(entry.status).trim().toLowerCase() === 'up'

/**
 * The results of `[from, to)` for the error budget and the burn rate (one
 * reading for both): the entries that carry a status (an entry without one is
 * no result), as the probe ledger counts them (`windowRows`: a row with an id
 * once; rows that cannot be told apart once when up, each time when failed).
 */
export function resultsIn(entries: HistoryEntry[], from: number, to: number): WindowResults {
  const withStatus = entries.filter(e => str(e.status).trim() !== '')
  const { rows, unplaced, example } = windowRows(withStatus, from, to)
  const up = rows.filter(isUp).length
  return { rows, results: rows.length, up, unplaced, ...(example !== undefined ? { example } : {}) }
}

/**
 * The budget of one check from its history: the entries checked in
 * `[from, to)` that carry a status, counted by the probe ledger
 * (`windowRows`: a row with an id once; rows that cannot be told apart once
 * when up, each time when failed). Up is `up` in any case; any other status
 * (down, degraded, paused, ...) is a failed result. Rows with a status whose
 * time cannot be placed make the budget unknown (`unplaced`): it errs closed.
 */
export function budgetOf(entries: HistoryEntry[], from: number, to: number, slo: Slo): Budget {
  const { results, up, unplaced, example } = resultsIn(entries, from, to)
  const base = { from, to, objective: slo.percent, results, up }
  if (unplaced > 0) {
    return {
      ...base,
      spent: false,
      unplaced: { rows: unplaced, example: example as string },
      skipped: `${unplaced} history row(s) with a time the action cannot place (such as ${example}): the budget is unknown`
    }
  }
  if (results < MIN_BUDGET_RESULTS) {
    return {
      ...base,
      spent: false,
      skipped: `${results} result(s) with a status in the ${windowText(to - from)} before the step started (${MIN_BUDGET_RESULTS} needed)`
    }
  }
  // The share that may fail is (100 - slo) / 100 = allowed / whole; left = 1 - (down / results) / (allowed / whole).
  const whole = BigInt(100 * slo.scale)
  const allowed = whole - BigInt(slo.scaled)
  const down = BigInt(results - up)
  const budget = BigInt(results) * allowed
  const left = budget - down * whole
  return {
    ...base,
    availability: cut(BigInt(up) * 100n, BigInt(results)),
    remaining: cut(left * 100n, budget),
    spent: left <= 0n
  }
}

/** Budget left as a bar of 10 cells: `███░░░░░░░ 31.5% left`, `░░░░░░░░░░ spent (-40% left)`. */
export function budgetBar(b: Budget): string {
  if (b.remaining === undefined) return ''
  const full = b.spent ? 0 : Math.min(10, Math.max(1, Math.floor(b.remaining / 10)))
  return `${'█'.repeat(full)}${'░'.repeat(10 - full)} ${b.spent ? `spent (${b.remaining}% left)` : `${b.remaining}% left`}`
}

/** One check's budget in words, for the log, the failure and the reports. */
export function budgetText(b: Budget): string {
  const window = windowText(b.to - b.from)
  if (b.unplaced) return `error budget unknown: ${b.skipped}`
  if (b.skipped !== undefined) return `no error budget: ${b.skipped}; the budget is not judged`
  return `availability ${b.availability}% (${b.up} of ${b.results} result(s) up) in the ${window} before the step started against an objective of ${b.objective}%: error budget ${
    b.spent ? `spent (${b.remaining}% left)` : `${b.remaining}% left`
  }`
}

/** The budget as outputs carry it (`result`, `failed-checks`): plain JSON, null where unknown. */
export function budgetJson(b: Budget | undefined): Record<string, unknown> | null {
  if (!b) return null
  return {
    objective: b.objective,
    availability: b.availability ?? null,
    remaining: b.remaining ?? null,
    spent: b.spent,
    results: b.results,
    up: b.up,
    from: new Date(b.from).toISOString(),
    to: new Date(b.to).toISOString(),
    ...(b.skipped !== undefined ? { skipped: b.skipped } : {}),
    ...(b.unplaced ? { unplaced: b.unplaced } : {})
  }
}

/**
 * The target with the least budget left, among those whose budget was
 * judged (the first of equals); undefined when none was.
 */
export function worstBudget<T extends { budget?: Budget }>(targets: T[]): T | undefined {
  let worst: T | undefined
  for (const t of targets) {
    const left = t.budget?.remaining
    if (left === undefined) continue
    if (worst === undefined || left < (worst.budget?.remaining as number)) worst = t
  }
  return worst
}
