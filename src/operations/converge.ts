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
 * A run removes only what it can prove did not exist before the step: its own
 * create (as the create's answer named it), and, when the service gives
 * `createdAt`, a resource created after its own create (the server's clock
 * on both sides). Anything else may be a
 * check that existed all along and that a shifting list hid from the first
 * look: it is kept, and the run says so. A smaller id is not an older
 * resource; without `createdAt` age is unknown. The same id listed twice is
 * one resource, never its own duplicate.
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
      const survivor = survivorOf(same)
      const removed = [...result[index].removed]
      const kept: T[] = []
      for (const duplicate of same) {
        if (duplicate.id === survivor.id) continue
        if (options.recovered?.has(mine.id) || !provablyNewer(duplicate, mine)) {
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
