/**
 * pause-check and resume-check, and the post step that resumes what a
 * pause-check with auto-resume paused (registered in registry.ts).
 */
import { paths } from '../../api/monitoring.js'
import type { Check } from '../../api/schemas.js'
import type { Mapping } from '../../values/values.js'
import {
  PAUSED,
  type Targets,
  checkOutputs,
  checkSummary,
  isPaused,
  isRunning,
  targetChecks
} from '../names/check-targets.js'
import { dryRunSkips, str, writableOf } from '../common.js'
import { alikeLine } from '../names/duplicates.js'
import { withExcluded } from '../names/selection.js'
import type { Operation, OperationContext, Summary } from '../types.js'
import { OperationError } from '../types.js'
import {
  UNANSWERED_STATE,
  Unanswered,
  recordedUnanswered,
  sendTracked,
  watchUnanswered,
  watchedWrite
} from './unanswered.js'

/**
 * Set `status` on every targeted check whose state needs it. The decision,
 * and what `beforeEach` is told just before the PUT, rests on each check as
 * it is right before its write: one taken from a list read (a fleet's, read at
 * the start; another job may have paused or resumed it since), or read by id
 * before an earlier write of this step, is read again first. A check deleted
 * meanwhile is skipped with a note.
 */
async function setStatus(
  ctx: OperationContext,
  targets: Targets,
  needsChange: (c: Check) => boolean,
  status: string,
  beforeEach: (c: Check) => void = () => {}
): Promise<{ results: Array<Check | Mapping>; changedIds: string[] }> {
  const results: Array<Check | Mapping> = []
  const changedIds: string[] = []
  const send = sendTracked(ctx, [])
  for (const target of targets.checks) {
    let check: Check | null = target
    try {
      if (targets.listed.has(target.id) || changedIds.length > 0) check = await ctx.api.getCheck(target.id)
    } catch (error) {
      throw halfWay(error, changedIds, status)
    }
    if (!check) {
      ctx.log.info(`${target.id} (${str(target.name)}) was deleted meanwhile: nothing to send.`)
      continue
    }
    if (!needsChange(check)) {
      ctx.log.info(`${check.id} (${str(check.name)}) is ${str(check.status) || 'without status'}: nothing to send.`)
      results.push(check)
      continue
    }
    const body = { ...writableOf(check), status }
    if (dryRunSkips(ctx, 'PUT', paths.check(check.id), body)) {
      changedIds.push(check.id)
      results.push({ ...check, status })
      continue
    }
    try {
      beforeEach(check)
      results.push(await send(check, status, watch => ctx.api.updateCheck(check.id, body, watch)))
    } catch (error) {
      throw halfWay(error, changedIds, status)
    }
    changedIds.push(check.id)
    ctx.log.info(`${check.id} (${str(check.name)}) is now ${status}.`)
  }
  return { results, changedIds }
}

/** A failure half-way through setStatus: the error, and the checks already set before it. */
function halfWay(error: unknown, done: string[], status: string): OperationError {
  return new OperationError(
    `${error instanceof Error ? error.message : String(error)}${done.length > 0 ? ` (already set to ${status}: ${done.join(', ')})` : ''}`,
    { changed: done.length > 0 }
  )
}

/** State name under which pause-check records, for the post step, the checks it may have paused. */
export const PAUSED_STATE = 'paused-check-ids'

/** The ids recorded in PAUSED_STATE (a JSON list); anything unreadable (nothing recorded: '') is no id. */
export function recordedPauses(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && id !== '') : []
  } catch {
    return []
  }
}

/** What a pause or resume by name says of identical duplicates it wrote alike (duplicates.ts). */
function alikeLines(ctx: OperationContext, targets: Targets, changedIds: string[]): string[] {
  const lines = targets.alike.map(named =>
    alikeLine(
      named,
      [named.check, ...named.duplicates].some(c => changedIds.includes(c.id)),
      ctx.config.dryRun
    )
  )
  for (const line of lines) ctx.log.warning(line)
  return lines
}

export const pauseCheck: Operation = async ctx => {
  const targets = await targetChecks(ctx, true)
  const recorded: string[] = []
  // Each check is recorded before its PUT, so that a failure or cancel later in the
  // step never hides a check this step may have paused from the post step. Only a
  // running check is this step's to resume: one someone set to another status
  // (maintenance, disabled) is paused as asked, and left for its owner afterwards.
  const record = (check: Check) => {
    if (!ctx.config.autoResume) return
    if (!isRunning(check)) {
      ctx.log.warning(
        `${check.id} (${str(check.name)}) was ${JSON.stringify(str(check.status))}, set by someone, not running: it is paused, and the post step will not resume it (resuming sets "up").`
      )
      return
    }
    recorded.push(check.id)
    ctx.remember(PAUSED_STATE, JSON.stringify(recorded))
  }
  const { results, changedIds } = await setStatus(ctx, targets, c => !isPaused(c), PAUSED, record)
  const lines = [
    ...targets.notes,
    ...alikeLines(ctx, targets, changedIds),
    changedIds.length > 0
      ? `${ctx.config.dryRun ? 'Would pause' : 'Paused'}: ${changedIds.join(', ')}.`
      : 'All were already paused: nothing sent.'
  ]
  if (ctx.config.autoResume) lines.push('The post step resumes, when the job ends, the checks this step paused.')
  return {
    outputs: {
      ...checkOutputs(results[0]),
      result: withExcluded(results, targets.selection, targets.excluded),
      changed: changedIds.length > 0
    },
    summary: checkSummary('Checks paused', results, lines)
  }
}

export const resumeCheck: Operation = async ctx => {
  const targets = await targetChecks(ctx, true)
  const { results, changedIds } = await setStatus(ctx, targets, isPaused, 'up')
  return {
    outputs: {
      ...checkOutputs(results[0]),
      result: withExcluded(results, targets.selection, targets.excluded),
      changed: changedIds.length > 0
    },
    summary: checkSummary('Checks resumed', results, [
      ...targets.notes,
      ...alikeLines(ctx, targets, changedIds),
      changedIds.length > 0
        ? `${ctx.config.dryRun ? 'Would resume' : 'Resumed'}: ${changedIds.join(', ')}.`
        : 'None was paused: nothing sent.'
    ])
  }
}

/**
 * The post step of pause-check and resume-check. With auto-resume: resume
 * each recorded check that is paused now (a recorded check was not paused
 * before the step). A pause sent without an answer is watched until it can no
 * longer land (unanswered.ts), and every unanswered write is warned about.
 * Every check is tried; failures are reported together at the end. Returns
 * the summary, or undefined when there was nothing to say (the post step
 * stays quiet).
 */
export async function afterStatusWrites(
  ctx: OperationContext,
  ids: string[],
  unanswered: Unanswered[]
): Promise<Summary | undefined> {
  const resume = (check: Check) => ctx.api.updateCheck(check.id, { ...writableOf(check), status: 'up' })
  const resumed: Check[] = []
  const failed: string[] = []
  // The checks whose pause was answered first (they need no watch), then the watch over the others.
  const toUndo = new Set(ids)
  const settled = new Set(unanswered.filter(w => watchedWrite(w, toUndo)).map(w => w.id))
  for (const id of ids.filter(id => !settled.has(id))) {
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
      resumed.push(await resume(check))
    } catch (error) {
      failed.push(`${id}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  const watched = await watchUnanswered(ctx, unanswered, toUndo, resume)
  resumed.push(...watched.resumed)
  failed.push(...watched.failed)
  // In the order the main step recorded them.
  resumed.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
  const names = resumed.map(c => `${c.id} (${str(c.name)})`).join(', ')
  if (resumed.length > 0) ctx.log.info(`auto-resume: resumed ${resumed.length} check(s) this job paused: ${names}.`)
  const lines = [...(resumed.length > 0 ? [`Resumed the checks this job paused: ${names}.`] : []), ...watched.lines]
  if (failed.length > 0) {
    const message = `auto-resume could not resume ${failed.length} of ${ids.length} check(s) this job paused; they stay paused until resumed by hand: ${failed.join(' | ')}`
    throw new OperationError(message, {}, { title: 'auto-resume failed', lines: [...lines, message], tables: [] })
  }
  if (lines.length === 0) return undefined
  return checkSummary(resumed.length > 0 ? 'auto-resume: checks resumed' : 'Writes without an answer', resumed, lines)
}

/** The post step's reading of the state the main step saved. */
export function afterStatusWritesOf(
  ctx: OperationContext,
  saved: Record<string, string>
): Promise<Summary | undefined> {
  return afterStatusWrites(ctx, recordedPauses(saved[PAUSED_STATE]), recordedUnanswered(saved[UNANSWERED_STATE]))
}
