/**
 * Concurrent runs converge on one resource per name, and never destroy what
 * existed before them.
 *
 * Two runs of the same step that both found no check named X both create
 * one. After creating, each run waits for creates still in flight to land
 * (the settle wait), looks again, and orders every same-named resource of the
 * same kind by one total order: the earliest `createdAt` (none: last), then
 * the smallest id. The first is the survivor; every run reports it.
 *
 * A miss is confirmed before anything is created (confirmMiss): a name the
 * first full read did not find is looked up by a second full read (a third
 * when the second lost an id the first had), and created only when the last
 * two reads agree. After a confirmed miss, every resource of that name and
 * kind that appears was made during the step by racing runs: convergence
 * keeps exactly one, the first in survival order (the smallest id when the
 * service gives no `createdAt`; with it the earliest, so that a check made
 * before the step that a shifting list hid from both reads is kept), removes
 * the rest and every run reports it.
 *
 * When the reads never agree (the list kept changing while it was read), the
 * v3 rule stands: a run removes only what it can prove did not exist before
 * the step: its own create (as the create's answer named it), and, when the
 * service gives `createdAt`, a resource created after its own create (the
 * server's clock on both sides). Anything else may be a check that existed
 * all along and that a shifting list hid from the look: it is kept, and the
 * run says so, naming both. A smaller id is not an older resource; without
 * `createdAt` age is unknown. The same id listed twice is one resource,
 * never its own duplicate.
 */
import type { Logger } from '../api/types.js'
import { timeOf } from '../values.js'

export interface Ranked {
  id: string
  createdAt?: unknown
}

/** Most rounds of look-and-remove after one create (each round after the first confirms the last). */
const MAX_ROUNDS = 3

const createdTime = (item: Ranked): number => {
  const time = timeOf(item.createdAt)
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time
}

/** Survival order: the earliest createdAt first (none: last), then the smallest id in code-unit order. */
export function bySurvival(a: Ranked, b: Ranked): number {
  const byTime = createdTime(a) - createdTime(b)
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Most full reads of a collection before a create (the first look included). */
const MAX_READS = 3

/**
 * Do two full reads of a collection agree? Every id the earlier read showed
 * is in the later one. A row that vanished means something was deleted while
 * the reads ran, which is what makes an offset page skip a row; ids that only
 * the later read shows are creates (or a row the earlier read skipped, that
 * the later one found), which a miss confirmed by name takes into account.
 */
export function readsAgree(earlier: readonly Ranked[], later: readonly Ranked[]): boolean {
  const ids = new Set(later.map(item => item.id))
  return earlier.every(item => ids.has(item.id))
}

export interface ConfirmedRead<T> {
  /** The last full read: plan and create from it. */
  list: T[]
  /** Its reads agreed (readsAgree): what it still misses is absent, proven. */
  agreed: boolean
  /** Full reads made, the first look included. */
  reads: number
}

/**
 * Confirm a miss: `first` (a full read) did not find some name. Read the
 * whole collection again; stop when that read finds every name sought
 * (`found`), or agrees with the read before it; else read once more (at most
 * three reads in all). A name the last read still misses is absent for sure
 * when `agreed`; otherwise the reads never agreed and a create is not proof
 * that same-named ones are racing creates.
 */
export async function confirmMiss<T extends Ranked>(
  first: T[],
  read: () => Promise<T[]>,
  found: (list: T[]) => boolean
): Promise<ConfirmedRead<T>> {
  let earlier = first
  for (let reads = 2; ; reads++) {
    const later = await read()
    const agreed = readsAgree(earlier, later)
    if (agreed || found(later) || reads >= MAX_READS) return { list: later, agreed, reads }
    earlier = later
  }
}

/** The items once each: the same id listed twice (a list that shifted between pages) is one resource. */
export function uniqueById<T extends Ranked>(items: readonly T[]): T[] {
  const seen = new Set<string>()
  return items.filter(item => (seen.has(item.id) ? false : (seen.add(item.id), true)))
}

/** The first of several same-named resources in survival order. */
export function survivorOf<T extends Ranked>(items: T[]): T {
  return [...uniqueById(items)].sort(bySurvival)[0]
}

/**
 * Can a run that created `mine` prove `other` did not exist before it started?
 * Its own create, yes; another, only when both carry `createdAt` and the
 * other's is later than its own (so it was made after this run's create).
 */
export function provablyNewer(other: Ranked, mine: Ranked): boolean {
  if (other.id === mine.id) return true
  const theirs = timeOf(other.createdAt)
  const ours = timeOf(mine.createdAt)
  return Number.isFinite(theirs) && Number.isFinite(ours) && theirs > ours
}

/**
 * How long to wait after a create before looking again: creates that other
 * runs sent before ours landed take about as long as ours did, so wait that
 * long and half as much again (at least 250 ms), never more than `capMs`.
 */
export function settleMs(createTookMs: number, capMs: number): number {
  return Math.min(capMs, Math.round(createTookMs * 1.5) + 250)
}

export interface ConvergeOptions<T extends Ranked> {
  /** Read the whole collection now. */
  list: () => Promise<T[]>
  /** The name (title) a resource is known by; undefined for one that does not take part (a resolved incident). */
  nameOf: (item: T) => string | undefined
  /**
   * What same-named resources must share to be duplicates of each other (for
   * a check: its URL and type). Same-named ones that differ are left alone.
   */
  kindOf: (item: T) => string
  /** Remove a duplicate in favour of the survivor (delete a check; resolve an incident). */
  remove: (duplicate: T, survivor: T) => Promise<void>
  /** Sleep (the settle wait); ends early when the job is cancelled. */
  sleep: (ms: number) => Promise<void>
  settleMs: number
  log: Logger
  /** How a resource is named in the log: "check", "incident". */
  what: string
  /**
   * Ids of `created` that were found by looking after an ambiguous failure
   * rather than read from the create's answer: a shifting list could have
   * shown an older one, so they prove nothing and are never removed.
   */
  recovered?: ReadonlySet<string>
  /**
   * The miss was confirmed (confirmMiss agreed): every same-named resource of
   * the same kind was made during the step by racing runs, so exactly one is
   * kept, the first in survival order, and the others are removed, recovered or not.
   */
  confirmed?: boolean
}

export interface Converged<T> {
  /** The resource that stays: ours, or one another run created at the same time (or one that was there). */
  survivor: T
  /** Ids this run removed (others may have removed some of the duplicates first). */
  removed: string[]
  /**
   * Same-named resources of the same kind that this run could not prove new,
   * so it kept them (they may have existed before the step; the survivor aside).
   */
  kept: T[]
  /** Same-named resources of another kind (another URL): not removed, so the name stays ambiguous. */
  others: T[]
}

/**
 * After creating `created` (this run's new resources, each with the name and
 * fields it was created with), remove what this run can prove are duplicates
 * made by racing runs. Returns, for each of `created` in order, the survivor
 * of its kind and what was kept.
 */
export async function convergeCreated<T extends Ranked>(
  created: T[],
  options: ConvergeOptions<T>
): Promise<Array<Converged<T>>> {
  const { nameOf, kindOf } = options
  const result: Array<Converged<T>> = created.map(mine => ({ survivor: mine, removed: [], kept: [], others: [] }))
  const gone = new Set<string>()
  if (created.length === 0) return result
  await options.sleep(options.settleMs)
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const named = new Map<string, T[]>()
    for (const item of uniqueById(await options.list())) {
      const name = nameOf(item)
      if (name === undefined || gone.has(item.id)) continue
      const same = named.get(name)
      if (same) same.push(item)
      else named.set(name, [item])
    }
    let removedNow = 0
    let keptNow = 0
    for (const [index, mine] of created.entries()) {
      const all = [...(named.get(nameOf(mine) ?? '') ?? [])]
      // The first look may come before the list shows our create: it is there all the same.
      // Later looks are trusted (another run may have removed ours meanwhile).
      if (round === 1 && !all.some(i => i.id === mine.id)) all.push(mine)
      const kind = kindOf(mine)
      const same = all.filter(i => kindOf(i) === kind)
      if (same.length === 0) continue // everything of this kind is gone (removed by hand): keep what we knew
      // One order for every run, confirmed miss or not: the smallest id when the service gives no createdAt
      // (the contract's rule); with createdAt the earliest first, so that a check a shifting list hid from
      // both reads of the miss, made before the step, is the survivor and never removed.
      const survivor = survivorOf(same)
      const removed = [...result[index].removed]
      const kept: T[] = []
      for (const duplicate of same) {
        if (duplicate.id === survivor.id) continue
        if (!options.confirmed && (options.recovered?.has(mine.id) || !provablyNewer(duplicate, mine))) {
          kept.push(duplicate)
          continue
        }
        await options.remove(duplicate, survivor)
        gone.add(duplicate.id)
        removed.push(duplicate.id)
        removedNow++
      }
      keptNow += kept.length
      result[index] = { survivor, removed, kept, others: all.filter(i => kindOf(i) !== kind) }
    }
    if (removedNow === 0 && keptNow === 0) break
    // Kept ones may be the creates of racing runs that have yet to remove their own: give them the time.
    if (removedNow === 0 && round < MAX_ROUNDS) await options.sleep(options.settleMs)
    if (round === 1) {
      options.log.info(
        `Concurrent runs created the same ${options.what}: removed ${removedNow} duplicate(s) made by them; looking once more to confirm.`
      )
    }
  }
  return result
}

/** The log line for resources a run kept because it could not prove them new; empty when none. */
export function keptLine(what: string, survivor: Ranked, kept: Ranked[]): string {
  if (kept.length === 0) return ''
  const ids = kept.map(k => k.id).join(', ')
  return `Also found ${kept.length} other identical ${what}(s) of this name (${ids}) that this run cannot prove were created by a concurrent run (without createdAt, or created before this run's own, it may have existed before): kept, not removed. ${survivor.id} is used; remove the one you do not want yourself (by id).`
}

/** Said when the reads before a create never agreed (confirmMiss): the create then proves nothing about same-named ones. */
export function unagreedLine(what: string, reads: number): string {
  return `The ${reads} full reads of the ${what}s did not agree (some were removed while they were read, so a page may have skipped a row): the create goes ahead, and a ${what} of the same name found afterwards is kept, not removed, and named.`
}
