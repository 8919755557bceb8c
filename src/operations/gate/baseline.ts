/**
 * The gate's baseline (`baseline`, `max-response-time-increase`): each
 * check's own history in the window `[start - baseline, start)`, read once
 * at the gate's start, gives a p95 (the nearest rank, as `check-history`
 * computes it, but of the results that were up only); a result passes only if its response time is at most that p95
 * plus the increase. A down result's response time is a timeout, not
 * latency: only results that were up (or carry no status) count.
 */
import type { HistoryEntry } from '../../api/schemas.js'
import type { Increase } from '../../run/config.js'
import { windowText } from '../../values/parse.js'
import { str } from '../common.js'
import { windowRows } from './ledger.js'
import { percentile } from './stats.js'

/** Fewer results than this in the window: the comparison is skipped (a new check has no past). */
export const MIN_BASELINE_RESULTS = 5

export interface Baseline {
  /** The window, ms since the epoch: from (included) to (excluded). */
  from: number
  to: number
  /** Results counted: in the window, up (or without a status), with a response time. */
  results: number
  /** Entries of the window left out: not up; without a response time. */
  notUp: number
  noResponseTime: number
  /** Undefined when skipped. */
  p95?: number
  limitMs?: number
  /** Why the comparison is skipped for this check; undefined when it is made. */
  skipped?: string
}

/** `+20%` or `+150 ms`. */
export function increaseText(increase: Increase): string {
  return 'percent' in increase ? `+${increase.percent}%` : `+${increase.ms} ms`
}

/** The baseline p95 plus the increase, in ms (to a hundredth: 123 ms + 12.5% is 138.38 ms). */
export function limitOf(p95: number, increase: Increase): number {
  const raw = 'percent' in increase ? p95 + (p95 * increase.percent) / 100 : p95 + increase.ms
  const rounded = Math.round(raw * 100) / 100
  // Near the largest number the hundredths (or the sum) overflow: the limit is held to a finite one.
  return Number.isFinite(rounded) ? rounded : Math.min(raw, Number.MAX_VALUE)
}

/**
 * The baseline of one check from its history: the entries checked in
 * `[from, to)` as the probe ledger counts them (`windowRows`; ones whose time
 * cannot be placed never count, and a skipped comparison names them), up or
 * without a status, with a response time.
 */
export function baselineOf(entries: HistoryEntry[], from: number, to: number, increase: Increase): Baseline {
  const times: number[] = []
  let notUp = 0
  let noResponseTime = 0
  const { rows, unplaced, example } = windowRows(entries, from, to)
  for (const entry of rows) {
    const status = str(entry.status).toLowerCase()
    const rt = entry.responseTime
    if (status !== '' && status !== 'up') notUp++
    else if (typeof rt !== 'number' || !Number.isFinite(rt) || rt < 0) noResponseTime++
    else times.push(rt)
  }
  const base = { from, to, results: times.length, notUp, noResponseTime }
  if (times.length < MIN_BASELINE_RESULTS) {
    const left = [
      notUp ? `${notUp} not up` : '',
      noResponseTime ? `${noResponseTime} without a response time` : '',
      unplaced ? `${unplaced} with a time the action cannot place, such as ${example}` : ''
    ]
      .filter(Boolean)
      .join(', ')
    return {
      ...base,
      skipped: `${times.length} result(s) up with a response time in the ${windowText(to - from)} before the step started (${MIN_BASELINE_RESULTS} needed${left ? `; left out: ${left}` : ''})`
    }
  }
  const p95 = percentile(times, 95) as number
  return { ...base, p95, limitMs: limitOf(p95, increase) }
}

/** One check's baseline in words, for the log and the reports. */
export function baselineText(b: Baseline, increase: Increase): string {
  if (b.skipped !== undefined) return `no baseline: ${b.skipped}; the comparison is skipped`
  const left = b.notUp + b.noResponseTime
  return `baseline p95 ${b.p95} ms of ${b.results} result(s) in the ${windowText(b.to - b.from)} before the step started${
    left ? ` (${left} left out: not up or without a response time)` : ''
  }; limit ${b.limitMs} ms (${increaseText(increase)})`
}

/** The baseline as outputs carry it (`result`, `failed-checks`): plain JSON, null where unknown. */
export function baselineJson(b: Baseline | undefined): Record<string, unknown> | null {
  if (!b) return null
  return {
    p95: b.p95 ?? null,
    limit: b.limitMs ?? null,
    results: b.results,
    from: new Date(b.from).toISOString(),
    to: new Date(b.to).toISOString(),
    ...(b.skipped !== undefined ? { skipped: b.skipped } : {})
  }
}
