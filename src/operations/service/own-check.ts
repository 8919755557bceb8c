/**
 * check-api's writes, on a check of its own and nothing else: created paused
 * under a name no one else has (`check-api-` and a random suffix), read back,
 * changed by a PUT of some fields, resumed and paused, and deleted whatever
 * happens. Its name (then its id) is saved for the post step before each
 * write, as pause-check's auto-resume saves what it paused: after a cancel,
 * or a delete that failed, the post step deletes it. Incidents and status
 * pages are never written (an incident can page people).
 */
import { randomBytes } from 'node:crypto'
import type { Check } from '../../api/schemas.js'
import { paths } from '../../api/monitoring.js'
import type { Mapping } from '../../values/values.js'
import { str, writableOf } from '../common.js'
import type { OperationContext, Summary } from '../types.js'
import type { WritesSeen } from './seen.js'
import { OWN_INTERVAL } from './write-points.js'

/**
 * The state under which the main step saves its own check for the post step
 * (`{"name"}`, then `"sentAt"` when the create is sent, then `"id"` when it
 * answered); '' once deleted.
 */
export const OWN_CHECK_STATE = 'check-api-own-check'

/** A target nothing answers for: the check is paused, and probed only for the moment a resume lasts. */
const OWN_URL = 'https://example.com/'

/** A name of check-api's own: `check-api-` and 8 random hex digits. */
export const ownName = (): string => `check-api-${randomBytes(4).toString('hex')}`

/** The own check as saved: its name; when its create was last sent; its id once the create answered. */
export interface OwnCheck {
  name: string
  sentAt?: number
  id?: string
}

/** What the main step saved (anything unreadable, or a name not check-api's, is nothing). */
export function savedOwnCheck(text: string | undefined): OwnCheck | undefined {
  try {
    const value = JSON.parse(text ?? '') as { name?: unknown; id?: unknown; sentAt?: unknown }
    if (typeof value.name !== 'string' || !value.name.startsWith('check-api-')) return undefined
    return {
      name: value.name,
      ...(typeof value.sentAt === 'number' && Number.isFinite(value.sentAt) ? { sentAt: value.sentAt } : {}),
      ...(typeof value.id === 'string' ? { id: value.id } : {})
    }
  } catch {
    return undefined
  }
}

/**
 * Delete the own check: by id when the create answered; else every check of
 * its exact name (a create that got no answer may have landed). Returns the
 * ids it deleted.
 */
async function deleteOwn(ctx: OperationContext, own: OwnCheck): Promise<string[]> {
  if (own.id !== undefined) return (await ctx.api.deleteCheck(own.id)) ? [own.id] : []
  const deleted: string[] = []
  for (const check of await ctx.api.listChecks()) {
    if (check.name === own.name && (await ctx.api.deleteCheck(check.id))) deleted.push(check.id)
  }
  return deleted
}

/** Each step of the writes: a name for a failure, and the step. */
async function step<T>(writes: WritesSeen, at: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    writes.failed ??= { at, why: error instanceof Error ? error.message : String(error) }
    throw error
  }
}

/**
 * Create, read back, PUT, resume, pause and delete the own check. `existing`
 * is the checks list read before (the create's proof of what was there). A
 * failure is recorded in what it returns and thrown on (the caller decides
 * whether it ends the run); the delete is tried whatever happened.
 */
export async function tryWrites(ctx: OperationContext, existing: Check[], writes: WritesSeen): Promise<void> {
  const own: OwnCheck = { name: writes.name }
  const save = () => ctx.remember(OWN_CHECK_STATE, JSON.stringify(own))
  const read = (at: string): Promise<Check> =>
    step(writes, at, async () => {
      const check = await ctx.api.getCheck(own.id as string)
      if (!check) throw new Error(`${at}: the check was gone`)
      return check
    })
  save()
  try {
    // Each attempt of the create is saved as sent: a post step after a cancel watches for it until it cannot land.
    const sent = (at: number) => {
      own.sentAt = at
      save()
    }
    const created = await step(writes, `POST ${paths.checks}`, () =>
      ctx.api.createCheck(writes.sent, existing, { sent })
    )
    own.id = created.item.id
    delete own.sentAt
    writes.id = own.id
    save()
    writes.created = created.item as Mapping
    ctx.log.info(`check-api created its own check ${own.id} (${own.name}), status ${str(created.item.status)}.`)
    const put = { name: own.name, url: OWN_URL, status: 'paused' }
    await step(writes, `PUT ${paths.check(own.id)}`, () => ctx.api.updateCheck(own.id as string, put))
    writes.afterPut = (await read(`GET ${paths.check(own.id)}`)) as Mapping
    const resume = { ...writableOf(writes.afterPut), status: 'up' }
    await step(writes, `PUT ${paths.check(own.id)} (resume)`, () => ctx.api.updateCheck(own.id as string, resume))
    const resumed = await read(`GET ${paths.check(own.id)}`)
    writes.resumed = str(resumed.status)
    const pause = { ...writableOf(resumed as Mapping), status: 'paused' }
    await step(writes, `PUT ${paths.check(own.id)} (pause)`, () => ctx.api.updateCheck(own.id as string, pause))
    writes.paused = str((await read(`GET ${paths.check(own.id)}`)).status)
  } finally {
    try {
      await deleteOwn(ctx, own)
      writes.deleted = true
      ctx.remember(OWN_CHECK_STATE, '')
      ctx.log.info(`check-api deleted its own check ${own.id ?? own.name}.`)
    } catch (error) {
      writes.deleted = error instanceof Error ? error.message : String(error)
      const which = own.id !== undefined ? `${own.id} (${own.name})` : own.name
      ctx.log.warning(
        `check-api could not delete its own check ${which}: ${writes.deleted}. The post step deletes it when the job ends.`
      )
    }
  }
}

/** The body of the own check's create: paused, no alert channel, an interval that shows what a PUT keeps. */
export function ownBody(name: string): Mapping {
  return { name, url: OWN_URL, type: 'http', interval: OWN_INTERVAL, alertChannels: [], status: 'paused' }
}

/** Between two reads of the list while a create sent without an answer may still land. */
const WATCH_EVERY_MS = 1_000

/**
 * The post step's delete: as deleteOwn; and when the create was sent but never
 * answered (a cancel during it, or during the create's own look after a
 * timeout), the list is read each second until twice the request timeout has
 * passed since its last attempt was sent (that attempt's timeout, then the
 * wait the create gives a server that may still be working on it: create.ts),
 * deleting every check of its name that lands meanwhile (a retry's attempt may
 * land after an earlier one). A `sentAt` later than now (a skewed clock, a
 * state set by hand) counts as now. `cut`: a cancel ended it before it was sure.
 */
/** Whether the saved create was sent and never answered: then it may still land, and the post step watches for it. */
const unanswered = (own: OwnCheck): own is OwnCheck & { sentAt: number } =>
  own.id === undefined && own.sentAt !== undefined

async function deleteLeft(ctx: OperationContext, own: OwnCheck): Promise<{ deleted: string[]; cut: boolean }> {
  const deleted: string[] = []
  const until = unanswered(own) ? Math.min(own.sentAt, ctx.clock.now()) + 2 * ctx.config.requestTimeoutMs : 0
  for (;;) {
    try {
      deleted.push(...(await deleteOwn(ctx, own)))
    } catch (error) {
      if (ctx.signal.aborted) return { deleted, cut: true }
      throw error
    }
    const left = until - ctx.clock.now()
    if (left <= 0) return { deleted, cut: false }
    await ctx.clock.sleep(Math.min(WATCH_EVERY_MS, left), ctx.signal)
    if (ctx.signal.aborted) return { deleted, cut: true }
  }
}

/** The post step: delete the own check the main step saved (after a cancel, or a delete that failed). */
export async function afterCheckApi(
  ctx: OperationContext,
  saved: Record<string, string>
): Promise<Summary | undefined> {
  const own = savedOwnCheck(saved[OWN_CHECK_STATE])
  if (!own) return undefined
  const { deleted, cut } = await deleteLeft(ctx, own)
  const line = cut
    ? own.id !== undefined
      ? `check-api's own check ${own.id} (${own.name}) was left by the main step, and the post step was cancelled before it was deleted: delete it by hand.`
      : `check-api's own check ${own.name} ${deleted.length > 0 ? `was deleted (${deleted.join(', ')}), but` : 'was not there yet, and'} the post step was cancelled while its create (sent without an answer) could still land: if a check named ${own.name} appears, delete it.`
    : deleted.length > 0
      ? `check-api's own check ${deleted.join(', ')} (${own.name}) was left by the main step: deleted.`
      : unanswered(own)
        ? `check-api's own check ${own.name} was not there when twice the request timeout (${(2 * ctx.config.requestTimeoutMs) / 1000} s) had passed since its create was sent: nothing to delete.`
        : `check-api's own check ${own.name} was not there: nothing to delete.`
  if (cut) ctx.log.warning(line)
  else ctx.log.info(line)
  return { title: 'check-api: its own check', lines: [line], tables: [] }
}
