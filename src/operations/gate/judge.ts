/**
 * The gate's judgement: whether one result of a check meets the rules
 * (status, response time, freshness), and how results add up to a pass
 * (`consecutive-passes`, each newer than every result seen before).
 */
import type { Check } from '../../api/schemas.js'
import type { Increase } from '../../config.js'
import { str } from '../common.js'
import { timeOf } from '../../values.js'
import { Baseline, increaseText } from './baseline.js'
import type { Budget } from './budget.js'
import { Seen, remember, seenOf } from './probes.js'

/** Allowance for clock skew between the runner and the service. */
export const FRESHNESS_SKEW_MS = 5_000
export interface Verdict {
  passed: boolean
  /** What it missed, in words; empty when passed. */
  missed: string[]
}

export interface GateRules {
  expectedStatus: string
  maxResponseTimeMs?: number
  /** Results at or before this time (ms) are stale; undefined = freshness not required. */
  freshAfter?: number
  /** With a baseline: how far above each check's baseline p95 a response time may be. */
  increase?: Increase
}

/** One result against the rules, and against its check's baseline when it has one (not skipped). */
export function judge(check: Check, rules: GateRules, baseline?: Baseline): Verdict {
  const missed: string[] = []
  const status = str(check.status)
  if (status.toLowerCase() !== rules.expectedStatus.toLowerCase()) {
    missed.push(`status is ${status || 'empty'}, expected ${rules.expectedStatus}`)
  }
  if (rules.maxResponseTimeMs !== undefined) {
    const rt = check.responseTime
    if (typeof rt !== 'number') missed.push('no response time reported')
    else if (rt > rules.maxResponseTimeMs) missed.push(`response time ${rt} ms is above ${rules.maxResponseTimeMs} ms`)
  }
  if (baseline?.limitMs !== undefined && rules.increase) {
    const rt = check.responseTime
    if (typeof rt !== 'number') {
      if (rules.maxResponseTimeMs === undefined) missed.push('no response time reported')
    } else if (rt > baseline.limitMs) {
      missed.push(
        `response time ${rt} ms is above the limit ${baseline.limitMs} ms (baseline p95 ${baseline.p95} ms ${increaseText(rules.increase)})`
      )
    }
  }
  if (rules.freshAfter !== undefined) {
    const at = timeOf(check.lastCheckedAt)
    const when = str(check.lastCheckedAt).trim()
    if (Number.isNaN(at) && when !== '')
      missed.push(
        `last checked ${JSON.stringify(when)}, a time in a form the action cannot read: never counted as fresh`
      )
    else if (Number.isNaN(at)) missed.push('never checked')
    else if (at <= rules.freshAfter)
      missed.push(`last checked ${str(check.lastCheckedAt)}, before this step started (stale)`)
  }
  return { passed: missed.length === 0, missed }
}

export function describeCheck(check: Check): string {
  return `${str(check.name) || check.id} (${check.id}): status ${str(check.status) || '-'}, response time ${
    check.responseTime ?? '-'
  } ms, checked ${str(check.lastCheckedAt) || 'never'}`
}

export type Outcome = 'passed' | 'timed-out' | 'budget-exhausted' | 'error'

/** One check through the gate. */
export interface Track {
  check: Check
  /** Results in a row that met the condition, each newer than every result seen before it. */
  streak: number
  /**
   * The latest lastCheckedAt seen (ms; -Infinity for a result without one). A
   * result counts only when it is newer: a result seen again, or written
   * another way, or an older one, never counts twice.
   */
  seenUpTo?: number
  verdict?: Verdict
  /** Each poll: ✅ met, ❌ missed, ↺ the same result as the poll before. */
  marks: string[]
  /** Response times of the distinct results seen. */
  times: number[]
  /** The latest results seen, by time: a history entry that is one of them again counts once (probes.ts). */
  seen: Seen[]
  /** The history entries already judged between polls (by id, or by all their fields): each is judged once. */
  judged?: Set<string>
  /** When it passed, in ms after the step started. */
  passedAfterMs?: number
  /** Its baseline, read once at the gate's start (with `baseline`). */
  baseline?: Baseline
  /** Its error budget, read once at the gate's start (with `slo`). */
  budget?: Budget
}

/** What a check that did not pass missed, in words. */
export function reasonOf(track: Track, needed: number): string {
  const missed = track.verdict ? track.verdict.missed : ['not polled before the time limit']
  if (missed.length > 0) return missed.join('; ')
  return `met the condition in ${track.streak} of ${needed} results in a row`
}

/**
 * Count one result of a check; returns what it was, in words. Every result is
 * judged: one that misses resets the count, even when it repeats a time
 * already seen. One that meets the condition counts only when it is newer
 * than every result seen before (its lastCheckedAt, parsed).
 */
export function observe(track: Track, check: Check, rules: GateRules, needed: number, late: boolean): string {
  const parsed = timeOf(check.lastCheckedAt)
  const time = Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed
  const newer = track.seenUpTo === undefined || time > track.seenUpTo
  track.seenUpTo = Math.max(track.seenUpTo ?? Number.NEGATIVE_INFINITY, time)
  if (newer) remember(track.seen, seenOf(check.lastCheckedAt, check.responseTime, check.status))
  let verdict = judge(check, rules, track.baseline)
  // A gate whose time ran out never passes: an answer that arrives after the timeout is reported, but does not count.
  if (verdict.passed && late) verdict = { passed: false, missed: ['the answer arrived after the timeout'] }
  track.verdict = verdict
  if (newer && typeof check.responseTime === 'number') track.times.push(check.responseTime)
  if (!verdict.passed) {
    track.streak = 0
    track.marks.push('❌')
    return verdict.missed.join('; ')
  }
  if (!newer) {
    track.marks.push('↺')
    return track.streak >= needed ? 'passed' : 'no new result since the last poll'
  }
  track.streak++
  track.marks.push('✅')
  return track.streak >= needed ? 'passed' : 'met the condition'
}
