/**
 * One probe, two records: the check says when its last probe happened
 * (`lastCheckedAt`) and its history says it again (`checkedAt`), and the two
 * may differ by the probe's duration (one records the start, the other the
 * end) or by precision (whole seconds beside milliseconds). Such a pair is
 * one result and counts once toward `consecutive-passes`; when the action
 * cannot tell two records apart, it counts them as one (fewer, never more).
 */
import { placeTime } from '../../values.js'

/** A result as far as its time goes: when, how exactly, and how long its probe took (when reported). */
export interface Seen {
  at: number
  precisionMs: number
  durationMs?: number
  /** The status the record reports, lower case (when it reports one). */
  status?: string
}

/**
 * How long a probe is taken to have lasted when neither record reports a
 * response time: the common longest probe (a request timeout of 30 s).
 */
export const UNREPORTED_PROBE_MS = 30_000

/** A record's time, its precision and its probe's duration; undefined when its time cannot be placed. */
export function seenOf(time: unknown, responseTime: unknown, status?: unknown): Seen | undefined {
  const placed = placeTime(time)
  if (!placed) return undefined
  const rt =
    typeof responseTime === 'number' && Number.isFinite(responseTime) && responseTime >= 0 ? responseTime : undefined
  return {
    at: placed.ms,
    precisionMs: placed.precisionMs,
    ...(rt !== undefined ? { durationMs: rt } : {}),
    ...(typeof status === 'string' ? { status: status.toLowerCase() } : {})
  }
}

/**
 * How far apart two records of one probe can be: the probe's duration (the
 * larger response time both report; either without one: `UNREPORTED_PROBE_MS`)
 * plus the precision of each time (a whole second each way for whole-second
 * times, a millisecond for milliseconds).
 */
export function toleranceOf(a: Seen, b: Seen): number {
  // A record without a response time says nothing of its probe's duration: it may have lasted the longest.
  const duration =
    a.durationMs !== undefined && b.durationMs !== undefined
      ? Math.max(a.durationMs, b.durationMs)
      : UNREPORTED_PROBE_MS
  return duration + a.precisionMs + b.precisionMs
}

/** Response times one probe may be reported with (rounded, or measured twice): within 2 ms or 5%. */
const closeDurations = (x: number, y: number): boolean => Math.abs(x - y) <= Math.max(2, 0.05 * Math.max(x, y))

/**
 * Whether two records cannot be told apart as two probes: their times are
 * within `toleranceOf` each other; or they report the same response time
 * (within 2 ms or 5%) and status and are within `UNREPORTED_PROBE_MS` (a service may stamp its history
 * with when the probe was scheduled or started, earlier than its measured
 * response time says: the figures are the probe's, so the records are one).
 * Two probes with the same figures that close together are counted once:
 * fewer, never more.
 */
export function oneProbe(a: Seen, b: Seen): boolean {
  const apart = Math.abs(a.at - b.at)
  if (apart <= toleranceOf(a, b)) return true
  const sameFigures =
    a.durationMs !== undefined &&
    b.durationMs !== undefined &&
    closeDurations(a.durationMs, b.durationMs) &&
    a.status === b.status
  return sameFigures && apart <= UNREPORTED_PROBE_MS + a.precisionMs + b.precisionMs
}

/** The results of one check kept to tell a record seen again from a new one: the latest few. */
export const KEPT = 10

/** Remember a result seen (the latest `KEPT`). */
export function remember(list: Seen[], seen: Seen | undefined): void {
  if (!seen) return
  list.push(seen)
  if (list.length > KEPT) list.splice(0, list.length - KEPT)
}
