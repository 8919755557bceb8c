/**
 * What a sync says about its plan, whatever happens to it: the plan as
 * people read it (summary), the counts and the plan as outputs, what stops a
 * plan before anything is written, drift, and a failure half-way.
 */
import { ApiError } from '../../api/errors.js'
import { isRetryableStatus } from '../../api/retry.js'
import type { Mapping } from '../../values/values.js'
import {
  PlanEntry,
  countOf,
  describeChanges,
  drifting,
  entryResult,
  shownAction,
  sortedForShow,
  wholeValues
} from './plan.js'
import { planDifferences } from './plan-file.js'
import { type OperationContext, type Outputs, type Summary, tableOf } from '../types.js'
import { shownEntry, shownPlan } from './shown.js'

/**
 * The plan as people read it: a table (long values cut, marked) and, folded
 * under it, every cut value whole. Secrets are redacted value by value first,
 * so no cut can leave part of one.
 */
export function planSummary(ctx: OperationContext, title: string, plan: PlanEntry[], lines: string[]): Summary {
  const shown = shownPlan(sortedForShow(plan), ctx.redactValue)
  const whole = wholeValues(shown)
  const cell = (e: PlanEntry) => {
    const text = e.note ?? describeChanges(e)
    return e.note === undefined && wholeValues([e]).length > 0 ? `${text} (whole values below)` : text
  }
  return {
    title,
    lines,
    tables: [
      tableOf(['Action', 'Check', 'ID', 'Changes', 'Outcome'], shown, e => [
        shownAction(e),
        e.name,
        e.id,
        cell(e),
        e.outcome
      ])
    ],
    details: whole.length > 0 ? [{ title: `Whole values (${whole.length})`, lines: whole }] : []
  }
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
export function halfWayMessage(changes: PlanEntry[], failed: PlanEntry, error: unknown): string {
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
export function driftMessage(ctx: OperationContext, changes: PlanEntry[]): string {
  const shown = shownPlan(sortedForShow(changes), ctx.redactValue)
  const listed = shown
    .slice(0, 20)
    .map(
      e =>
        `${shownAction(e)} ${JSON.stringify(e.name)}${e.id ? ` (${e.id})` : ''}: ${describeChanges(e, Number.POSITIVE_INFINITY)}`
    )
  const more = shown.length > 20 ? `; and ${shown.length - 20} more (see the summary)` : ''
  return `sync-checks: drift: ${changes.length} check(s) differ from checks-file ${ctx.config.checksFile}: ${listed.join('; ')}${more}. Nothing was sent (dry run). Run the sync to put the file's values back, or change the file to keep the service's.`
}

/** The counts and the plan, as outputs: before applying, and after. */
export function planOutputs(plan: PlanEntry[], count: number, applied: boolean): Outputs {
  const changes = plan.filter(e => e.action !== 'unchanged')
  return {
    created: countOf(plan, 'create', applied),
    updated: countOf(plan, 'update', applied),
    deleted: countOf(plan, 'delete', applied),
    unchanged: countOf(plan, 'unchanged'),
    count,
    changed: applied ? changes.some(e => e.outcome === 'applied') : changes.length > 0,
    // Drift: the service differed from the file before anything was applied (a check paused outside the file too).
    drift: drifting(plan).length > 0,
    // As shown: secrets by position *** (the outputs redact the step's own secrets by value).
    result: plan.map(e => entryResult(shownEntry(e)))
  }
}

/**
 * What stops a plan before anything is written: more deletes than
 * max-deletions, or a plan that is not the approved one. The plan is in the
 * error's outputs and summary, so the reviewer sees what was refused.
 */
export function refusal(ctx: OperationContext, plan: PlanEntry[], approved: Mapping[] | undefined): string | undefined {
  const deletes = countOf(plan, 'delete')
  if (deletes > ctx.config.maxDeletions) {
    return `sync-checks refused: the plan deletes ${deletes} checks, more than max-deletions (${ctx.config.maxDeletions}). Nothing was written. If these deletes are meant, raise max-deletions for this run; else fix the checks file or prune-prefix.`
  }
  if (approved === undefined) return undefined
  // Compared as the plan file holds them: both sides as shown (a secret's change is the marker).
  const differences = planDifferences(approved, shownPlan(plan), ctx.redactValue)
  if (differences.length === 0) return undefined
  const shownDifferences = differences.slice(0, 10).join('; ')
  const more = differences.length > 10 ? `; and ${differences.length - 10} more` : ''
  return `sync-checks refused: the plan differs from approved-plan ${ctx.config.approvedPlan} in ${differences.length} place(s): ${shownDifferences}${more}. Nothing was written. Review the new plan (run the dry-run again) and approve it.`
}
