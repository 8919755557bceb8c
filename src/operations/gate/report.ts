/**
 * What a gate reports when it ends, whatever the outcome: the outputs (with
 * the checks that did not pass), the job summary's tables, and the JUnit
 * report (`junit-file`).
 */
import * as path from 'node:path'
import { str } from '../common.js'
import { checkOutputs } from '../names/check-targets.js'
import { TestCase, junitXml } from './junit.js'
import { ago, sparkline, spreadOf, spreadText, statusMark } from './stats.js'
import { windowText } from '../../values/parse.js'
import { Baseline, baselineJson, baselineText, increaseText } from './baseline.js'
import { budgetJson, budgetText, worstBudget } from './budget.js'
import { burnJson, burnText, fastestBurn } from './burn.js'
import {
  budgetLines,
  budgetTable,
  burnLines,
  burnTable,
  closedEarly,
  closedLine,
  closedReason,
  heldBy,
  notPolledLine
} from './budget-report.js'
import type { OperationContext, OperationResult, Outputs, Summary } from '../types.js'
import type { Increase } from '../../run/config.js'
import { OperationError } from '../types.js'
import { cannotWrite, writeWhole } from '../write-whole.js'
import { Outcome, Track, countText, describeCheck, reasonOf } from './judge.js'

/** The outputs, the summary and the JUnit report of a gate that ended with `outcome`. */
export async function report(
  ctx: OperationContext,
  outcome: Outcome,
  tracks: Track[],
  { polls, pastReads }: { polls: number; pastReads: number },
  conditions: string[],
  error?: string
): Promise<OperationResult> {
  const { config, clock } = ctx
  const needed = config.consecutivePasses
  const now = clock.now()
  const failed = tracks.filter(t => t.streak < needed)
  const reason = (t: Track) =>
    error
      ? `the gate ended with an error: ${error}`
      : closedEarly(outcome)
        ? closedReason(outcome, t)
        : reasonOf(t, needed)
  // With `baseline` and `slo`, each check's own baseline and budget go with it in result and failed-checks.
  const compared = config.baselineMs !== undefined && config.maxIncrease !== undefined
  const budgeted = config.slo !== undefined
  const burnt = budgeted && config.maxBurnRate !== undefined
  const unjudged = tracks.filter(t => t.budget?.skipped !== undefined).length
  const unburnt = tracks.filter(t => t.burn?.skipped !== undefined).length
  const withBaseline = (t: Track) => ({
    ...(compared ? { baseline: baselineJson(t.baseline) } : {}),
    ...(budgeted ? { errorBudget: budgetJson(t.budget) } : {}),
    ...(burnt ? { burnRate: burnJson(t.burn) } : {})
  })
  // A gate its past closed before any poll: the checks that did not hold it did not fail, they were never polled.
  const notPolled = closedEarly(outcome) ? failed.filter(t => !heldBy(outcome, t)) : []
  const worst = worstBudget(tracks)
  const fastest = fastestBurn(tracks)
  const lead = outcome === 'budget-burning' ? fastest : worst?.budget?.spent ? worst : undefined
  const failedChecks = failed
    .filter(t => !notPolled.includes(t))
    .map(t => ({
      id: t.check.id,
      name: t.check.name ?? null,
      status: t.check.status ?? null,
      responseTime: t.check.responseTime ?? null,
      lastCheckedAt: t.check.lastCheckedAt ?? null,
      reason: reason(t),
      ...withBaseline(t)
    }))
  const outputs: Outputs = {
    ...checkOutputs((lead ?? failed[0] ?? tracks[0])?.check),
    result: tracks.map(t => ({
      ...t.check,
      ...withBaseline(t),
      ...(notPolled.includes(t) ? { notPolled: true } : {})
    })),
    passed: outcome === 'passed',
    outcome,
    // `[]` says the gate passed: with no target known (an error before them), there is no list to give.
    ...(tracks.length > 0 ? { 'failed-checks': failedChecks } : {}),
    // The first check's, in the order targeted (each one's is in result and failed-checks).
    ...(compared ? { 'baseline-p95': String(tracks[0]?.baseline?.p95 ?? '') } : {}),
    // The target with the least budget left (each one's is in result).
    ...(budgeted
      ? {
          availability: String(worst?.budget?.availability ?? ''),
          'error-budget-remaining': String(worst?.budget?.remaining ?? '')
        }
      : {}),
    // The target that burns fastest (each one's is in result).
    ...(burnt
      ? {
          'burn-rate': String(fastest?.burn?.long.rate ?? ''),
          'burn-rate-short': String(fastest?.burn?.short.judged ? fastest.burn.short.rate : '')
        }
      : {})
  }
  const elapsedMs = now - ctx.startedAt
  const elapsed = (elapsedMs / 1000).toFixed(1)
  // Last, and never in the way: a report that cannot be written is a warning, the gate's result stands.
  if (config.junitFile !== undefined) {
    try {
      await writeJunit(ctx, tracks, elapsedMs, reason, error, outcome)
    } catch (failure) {
      ctx.log.warning(
        `${failure instanceof Error ? failure.message : String(failure)}; the gate's result is in the outputs and the summary.`
      )
    }
  }
  const titles: Record<Outcome, string> = {
    passed: 'Release gate passed',
    'timed-out': 'Release gate closed: the time ran out',
    'budget-exhausted': 'Release gate closed: the error budget is spent',
    'budget-burning': 'Release gate closed: the error budget burns too fast',
    error: 'Release gate ended with an error'
  }
  const summary: Summary = {
    title: titles[outcome],
    lines: [
      outcome === 'passed'
        ? `Every check met: ${conditions.join(', ')}${unjudged > 0 ? ` (the error budget not judged for ${unjudged} of ${tracks.length} check(s): see below)` : ''}${unburnt > 0 ? ` (the burn rate not judged for ${unburnt} of ${tracks.length} check(s): see below)` : ''} (${polls} poll(s), ${elapsed} s).`
        : closedEarly(outcome)
          ? closedLine(outcome, tracks, elapsed)
          : `${failed.length} of ${tracks.length} check(s) did not meet: ${conditions.join(', ')} (${polls} poll(s), ${elapsed} s).`,
      ...(error ? [`Error: ${error}`] : []),
      ...(closedEarly(outcome) && notPolled.length > 0 ? [notPolledLine(outcome, notPolled)] : []),
      ...(budgeted ? budgetLines(tracks, pastReads) : []),
      ...(burnt ? burnLines(tracks, config.maxBurnRate?.multiple as number, config.burnWindowMs) : []),
      ...(compared ? baselineLines(tracks, config.baselineMs as number, config.maxIncrease as Increase) : [])
    ],
    tables: [
      {
        head: [
          '',
          'Check',
          'ID',
          'Status',
          'Response time (ms)',
          ...(compared ? ['Baseline p95 (ms)', 'Limit (ms)'] : []),
          'Checked',
          'In a row',
          'Verdict'
        ],
        rows: tracks.map(t => [
          markOf(t, needed, config.expectedStatus),
          t.check.name,
          t.check.id,
          t.check.status,
          t.check.responseTime,
          ...(compared ? baselineCells(t.baseline) : []),
          ago(t.check.lastCheckedAt, now),
          countText(t, needed),
          t.streak >= needed ? 'passed' : `not passed: ${reason(t)}`
        ])
      },
      {
        head: [
          'Check',
          `Polls, oldest first (✅ met, ❌ missed, ↺ no new result${tracks.some(t => t.marks.includes('⏮')) ? ', ⏮ before the step' : ''})`,
          'Response time min / avg / p95 (ms)',
          'Trend',
          ...(compared ? ['Against the limit'] : [])
        ],
        rows: tracks.map(t => [
          t.check.name ?? t.check.id,
          t.marks.length > 60 ? `…${t.marks.slice(-60).join('')}` : t.marks.join(''),
          spreadText(spreadOf(t.times)),
          sparkline(t.times),
          ...(compared ? [againstLimit(t)] : [])
        ])
      },
      ...(budgeted ? [budgetTable(tracks)] : []),
      ...(burnt ? [burnTable(tracks)] : [])
    ]
  }
  return { outputs, summary }
}

/** A check's mark in the summary: passed, paused, a result from before the step (not a failure), or missed. */
function markOf(t: Track, needed: number, expected: string): string {
  if (t.streak >= needed) return '✅'
  if (statusMark(t.check.status, expected) === '⏸') return '⏸'
  return t.verdict?.beforeStep ? '⏮' : '❌'
}

/** The baseline's rule, and a line for each check whose comparison was skipped (too few results). */
function baselineLines(tracks: Track[], windowMs: number, increase: Increase): string[] {
  return [
    `Baseline: each check's results in the ${windowText(windowMs)} before the step started that were up and carry a response time; a result passes if it is at most their p95 ${increaseText(increase)}.`,
    ...tracks
      .filter(t => t.baseline?.skipped !== undefined)
      .map(t => `${str(t.check.name) || t.check.id}: ${baselineText(t.baseline as Baseline, increase)} for it.`)
  ]
}

/** The cells `Baseline p95 (ms)` and `Limit (ms)` of one check. */
function baselineCells(b: Baseline | undefined): unknown[] {
  if (!b) return ['not read', '']
  if (b.skipped !== undefined) return [`too few results (${b.results})`, 'none']
  return [b.p95, b.limitMs]
}

/** The fresh results seen against the check's limit, in words: `2 of 5 above 144 ms`. */
function againstLimit(t: Track): string {
  const limit = t.baseline?.limitMs
  if (limit === undefined) return t.baseline ? 'no limit: too few results in the baseline' : ''
  const above = t.times.filter(ms => ms > limit).length
  if (t.times.length === 0) return `no result yet; limit ${limit} ms`
  return above === 0
    ? `all ${t.times.length} at or below ${limit} ms`
    : `${above} of ${t.times.length} above ${limit} ms`
}

async function writeJunit(
  ctx: OperationContext,
  tracks: Track[],
  elapsedMs: number,
  reason: (t: Track) => string,
  error: string | undefined,
  outcome: Outcome
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
      : closedEarly(outcome) && !heldBy(outcome, t)
        ? { skipped: safe(reason(t)) }
        : {
            failure: {
              type: error ? ('error' as const) : closedEarly(outcome) ? outcome : ('timed-out' as const),
              message: safe(reason(t)),
              // Each thing once: the message says why; the text adds what it does not say.
              details: safe(
                [
                  describeCheck(t.check),
                  ...(t.baseline && config.maxIncrease ? [baselineText(t.baseline, config.maxIncrease)] : []),
                  ...(t.budget ? [budgetText(t.budget)] : []),
                  ...(t.burn ? [burnText(t.burn)] : [])
                ]
                  .filter(line => !reason(t).includes(line))
                  .join('\n')
              )
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
