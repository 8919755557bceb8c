/**
 * Check operations: create, get, list, update, upsert, delete, pause, resume,
 * history. Each returns outputs and a summary; none reads inputs or writes
 * outputs itself.
 */
import { paths } from '../api/monitoring.js'
import type { Check, HistoryEntry } from '../api/schemas.js'
import type { Mapping } from '../parse.js'
import { canonical, differences, planned, str, withDefaultType, writableOf } from './common.js'
import type { Operation, OperationContext, OperationResult, Outputs, Summary } from './types.js'
import { OperationError, knowing } from './types.js'

const PAUSED = 'paused'
const isPaused = (c: Check) => str(c.status).toLowerCase() === PAUSED

export function checkOutputs(check: Check | Mapping | undefined): Outputs {
  if (!check) return {}
  return {
    'check-id': str(check.id),
    'check-name': str(check.name),
    'check-status': str(check.status),
    'response-time': str(check.responseTime),
    'last-checked-at': str(check.lastCheckedAt)
  }
}

export function checksTable(checks: Array<Check | Mapping>, extra?: { head: string; value: (c: Mapping) => string }) {
  const head = ['Check', 'ID', 'URL', 'Status', 'Response time (ms)', 'Last checked']
  if (extra) head.push(extra.head)
  return {
    head,
    rows: checks.map(c => {
      const row: unknown[] = [c.name, c.id, c.url, c.status, c.responseTime, c.lastCheckedAt]
      if (extra) row.push(extra.value(c))
      return row
    })
  }
}

function summary(title: string, checks: Array<Check | Mapping>, lines: string[] = []): Summary {
  return { title, lines, tables: checks.length > 0 ? [checksTable(checks)] : [] }
}

/** One check by name in a list: none or several are errors. */
export function findByName(checks: Check[], name: string): Check | undefined {
  const matches = checks.filter(c => c.name === name)
  if (matches.length > 1) {
    throw new OperationError(
      `${matches.length} checks are named ${JSON.stringify(name)} (${matches.map(c => c.id).join(', ')}); target one with check-id`
    )
  }
  return matches[0]
}

/** The check that check-id (or else the single check-name) targets. */
async function targetCheck(ctx: OperationContext): Promise<Check> {
  const { checkIds, checkNames } = ctx.config
  if (checkIds.length > 0) {
    const check = await ctx.api.getCheck(checkIds[0])
    if (!check)
      throw new OperationError(`check ${checkIds[0]} not found (GET ${paths.check(checkIds[0])} answered 404)`)
    return check
  }
  const all = await ctx.api.listChecks()
  const check = findByName(all, checkNames[0])
  if (!check) {
    throw new OperationError(`no check named ${JSON.stringify(checkNames[0])} (looked through ${all.length} checks)`)
  }
  return check
}

/** Every check that check-id and check-name (lists) target; names are looked up with one list. */
export async function targetChecks(ctx: OperationContext): Promise<Check[]> {
  const { checkIds, checkNames } = ctx.config
  const found: Check[] = []
  for (const id of checkIds) {
    const check = await ctx.api.getCheck(id)
    if (!check) throw new OperationError(`check ${id} not found (GET ${paths.check(id)} answered 404)`)
    found.push(check)
  }
  if (checkNames.length > 0) {
    const all = await ctx.api.listChecks()
    const missing: string[] = []
    for (const name of checkNames) {
      const check = findByName(all, name)
      if (check) found.push(check)
      else missing.push(JSON.stringify(name))
    }
    if (missing.length > 0)
      throw new OperationError(`no check named ${missing.join(', ')} (looked through ${all.length} checks)`)
  }
  const seen = new Set<string>()
  return found.filter(c => (seen.has(c.id) ? false : (seen.add(c.id), true)))
}

/** The wanted fields of an update: the spec, without the name when the name is the target. */
function wantedChanges(ctx: OperationContext): Mapping {
  const wanted = { ...ctx.config.check }
  if (ctx.config.checkIds.length === 0) delete wanted.name
  return wanted
}

/** PUT the whole writable check merged with `changes`, unless nothing differs. */
async function applyChanges(
  ctx: OperationContext,
  current: Check,
  changes: Mapping
): Promise<{ check: Check | Mapping; changed: boolean; fields: string[] }> {
  const fields = differences(changes, current)
  if (fields.length === 0) return { check: current, changed: false, fields }
  const body = { ...writableOf(current), ...changes }
  if (planned(ctx, 'PUT', paths.check(current.id), body))
    return { check: { ...current, ...changes }, changed: true, fields }
  const updated = await knowing(checkOutputs(current), () => ctx.api.updateCheck(current.id, body))
  return { check: updated, changed: true, fields }
}

async function create(ctx: OperationContext, spec: Mapping, existing?: Check[]): Promise<OperationResult> {
  const body = withDefaultType(spec)
  const before = existing ?? (await ctx.api.listChecks())
  if (planned(ctx, 'POST', paths.checks, body)) {
    return {
      outputs: { result: body, changed: true, 'check-name': str(body.name) },
      summary: summary('Check would be created (dry run)', [body])
    }
  }
  const { item, recovered } = await ctx.api.createCheck(body, before)
  ctx.log.info(`Created check ${item.id} (${str(item.name)})${recovered ? ', found after an ambiguous failure' : ''}`)
  return { outputs: { ...checkOutputs(item), result: item, changed: true }, summary: summary('Check created', [item]) }
}

export const createCheck: Operation = ctx => create(ctx, ctx.config.check)

export const getCheck: Operation = async ctx => {
  const check = await targetCheck(ctx)
  return { outputs: { ...checkOutputs(check), result: check }, summary: summary('Check', [check]) }
}

export const listChecks: Operation = async ctx => {
  const checks = await ctx.api.listChecks()
  return {
    outputs: { ...checkOutputs(checks[0]), result: checks, count: checks.length },
    summary: summary(`Checks (${checks.length})`, checks)
  }
}

function changedLine(changed: boolean, fields: string[], dryRun: boolean): string {
  if (!changed) return 'Nothing differs: no request sent.'
  return `${dryRun ? 'Would change' : 'Changed'}: ${fields.join(', ')}.`
}

/** Apply `changes` to `current` and describe what happened. */
async function update(ctx: OperationContext, current: Check, changes: Mapping): Promise<OperationResult> {
  const { check, changed, fields } = await applyChanges(ctx, current, changes)
  return {
    outputs: { ...checkOutputs(check), result: check, changed },
    summary: summary(
      changed ? 'Check updated' : 'Check unchanged',
      [check],
      [changedLine(changed, fields, ctx.config.dryRun)]
    )
  }
}

export const updateCheck: Operation = async ctx => update(ctx, await targetCheck(ctx), wantedChanges(ctx))

export const upsertCheck: Operation = async ctx => {
  const spec = ctx.config.check
  let current: Check | undefined
  let all: Check[] | undefined
  if (ctx.config.checkIds.length > 0) {
    current = await targetCheck(ctx)
  } else {
    all = await ctx.api.listChecks()
    current = findByName(all, String(spec.name))
  }
  if (!current) return create(ctx, spec, all)
  return update(ctx, current, withDefaultType(spec))
}

export const deleteCheck: Operation = async ctx => {
  const { checkIds, checkNames } = ctx.config
  let target: Check | undefined
  let id = checkIds[0]
  if (!id) {
    const all = await ctx.api.listChecks()
    target = findByName(all, checkNames[0])
    if (!target) {
      ctx.log.info(`No check named ${JSON.stringify(checkNames[0])}: nothing to delete.`)
      return {
        outputs: { changed: false, result: null, 'check-name': checkNames[0] },
        summary: summary('Check already gone', [], [`No check named ${checkNames[0]}: nothing to delete.`])
      }
    }
    id = target.id
  } else if (ctx.config.dryRun) {
    target = (await ctx.api.getCheck(id)) ?? undefined
    if (!target) {
      return {
        outputs: { changed: false, result: null, 'check-id': id },
        summary: summary('Check already gone', [], [`Check ${id} does not exist: nothing to delete.`])
      }
    }
  }
  if (planned(ctx, 'DELETE', paths.check(id))) {
    return {
      outputs: { ...checkOutputs(target), changed: true, result: target ?? null },
      summary: summary('Check would be deleted (dry run)', target ? [target] : [])
    }
  }
  const deleted = await knowing(checkOutputs(target ?? { id }), () => ctx.api.deleteCheck(id))
  ctx.log.info(deleted ? `Deleted check ${id}.` : `Check ${id} was already gone.`)
  return {
    outputs: { ...checkOutputs(target ?? { id }), changed: deleted, result: target ?? { id } },
    summary: summary(deleted ? 'Check deleted' : 'Check already gone', target ? [target] : [], [
      deleted ? `Deleted ${id}.` : `Check ${id} did not exist: nothing to delete.`
    ])
  }
}

/**
 * Set `status` on every targeted check whose state needs it. `beforeEach` is
 * told about each check just before its PUT is sent.
 */
async function setStatus(
  ctx: OperationContext,
  checks: Check[],
  needsChange: (c: Check) => boolean,
  status: string,
  beforeEach: (c: Check) => void = () => {}
): Promise<{ results: Array<Check | Mapping>; changedIds: string[] }> {
  const results: Array<Check | Mapping> = []
  const changedIds: string[] = []
  for (const check of checks) {
    if (!needsChange(check)) {
      ctx.log.info(`${check.id} (${str(check.name)}) is ${str(check.status) || 'without status'}: nothing to send.`)
      results.push(check)
      continue
    }
    const body = { ...writableOf(check), status }
    changedIds.push(check.id)
    if (planned(ctx, 'PUT', paths.check(check.id), body)) {
      results.push({ ...check, status })
      continue
    }
    try {
      beforeEach(check)
      results.push(await ctx.api.updateCheck(check.id, body))
    } catch (error) {
      const done = changedIds.slice(0, -1)
      throw new OperationError(
        `${error instanceof Error ? error.message : String(error)}${done.length > 0 ? ` (already set to ${status}: ${done.join(', ')})` : ''}`,
        { changed: done.length > 0 }
      )
    }
    ctx.log.info(`${check.id} (${str(check.name)}) is now ${status}.`)
  }
  return { results, changedIds }
}

/** State name under which pause-check records, for the post step, the checks it may have paused. */
export const PAUSED_STATE = 'paused-check-ids'

/** The ids recorded in PAUSED_STATE (a JSON list); anything unreadable is no id. */
export function recordedPauses(text: string): string[] {
  if (!text) return []
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && id !== '') : []
  } catch {
    return []
  }
}

export const pauseCheck: Operation = async ctx => {
  const checks = await targetChecks(ctx)
  const recorded: string[] = []
  // Each check is recorded before its PUT, so that a failure or cancel later in the
  // step never hides a check this step may have paused from the post step.
  const record = (check: Check) => {
    if (!ctx.config.autoResume) return
    recorded.push(check.id)
    ctx.remember(PAUSED_STATE, JSON.stringify(recorded))
  }
  const { results, changedIds } = await setStatus(ctx, checks, c => !isPaused(c), PAUSED, record)
  const lines = [
    changedIds.length > 0
      ? `${ctx.config.dryRun ? 'Would pause' : 'Paused'}: ${changedIds.join(', ')}.`
      : 'All were already paused: nothing sent.'
  ]
  if (ctx.config.autoResume) lines.push('The post step resumes, when the job ends, the checks this step paused.')
  return {
    outputs: { ...checkOutputs(results[0]), result: results, changed: changedIds.length > 0 },
    summary: summary('Checks paused', results, lines)
  }
}

export const resumeCheck: Operation = async ctx => {
  const checks = await targetChecks(ctx)
  const { results, changedIds } = await setStatus(ctx, checks, isPaused, 'up')
  return {
    outputs: { ...checkOutputs(results[0]), result: results, changed: changedIds.length > 0 },
    summary: summary('Checks resumed', results, [
      changedIds.length > 0
        ? `${ctx.config.dryRun ? 'Would resume' : 'Resumed'}: ${changedIds.join(', ')}.`
        : 'None was paused: nothing sent.'
    ])
  }
}

/**
 * The post step of pause-check with auto-resume: resume each recorded check
 * that is paused now (a recorded check was not paused before the step). Every
 * check is tried; failures are reported together at the end. Returns the
 * summary, or undefined when nothing was resumed (the post step stays quiet).
 */
export async function resumePaused(ctx: OperationContext, ids: string[]): Promise<Summary | undefined> {
  const resumed: Check[] = []
  const failed: string[] = []
  for (const id of ids) {
    try {
      const check = await ctx.api.getCheck(id)
      if (!check) {
        ctx.log.debug(`auto-resume: ${id} no longer exists: nothing to resume.`)
        continue
      }
      if (!isPaused(check)) {
        ctx.log.debug(`auto-resume: ${id} is ${str(check.status) || 'without status'}, not paused: left alone.`)
        continue
      }
      resumed.push(await ctx.api.updateCheck(id, { ...writableOf(check), status: 'up' }))
    } catch (error) {
      failed.push(`${id}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const names = resumed.map(c => `${c.id} (${str(c.name)})`).join(', ')
  if (resumed.length > 0) ctx.log.info(`auto-resume: resumed ${resumed.length} check(s) this job paused: ${names}.`)
  const lines = resumed.length > 0 ? [`Resumed the checks this job paused: ${names}.`] : []
  if (failed.length > 0) {
    const message = `auto-resume could not resume ${failed.length} of ${ids.length} check(s) this job paused; they stay paused until resumed by hand: ${failed.join(' | ')}`
    throw new OperationError(message, {}, { title: 'auto-resume failed', lines: [...lines, message], tables: [] })
  }
  if (resumed.length === 0) return undefined
  return summary('auto-resume: checks resumed', resumed, lines)
}

/** Percentage of entries that are up, among entries that carry a status. */
export function uptimeOf(entries: HistoryEntry[]): string {
  const withStatus = entries.filter(e => typeof e.status === 'string')
  if (withStatus.length === 0) return ''
  const up = withStatus.filter(e => str(e.status).toLowerCase() === 'up').length
  return ((up / withStatus.length) * 100).toFixed(2)
}

export const checkHistory: Operation = async ctx => {
  const check = await targetCheck(ctx)
  const entries = await ctx.api.checkHistory(check.id)
  const uptime = uptimeOf(entries)
  const shown = entries.slice(0, 50)
  return {
    outputs: { ...checkOutputs(check), result: entries, count: entries.length, uptime },
    summary: {
      title: `History of ${str(check.name) || check.id}`,
      lines: [
        `${entries.length} entries${uptime ? `; up in ${uptime}% of those with a status` : ''}.`,
        ...(entries.length > shown.length ? [`The table shows the first ${shown.length}.`] : [])
      ],
      tables: [
        {
          head: ['Checked at', 'Status', 'Response time (ms)', 'Details'],
          rows: shown.map(e => {
            const { checkedAt, status, responseTime, ...rest } = e
            return [checkedAt, status, responseTime, Object.keys(rest).length ? canonical(rest) : '']
          })
        }
      ]
    }
  }
}
