/**
 * The probe ledger: the one place that decides what a reading of a check is.
 * A reading is the check at a poll, a history entry between two polls, or a
 * history row of the baseline or the error budget. It is one of:
 *
 * - `new`: a probe not counted before, later than everything before the step;
 * - `repeat`: a probe already counted (its time within the one-probe tolerance
 *   of a counted one), or not later than the newest counted: it adds nothing;
 * - `before-step`: with freshness required, a result the step's first read
 *   already showed (or, when that read showed none, from before the step's
 *   start): neither a pass nor a miss;
 * - `unplaceable`: its time is missing or in a form the action cannot place.
 *
 * One probe, two records: the check and its history may say its time at two
 * precisions (whole seconds beside milliseconds) and one may say when it
 * started, the other when it finished. Two readings within the one-probe
 * tolerance (`toleranceOf`) are one probe. When two readings cannot be told
 * apart the gate counts fewer passes, never more.
 */
import type { Check, HistoryEntry } from '../../api/schemas.js'
import { placeTime } from '../../values/values.js'
import { canonical } from '../common.js'

/** A reading as far as the probe rule goes: when, how exactly, how long its probe took, and its status. */
export interface Reading {
  /** Which record says it: the check's `lastCheckedAt`, or a history entry's `checkedAt`. */
  from: 'check' | 'history'
  at: number
  precisionMs: number
  durationMs?: number
  /** The status the record reports, lower case (when it reports one). */
  status?: string
}

export type Placement = 'new' | 'repeat' | 'before-step' | 'maybe-before' | 'unplaceable'

/**
 * How long a probe is taken to have lasted when a reading reports no
 * response time: the common longest probe (a request timeout of 30 s).
 */
export const UNREPORTED_PROBE_MS = 30_000

/** The probes of one check kept to tell a reading seen again from a new one: the latest few. */
export const KEPT = 10

/** What the ledger of one check knows. */
export interface Ledger {
  /**
   * With freshness required: readings at or before this time (ms) are from
   * before the step (the newest result the step's first read showed, else
   * the step's start). Undefined: freshness is not required.
   */
  freshAfter?: number
  /** The result the step's first read showed, when freshness is required: the same probe again is before the step. */
  first?: Reading
  /** The latest probes counted (`KEPT`), oldest first. */
  counted: Reading[]
  /** The newest time counted (ms); undefined before the first. */
  newest?: number
  /** History entries already taken between polls (`entryKey`): each is taken once. */
  taken: Set<string>
  /** A reading without a time was counted (freshness not required): no later unplaced one counts. */
  countedUnplaced?: boolean
}

/** A check's reading (its `lastCheckedAt`, response time and status); undefined when its time cannot be placed. */
export const checkReading = (check: Check): Reading | undefined =>
  readingOf('check', check.lastCheckedAt, check.responseTime, check.status)

/** A history entry as a reading (its `checkedAt`, response time and status). */
export const entryReading = (entry: HistoryEntry): Reading | undefined =>
  readingOf('history', entry.checkedAt, entry.responseTime, entry.status)

/** A reading from a record's time, response time and status; undefined when the time cannot be placed. */
export function readingOf(
  from: Reading['from'],
  time: unknown,
  responseTime: unknown,
  status?: unknown
): Reading | undefined {
  const placed = placeTime(time)
  if (!placed) return undefined
  const rt =
    typeof responseTime === 'number' && Number.isFinite(responseTime) && responseTime >= 0 ? responseTime : undefined
  return {
    from,
    at: placed.ms,
    precisionMs: placed.precisionMs,
    ...(rt !== undefined ? { durationMs: rt } : {}),
    ...(typeof status === 'string' ? { status: status.trim().toLowerCase() } : {})
  }
}

/**
 * A history entry's identity: its `id`, or without one all its fields and
 * values. A row a shifting page shows twice has one key.
 */
export function entryKey(entry: HistoryEntry): string {
  return typeof entry.id === 'string' ? `id:${entry.id}` : canonical(entry)
}

/**
 * The ledger of one check, opened at the step's first read of it: with
 * freshness required, that read's result (or, without one, the step's start)
 * is the line a fresh result must pass, with no allowance for clock skew.
 */
export function openLedger(firstRead: Check, start: number, fresh: boolean): Ledger {
  const first = fresh ? checkReading(firstRead) : undefined
  return {
    ...(fresh ? { freshAfter: first ? first.at : start } : {}),
    ...(first ? { first } : {}),
    counted: [],
    taken: new Set()
  }
}

/**
 * How far apart two readings of one probe can be: the probe's duration (the
 * larger response time of the two; either without one: `UNREPORTED_PROBE_MS`)
 * plus the precision of each time.
 */
export function toleranceOf(a: Reading, b: Reading): number {
  const duration =
    a.durationMs !== undefined && b.durationMs !== undefined
      ? Math.max(a.durationMs, b.durationMs)
      : UNREPORTED_PROBE_MS
  return duration + a.precisionMs + b.precisionMs
}

/** Response times one probe may be reported with (rounded, or measured twice): within max(2 ms, 5%). */
const closeDurations = (x: number, y: number): boolean => Math.abs(x - y) <= Math.max(2, 0.05 * Math.max(x, y))

/**
 * Whether two readings cannot be told apart as two probes. Two statuses that
 * differ are two probes (one probe has one status). Otherwise: their times
 * are within `toleranceOf` each other; or, a history entry beside another
 * record, they report the same response time (`closeDurations`) and status
 * and are within `UNREPORTED_PROBE_MS` (a service may stamp its history with
 * when the probe was scheduled, earlier than its response time says).
 */
export function oneProbe(a: Reading, b: Reading): boolean {
  if (a.status && b.status && a.status !== b.status) return false
  const apart = Math.abs(a.at - b.at)
  if (apart <= toleranceOf(a, b)) return true
  const sameFigures =
    (a.from === 'history' || b.from === 'history') &&
    a.durationMs !== undefined &&
    b.durationMs !== undefined &&
    closeDurations(a.durationMs, b.durationMs) &&
    a.status === b.status
  return sameFigures && apart <= UNREPORTED_PROBE_MS + a.precisionMs + b.precisionMs
}

/** What a reading of this check is. Pure: `record` is what changes the ledger. */
export function decide(ledger: Ledger, reading: Reading | undefined): Placement {
  // A time that cannot be placed is never fresh; without freshness, the first such reading is a result
  // (a check that reports none), and no later unplaced one can be told apart from it: fewer, never more.
  if (!reading) {
    const first = ledger.counted.length === 0 && !ledger.countedUnplaced
    return ledger.freshAfter === undefined && first ? 'new' : 'unplaceable'
  }
  if (ledger.counted.some(c => oneProbe(c, reading))) return 'repeat'
  if (ledger.freshAfter !== undefined) {
    // Maybe from before the step: a time too coarse to place against the line (whole seconds around
    // it), or one within one probe of the first read's result (that probe again, or a new one: a slow
    // probe's tolerance spans the next ones). The counting rule (judge.ts) takes whichever counts fewer.
    if (reading.at <= ledger.freshAfter) {
      return reading.at < ledger.freshAfter && reading.at + reading.precisionMs > ledger.freshAfter
        ? 'maybe-before'
        : 'before-step'
    }
    if (ledger.first && oneProbe(ledger.first, reading)) return 'maybe-before'
  }
  if (ledger.newest !== undefined && reading.at <= ledger.newest) return 'repeat'
  return 'new'
}

/** Note a reading decided `new` (a pass or a miss): later readings of the same probe are repeats. */
export function record(ledger: Ledger, reading: Reading | undefined): void {
  if (!reading) return void (ledger.countedUnplaced = true)
  ledger.counted.push(reading)
  if (ledger.counted.length > KEPT) ledger.counted.splice(0, ledger.counted.length - KEPT)
  ledger.newest = Math.max(ledger.newest ?? Number.NEGATIVE_INFINITY, reading.at)
}

/**
 * Whether a history reading lies between the newest result counted and the
 * check's reading now (`current`): it may lie after the newest (up to a
 * probe's longest duration and its precision before it: a history stamped at
 * the probe's start, or in whole seconds), it is earlier than `current`, and
 * it is not `current`'s own probe: within one probe of it and reading alike
 * (the same status and response time). A row within one probe of `current`
 * that reads otherwise (a slow probe just before a fast one) is another probe,
 * and is judged: a miss among such rows is never lost.
 */
export function between(ledger: Ledger, reading: Reading, current: Reading): boolean {
  const newest = ledger.newest ?? Number.NEGATIVE_INFINITY
  return (
    reading.at + reading.precisionMs + UNREPORTED_PROBE_MS > newest &&
    reading.at < current.at &&
    !(oneProbe(reading, current) && readAlike(reading, current))
  )
}

/** Two readings that report the same status and response time (within `closeDurations`), or neither. */
const readAlike = (a: Reading, b: Reading): boolean =>
  a.status === b.status &&
  (a.durationMs === undefined || b.durationMs === undefined
    ? a.durationMs === b.durationMs
    : closeDurations(a.durationMs, b.durationMs))

/** Take a history entry between polls once: false for one taken before (`entryKey`). */
export function takeOnce(ledger: Ledger, entry: HistoryEntry): boolean {
  const key = entryKey(entry)
  if (ledger.taken.has(key)) return false
  ledger.taken.add(key)
  return true
}

/**
 * A window's history rows, in `[from, to)`, as the baseline and the error
 * budget count them: `rows` those with a placed time in the window, and
 * `unplaced` those whose time cannot be placed, with the first such form. A
 * row with an `id` counts once however often a shifting page shows it;
 * rows without one that cannot be told apart count once when up (or without
 * a status) and each time when not up (distinct failed results may look
 * identical): fewer ups, never fewer failures.
 */
export function windowRows(
  entries: HistoryEntry[],
  from: number,
  to: number
): { rows: HistoryEntry[]; unplaced: number; example?: string } {
  const once = new Set<string>()
  const rows: HistoryEntry[] = []
  let unplaced = 0
  let example: string | undefined
  for (const entry of entries) {
    const reading = entryReading(entry)
    if (!reading) {
      unplaced++
      example ??=
        entry.checkedAt === undefined || entry.checkedAt === null ? 'no checkedAt' : JSON.stringify(entry.checkedAt)
      continue
    }
    if (!(reading.at >= from && reading.at < to)) continue
    // A row with an id is that row, however often a page shows it; without one, only an up is merged.
    const merged = typeof entry.id === 'string' || reading.status === 'up' || !reading.status
    const key = entryKey(entry)
    if (merged && once.has(key)) continue
    if (merged) once.add(key)
    rows.push(entry)
  }
  return { rows, unplaced, ...(example !== undefined ? { example } : {}) }
}
