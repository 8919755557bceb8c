/**
 * check-api: what this service does where the API document is silent, and
 * what the action does about it. It reads every list (all pages, within the
 * client's page cap), one check and its history, and judges each point from
 * the answers (points.ts); with check-api-writes it also writes on a check of
 * its own (own-check.ts). Read-only otherwise: only GETs. It fails only when
 * the service cannot be reached or refuses the key; a point it cannot learn
 * is `unknown`, with why.
 */
import { ApiError } from '../../api/errors.js'
import type { Check } from '../../api/schemas.js'
import type { Mapping } from '../../values/values.js'
import { str } from '../common.js'
import type { Operation, OperationContext } from '../types.js'
import { tableOf } from '../types.js'
import { ownBody, ownName, tryWrites } from './own-check.js'
import { type Point, readPoints } from './points.js'
import { type ListSeen, type Seen, oneShape, pageSeen } from './seen.js'
import { writePoints } from './write-points.js'

/** Failures that end check-api: the service cannot be reached, refuses the key, or the job is cancelled. */
const UNREACHABLE = ['network', 'unknown-host', 'timeout', 'tls', 'redirect', 'cancelled', 'deadline']

/** Whether `error` ends the run (else the point it touched is unknown, and the run goes on). */
export function endsTheRun(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  return UNREACHABLE.includes(error.kind) || (error.kind === 'http' && (error.status === 401 || error.status === 403))
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

type ListName = 'checks' | 'incidents' | 'statusPages' | 'history'

/** One list read whole, each page's answer recorded; a failure that does not end the run is kept as why. */
async function readList(ctx: OperationContext, list: ListName, name: string, id?: string): Promise<ListSeen> {
  const seen: ListSeen = { name, pages: [], rows: [] }
  try {
    const read = await ctx.api.observeList(
      list,
      (answer, url) => seen.pages.push(pageSeen(answer, url, ctx.clock.now())),
      id
    )
    seen.rows = read.items
    ctx.log.info(`${name}: ${read.items.length} row(s) on ${seen.pages.length} page(s).`)
  } catch (error) {
    if (endsTheRun(error)) throw error
    seen.failed = messageOf(error)
    ctx.log.warning(`${name} could not be read whole: ${seen.failed}`)
  }
  return seen
}

/** The check whose history tells most: one with results, else the first. */
const probed = (checks: Mapping[]): Mapping | undefined =>
  checks.find(c => c.lastCheckedAt !== undefined && c.lastCheckedAt !== null) ?? checks[0]

export const checkApi: Operation = async ctx => {
  const seen: Seen = { lists: [], maxPages: ctx.api.client.maxPages }
  await ctx.log.group('Reading every list (GET only)', async () => {
    seen.lists.push(await readList(ctx, 'checks', 'checks'))
    seen.lists.push(await readList(ctx, 'incidents', 'incidents'))
    seen.lists.push(await readList(ctx, 'statusPages', 'status pages'))
    const check = probed(seen.lists[0].rows)
    if (check === undefined) return
    const id = str(check.id)
    try {
      await ctx.api.observeCheck(id, answer => {
        const shape = oneShape(answer.body)
        if (shape)
          seen.one = { shape, check: (answer.body as Mapping & { data?: Mapping }).data ?? (answer.body as Mapping) }
      })
    } catch (error) {
      if (endsTheRun(error)) throw error
      ctx.log.warning(`GET one check could not be read: ${messageOf(error)}`)
    }
    seen.lists.push(await readList(ctx, 'history', 'history', id))
  })
  if (ctx.config.checkApiWrites && !ctx.config.dryRun) {
    const name = ownName()
    seen.writes = { name, sent: ownBody(name) }
    const writes = seen.writes
    await ctx.log.group(`Writing on a check of its own, ${name}`, async () => {
      try {
        await tryWrites(ctx, seen.lists[0].rows as Check[], writes)
      } catch (error) {
        if (endsTheRun(error)) throw error
        ctx.log.warning(`check-api's writes stopped at ${writes.failed?.at ?? 'a write'}: ${messageOf(error)}`)
      }
    })
  }
  const points: Point[] = [...readPoints(seen), ...(seen.writes ? writePoints(seen.writes) : [])]
  const left = seen.writes !== undefined && seen.writes.deleted !== true
  const lines = [
    `Read ${seen.lists.map(l => `${l.name} (${l.failed ? 'not whole' : `${l.rows.length} on ${l.pages.length} page(s)`})`).join(', ')}.`,
    seen.writes
      ? `Wrote only on its own check ${seen.writes.id ?? ''} (${seen.writes.name}): ${left ? `not deleted (${String(seen.writes.deleted)}); the post step deletes it` : 'deleted'}.`
      : ctx.config.checkApiWrites
        ? 'dry-run: no write sent; the points only writes learn are left out.'
        : 'Sent only GETs; set check-api-writes: true to learn what a create, a PUT, a pause and a resume do.'
  ]
  return {
    outputs: { result: points, count: points.length, changed: left },
    summary: {
      title: 'What the service does where the API document is silent',
      lines,
      tables: [
        tableOf(['point', 'found', 'what the action does', 'advice'], points, p => [
          p.point,
          p.found === 'unknown' ? `unknown: ${p.why ?? ''}` : p.found,
          p.consequence,
          p.advice
        ])
      ]
    }
  }
}
