/**
 * Release gating: poll checks until every one has met the expected status
 * (and response time, and a result fresher than the step's start) in
 * `consecutive-passes` results in a row, or the timeout passes. Outcomes:
 * passed, timed-out (a closed gate fails the step), budget-exhausted (with
 * `slo`: a check had spent its error budget, before any poll; closed too),
 * error (the API, the network or a cancel ended it). Every path reports the
 * failing checks.
 */
import type { Check, HistoryEntry } from '../../api/schemas.js'
import { ApiError } from '../../api/errors.js'
import type { MonitoringApi } from '../../api/monitoring.js'
import { placeTime, timeOf } from '../../values.js'
import { canonical, str } from '../common.js'
import { targetChecks } from '../check-targets.js'
import type { Operation } from '../types.js'
import { OperationError } from '../types.js'
import { increaseText, windowText } from './baseline.js'
import { Budget, budgetText } from './budget.js'
import { FRESHNESS_SKEW_MS, GateRules, Outcome, Track, describeCheck, judge, observe, reasonOf } from './judge.js'
import { PastRules, readPast } from './past.js'
import { UNREPORTED_PROBE_MS, oneProbe, seenOf } from './probes.js'
import { report } from './report.js'

/** A poll timed to the deadline may start this much after it (timers wake late). */
const DEADLINE_GRACE_MS = 1_000

/** The gate. On an error (not a closed gate) the outputs still say which checks had not passed. */
export const waitForCheck: Operation = async untimed => {
  const { config, clock } = untimed
  const rules: GateRules = {
    expectedStatus: config.expectedStatus,
    maxResponseTimeMs: config.maxResponseTimeMs,
    freshAfter: config.requireFresh ? untimed.startedAt - FRESHNESS_SKEW_MS : undefined,
    increase: config.baselineMs !== undefined ? config.maxIncrease : undefined
  }
  const windowMs = rules.increase ? config.baselineMs : undefined
  const past: PastRules = {
    ...(rules.increase && windowMs !== undefined ? { baseline: { windowMs, increase: rules.increase } } : {}),
    ...(config.slo ? { budget: { windowMs: config.sloWindowMs, slo: config.slo } } : {})
  }
  const needed = config.consecutivePasses
  const deadline = untimed.startedAt + config.timeoutMs
  // Every wait inside the gate (retries, pacing) counts against the timeout; the hard stop adds one request's time.
  const ctx = { ...untimed, api: untimed.api.withDeadline(deadline) }
  // History reads (the baseline, the results between polls) can be long: their requests stop at the deadline too.
  const reads = untimed.api.withDeadline(deadline, true)
  const hardStop = deadline + config.requestTimeoutMs + 1_000
  const tracks = new Map<string, Track>()
  const conditions = [
    past.budget
      ? `an error budget not spent (${past.budget.slo.percent}% over ${windowText(past.budget.windowMs)})`
      : '',
    `status ${rules.expectedStatus}`,
    rules.maxResponseTimeMs !== undefined ? `response time <= ${rules.maxResponseTimeMs} ms` : '',
    rules.increase && windowMs !== undefined
      ? `response time <= its baseline p95 (${windowText(windowMs)} before the step) ${increaseText(rules.increase)}`
      : '',
    rules.freshAfter !== undefined ? 'a result from after the step started' : '',
    needed > 1 ? `${needed} results in a row` : ''
  ].filter(Boolean)
  let round = 0

  try {
    const { checks: targets } = await targetChecks(ctx)
    for (const check of targets) tracks.set(check.id, { check, streak: 0, marks: [], times: [], seen: [] })
    const pending = new Set(targets.map(c => c.id))
    /** Why polling stopped before every check was polled to the end: a wait that would pass the timeout. */
    let cutShort: string | undefined
    ctx.log.info(`Waiting up to ${config.timeoutMs / 1000} s for ${targets.length} check(s): ${conditions.join(', ')}.`)
    if (past.baseline || past.budget) cutShort = await readPast({ ...ctx, api: reads }, [...tracks.values()], past)
    const spent = [...tracks.values()].filter(t => t.budget?.spent)
    if (spent.length > 0) {
      // Before any poll: a release waits while the budget is spent, however healthy the checks are now.
      const result = await report(ctx, 'budget-exhausted', [...tracks.values()], round, conditions)
      const named = spent.map(
        t => `${str(t.check.name) || t.check.id} (${t.check.id}): ${budgetText(t.budget as Budget)}`
      )
      return {
        ...result,
        gateClosed: `wait-for-check: the error budget is spent for ${spent.length} of ${tracks.size} check(s); the gate closed before any poll: ${named.join(' | ')}`
      }
    }

    while (cutShort === undefined) {
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
          // Each result is judged late or not when it is counted: one judged after the deadline never counts.
          const late = () => clock.now() > deadline
          try {
            const own = seenOf(check.lastCheckedAt, check.responseTime, check.status)
            for (const between of await resultsBetween(reads, track, check, needed)) {
              // A passing entry that is a result already seen, or the check's own (another time for the
              // same probe), is that result: it counts once. A miss is always judged (it only resets).
              const entry = seenOf(between.lastCheckedAt, between.responseTime, between.status)
              const again = entry && [...track.seen, ...(own ? [own] : [])].some(r => oneProbe(r, entry))
              if (again && judge(between, rules, track.baseline).passed) continue
              observe(track, between, rules, needed, late())
            }
          } catch (error) {
            if (error instanceof ApiError && error.kind === 'deadline') {
              cutShort = error.message
              return
            }
            throw error
          }
          track.check = check
          const progress = observe(track, check, rules, needed, late())
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
 * and only when a newer result appeared since an earlier one was seen; `api`
 * has the hard deadline, so a slow read is cut off there (kind `deadline`).
 */
async function resultsBetween(api: MonitoringApi, track: Track, check: Check, needed: number): Promise<Check[]> {
  const since = track.seenUpTo
  const now = timeOf(check.lastCheckedAt)
  if (needed <= 1 || since === undefined || !Number.isFinite(since) || !(now > since)) return []
  // Pages back to a minute before the last result: a time in whole seconds (or minutes) may read as earlier.
  const history = await api.checkHistory(check.id, since - 60_000)
  // An entry is judged once: a row a shifting page shows twice, or an entry an earlier poll judged (the
  // same id, or without one the same fields and values).
  const judged = (track.judged ??= new Set<string>())
  const rows = new Set<string>()
  const keyOf = (entry: HistoryEntry) => (typeof entry.id === 'string' ? `id:${entry.id}` : canonical(entry))
  const once = (entry: HistoryEntry) => {
    const key = keyOf(entry)
    return !judged.has(key) && !rows.has(key) && Boolean(rows.add(key))
  }
  return (
    history
      .filter(once)
      .map(entry => ({ entry, placed: placeTime(entry.checkedAt) }))
      // An entry not judged yet that reads as up to a probe's longest duration before the last result (a
      // history stamped at the probe's start, or in whole seconds) may lie after it: it is judged too (a
      // miss resets; a pass not newer than what was seen adds nothing). Fewer, never more.
      .flatMap(({ entry, placed }) =>
        placed && placed.ms + placed.precisionMs + UNREPORTED_PROBE_MS > since && placed.ms < now
          ? [{ entry, at: placed.ms }]
          : []
      )
      .sort((a, b) => a.at - b.at)
      .map(({ entry }) => (judged.add(keyOf(entry)), entry))
      .map(entry => ({
        ...check,
        status: entry.status ?? undefined,
        responseTime: entry.responseTime ?? undefined,
        lastCheckedAt: entry.checkedAt ?? undefined
      }))
  )
}
