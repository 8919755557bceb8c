/**
 * Monitoring as code: make the service's checks equal to a file's list.
 * Read the file (validated before any request), list once, plan, print the
 * plan, then send one request per change, paced under the rate limit.
 */
import * as path from 'node:path'
import { parseChecksFileLoading } from './checks-file.js'
import { readChecksFile } from './checks-file-read.js'
import { PackedValues } from '../../api/packed.js'
import { paths } from '../../api/monitoring.js'
import type { Check } from '../../api/schemas.js'
import type { Mapping } from '../../values/values.js'
import { Listed, convergeChecks, indexChecks } from '../names/check-targets.js'
import { warnCaseTwins } from '../names/case-twins.js'
import { planAlikeLine } from '../names/duplicates.js'
import { keptLine, unprovenLine } from '../names/converge.js'
import { lookUp } from '../names/snapshot.js'
import { differences, dryRunSkips, writableOf } from '../common.js'
import { PackedSpecs, PlanEntry, computePlan, countOf, describeChanges, drifting, shownAction } from './plan.js'
import { readApprovedPlan, writePlanFile } from './plan-file.js'
import { driftMessage, halfWayMessage, planOutputs, planSummary, refusal } from './outcome.js'
import { shownEntry, shownPlan } from './shown.js'

import type { Operation, OperationContext, OperationResult, Outputs } from '../types.js'
import { OperationError, withKnownOutputs } from '../types.js'

/** Requests run at once during a sync; all still go through the client's pacing. */
export const CONCURRENCY = 4

/** A create this run made: what converging with concurrent runs needs. */
interface Made {
  entry: PlanEntry
  item: Check
  tookMs: number
  /** Found by looking after an ambiguous failure: not provably this run's (converge.ts). */
  recovered: boolean
}

async function applyEntry(
  ctx: OperationContext,
  entry: PlanEntry,
  before: readonly Listed[]
): Promise<Made | undefined> {
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
async function convergeMade(
  ctx: OperationContext,
  made: Made[],
  before: ReadonlySet<string> | undefined
): Promise<string[]> {
  const slowest = Math.max(...made.map(m => m.tookMs))
  const converged = await convergeChecks(
    ctx,
    made.map(m => ({ ...(m.entry.body as Mapping), ...m.item })),
    slowest,
    before
  )
  const conflicts: string[] = []
  for (const [index, { entry, item }] of made.entries()) {
    const { survivor, others, kept } = converged[index]
    if (others.length > 0) conflicts.push(`${JSON.stringify(entry.name)} (${others.map(c => c.id).join(', ')})`)
    const keptNote = keptLine('check', survivor, kept)
    if (keptNote) ctx.log.warning(`${entry.name}: ${keptNote}`)
    if (survivor.id === item.id) continue
    entry.id = survivor.id
    entry.note = `a concurrent run created a check of this name and URL at the same time: using ${survivor.id}, the first in order (every run uses it); removed this run's ${item.id}`
    ctx.log.info(`${entry.name}: ${entry.note}`)
    if (differences(entry.body as Mapping, survivor).length > 0) {
      await ctx.api.updateCheck(survivor.id, { ...writableOf(survivor), ...(entry.body as Mapping) })
    }
  }
  return conflicts
}

/**
 * The service's checks to plan from: one full read, and when it misses a
 * name of the file, the proof of its absence (snapshot.ts) before a create is
 * planned; a name a later read shows is updated, never created twice.
 * `proven`: the ids of the proven read, when the absence was proven.
 */
async function serverChecks(
  ctx: OperationContext,
  wanted: PackedSpecs,
  packed: PackedValues
): Promise<{ server: Listed[]; proven: ReadonlySet<string> | undefined }> {
  // Through the list's index, which the plan then uses: a fleet's names are not gathered again for each read.
  const holdsAll = (list: Listed[]) => {
    const index = indexChecks(list)
    return wanted.names.every(name => index.has(name))
  }
  const look = await lookUp(() => ctx.api.readPackedChecks(packed), holdsAll)
  if (look.reads > 1 && holdsAll(look.items)) {
    ctx.log.info(
      'The first read of the checks did not show every name of the file; a later read did (the list moved while it was read): the plan is made from that read.'
    )
  }
  if (!look.proven && !holdsAll(look.items)) ctx.log.warning(unprovenLine('check', look.reads, look.doubt))
  return { server: look.items, proven: look.proven }
}

/** Warn of each name of the file that identical checks share (the plan changes them alike); the lines. */
function warnAlike(ctx: OperationContext, wanted: PackedSpecs, server: readonly Listed[], plan: PlanEntry[]): string[] {
  const index = indexChecks(server)
  const lines: string[] = []
  for (const name of wanted.names) {
    // One check of the name (the most): nothing to say, and nothing made whole to find that out.
    if (index.count(name) < 2) continue
    const named = index.byName(name)
    if (!named.check || named.duplicates.length === 0) continue
    const changed = plan.some(e => e.name === named.check?.name && e.action === 'update')
    lines.push(planAlikeLine({ ...named, check: named.check }, changed))
  }
  for (const line of lines) ctx.log.warning(line)
  return lines
}

export const syncChecks: Operation = async ctx => {
  const { config } = ctx
  const file = path.resolve(ctx.workspace, config.checksFile as string)
  // Packed (packed.ts): the file's entries as each part is read, then the service's checks as each page comes,
  // first in the buffer the file was read into (readAtMost says why): a fleet's entries and checks are made
  // whole again only while the plan reads each.
  let packed = new PackedValues()
  const text = await readChecksFile(config.checksFile as string, file, room => (packed = new PackedValues(room)))
  const relative = path.relative(ctx.workspace, file)
  const wanted = await parseChecksFileLoading(
    text,
    config.checksFile as string,
    {
      env: ctx.env,
      warn: (message, place) => ctx.log.warning(message, place),
      notice: message => ctx.log.notice(message),
      annotateAs: relative.startsWith('..') || path.isAbsolute(relative) ? config.checksFile : relative,
      // Declared by the file (`${secret:NAME}`, a secret variable name): never shown by the action; masked
      // job-wide only when registrable (core/context.ts): never a word, a number or a short value.
      secret: value => ctx.declareSecret(value)
    },
    () => new PackedSpecs(packed)
  )
  if (config.prune && config.prunePrefix === undefined && wanted.length === 0) {
    throw new OperationError(
      `sync-checks refused: checks-file ${config.checksFile} lists no checks, and prune without prune-prefix would delete every check on the service. Nothing was sent. Give prune-prefix, or list the checks to keep.`
    )
  }
  const approved =
    config.approvedPlan === undefined
      ? undefined
      : await readApprovedPlan(config.approvedPlan, path.resolve(ctx.workspace, config.approvedPlan))
  const { server, proven } = await serverChecks(ctx, wanted, packed)
  const plan = computePlan(wanted, server, { prune: config.prune, prunePrefix: config.prunePrefix })
  const alike = warnAlike(ctx, wanted, server, plan)
  const changes = plan.filter(e => e.action !== 'unchanged')
  const pausedCount = plan.filter(e => e.paused).length
  const tally = `${countOf(plan, 'create')} to create, ${countOf(plan, 'update')} to update, ${countOf(plan, 'delete')} to delete, ${countOf(plan, 'unchanged')} unchanged${pausedCount > 0 ? ` (${pausedCount} paused in the service, not in the file: kept paused, reported as drift)` : ''}`

  await ctx.log.group(`Plan: ${tally}`, async () => {
    for (const entry of plan) {
      // The log has room for whole values (redacted before anything could cut them), one entry at a time.
      const e = shownEntry(entry, ctx.redactValue)
      const detail = e.note ?? describeChanges(e, Number.POSITIVE_INFINITY)
      ctx.log.info(`${shownAction(e).padEnd(9)} ${e.name}${e.id ? ` (${e.id})` : ''}${detail ? `: ${detail}` : ''}`)
      await ctx.log.drained?.()
    }
  })
  warnCaseTwins(
    ctx,
    plan.filter(e => e.action === 'create').map(e => e.name),
    server
  )
  // fail-on-drift (a dry run): the drift fails the step whatever else happens, fail-on-error or not.
  const drift = drifting(plan)
  const drifted = config.dryRun && config.failOnDrift && drift.length > 0 ? driftMessage(ctx, drift) : undefined
  /** A dry run's drift with another failure: both said, and the step fails as for drift alone. */
  const driftAnd = (problem: string, outputs: Outputs): OperationResult => {
    ctx.log.warning(problem)
    const title = 'Drift: the service differs from the checks file'
    return {
      outputs,
      summary: planSummary(ctx, title, plan, [drifted as string, problem]),
      gateClosed: `${drifted} Also: ${problem}`
    }
  }
  if (config.planFile !== undefined) {
    const planFile = config.planFile
    try {
      await withKnownOutputs(planOutputs(plan, wanted.length, false), () =>
        writePlanFile(planFile, path.resolve(ctx.workspace, planFile), shownPlan(plan), ctx.redactValue)
      )
    } catch (error) {
      if (drifted && error instanceof OperationError) return driftAnd(error.message, error.outputs)
      throw error
    }
    ctx.log.info(`Plan written to ${config.planFile}.`)
  }
  const refused = refusal(ctx, plan, approved)
  if (refused !== undefined) {
    // Nothing was written: the counts (and `changed`) say so; `result` still holds the refused plan.
    for (const e of changes) e.outcome = 'not applied'
    const outputs = planOutputs(plan, wanted.length, true)
    if (drifted) return driftAnd(refused, outputs)
    throw new OperationError(refused, outputs, planSummary(ctx, 'Sync refused', plan, [refused]))
  }
  if (approved !== undefined) ctx.log.info(`The plan is the approved one (${config.approvedPlan}).`)

  if (config.dryRun) {
    for (const e of changes) {
      const method = e.action === 'create' ? 'POST' : e.action === 'update' ? 'PUT' : 'DELETE'
      dryRunSkips(ctx, method, e.action === 'create' ? paths.checks : paths.check(e.id as string), e.body)
    }
    return {
      outputs: planOutputs(plan, wanted.length, false),
      summary: planSummary(
        ctx,
        drifted ? 'Drift: the service differs from the checks file' : 'Sync plan (dry run: nothing sent)',
        plan,
        [`Plan: ${tally}.`, ...alike, ...(drifted ? [drifted] : [])]
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
      conflicts = await ctx.log.group('Converge with concurrent runs', () => convergeMade(ctx, made, proven))
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
  return { outputs, summary: planSummary(ctx, 'Checks in sync', plan, [`Plan: ${tally}. All applied.`, ...alike]) }
}
