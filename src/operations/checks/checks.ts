/**
 * Check operations: create, get, list, update, upsert, delete. Each returns
 * outputs and a summary; none reads inputs or writes outputs itself. Pausing
 * is in pause.ts, history in history.ts, targeting in names/check-targets.ts,
 * a delete of a fleet (name-prefix, name-pattern) in delete-fleet.ts.
 */
import { paths } from '../../api/monitoring.js'
import type { Check } from '../../api/schemas.js'
import type { Mapping } from '../../values/values.js'
import {
  checkOutputs,
  checkSummary,
  convergeChecks,
  findByName,
  findTarget,
  targetCheck
} from '../names/check-targets.js'
import { warnCaseTwins } from '../names/case-twins.js'
import { differences, dryRunSkips, str, withDefaultType, writableOf } from '../common.js'
import { keptLine, unprovenLine } from '../names/converge.js'
import { type Named, alikeLine } from '../names/duplicates.js'
import { type Snapshot, lookUp, unprovenAbsence } from '../names/snapshot.js'
import { deleteFleet } from './delete-fleet.js'
import { narrowList, selectionLines, selectionOf, selectionText, withExcluded } from '../names/selection.js'
import type { Operation, OperationContext, OperationResult } from '../types.js'
import { OperationError, withKnownOutputs } from '../types.js'

/** The wanted fields of an update: the spec, without the name when the name is the target. */
function wantedChanges(ctx: OperationContext): Mapping {
  const wanted = { ...ctx.config.check }
  if (ctx.config.checkIds.length === 0) delete wanted.name
  return wanted
}

/** PUT the whole writable check merged with `changes`, unless nothing differs. */
export async function applyChanges(
  ctx: OperationContext,
  current: Check,
  changes: Mapping
): Promise<{ check: Check | Mapping; changed: boolean; fields: string[] }> {
  const fields = differences(changes, current)
  if (fields.length === 0) return { check: current, changed: false, fields }
  const body = { ...writableOf(current), ...changes }
  if (dryRunSkips(ctx, 'PUT', paths.check(current.id), body))
    return { check: { ...current, ...changes }, changed: true, fields }
  const updated = await withKnownOutputs(checkOutputs(current), () => ctx.api.updateCheck(current.id, body))
  return { check: updated, changed: true, fields }
}

/**
 * Create the check. `miss`: the look-up by name that missed it (snapshot.ts),
 * after which the create converges with racing runs (converge.ts); without it
 * (create-check), it always creates. A name that differs from a check's only
 * in case is warned about either way (check-targets.ts).
 */
async function create(ctx: OperationContext, spec: Mapping, miss?: Snapshot<Check>): Promise<OperationResult> {
  const body = withDefaultType(spec)
  const before = miss?.items ?? (await ctx.api.listChecks())
  const twins = warnCaseTwins(ctx, [str(body.name)], before)
  if (dryRunSkips(ctx, 'POST', paths.checks, body)) {
    return {
      outputs: { result: body, changed: true, 'check-name': str(body.name) },
      summary: checkSummary('Check would be created (dry run)', [body], twins)
    }
  }
  const { item, recovered, tookMs } = await ctx.api.createCheck(body, before)
  ctx.log.info(`Created check ${item.id} (${str(item.name)})${recovered ? ', found after an ambiguous failure' : ''}`)
  if (!miss) {
    return {
      outputs: { ...checkOutputs(item), result: item, changed: true },
      summary: checkSummary('Check created', [item], twins)
    }
  }
  // Ours as created: the fields sent, with what the server answered over them.
  const mine: Check = { ...body, ...item }
  const {
    survivor,
    removed,
    kept: unproven,
    others
  } = await withKnownOutputs({ ...checkOutputs(mine), changed: true }, () =>
    convergeChecks(ctx, [mine], tookMs, miss.proven)
  ).then(([converged]) => converged)
  const lines = [...twins]
  let kept: Check | Mapping = survivor
  if (survivor.id !== item.id) {
    const line = `A concurrent run created a check of this name and URL at the same time: using ${survivor.id}, the first in order (every run uses it); this run's ${item.id} was removed.`
    ctx.log.info(line)
    lines.push(line)
    const fields = differences(body, survivor)
    if (fields.length > 0) kept = (await applyChanges(ctx, survivor, body)).check
  } else if (removed.length > 0) {
    lines.push(
      `Concurrent runs created the same check: kept this one, the first in order; removed theirs, ${removed.join(', ')}.`
    )
  }
  const keptNote = keptLine('check', survivor, unproven)
  if (keptNote) {
    ctx.log.warning(keptNote)
    lines.push(keptNote)
  }
  if (others.length > 0) {
    throw new OperationError(
      `${others.length} other check(s) named ${JSON.stringify(str(item.name))} were created at the same time with another URL or type (${others.map(c => `${c.id}: ${str(c.url)}`).join(', ')}); none was removed, and name targeting fails until all but one are deleted`,
      { ...checkOutputs(kept), changed: true }
    )
  }
  return {
    outputs: { ...checkOutputs(kept), result: kept, changed: true },
    summary: checkSummary('Check created', [kept], lines)
  }
}

export const createCheck: Operation = ctx => create(ctx, ctx.config.check)

export const getCheck: Operation = async ctx => {
  const { check } = await targetCheck(ctx)
  return { outputs: { ...checkOutputs(check), result: check }, summary: checkSummary('Check', [check]) }
}

export const listChecks: Operation = async ctx => {
  const selection = selectionOf(ctx.config)
  const { items: all, shift } = await ctx.api.readChecks()
  if (shift) ctx.log.warning(`list-checks: ${shift}; the list (and count) may miss a check.`)
  const selected = narrowList(all, selection)
  const checks = selected.matches
  // A prefix alone narrows the list as it always has; a pattern or exclude selects as a fleet does (selection.ts).
  const byPrefixOnly = selection?.prefix !== undefined && selection.patterns.length === 0 && !selection.exclude.length
  const scope =
    selection === undefined
      ? ''
      : byPrefixOnly
        ? ` whose names start with ${JSON.stringify(selection.prefix)}`
        : ` selected by ${selectionText(selection)}`
  const lines = selection && !byPrefixOnly ? selectionLines(selection, selected) : []
  return {
    outputs: {
      ...checkOutputs(checks[0]),
      result: withExcluded(checks, selection, selected.excluded),
      count: checks.length
    },
    summary: checkSummary(`Checks (${checks.length})${scope}`, checks, lines)
  }
}

function changedLine(changed: boolean, fields: string[], dryRun: boolean): string {
  if (!changed) return 'Nothing differs: no request sent.'
  return `${dryRun ? 'Would change' : 'Changed'}: ${fields.join(', ')}.`
}

/**
 * Apply `changes` to the targeted check and describe what happened. Its
 * identical duplicates (used as one, check-targets.ts) get the same changes,
 * each compared on its own, so they stay identical and the next run by name
 * finds them as this one did; a warning names them all and how to remove one.
 */
async function update(
  ctx: OperationContext,
  target: Named & { check: Check },
  changes: Mapping
): Promise<OperationResult> {
  const { check, changed, fields } = await applyChanges(ctx, target.check, changes)
  let alike = false
  for (const duplicate of target.duplicates) alike = (await applyChanges(ctx, duplicate, changes)).changed || alike
  const lines = [
    alikeLine(target, changed || alike, ctx.config.dryRun),
    changedLine(changed, fields, ctx.config.dryRun)
  ]
  if (lines[0]) ctx.log.warning(lines[0])
  return {
    outputs: { ...checkOutputs(check), result: check, changed: changed || alike },
    summary: checkSummary(changed || alike ? 'Check updated' : 'Check unchanged', [check], lines.filter(Boolean))
  }
}

export const updateCheck: Operation = async ctx => update(ctx, await findTarget(ctx), wantedChanges(ctx))

export const upsertCheck: Operation = async ctx => {
  const spec = ctx.config.check
  if (ctx.config.checkIds.length > 0) return update(ctx, await findTarget(ctx), withDefaultType(spec))
  const name = String(spec.name)
  // Created only when two full reads prove the name absent (snapshot.ts).
  const look = await lookUp(
    () => ctx.api.readChecks(),
    list => list.some(c => c.name === name)
  )
  const named = findByName(look.items, name)
  if (!named.check) {
    if (!look.proven) ctx.log.warning(unprovenLine('check', look.reads, look.doubt))
    return create(ctx, spec, look)
  }
  if (look.reads > 1) {
    ctx.log.info(
      `The first read of the checks did not show ${JSON.stringify(name)}; a later read did (the list moved while it was read): using ${named.check.id}, nothing created.`
    )
  }
  return update(ctx, { check: named.check, duplicates: named.duplicates }, withDefaultType(spec))
}

export const deleteCheck: Operation = async ctx => {
  const selection = selectionOf(ctx.config)
  if (selection) return deleteFleet(ctx, selection)
  const { checkIds, checkNames } = ctx.config
  let target: Check | undefined
  let duplicates: Check[] = []
  let id = checkIds[0]
  if (!id) {
    // "Already gone" is a claim of absence: it needs the proof a create needs (snapshot.ts).
    const look = await lookUp(
      () => ctx.api.readChecks(),
      list => list.some(c => c.name === checkNames[0])
    )
    ;({ check: target, duplicates } = findByName(look.items, checkNames[0]))
    if (!target && !look.proven) {
      throw unprovenAbsence(
        look,
        `a check named ${JSON.stringify(checkNames[0])}`,
        'it may exist, so it is not reported gone; nothing was deleted. Run the step again, or target it by check-id.',
        'delete-check'
      )
    }
    if (!target) {
      ctx.log.info(`No check named ${JSON.stringify(checkNames[0])}: nothing to delete.`)
      return {
        outputs: { changed: false, result: null, 'check-name': checkNames[0] },
        summary: checkSummary('Check already gone', [], [`No check named ${checkNames[0]}: nothing to delete.`])
      }
    }
    id = target.id
  } else if (ctx.config.dryRun) {
    target = (await ctx.api.getCheck(id)) ?? undefined
    if (!target) {
      return {
        outputs: { changed: false, result: null, 'check-id': id },
        summary: checkSummary('Check already gone', [], [`Check ${id} does not exist: nothing to delete.`])
      }
    }
  }
  // Identical duplicates left by concurrent runs are the same check: they go with it.
  const alsoDuplicates =
    duplicates.length > 0 ? [`Identical duplicates, deleted with it: ${duplicates.map(c => c.id).join(', ')}.`] : []
  if (dryRunSkips(ctx, 'DELETE', paths.check(id))) {
    for (const duplicate of duplicates) dryRunSkips(ctx, 'DELETE', paths.check(duplicate.id))
    return {
      outputs: { ...checkOutputs(target), changed: true, result: target ?? null },
      summary: checkSummary('Check would be deleted (dry run)', target ? [target, ...duplicates] : [], alsoDuplicates)
    }
  }
  const targetId = id
  let deleted = await withKnownOutputs(checkOutputs(target ?? { id }), () => ctx.api.deleteCheck(targetId))
  for (const duplicate of duplicates) {
    if (await withKnownOutputs(checkOutputs(target), () => ctx.api.deleteCheck(duplicate.id))) deleted = true
  }
  ctx.log.info(deleted ? `Deleted check ${id}.` : `Check ${id} was already gone.`)
  if (alsoDuplicates.length > 0) ctx.log.info(alsoDuplicates[0])
  return {
    outputs: { ...checkOutputs(target ?? { id }), changed: deleted, result: target ?? { id } },
    summary: checkSummary(deleted ? 'Check deleted' : 'Check already gone', target ? [target, ...duplicates] : [], [
      deleted ? `Deleted ${id}.` : `Check ${id} did not exist: nothing to delete.`,
      ...alsoDuplicates
    ])
  }
}
