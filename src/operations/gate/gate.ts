/**
 * Release gating: poll checks until every one has met the expected status
 * (and response time, and a result newer than the step's first read of it)
 * in `consecutive-passes` results in a row, or the timeout passes. Outcomes:
 * passed, timed-out (a closed gate fails the step), budget-exhausted (with
 * `slo`: a check had spent its error budget, before any poll; closed too),
 * budget-burning (with `max-burn-rate`: a check burned its budget too fast
 * over both windows, before any poll; closed too), error (the API, the network, an unknown error budget or a cancel ended
 * it). Every path reports the failing checks.
 */
import type { RequestTally } from '../../api/types.js'
import type { Config } from '../../run/config.js'
import { str } from '../common.js'
import { type Targets, targetChecks } from '../names/check-targets.js'
import { selectionReported } from '../names/selection.js'
import type { Operation, OperationResult } from '../types.js'
import { OperationError } from '../types.js'
import { windowText } from '../../values/parse.js'
import { increaseText } from './baseline.js'
import { Budget, budgetText } from './budget.js'
import { Burn, burnText } from './burn.js'
import { GateRules, Outcome, Track, describeCheck, reasonOf } from './judge.js'
import { openLedger } from './ledger.js'
import { PastRead, PastRules, readPast } from './past.js'
import { Polled, Polling, pollUntilDone } from './poll.js'
import { report } from './report.js'

/** The gate. On an error (not a closed gate) the outputs still say which checks had not passed. */
export const waitForCheck: Operation = async untimed => {
  const { config } = untimed
  const rules: GateRules = {
    expectedStatus: config.expectedStatus,
    maxResponseTimeMs: config.maxResponseTimeMs,
    requireFresh: config.requireFresh,
    increase: config.baselineMs !== undefined ? config.maxIncrease : undefined
  }
  const past = pastRules(config, rules)
  const deadline = untimed.startedAt + config.timeoutMs
  // Every wait inside the gate (retries, pacing) counts against the timeout.
  const ctx = { ...untimed, api: untimed.api.withDeadline(deadline) }
  const polling: Polling = {
    ctx,
    // History reads (the baseline, the results between polls) can be long: their requests stop at the deadline too.
    reads: untimed.api.withDeadline(deadline, true),
    rules,
    needed: config.consecutivePasses,
    deadline,
    pollIntervalMs: config.pollIntervalMs,
    rounds: 0,
    list: { missed: new Set() }
  }
  const conditions = conditionsOf(config, rules, past)
  const tracks = new Map<string, Track>()
  // The requests reading the past sent, counted as they went out: the report says what the read cost.
  const pastReads: RequestTally = { sent: 0 }
  // The selection by names, once the targets are known: the summary and result name what exclude left out.
  let chosen: Pick<Targets, 'selection' | 'selectionLines' | 'excluded'> = { selectionLines: [], excluded: [] }
  const ended = async (outcome: Outcome, error?: string) =>
    selectionReported(
      await report(
        ctx,
        outcome,
        [...tracks.values()],
        { polls: polling.rounds, pastReads: pastReads.sent },
        conditions,
        error
      ),
      chosen
    )

  try {
    const { checks: targets, listed, listPages, ...rest } = await targetChecks(ctx)
    chosen = rest
    // The list read that found the targets (by name, by prefix) is what a read of the list costs, and a
    // check targeted by id beside them counts as one it did not show. Without one, the first round finds out.
    const byIdOnly = listPages === undefined ? [] : targets.filter(c => !listed.has(c.id)).map(c => c.id)
    polling.list = { pages: listPages, missed: new Set(byIdOnly) }
    for (const check of targets) {
      // The step's first read of each check: a fresh result is one newer than what it showed.
      const ledger = openLedger(check, ctx.startedAt, config.requireFresh)
      tracks.set(check.id, { check, streak: 0, ledger, marks: [], times: [] })
    }
    ctx.log.info(`Waiting up to ${config.timeoutMs / 1000} s for ${targets.length} check(s): ${conditions.join(', ')}.`)
    const read: PastRead =
      past.baseline || past.budget
        ? await readPast({ ...ctx, api: polling.reads }, [...tracks.values()], past, pastReads)
        : { kind: 'read' }
    if (read.kind === 'error') throw new OperationError(read.message)
    const spent = [...tracks.values()].filter(t => t.budget?.spent)
    // A spent budget is named first: a release waits for it whatever the rate is now.
    if (spent.length > 0) return budgetClosed(await ended('budget-exhausted'), spent, tracks.size)
    const burning = [...tracks.values()].filter(t => t.burn?.burning)
    if (burning.length > 0) return burnClosed(await ended('budget-burning'), burning, tracks.size)
    const polled: Polled =
      read.kind === 'timed-out'
        ? { pending: new Set(tracks.keys()), cutShort: read.why }
        : await pollUntilDone(polling, tracks)
    const outcome: Outcome = polled.pending.size === 0 ? 'passed' : 'timed-out'
    const result = await ended(outcome)
    if (outcome === 'passed') return result
    const failures = [...tracks.values()]
      .filter(t => t.streak < polling.needed)
      .map(t => `${describeCheck(t.check)}: ${reasonOf(t, polling.needed)}`)
    return {
      ...result,
      gateClosed: `wait-for-check: ${polled.pending.size} of ${tracks.size} check(s) did not pass within ${config.timeoutMs / 1000} s: ${failures.join(' | ')}${polled.cutShort ? ` (polling stopped early: ${polled.cutShort})` : ''}`
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const known = error instanceof OperationError ? error.outputs : {}
    const reported = await ended('error', message)
    throw new OperationError(message, { ...reported.outputs, ...known }, reported.summary)
  }
}

/** The past each rule needs: the baseline's window (with an increase), the error budget's (with `slo`). */
function pastRules(config: Config, rules: GateRules): PastRules {
  const windowMs = rules.increase ? config.baselineMs : undefined
  return {
    ...(rules.increase && windowMs !== undefined ? { baseline: { windowMs, increase: rules.increase } } : {}),
    ...(config.slo ? { budget: { windowMs: config.sloWindowMs, slo: config.slo } } : {}),
    ...(config.slo && config.maxBurnRate ? { burn: { windowMs: config.burnWindowMs, max: config.maxBurnRate } } : {})
  }
}

/** The gate's conditions in words, for the log and the summary. */
function conditionsOf(config: Config, rules: GateRules, past: PastRules): string[] {
  const needed = config.consecutivePasses
  return [
    past.budget
      ? `an error budget not spent (${past.budget.slo.percent}% over ${windowText(past.budget.windowMs)})`
      : '',
    past.burn
      ? `an error budget not burning faster than ${past.burn.max.multiple}x over both the ${windowText(past.burn.windowMs)} and its last ${windowText(Math.round(past.burn.windowMs / 12))}`
      : '',
    `status ${rules.expectedStatus}`,
    rules.maxResponseTimeMs !== undefined ? `response time <= ${rules.maxResponseTimeMs} ms` : '',
    past.baseline
      ? `response time <= its baseline p95 (${windowText(past.baseline.windowMs)} before the step) ${increaseText(past.baseline.increase)}`
      : '',
    rules.requireFresh ? "a result newer than the step's first read of the check" : '',
    needed > 1 ? `${needed} results in a row` : ''
  ].filter(Boolean)
}

/** A gate closed before any poll by a spent error budget: the report, and the failure naming each such check. */
function budgetClosed(result: OperationResult, spent: Track[], targets: number): OperationResult {
  // Before any poll: a release waits while the budget is spent, however healthy the checks are now.
  const named = spent.map(t => `${str(t.check.name) || t.check.id} (${t.check.id}): ${budgetText(t.budget as Budget)}`)
  return {
    ...result,
    gateClosed: `wait-for-check: the error budget is spent for ${spent.length} of ${targets} check(s); the gate closed before any poll: ${named.join(' | ')}`
  }
}

/** A gate closed before any poll by a budget burning too fast: the report, and the failure naming each such check. */
function burnClosed(result: OperationResult, burning: Track[], targets: number): OperationResult {
  const named = burning.map(t => `${str(t.check.name) || t.check.id} (${t.check.id}): ${burnText(t.burn as Burn)}`)
  return {
    ...result,
    gateClosed: `wait-for-check: the error budget burns too fast for ${burning.length} of ${targets} check(s); the gate closed before any poll: ${named.join(' | ')}`
  }
}
