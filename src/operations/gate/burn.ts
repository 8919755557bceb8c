/**
 * The burn rate (`max-burn-rate`, `burn-window`): how fast a check spends its
 * error budget now. Over a window, it is the share of failed results among
 * the results with a status (budget.ts `resultsIn`, one reading for both
 * rules) divided by `1 - slo`: at 1 the budget lasts exactly `slo-window`, at
 * 14.4 a 30-day budget is gone in about two days. A check burns too fast when
 * its rate is over `max-burn-rate` in the long window and in the short one,
 * the long one's last twelfth: both, so that one old spike does not hold a
 * release for an hour and one fresh blip does not hold it at all. Fewer than
 * 5 results in the short window: it is not judged, and the long window alone
 * decides. Both windows end at the step's start.
 */
import type { HistoryEntry } from '../../api/schemas.js'
import type { BurnRate, Slo } from '../../run/config.js'
import { windowText } from '../../values/parse.js'
import { MIN_BUDGET_RESULTS, cut, resultsIn } from './budget.js'
import { BARS } from './stats.js'

/** The short window is this share of the long one (the workbook's 1h and 5m). */
export const SHORT_SHARE = 12

export interface BurnWindow {
  /** ms since the epoch: from (included) to (excluded). */
  from: number
  to: number
  results: number
  failed: number
  /** The rate, cut (never rounded up) to 4 decimals; undefined without results. */
  rate?: number
  /** MIN_BUDGET_RESULTS results or more: the window is judged. */
  judged: boolean
  /** Judged and over max-burn-rate, decided exactly (not from the cut rate). */
  over: boolean
}

export interface Burn {
  max: number
  long: BurnWindow
  short: BurnWindow
  /** Over max-burn-rate in the long window, and in the short one when it is judged. */
  burning: boolean
  /** Why the burn rate is not judged for this check; undefined when it is. */
  skipped?: string
  /** Rows whose time cannot be placed, and the first such form: the rate is unknown, the gate errs closed. */
  unplaced?: { rows: number; example: string }
  /** Each twelfth of the long window, oldest first (the last is the short window): its results and failures. */
  cells: Array<{ results: number; failed: number }>
}

/** The short window of a long one ending at `start`: its last twelfth. */
export const shortFrom = (start: number, windowMs: number): number => start - Math.round(windowMs / SHORT_SHARE)

/** One window's rate against `max`, exactly: failed / results / (1 - slo) > max. */
function windowOf(entries: HistoryEntry[], from: number, to: number, slo: Slo, max: BurnRate): BurnWindow {
  const { results, up } = resultsIn(entries, from, to)
  const failed = results - up
  const whole = BigInt(100 * slo.scale)
  const allowed = whole - BigInt(slo.scaled)
  // failed / results / (allowed / whole) > scaled / scale
  const judged = results >= MIN_BUDGET_RESULTS
  const over = judged && BigInt(failed) * whole * BigInt(max.scale) > BigInt(max.scaled) * BigInt(results) * allowed
  return {
    from,
    to,
    results,
    failed,
    ...(results > 0 ? { rate: cut(BigInt(failed) * whole, BigInt(results) * allowed) } : {}),
    judged,
    over
  }
}

/** The burn rate of one check from its history, over `[start - windowMs, start)` and its last twelfth. */
export function burnOf(entries: HistoryEntry[], start: number, windowMs: number, slo: Slo, max: BurnRate): Burn {
  const from = start - windowMs
  const long = windowOf(entries, from, start, slo, max)
  const short = windowOf(entries, shortFrom(start, windowMs), start, slo, max)
  // The cells' edges: the last one starts where the short window does, so its bar is that window
  // (and the twelfth edge, from + windowMs, is the start).
  const edge = (i: number) =>
    i === SHORT_SHARE - 1 ? shortFrom(start, windowMs) : from + Math.round((i * windowMs) / SHORT_SHARE)
  const cells = Array.from({ length: SHORT_SHARE }, (_, i) => {
    const cell = resultsIn(entries, edge(i), edge(i + 1))
    return { results: cell.results, failed: cell.results - cell.up }
  })
  const base = { max: max.multiple, long, short, cells }
  const { unplaced, example } = resultsIn(entries, from, start)
  if (unplaced > 0) {
    return {
      ...base,
      burning: false,
      unplaced: { rows: unplaced, example: example as string },
      skipped: `${unplaced} history row(s) with a time the action cannot place (such as ${example}): the burn rate is unknown`
    }
  }
  if (!long.judged) {
    return {
      ...base,
      burning: false,
      skipped: `${long.results} result(s) with a status in the ${windowText(windowMs)} before the step started (${MIN_BUDGET_RESULTS} needed)`
    }
  }
  return { ...base, burning: long.over && (!short.judged || short.over) }
}

/** Failures over the long window as twelve bars, oldest first: `·` no result, `▁` none failed, `█` all. */
export function burnChart(b: Burn): string {
  return b.cells
    .map(c => (c.results === 0 ? '·' : BARS[Math.ceil((c.failed / c.results) * (BARS.length - 1))]))
    .join('')
}

/** One window's rate in words: `20.5 over 1h (41 of 200 results failed)`. */
function windowWords(w: BurnWindow): string {
  return `${w.rate ?? 0} over ${windowText(w.to - w.from)} (${w.failed} of ${w.results} result(s) failed)`
}

/** One check's burn rate in words, for the log, the failure and the reports. */
export function burnText(b: Burn): string {
  if (b.unplaced) return `burn rate unknown: ${b.skipped}`
  if (b.skipped !== undefined) return `no burn rate: ${b.skipped}; the burn rate is not judged`
  const short = b.short.judged
    ? windowWords(b.short)
    : `the ${windowText(b.short.to - b.short.from)} window not judged (${b.short.results} result(s), ${MIN_BUDGET_RESULTS} needed: the ${windowText(b.long.to - b.long.from)} window alone decides)`
  return `burn rate ${windowWords(b.long)}, ${short}, against a max of ${b.max}: ${b.burning ? 'burning too fast' : 'within it'}`
}

/** The burn rate as outputs carry it (`result`, `failed-checks`): plain JSON, null where unknown. */
export function burnJson(b: Burn | undefined): Record<string, unknown> | null {
  if (!b) return null
  const window = (w: BurnWindow) => ({
    window: windowText(w.to - w.from),
    rate: w.rate ?? null,
    results: w.results,
    failed: w.failed,
    judged: w.judged,
    over: w.over,
    from: new Date(w.from).toISOString(),
    to: new Date(w.to).toISOString()
  })
  return {
    max: b.max,
    burning: b.burning,
    long: window(b.long),
    short: window(b.short),
    ...(b.skipped !== undefined ? { skipped: b.skipped } : {}),
    ...(b.unplaced ? { unplaced: b.unplaced } : {})
  }
}

/**
 * The target that burns fastest: the burning one with the highest long rate,
 * else the judged one with the highest (the first of equals); undefined when
 * none was judged.
 */
export function fastestBurn<T extends { burn?: Burn }>(targets: T[]): T | undefined {
  let fastest: T | undefined
  const key = (t: T): [number, number] => [t.burn?.burning ? 1 : 0, t.burn?.long.rate ?? 0]
  for (const t of targets) {
    if (!t.burn || t.burn.skipped !== undefined) continue
    if (fastest === undefined) fastest = t
    else {
      const [burning, rate] = key(t)
      const [best, bestRate] = key(fastest)
      if (burning > best || (burning === best && rate > bestRate)) fastest = t
    }
  }
  return fastest
}
