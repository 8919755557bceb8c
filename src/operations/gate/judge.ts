/**
 * The gate's judgement: whether one result of a check meets the rules
 * (status, response time, a time it can place), and how results add up to a
 * pass (`consecutive-passes`): what each reading is (new, a repeat, before
 * the step, unplaceable) is the probe ledger's answer (`ledger.ts`); this
 * module obeys it.
 */
import type { Check } from '../../api/schemas.js'
import type { Increase } from '../../run/config.js'
import { str } from '../common.js'
import { Baseline, increaseText } from './baseline.js'
import type { Budget } from './budget.js'
import type { Burn } from './burn.js'
import { Ledger, Placement, Reading, checkReading, decide, record } from './ledger.js'

export interface Verdict {
  passed: boolean
  /** What it missed, in words; empty when passed. */
  missed: string[]
  /** A result from before the step: neither a pass nor a miss. */
  beforeStep?: boolean
}

export interface GateRules {
  expectedStatus: string
  maxResponseTimeMs?: number
  /** Only a result from after the step's first read counts (`require-fresh`); when it is placed is the ledger's. */
  requireFresh?: boolean
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
  if (rules.requireFresh && !checkReading(check)) {
    const when = str(check.lastCheckedAt).trim()
    missed.push(
      when === ''
        ? 'never checked'
        : `last checked ${JSON.stringify(when)}, a time in a form the action cannot read: never counted as fresh`
    )
  }
  return { passed: missed.length === 0, missed }
}

export function describeCheck(check: Check): string {
  return `${str(check.name) || check.id} (${check.id}): status ${str(check.status) || '-'}, response time ${
    check.responseTime ?? '-'
  } ms, checked ${str(check.lastCheckedAt) || 'never'}`
}

export type Outcome = 'passed' | 'timed-out' | 'budget-exhausted' | 'budget-burning' | 'error'

/** One check through the gate. */
export interface Track {
  check: Check
  /** Results in a row that met the condition, each a new probe (`ledger.ts`). */
  streak: number
  /** What this check's readings were: the probes counted, and where freshness starts. */
  ledger: Ledger
  verdict?: Verdict
  /** Each reading: ✅ met, ❌ missed, ↺ no new result, ⏮ before the step. */
  marks: string[]
  /** Response times of the new probes seen. */
  times: number[]
  /** When it passed, in ms after the step started. */
  passedAfterMs?: number
  /** Its baseline, read once at the gate's start (with `baseline`). */
  baseline?: Baseline
  /** Its error budget, read once at the gate's start (with `slo`). */
  budget?: Budget
  /** Its burn rate, from the same read (with `max-burn-rate`). */
  burn?: Burn
}

/** A check's count as shown: results in a row against the target, never past it (`2/2`, not `3/2`). */
export function countText(track: Track, needed: number): string {
  return `${Math.min(track.streak, needed)}/${needed}`
}

/** What a check that did not pass missed, in words. */
export function reasonOf(track: Track, needed: number): string {
  const missed = track.verdict ? track.verdict.missed : ['not polled before the time limit']
  if (missed.length > 0) return missed.join('; ')
  return `met the condition in ${track.streak} of ${needed} results in a row`
}

/** What a reading does to the count, from where the ledger places it and whether it met the condition. */
type Effect = 'count' | 'reset' | 'nothing' | 'before-step'

/**
 * The counting rule: a new probe that meets the condition counts; any miss
 * after the step resets (a repeat too: fewer passes, never more); a repeat
 * or an unplaceable reading that meets it adds nothing; a result from before
 * the step is neither.
 */
function effectOf(placement: Placement, passed: boolean): Effect {
  if (placement === 'before-step') return 'before-step'
  // Maybe from before the step: a pass does not count, a miss resets (fewer passes, never more).
  if (placement === 'maybe-before') return passed ? 'before-step' : 'reset'
  if (!passed) return 'reset'
  return placement === 'new' ? 'count' : 'nothing'
}

/** A result of a check to count: as a check (its history's entries are shown as the check), and its reading. */
export interface Result {
  check: Check
  reading: Reading | undefined
}

/**
 * Count one result of a check (at a poll, or from its history between
 * polls); returns what it was, in words. `late`: the answer came after the
 * timeout, so it never counts.
 */
export function observe(
  track: Track,
  { check, reading }: Result,
  rules: GateRules,
  needed: number,
  late: boolean
): string {
  const placement = decide(track.ledger, reading)
  if (placement === 'new') record(track.ledger, reading)
  let verdict = judge(check, rules, track.baseline)
  // A gate whose time ran out never passes: an answer that arrives after the timeout is reported, but does not count.
  if (verdict.passed && late) verdict = { passed: false, missed: ['the answer arrived after the timeout'] }
  const effect = effectOf(placement, verdict.passed)
  if (placement === 'new' && typeof check.responseTime === 'number') track.times.push(check.responseTime)
  if (effect === 'before-step') {
    // Not newer than the newest result the step's first read showed (or than the step's start).
    const text = `last checked ${str(check.lastCheckedAt)}, before this step started (stale), neither a pass nor a miss`
    track.verdict = { passed: false, missed: [text], beforeStep: true }
    track.marks.push('⏮')
    return text
  }
  track.verdict = verdict
  if (effect === 'reset') {
    track.streak = 0
    track.marks.push('❌')
    return verdict.missed.join('; ')
  }
  if (effect === 'nothing') {
    // A history row that repeats a result already counted is no poll: the timeline marks polls and results.
    if (reading?.from !== 'history') track.marks.push('↺')
    return track.streak >= needed ? 'passed' : 'no new result since the last poll'
  }
  track.streak++
  track.marks.push('✅')
  return track.streak >= needed ? 'passed' : 'met the condition'
}
