/**
 * Monitoring as code: make the service's checks equal to a file's list.
 * Read the file (validated before any request), list once, plan, print the
 * plan, then send one request per change, paced under the rate limit.
 */
import * as path from 'node:path'
import { parseChecksFile, readChecksFile } from './checks-file.js'
import { ApiError } from '../../api/errors.js'
import { paths } from '../../api/monitoring.js'
import { isRetryableStatus } from '../../api/retry.js'
import type { Check } from '../../api/schemas.js'
import type { Mapping } from '../../values.js'
import { convergeChecks, findByName, warnDuplicates } from '../check-targets.js'
import { keptLine } from '../converge.js'
import { differences, dryRunSkips, writableOf } from '../common.js'
import { PlanEntry, computePlan, countOf, describeChanges, entryResult, sortedForShow, wholeValues } from './plan.js'
import { planDifferences, readApprovedPlan, writePlanFile } from './plan-file.js'
import type { Operation, OperationContext, Outputs, Summary } from '../types.js'
import { OperationError } from '../types.js'

/** Requests run at once during a sync; all still go through the client's pacing. */
const CONCURRENCY = 4

/**
 * The plan as people read it: a table (long values cut, marked) and, folded
 * under it, every cut value whole. Secrets are redacted value by value first,
 * so no cut can leave part of one.
 */
function planSummary(ctx: OperationContext, title: string, plan: PlanEntry[], lines: string[]): Summary {
  const shownPlan = sortedForShow(plan).map(e => ctx.redactValue(e))
  const whole = wholeValues(shownPlan)
  const cell = (e: PlanEntry) => {
    const text = e.note ?? describeChanges(e)
    return e.note === undefined && wholeValues([e]).length > 0 ? `${text} (whole values below)` : text
  }
  return {
    title,
    lines,
    tables: [
      {
        head: ['Action', 'Check', 'ID', 'Changes', 'Outcome'],
        rows: shownPlan.map(e => [e.action, e.name, e.id, cell(e), e.outcome])
      }
    ],
    details: whole.length > 0 ? [{ title: `Whole values (${whole.length})`, lines: whole }] : []
  }
}

/** A create this run made: what converging with concurrent runs needs. */
interface Made {
  entry: PlanEntry
  item: Check
  tookMs: number
  /** Found by looking after an ambiguous failure: not provably this run's (converge.ts). */
  recovered: boolean
}

async function applyEntry(ctx: OperationContext, entry: PlanEntry, before: Check[]): Promise<Made | undefined> {
  const api = ctx.api
  if (entry.action === 'create') {
    const { item, tookMs, recovered } = await api.createCheck(entry.body as Mapping, before)
    entry.id = item.id
    return { entry, item, tookMs, recovered }
  } else if (entry.action === 'update') {
    await api.updateCheck(entry.id as string, entry.body as Mapping)
  } else if (entry.action === 'delete') {
    await api.deleteCheck(entry.id as string)
  }
  return undefined
}

/**
 * After the creates: converge with concurrent runs that created the same
 * names (converge.ts). Each entry then names the survivor; a survivor whose
 * fields differ from the entry gets them. Returns the names that another run
 * created with another URL or type (left alone).
 */
async function convergeMade(ctx: OperationContext, made: Made[]): Promise<string[]> {
  const slowest = Math.max(...made.map(m => m.tookMs))
  const converged = await convergeChecks(
    ctx,
    made.map(m => ({ ...(m.entry.body as Mapping), ...m.item })),
    slowest,
    new Set(made.filter(m => m.recovered).map(m => m.item.id))
  )
  const conflicts: string[] = []
  for (const [index, { entry, item }] of made.entries()) {
    const { survivor, others, kept } = converged[index]
    if (others.length > 0) conflicts.push(`${JSON.stringify(entry.name)} (${others.map(c => c.id).join(', ')})`)
    const keptNote = keptLine('check', survivor, kept)
    if (keptNote) ctx.log.warning(`${entry.name}: ${keptNote}`)
    if (survivor.id === item.id) continue
    entry.id = survivor.id
    entry.note = `another check of this name and URL was there at the same time (a concurrent run's, or one the first look missed): using ${survivor.id}; removed this run's ${item.id}`
    ctx.log.info(`${entry.name}: ${entry.note}`)
    if (differences(entry.body as Mapping, survivor).length > 0) {
      await ctx.api.updateCheck(survivor.id, { ...writableOf(survivor), ...(entry.body as Mapping) })
    }
  }
  return conflicts
}

/** Would the same request succeed later? 5xx, 429, network trouble, a timeout, a cancel: yes. A 4xx: no. */
export function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  switch (error.kind) {
    case 'network':
    case 'timeout':
    case 'rate-limit':
    case 'deadline':
    case 'cancelled':
      return true
    case 'http':
      return error.status !== undefined && isRetryableStatus(error.status)
    default:
      return false
  }
}

/** What a user needs after a sync failed half-way: which entry, what was applied, and whether a re-run helps. */
function halfWayMessage(changes: PlanEntry[], failed: PlanEntry, error: unknown): string {
  const applied = changes.filter(e => e.outcome === 'applied')
  const failedCount = changes.filter(e => e.outcome === 'failed').length
  const notAttempted = changes.filter(e => e.outcome === 'not applied').length
  const label = (e: PlanEntry) => `${e.action} ${JSON.stringify(e.name)}`
  const done =
    applied.length > 0
      ? `${applied.length} of ${changes.length} change(s) were applied before it stopped (${applied.map(label).join(', ')})`
      : `none of the ${changes.length} change(s) was applied`
  const next = isTransient(error)
    ? 'The failure looks transient: running the step again finishes the job.'
    : 'Running the step again will fail the same way until the cause is fixed (the service refused this change).'
  return `sync-checks stopped at ${label(failed)}: ${error instanceof Error ? error.message : String(error)}. ${done}; ${failedCount} failed, ${notAttempted} not attempted. ${next}`
}

/** fail-on-drift: each entry that drifted, with its changes (redacted, whole), as one failure. */
function driftMessage(ctx: OperationContext, changes: PlanEntry[]): string {
  const shown = sortedForShow(changes).map(e => ctx.redactValue(e))
  const listed = shown
    .slice(0, 20)
    .map(
      e =>
        `${e.action} ${JSON.stringify(e.name)}${e.id ? ` (${e.id})` : ''}: ${describeChanges(e, Number.POSITIVE_INFINITY)}`
    )
  const more = shown.length > 20 ? `; and ${shown.length - 20} more (see the summary)` : ''
  return `sync-checks: drift: ${changes.length} check(s) differ from checks-file ${ctx.config.checksFile}: ${listed.join('; ')}${more}. Nothing was sent (dry run). Run the sync to put the file's values back, or change the file to keep the service's.`
}

/** The counts and the plan, as outputs: before applying, and after. */
function planOutputs(plan: PlanEntry[], count: number, applied: boolean): Outputs {
  const changes = plan.filter(e => e.action !== 'unchanged')
  return {
    created: countOf(plan, 'create', applied),
    updated: countOf(plan, 'update', applied),
    deleted: countOf(plan, 'delete', applied),
    unchanged: countOf(plan, 'unchanged'),
    count,
    changed: applied ? changes.some(e => e.outcome === 'applied') : changes.length > 0,
    // Drift: the service differed from the file before anything was applied.
    drift: changes.length > 0,
    result: plan.map(entryResult)
  }
}

/**
 * What stops a plan before anything is written: more deletes than
 * max-deletions, or a plan that is not the approved one. The plan is in the
 * error's outputs and summary, so the reviewer sees what was refused.
 */
function refusal(ctx: OperationContext, plan: PlanEntry[], approved: Mapping[] | undefined): string | undefined {
  const deletes = countOf(plan, 'delete')
  if (deletes > ctx.config.maxDeletions) {
    return `sync-checks refused: the plan deletes ${deletes} checks, more than max-deletions (${ctx.config.maxDeletions}). Nothing was written. If these deletes are meant, raise max-deletions for this run; else fix the checks file or prune-prefix.`
  }
  if (approved === undefined) return undefined
  const differences = planDifferences(approved, plan, ctx.redactValue)
  if (differences.length === 0) return undefined
  const shownDifferences = differences.slice(0, 10).join('; ')
  const more = differences.length > 10 ? `; and ${differences.length - 10} more` : ''
  return `sync-checks refused: the plan differs from approved-plan ${ctx.config.approvedPlan} in ${differences.length} place(s): ${shownDifferences}${more}. Nothing was written. Review the new plan (run the dry-run again) and approve it.`
}

export const syncChecks: Operation = async ctx => {
  const { config } = ctx
  const file = path.resolve(ctx.workspace, config.checksFile as string)
  const text = await readChecksFile(config.checksFile as string, file)
  const relative = path.relative(ctx.workspace, file)
  const wanted = parseChecksFile(text, config.checksFile as string, {
    env: ctx.env,
    warn: (message, place) => ctx.log.warning(message, place),
    annotateAs: relative.startsWith('..') || path.isAbsolute(relative) ? config.checksFile : relative,
    secret: value => ctx.addSecret(value)
  })
  if (config.prune && config.prunePrefix === undefined && wanted.length === 0) {
    throw new OperationError(
      `sync-checks refused: checks-file ${config.checksFile} lists no checks, and prune without prune-prefix would delete every check on the service. Nothing was sent. Give prune-prefix, or list the checks to keep.`
    )
  }
  const approved =
    config.approvedPlan === undefined
      ? undefined
      : await readApprovedPlan(config.approvedPlan, path.resolve(ctx.workspace, config.approvedPlan))
  const server = await ctx.api.listChecks()
  for (const spec of wanted) warnDuplicates(ctx, findByName(server, String(spec.name), ' on the service'))
  const plan = computePlan(wanted, server, { prune: config.prune, prunePrefix: config.prunePrefix })
  const changes = plan.filter(e => e.action !== 'unchanged')
  const tally = `${countOf(plan, 'create')} to create, ${countOf(plan, 'update')} to update, ${countOf(plan, 'delete')} to delete, ${countOf(plan, 'unchanged')} unchanged`

  await ctx.log.group(`Plan: ${tally}`, async () => {
    for (const e of plan.map(entry => ctx.redactValue(entry))) {
      // The log has room for whole values (redacted before anything could cut them).
      const detail = e.note ?? describeChanges(e, Number.POSITIVE_INFINITY)
      ctx.log.info(`${e.action.padEnd(9)} ${e.name}${e.id ? ` (${e.id})` : ''}${detail ? `: ${detail}` : ''}`)
    }
  })
  if (config.planFile !== undefined) {
    await writePlanFile(config.planFile, path.resolve(ctx.workspace, config.planFile), plan, ctx.redactValue)
    ctx.log.info(`Plan written to ${config.planFile}.`)
  }
  const refused = refusal(ctx, plan, approved)
  if (refused !== undefined) {
    // Nothing was written: the counts (and `changed`) say so; `result` still holds the refused plan.
    for (const e of changes) e.outcome = 'not applied'
    throw new OperationError(
      refused,
      planOutputs(plan, wanted.length, true),
      planSummary(ctx, 'Sync refused', plan, [refused])
    )
  }
  if (approved !== undefined) ctx.log.info(`The plan is the approved one (${config.approvedPlan}).`)

  if (config.dryRun) {
    for (const e of changes) {
      const method = e.action === 'create' ? 'POST' : e.action === 'update' ? 'PUT' : 'DELETE'
      dryRunSkips(ctx, method, e.action === 'create' ? paths.checks : paths.check(e.id as string), e.body)
    }
    const drifted = config.failOnDrift && changes.length > 0 ? driftMessage(ctx, changes) : undefined
    return {
      outputs: planOutputs(plan, wanted.length, false),
      summary: planSummary(
        ctx,
        drifted ? 'Drift: the service differs from the checks file' : 'Sync plan (dry run: nothing sent)',
        plan,
        [`Plan: ${tally}.`, ...(drifted ? [drifted] : [])]
      ),
      gateClosed: drifted
    }
  }

  let failure: { entry: PlanEntry; error: unknown } | undefined
  const made: Made[] = []
  await ctx.log.group(`Apply ${changes.length} change(s)`, async () => {
    const queue = [...changes]
    const worker = async () => {
      for (let entry = queue.shift(); entry && failure === undefined; entry = queue.shift()) {
        try {
          const created = await applyEntry(ctx, entry, server)
          if (created) made.push(created)
          entry.outcome = 'applied'
          ctx.log.info(`${entry.action}d ${entry.name}${entry.id ? ` (${entry.id})` : ''}`)
        } catch (error) {
          entry.outcome = 'failed'
          failure ??= { entry, error }
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, changes.length) }, worker))
  })
  for (const e of changes) e.outcome ??= 'not applied'
  let conflicts: string[] = []
  let convergeFailure: unknown
  if (failure === undefined && made.length > 0) {
    try {
      conflicts = await ctx.log.group('Converge with concurrent runs', () => convergeMade(ctx, made))
    } catch (error) {
      convergeFailure = error
    }
  }

  const outputs = planOutputs(plan, wanted.length, true)
  if (failure !== undefined) {
    const message = halfWayMessage(changes, failure.entry, failure.error)
    throw new OperationError(message, outputs, planSummary(ctx, 'Sync stopped half-way', plan, [message]))
  }
  if (convergeFailure !== undefined) {
    const message = `sync-checks applied the plan, but looking again for checks that concurrent runs created under the same names failed: ${convergeFailure instanceof Error ? convergeFailure.message : String(convergeFailure)}. Running the step again is safe; it reports any checks of the same name that were left.`
    throw new OperationError(message, outputs, planSummary(ctx, 'Checks in sync, not confirmed', plan, [message]))
  }
  if (conflicts.length > 0) {
    const message = `sync-checks applied the plan, but concurrent runs created checks of the same name with another URL or type: ${conflicts.join(', ')}. None was removed; the next sync fails on these names until all but one are deleted.`
    throw new OperationError(message, outputs, planSummary(ctx, 'Checks in sync, with conflicts', plan, [message]))
  }
  return { outputs, summary: planSummary(ctx, 'Checks in sync', plan, [`Plan: ${tally}. All applied.`]) }
}
