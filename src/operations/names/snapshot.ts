/**
 * The list snapshot: what full reads of a collection prove, in one place.
 *
 * A read that shows a row twice proves nothing: the list moved while it was
 * paged, and the row it repeats stands for one it may have missed (a list
 * sorted by recent activity shows one row twice and misses another; offset
 * paging while others write does the same). The client says so of every full
 * read (`ListRead.shift`: an id twice, or fewer distinct rows than a total
 * the service states). A row that vanished between two reads was deleted
 * meanwhile, which makes a paged read skip a row.
 *
 * So absence (before upsert-check, the creates of sync-checks, open-incident,
 * a delete by name that finds nothing) and a fleet's members (by name prefix)
 * are proven only by two full reads in a row that have not shifted and agree:
 * every id of the earlier is in the later. Reads are repeated, at most
 * MAX_READS in all; a found name needs no proof (a shifted read repeats rows,
 * it never invents one).
 */
import type { ListRead } from '../../api/pagination.js'
import { OperationError } from '../types.js'

/** Most full reads of a collection for one proof (the first look included). */
export const MAX_READS = 4

export interface Snapshot<T> {
  /** The last read, each id once: plan and create from it. */
  items: T[]
  /** Its ids, when the reads proved it whole (two unshifted reads that agree); else undefined. */
  proven?: ReadonlySet<string>
  /** Full reads made, the first look included. */
  reads: number
  /** Pages the last read took. */
  pages?: number
  /** Why the reads prove nothing, when they do not. */
  doubt?: string
}

/** Do two full reads agree? Every id the earlier showed is in the later (new ids are creates, not a doubt). */
export function readsAgree(earlier: ReadonlyArray<{ id: string }>, later: ReadonlyArray<{ id: string }>): boolean {
  const ids = new Set(later.map(item => item.id))
  return earlier.every(item => ids.has(item.id))
}

/**
 * Read until two reads in a row have not shifted and agree (proven), until a
 * read is `enough` (a name sought is found: no proof needed), or until
 * MAX_READS reads were made.
 */
export async function snapshot<T extends { id: string }>(
  read: () => Promise<ListRead<T>>,
  options: { enough?: (items: T[]) => boolean } = {}
): Promise<Snapshot<T>> {
  let earlier = await read()
  let doubt = earlier.shift
  for (let reads = 1; ;) {
    if (options.enough?.(earlier.items)) return { items: earlier.items, reads, pages: earlier.pages }
    if (reads >= MAX_READS) {
      return {
        items: earlier.items,
        reads,
        pages: earlier.pages,
        doubt:
          doubt ??
          `rows vanished between every two of the ${reads} reads (deleted meanwhile, which makes a paged read skip a row)`
      }
    }
    const later = await read()
    reads++
    if (!earlier.shift && !later.shift && readsAgree(earlier.items, later.items)) {
      if (options.enough?.(later.items)) return { items: later.items, reads, pages: later.pages }
      return { items: later.items, proven: new Set(later.items.map(i => i.id)), reads, pages: later.pages }
    }
    doubt = later.shift ?? earlier.shift ?? doubt
    earlier = later
  }
}

/**
 * The members a fleet is chosen from (a name prefix; an export): a proven
 * snapshot, or an error that names the doubt, so that nothing is acted on
 * from a list that may miss a member. `doing` names the step ("name-prefix
 * \"shop-\"") and `nothing` what did not happen ("nothing was paused").
 */
export async function wholeList<T extends { id: string }>(
  read: () => Promise<ListRead<T>>,
  doing: string,
  nothing: string
): Promise<T[]> {
  return (await wholeRead(read, doing, nothing)).items
}

/** `wholeList` with the pages its last read took: what a read of the list costs (a fleet gate's rounds). */
export async function wholeRead<T extends { id: string }>(
  read: () => Promise<ListRead<T>>,
  doing: string,
  nothing: string
): Promise<ListRead<T>> {
  const snap = await snapshot(read)
  if (snap.proven) return { items: snap.items, pages: snap.pages }
  throw new OperationError(
    `${doing}: the list could not be read whole in ${snap.reads} reads (${snap.doubt}), so a member may be missing from it; ${nothing}. Run the step again when the service's list is steady.`
  )
}

/**
 * A read for a decision that needs no proof of absence, only a list that did
 * not move while it was paged (convergence after a create): the first of up
 * to MAX_READS reads that did not shift, else the last read with its doubt.
 */
export async function steadyRead<T>(read: () => Promise<ListRead<T>>): Promise<ListRead<T>> {
  let last = await read()
  for (let reads = 1; last.shift && reads < MAX_READS; reads++) last = await read()
  return last
}

/**
 * Look up what is sought (a name, the names of a file) before creating it:
 * one full read, and when it does not hold it (`found`), the proof of its
 * absence (snapshot). The answer's `proven` is set only when the absence is
 * proven; `items` is the last read either way.
 */
export function lookUp<T extends { id: string }>(
  read: () => Promise<ListRead<T>>,
  found: (items: T[]) => boolean
): Promise<Snapshot<T>> {
  return snapshot(read, { enough: found })
}

/**
 * A claim of absence ("already gone", "none open") that the reads did not
 * prove: an error naming what was sought, the reads and their doubt, then
 * `outcome` (what that means, what was not done, what to do instead);
 * `step` names the operation first when its message should.
 */
export function unprovenAbsence(
  look: Snapshot<unknown>,
  sought: string,
  outcome: string,
  step?: string
): OperationError {
  return new OperationError(
    `${step ? `${step}: ` : ''}no read showed ${sought}, but the ${look.reads} reads proved nothing (${look.doubt}): ${outcome}`,
    { changed: false }
  )
}
