/**
 * Check operations: create, get, list, update, upsert, delete, pause, resume,
 * history. Each returns outputs and a summary; none reads inputs or writes
 * outputs itself.
 */
import { paths } from '../api/monitoring.js'
import type { Check, HistoryEntry } from '../api/schemas.js'
import type { Mapping } from '../values.js'
import { canonical, differences, planned, signature, str, withDefaultType, writableOf } from './common.js'
import { Converged, convergeCreated, settleMs, survivorOf } from './converge.js'
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

/** What a check monitors: its URL and type. Same-named checks that differ in it are never duplicates. */
export const monitored = (c: Check | Mapping): string => JSON.stringify([str(c.url), str(c.type) || 'http'])

/**
 * Identical checks, as concurrent runs of this action make them: every
 * writable field the same (type defaulting to http), and paused or not alike.
 * The status the service measures (up, down) does not tell them apart.
 */
export const sameSettings = (c: Check): string =>
  JSON.stringify([signature(withDefaultType(c), ['status']), statusSetting(c)])

/** Statuses the service measures; any other (paused, disabled, ...) was set by someone and must match. */
const MEASURED_STATUSES = ['', 'up', 'down', 'pending']
const statusSetting = (c: Check): string => {
  const status = str(c.status).toLowerCase()
  return MEASURED_STATUSES.includes(status) ? '' : status
}

export interface Named {
  /** The check the name means: the only one, or the survivor of identical ones. */
  check?: Check
  /** Identical checks of the same name besides it (left by concurrent runs). */
  duplicates: Check[]
}

/**
 * The check named `name` in a list. Several identical ones (see sameSettings)
 * mean one check with duplicates: the survivor (oldest, see converge.ts) is the
 * check. Several that differ are an error naming them and what differs.
 */
export function findByName(checks: Check[], name: string, where = ''): Named {
  const matches = checks.filter(c => c.name === name)
  if (matches.length <= 1) return { check: matches[0], duplicates: [] }
  const check = survivorOf(matches)
  const duplicates = matches.filter(c => c !== check)
  if (duplicates.every(c => sameSettings(c) === sameSettings(check))) return { check, duplicates }
  const differ = new Set(
    duplicates.flatMap(c => [...differences(writableOf(c), check), ...differences(writableOf(check), c)])
  )
  throw new OperationError(
    `${matches.length} checks${where} are named ${JSON.stringify(name)} (${matches.map(c => c.id).join(', ')}) and they differ (${[...differ].join(', ') || 'status'}), so the action will not choose between them; delete all but one, or target one with check-id`
  )
}

/**
 * Identical duplicates of a check left by concurrent runs: a write by name
 * removes them (dry-run: prints the deletes), a read warns and uses the
 * survivor. Returns how many were (or would be) removed.
 */
async function settleDuplicates(ctx: OperationContext, named: Named, write: boolean): Promise<number> {
  const { check, duplicates } = named
  if (!check || duplicates.length === 0) return 0
  const ids = duplicates.map(c => c.id).join(', ')
  const label = `${check.id} (${str(check.name)})`
  if (!write) {
    ctx.log.warning(
      `${duplicates.length + 1} identical checks are named ${JSON.stringify(str(check.name))}, as concurrent runs make them: using the oldest, ${check.id}. The next write by name (upsert-check, update-check, pause-check, resume-check, sync-checks) removes the others: ${ids}.`
    )
    return 0
  }
  for (const duplicate of duplicates) {
    if (planned(ctx, 'DELETE', paths.check(duplicate.id))) continue
    await knowing(checkOutputs(check), () => ctx.api.deleteCheck(duplicate.id))
  }
  ctx.log.info(
    `${ctx.config.dryRun ? 'Would remove' : 'Removed'} ${duplicates.length} identical duplicate(s) of check ${label}, left by concurrent runs: ${ids}.`
  )
  return duplicates.length
}

const healedLines = (ctx: OperationContext, healed: number): string[] =>
  healed > 0 ? [`${ctx.config.dryRun ? 'Would remove' : 'Removed'} ${healed} identical duplicate(s) first.`] : []

/** The check that check-id (or else the single check-name) targets; `write` heals duplicates. */
async function targetCheck(ctx: OperationContext, write: boolean): Promise<{ check: Check; healed: number }> {
  const { checkIds, checkNames } = ctx.config
  if (checkIds.length > 0) {
    const check = await ctx.api.getCheck(checkIds[0])
    if (!check)
      throw new OperationError(`check ${checkIds[0]} not found (GET ${paths.check(checkIds[0])} answered 404)`)
    return { check, healed: 0 }
  }
  const all = await ctx.api.listChecks()
  const named = findByName(all, checkNames[0])
  if (!named.check) {
    throw new OperationError(`no check named ${JSON.stringify(checkNames[0])} (looked through ${all.length} checks)`)
  }
  return { check: named.check, healed: await settleDuplicates(ctx, named, write) }
}

/**
 * Every check that check-id and check-name (lists) target; names are looked up
 * with one list. `write` heals duplicates.
 */
export async function targetChecks(
  ctx: OperationContext,
  write: boolean
): Promise<{ checks: Check[]; healed: number }> {
  const { checkIds, checkNames } = ctx.config
  const found: Check[] = []
  let healed = 0
  for (const id of checkIds) {
    const check = await ctx.api.getCheck(id)
    if (!check) throw new OperationError(`check ${id} not found (GET ${paths.check(id)} answered 404)`)
    found.push(check)
  }
  if (checkNames.length > 0) {
    const all = await ctx.api.listChecks()
    const missing: string[] = []
    const named: Named[] = []
    for (const name of checkNames) {
      const one = findByName(all, name)
      if (one.check) named.push(one)
      else missing.push(JSON.stringify(name))
    }
    if (missing.length > 0)
      throw new OperationError(`no check named ${missing.join(', ')} (looked through ${all.length} checks)`)
    for (const one of named) {
      healed += await settleDuplicates(ctx, one, write)
      found.push(one.check as Check)
    }
  }
  const seen = new Set<string>()
  return { checks: found.filter(c => (seen.has(c.id) ? false : (seen.add(c.id), true))), healed }
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

async function create(
  ctx: OperationContext,
  spec: Mapping,
  existing?: Check[],
  converge = false
): Promise<OperationResult> {
  const body = withDefaultType(spec)
  const before = existing ?? (await ctx.api.listChecks())
  if (planned(ctx, 'POST', paths.checks, body)) {
    return {
      outputs: { result: body, changed: true, 'check-name': str(body.name) },
      summary: summary('Check would be created (dry run)', [body])
    }
  }
  const { item, recovered, tookMs } = await ctx.api.createCheck(body, before)
  ctx.log.info(`Created check ${item.id} (${str(item.name)})${recovered ? ', found after an ambiguous failure' : ''}`)
  if (!converge) {
    return {
      outputs: { ...checkOutputs(item), result: item, changed: true },
      summary: summary('Check created', [item])
    }
  }
  // Ours as created: the fields sent, with what the server answered over them.
  const mine: Check = { ...body, ...item }
  const { survivor, removed, others } = await knowing({ ...checkOutputs(mine), changed: true }, () =>
    convergeChecks(ctx, [mine], tookMs)
  ).then(([converged]) => converged)
  const lines: string[] = []
  let kept: Check | Mapping = survivor
  if (survivor.id !== item.id) {
    const line = `Another run created the same check at the same time: kept the oldest, ${survivor.id}; this run's ${item.id} was removed.`
    ctx.log.info(line)
    lines.push(line)
    const fields = differences(body, survivor)
    if (fields.length > 0) kept = (await applyChanges(ctx, survivor, body)).check
  } else if (removed.length > 0) {
    lines.push(`Concurrent runs created the same check: kept this one, the oldest; removed ${removed.join(', ')}.`)
  }
  if (others.length > 0) {
    throw new OperationError(
      `${others.length} other check(s) named ${JSON.stringify(str(item.name))} were created at the same time with another URL or type (${others.map(c => `${c.id}: ${str(c.url)}`).join(', ')}); none was removed, and name targeting fails until all but one are deleted`,
      { ...checkOutputs(kept), changed: true }
    )
  }
  return {
    outputs: { ...checkOutputs(kept), result: kept, changed: true },
    summary: summary('Check created', [kept], lines)
  }
}

/** Converge this run's new checks with any that concurrent runs created under the same names (converge.ts). */
export function convergeChecks(
  ctx: OperationContext,
  created: Check[],
  createTookMs: number
): Promise<Array<Converged<Check>>> {
  return convergeCreated(created, {
    what: 'check',
    list: () => ctx.api.listChecks(),
    nameOf: c => (typeof c.name === 'string' ? c.name : undefined),
    kindOf: monitored,
    remove: async duplicate => {
      await ctx.api.deleteCheck(duplicate.id)
    },
    sleep: ms => ctx.clock.sleep(ms, ctx.signal),
    settleMs: settleMs(createTookMs, ctx.config.requestTimeoutMs),
    log: ctx.log
  })
}

export const createCheck: Operation = ctx => create(ctx, ctx.config.check)

export const getCheck: Operation = async ctx => {
  const { check } = await targetCheck(ctx, false)
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

/** Apply `changes` to `current` and describe what happened; `healed` duplicates removed first count as a change. */
async function update(ctx: OperationContext, current: Check, changes: Mapping, healed = 0): Promise<OperationResult> {
  const { check, changed, fields } = await applyChanges(ctx, current, changes)
  const lines = [...healedLines(ctx, healed), changedLine(changed, fields, ctx.config.dryRun)]
  return {
    outputs: { ...checkOutputs(check), result: check, changed: changed || healed > 0 },
    summary: summary(
      changed ? 'Check updated' : healed > 0 ? 'Check unchanged; duplicates removed' : 'Check unchanged',
      [check],
      lines
    )
  }
}

export const updateCheck: Operation = async ctx => {
  const { check, healed } = await targetCheck(ctx, true)
  return update(ctx, check, wantedChanges(ctx), healed)
}

export const upsertCheck: Operation = async ctx => {
  const spec = ctx.config.check
  if (ctx.config.checkIds.length > 0) {
    const { check } = await targetCheck(ctx, true)
    return update(ctx, check, withDefaultType(spec))
  }
  const all = await ctx.api.listChecks()
  const named = findByName(all, String(spec.name))
  if (!named.check) return create(ctx, spec, all, true)
  const healed = await settleDuplicates(ctx, named, true)
  return update(ctx, named.check, withDefaultType(spec), healed)
}

export const deleteCheck: Operation = async ctx => {
  const { checkIds, checkNames } = ctx.config
  let target: Check | undefined
  let duplicates: Check[] = []
  let id = checkIds[0]
  if (!id) {
    const all = await ctx.api.listChecks()
    ;({ check: target, duplicates } = findByName(all, checkNames[0]))
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
  // Identical duplicates left by concurrent runs are the same check: they go with it.
  const alsoDuplicates =
    duplicates.length > 0 ? [`Identical duplicates, deleted with it: ${duplicates.map(c => c.id).join(', ')}.`] : []
  if (planned(ctx, 'DELETE', paths.check(id))) {
    for (const duplicate of duplicates) planned(ctx, 'DELETE', paths.check(duplicate.id))
    return {
      outputs: { ...checkOutputs(target), changed: true, result: target ?? null },
      summary: summary('Check would be deleted (dry run)', target ? [target, ...duplicates] : [], alsoDuplicates)
    }
  }
  const targetId = id
  let deleted = await knowing(checkOutputs(target ?? { id }), () => ctx.api.deleteCheck(targetId))
  for (const duplicate of duplicates) {
    if (await knowing(checkOutputs(target), () => ctx.api.deleteCheck(duplicate.id))) deleted = true
  }
  ctx.log.info(deleted ? `Deleted check ${id}.` : `Check ${id} was already gone.`)
  if (alsoDuplicates.length > 0) ctx.log.info(alsoDuplicates[0])
  return {
    outputs: { ...checkOutputs(target ?? { id }), changed: deleted, result: target ?? { id } },
    summary: summary(deleted ? 'Check deleted' : 'Check already gone', target ? [target, ...duplicates] : [], [
      deleted ? `Deleted ${id}.` : `Check ${id} did not exist: nothing to delete.`,
      ...alsoDuplicates
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
  const { checks, healed } = await targetChecks(ctx, true)
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
    ...healedLines(ctx, healed),
    changedIds.length > 0
      ? `${ctx.config.dryRun ? 'Would pause' : 'Paused'}: ${changedIds.join(', ')}.`
      : 'All were already paused: nothing sent.'
  ]
  if (ctx.config.autoResume) lines.push('The post step resumes, when the job ends, the checks this step paused.')
  return {
    outputs: { ...checkOutputs(results[0]), result: results, changed: changedIds.length > 0 || healed > 0 },
    summary: summary('Checks paused', results, lines)
  }
}

export const resumeCheck: Operation = async ctx => {
  const { checks, healed } = await targetChecks(ctx, true)
  const { results, changedIds } = await setStatus(ctx, checks, isPaused, 'up')
  return {
    outputs: { ...checkOutputs(results[0]), result: results, changed: changedIds.length > 0 || healed > 0 },
    summary: summary('Checks resumed', results, [
      ...healedLines(ctx, healed),
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
  const { check } = await targetCheck(ctx, false)
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
