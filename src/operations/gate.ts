/**
 * Release gating: poll checks until every one has met the expected status
 * (and response time, and a result fresher than the step's start) in
 * `consecutive-passes` results in a row, or the timeout passes. Outcomes:
 * passed, timed-out (a closed gate fails the step), error (the API, the
 * network or a cancel ended it). Every path reports the failing checks.
 */
import * as path from 'node:path'
import type { Check } from '../api/schemas.js'
import { ApiError } from '../api/errors.js'
import { str } from './common.js'
import { timeOf } from '../values.js'
import { checkOutputs, targetChecks } from './check-targets.js'
import { TestCase, junitXml } from './junit.js'
import { ago, sparkline, spreadOf, spreadText, statusMark } from './stats.js'
import type { Operation, OperationContext, OperationResult, Outputs, Summary } from './types.js'
import { OperationError } from './types.js'
import { cannotWrite, writeWhole } from './write-whole.js'

/** Allowance for clock skew between the runner and the service. */
export const FRESHNESS_SKEW_MS = 5_000
/** A poll timed to the deadline may start this much after it (timers wake late). */
const DEADLINE_GRACE_MS = 1_000

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
}

export function judge(check: Check, rules: GateRules): Verdict {
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
  if (rules.freshAfter !== undefined) {
    const at = timeOf(check.lastCheckedAt)
    if (Number.isNaN(at)) missed.push('never checked')
    else if (at <= rules.freshAfter)
      missed.push(`last checked ${str(check.lastCheckedAt)}, before this step started (stale)`)
  }
  return { passed: missed.length === 0, missed }
}

function describeCheck(check: Check): string {
  return `${str(check.name) || check.id} (${check.id}): status ${str(check.status) || '-'}, response time ${
    check.responseTime ?? '-'
  } ms, checked ${str(check.lastCheckedAt) || 'never'}`
}

export type Outcome = 'passed' | 'timed-out' | 'error'

/** One check through the gate. */
interface Track {
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
  /** When it passed, in ms after the step started. */
  passedAfterMs?: number
}

/** What a check that did not pass missed, in words. */
function reasonOf(track: Track, needed: number): string {
  const missed = track.verdict ? track.verdict.missed : ['not polled before the time limit']
  if (missed.length > 0) return missed.join('; ')
  return `met the condition in ${track.streak} of ${needed} results in a row`
}

/** The gate. On an error (not a closed gate) the outputs still say which checks had not passed. */
export const waitForCheck: Operation = async untimed => {
  const { config, clock } = untimed
  const rules: GateRules = {
    expectedStatus: config.expectedStatus,
    maxResponseTimeMs: config.maxResponseTimeMs,
    freshAfter: config.requireFresh ? untimed.startedAt - FRESHNESS_SKEW_MS : undefined
  }
  const needed = config.consecutivePasses
  const deadline = untimed.startedAt + config.timeoutMs
  // Every wait inside the gate (retries, pacing) counts against the timeout; the hard stop adds one request's time.
  const ctx = { ...untimed, api: untimed.api.withDeadline(deadline) }
  const hardStop = deadline + config.requestTimeoutMs + 1_000
  const tracks = new Map<string, Track>()
  const conditions = [
    `status ${rules.expectedStatus}`,
    rules.maxResponseTimeMs !== undefined ? `response time <= ${rules.maxResponseTimeMs} ms` : '',
    rules.freshAfter !== undefined ? 'a result from after the step started' : '',
    needed > 1 ? `${needed} results in a row` : ''
  ].filter(Boolean)
  let round = 0

  try {
    const { checks: targets } = await targetChecks(ctx)
    for (const check of targets) tracks.set(check.id, { check, streak: 0, marks: [], times: [] })
    const pending = new Set(targets.map(c => c.id))
    /** Why polling stopped before every check was polled to the end: a wait that would pass the timeout. */
    let cutShort: string | undefined
    ctx.log.info(`Waiting up to ${config.timeoutMs / 1000} s for ${targets.length} check(s): ${conditions.join(', ')}.`)

    for (;;) {
      round++
      await ctx.log.group(`Poll ${round}: ${pending.size} check(s) pending`, async () => {
        for (const id of [...pending]) {
          // No request starts once the time is up (a second's grace for the poll that the
          // last wait times to the deadline itself): its answer could not count.
          if (clock.now() > deadline + DEADLINE_GRACE_MS) {
            cutShort ??= 'the time ran out during the poll'
            return
          }
          if (clock.now() > hardStop) return
          let check: Check | null
          try {
            check = await ctx.api.getCheck(id)
          } catch (error) {
            if (error instanceof ApiError && error.kind === 'deadline') {
              cutShort = error.message
              return
            }
            throw error
          }
          if (!check) throw new OperationError(`check ${id} was deleted while waiting for it (GET answered 404)`)
          const track = tracks.get(id) as Track
          const late = clock.now() > deadline
          try {
            for (const between of await resultsBetween(ctx, track, check, needed)) {
              observe(track, between, rules, needed, late)
            }
          } catch (error) {
            if (error instanceof ApiError && error.kind === 'deadline') {
              cutShort = error.message
              return
            }
            throw error
          }
          track.check = check
          const progress = observe(track, check, rules, needed, late)
          if (track.streak >= needed) {
            track.passedAfterMs = clock.now() - ctx.startedAt
            pending.delete(id)
          }
          ctx.log.info(`${describeCheck(check)}: ${progress} (${track.streak}/${needed})`)
        }
      })
      if (pending.size === 0 || cutShort !== undefined) break
      const now = clock.now()
      if (now >= deadline) break
      await clock.sleep(Math.min(config.pollIntervalMs, deadline - now), ctx.signal)
      if (ctx.signal.aborted) throw new OperationError('wait-for-check was cancelled before the checks passed')
    }
    const outcome: Outcome = pending.size === 0 ? 'passed' : 'timed-out'
    const result = await report(ctx, outcome, [...tracks.values()], round, conditions)
    if (outcome === 'passed') return result
    const failures = [...tracks.values()]
      .filter(t => t.streak < needed)
      .map(t => `${describeCheck(t.check)}: ${reasonOf(t, needed)}`)
    return {
      ...result,
      gateClosed: `wait-for-check: ${pending.size} of ${tracks.size} check(s) did not pass within ${config.timeoutMs / 1000} s: ${failures.join(' | ')}${cutShort ? ` (polling stopped early: ${cutShort})` : ''}`
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const known = error instanceof OperationError ? error.outputs : {}
    const reported = await report(ctx, 'error', [...tracks.values()], round, conditions, message)
    throw new OperationError(message, { ...reported.outputs, ...known }, reported.summary)
  }
}

/**
 * The results the service recorded between the last one seen and `check`'s,
 * oldest first, as checks (its history's status, response time and time).
 * With consecutive passes, a check that flips faster than poll-interval
 * (up, down, up) must not pass on the results the polls happen to see: those
 * in between are judged too. At most one history read per check and poll,
 * and only when a newer result appeared since an earlier one was seen.
 */
async function resultsBetween(ctx: OperationContext, track: Track, check: Check, needed: number): Promise<Check[]> {
  const since = track.seenUpTo
  const now = timeOf(check.lastCheckedAt)
  if (needed <= 1 || since === undefined || !Number.isFinite(since) || !(now > since)) return []
  const history = await ctx.api.checkHistory(check.id)
  return history
    .map(entry => ({ entry, at: timeOf(entry.checkedAt) }))
    .filter(({ at }) => at > since && at < now)
    .sort((a, b) => a.at - b.at)
    .map(({ entry }) => ({
      ...check,
      status: entry.status ?? undefined,
      responseTime: entry.responseTime ?? undefined,
      lastCheckedAt: entry.checkedAt ?? undefined
    }))
}

/**
 * Count one result of a check; returns what it was, in words. Every result is
 * judged: one that misses resets the count, even when it repeats a time
 * already seen. One that meets the condition counts only when it is newer
 * than every result seen before (its lastCheckedAt, parsed).
 */
function observe(track: Track, check: Check, rules: GateRules, needed: number, late: boolean): string {
  const parsed = timeOf(check.lastCheckedAt)
  const time = Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed
  const newer = track.seenUpTo === undefined || time > track.seenUpTo
  track.seenUpTo = Math.max(track.seenUpTo ?? Number.NEGATIVE_INFINITY, time)
  let verdict = judge(check, rules)
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

/** The outputs, the summary and the JUnit report of a gate that ended with `outcome`. */
async function report(
  ctx: OperationContext,
  outcome: Outcome,
  tracks: Track[],
  polls: number,
  conditions: string[],
  error?: string
): Promise<OperationResult> {
  const { config, clock } = ctx
  const needed = config.consecutivePasses
  const now = clock.now()
  const failed = tracks.filter(t => t.streak < needed)
  const reason = (t: Track) => (error ? `the gate ended with an error: ${error}` : reasonOf(t, needed))
  const failedChecks = failed.map(t => ({
    id: t.check.id,
    name: t.check.name ?? null,
    status: t.check.status ?? null,
    responseTime: t.check.responseTime ?? null,
    lastCheckedAt: t.check.lastCheckedAt ?? null,
    reason: reason(t)
  }))
  const outputs: Outputs = {
    ...checkOutputs((failed[0] ?? tracks[0])?.check),
    result: tracks.map(t => t.check),
    passed: outcome === 'passed',
    outcome,
    'failed-checks': failedChecks
  }
  const elapsedMs = now - ctx.startedAt
  const elapsed = (elapsedMs / 1000).toFixed(1)
  // Last, and never in the way: a report that cannot be written is a warning, the gate's result stands.
  if (config.junitFile !== undefined) {
    try {
      await writeJunit(ctx, tracks, elapsedMs, reason, error)
    } catch (failure) {
      ctx.log.warning(
        `${failure instanceof Error ? failure.message : String(failure)}; the gate's result is in the outputs and the summary.`
      )
    }
  }
  const titles: Record<Outcome, string> = {
    passed: 'Release gate passed',
    'timed-out': 'Release gate closed: the time ran out',
    error: 'Release gate ended with an error'
  }
  const summary: Summary = {
    title: titles[outcome],
    lines: [
      outcome === 'passed'
        ? `Every check met: ${conditions.join(', ')} (${polls} poll(s), ${elapsed} s).`
        : `${failed.length} of ${tracks.length} check(s) did not meet: ${conditions.join(', ')} (${polls} poll(s), ${elapsed} s).`,
      ...(error ? [`Error: ${error}`] : [])
    ],
    tables: [
      {
        head: ['', 'Check', 'ID', 'Status', 'Response time (ms)', 'Checked', 'In a row', 'Verdict'],
        rows: tracks.map(t => [
          t.streak >= needed ? '✅' : statusMark(t.check.status, config.expectedStatus) === '⏸' ? '⏸' : '❌',
          t.check.name,
          t.check.id,
          t.check.status,
          t.check.responseTime,
          ago(t.check.lastCheckedAt, now),
          `${t.streak}/${needed}`,
          t.streak >= needed ? 'passed' : `not passed: ${reason(t)}`
        ])
      },
      {
        head: [
          'Check',
          'Polls, oldest first (✅ met, ❌ missed, ↺ no new result)',
          'Response time min / avg / p95 (ms)',
          'Trend'
        ],
        rows: tracks.map(t => [
          t.check.name ?? t.check.id,
          t.marks.length > 60 ? `…${t.marks.slice(-60).join('')}` : t.marks.join(''),
          spreadText(spreadOf(t.times)),
          sparkline(t.times)
        ])
      }
    ]
  }
  return { outputs, summary }
}

async function writeJunit(
  ctx: OperationContext,
  tracks: Track[],
  elapsedMs: number,
  reason: (t: Track) => string,
  error: string | undefined
): Promise<void> {
  const { config } = ctx
  const file = path.resolve(ctx.workspace, config.junitFile as string)
  // The key and every other secret of the step are *** in the file as in every report.
  const safe = ctx.redact
  const cases: TestCase[] = tracks.map(t => ({
    name: safe(`${str(t.check.name) || t.check.id} (${t.check.id})`),
    classname: 'wait-for-check',
    time: (t.passedAfterMs ?? elapsedMs) / 1000,
    ...(t.streak >= config.consecutivePasses
      ? {}
      : {
          failure: {
            type: error ? ('error' as const) : ('timed-out' as const),
            message: safe(reason(t)),
            details: safe(`${describeCheck(t.check)}\n${reason(t)}`)
          }
        })
  }))
  if (cases.length === 0 && error) {
    cases.push({
      name: 'wait-for-check',
      classname: 'wait-for-check',
      time: elapsedMs / 1000,
      failure: { type: 'error', message: safe(error) }
    })
  }
  const xml = junitXml({
    name: 'wait-for-check',
    timestamp: new Date(ctx.startedAt).toISOString(),
    time: elapsedMs / 1000,
    cases
  })
  try {
    await writeWhole(file, xml)
  } catch (failure) {
    throw new OperationError(`junit-file ${config.junitFile}: ${cannotWrite(file, failure)}`)
  }
}
