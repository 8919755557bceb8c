/**
 * How a poll round reads the checks it judges: one by one (a GET
 * /checks/{id} each), or the pages of the list that hold them (GET
 * /checks), whichever costs fewer requests. Only the reading differs: a
 * check taken from a list row is judged by the same step as one read by id
 * (poll.ts, then judge.ts and the probe ledger), so no rule of the gate has
 * a copy here.
 *
 * What the list costs is what the step's last read of it cost: the pages it
 * took (to its end, or to the page that showed the last check sought; the
 * service's page size decides how many), plus a GET for each check it did
 * not show whole. Every check is matched by its id. One the read did not
 * show (moved away while the list was paged, deleted, or shown without the
 * fields a reading needs) is read by id in the same round: never taken as
 * absent, never judged on a row that says less than the check does.
 */
import { ApiError } from '../../api/errors.js'
import type { Check } from '../../api/schemas.js'
import type { OperationContext } from '../types.js'

/** What the step knows of the cost of reading the list. */
export interface ListCost {
  /** Pages its last read took; undefined before any read of it; Infinity once a read of it failed. */
  pages?: number
  /** Checks that read did not show whole: each costs a GET by id after the pages. */
  missed: ReadonlySet<string>
}

/** How a round reads its checks: each by id, or the list's first pages (at most `maxPages`), then by id what they did not show. */
export type RoundRead = { by: 'id' } | { by: 'list'; maxPages: number }

/**
 * The choice, from the cost alone: the list when its pages plus the GETs of
 * the checks it would not show are fewer requests than a GET per check (for
 * one check, never). A list the step has not read yet is tried for at most
 * that many pages: its first round then costs at most a GET per check more
 * than by id, once; after it, the cost is known.
 */
export function planRound(pending: readonly string[], known: ListCost): RoundRead {
  const missed = pending.filter(id => known.missed.has(id)).length
  // The most pages that still cost fewer requests than a GET per check.
  const maxPages = pending.length - 1 - missed
  if (maxPages < 1) return { by: 'id' }
  return known.pages === undefined || known.pages <= maxPages ? { by: 'list', maxPages } : { by: 'id' }
}

/** What a list row must state (null counts) to stand for the check: the fields a reading and its judgement read. */
const READING_FIELDS = ['status', 'lastCheckedAt', 'responseTime'] as const
const statesReading = (row: Check): boolean => READING_FIELDS.every(field => field in row)

/** A round's reading of the list: the checks it showed whole, by id, and what it cost. */
export interface ListRound {
  rows: ReadonlyMap<string, Check>
  known: ListCost
}

/**
 * Errors of a read of the list that say nothing of the checks themselves: an
 * error status (a key that may not list, a list endpoint that fails), pages
 * the client will not follow, a body that is not a list. Any other (the rate
 * limit, the network, a timeout, the deadline, a cancel) is the gate's, as it
 * would be at a GET by id.
 */
const LIST_REFUSALS: ReadonlyArray<ApiError['kind']> = ['http', 'pagination', 'invalid-response', 'redirect']

/**
 * Read the round's checks from the list when the plan says so: the rows it
 * showed whole, by id (the rest are read by id). A read the list refuses
 * (LIST_REFUSALS) is no verdict on the checks: they are read by id, this
 * round and after.
 */
export async function readRound(
  ctx: OperationContext,
  pending: readonly string[],
  known: ListCost
): Promise<ListRound> {
  const plan = planRound(pending, known)
  if (plan.by === 'id') return { rows: new Map(), known }
  try {
    const round = await readList(ctx, pending, Math.min(plan.maxPages, ctx.api.client.maxPages))
    const read = pending.length - round.known.missed.size
    ctx.log.info(
      `Read ${read} of ${pending.length} check(s) from ${round.known.pages} page(s) of the list${round.known.missed.size > 0 ? `; ${round.known.missed.size} not shown whole there, read by id` : ''}.`
    )
    return round
  } catch (error) {
    if (!(error instanceof ApiError) || !LIST_REFUSALS.includes(error.kind)) throw error
    ctx.log.info(`Reading the list of checks failed (${error.message}): the checks are read one by one from now on.`)
    return { rows: new Map(), known: { pages: Number.POSITIVE_INFINITY, missed: known.missed } }
  }
}

/** The list's pages until every check sought was shown or `maxPages` were read; each check's row, by its id. */
async function readList(ctx: OperationContext, pending: readonly string[], maxPages: number): Promise<ListRound> {
  const sought = new Set(pending)
  const shown = new Set<string>()
  let pages = 0
  const read = await ctx.api.readChecks(page => {
    pages++
    for (const row of page) if (sought.has(row.id)) shown.add(row.id)
    return shown.size === sought.size || pages >= maxPages
  })
  // A row shown twice (a list that shifted while it was paged) is its later reading: the read keeps that one.
  const rows = new Map(read.items.filter(row => sought.has(row.id) && statesReading(row)).map(row => [row.id, row]))
  return { rows, known: { pages, missed: new Set(pending.filter(id => !rows.has(id))) } }
}
