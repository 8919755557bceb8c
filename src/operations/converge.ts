/**
 * Concurrent runs converge on one resource per name.
 *
 * Two runs of the same step that both found no check named X both create
 * one. After creating, each run waits for creates still in flight to land
 * (the settle wait), looks again, and ranks every same-named resource by the
 * same rule: the earliest `createdAt`, then the smallest id. The first is
 * the survivor; each run removes the others (a 404 means another run already
 * did) and reports the survivor. The rule is a total order, so the resource
 * every run would pick from the full set is never removed by any run, even by
 * one that looked too early to see everything.
 */
import type { Logger } from '../api/types.js'
import { str } from './common.js'

export interface Ranked {
  id: string
  createdAt?: unknown
}

/** Most rounds of look-and-remove after one create (each round after the first confirms the last). */
const MAX_ROUNDS = 3

const createdTime = (item: Ranked): number => {
  const time = Date.parse(str(item.createdAt))
  return Number.isNaN(time) ? Number.POSITIVE_INFINITY : time
}

/** Survival order: the earliest createdAt first (none: last), then the smallest id in code-unit order. */
export function bySurvival(a: Ranked, b: Ranked): number {
  const byTime = createdTime(a) - createdTime(b)
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** The one of several same-named resources that every run keeps. */
export function survivorOf<T extends Ranked>(items: T[]): T {
  return [...items].sort(bySurvival)[0]
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
}

export interface Converged<T> {
  /** The resource that stays: ours, or one another run created at the same time. */
  survivor: T
  /** Ids this run removed (others may have removed some of the duplicates first). */
  removed: string[]
  /** Same-named resources of another kind (another URL): not removed, so the name stays ambiguous. */
  others: T[]
}

/**
 * After creating `created` (this run's new resources, each with the name and
 * fields it was created with), make each name hold one resource of each kind.
 * Returns, for each of `created` in order, the survivor of its kind.
 */
export async function convergeCreated<T extends Ranked>(
  created: T[],
  options: ConvergeOptions<T>
): Promise<Array<Converged<T>>> {
  const { nameOf, kindOf } = options
  const result: Array<Converged<T>> = created.map(mine => ({ survivor: mine, removed: [], others: [] }))
  const gone = new Set<string>()
  if (created.length === 0) return result
  await options.sleep(options.settleMs)
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const named = new Map<string, T[]>()
    for (const item of await options.list()) {
      const name = nameOf(item)
      if (name === undefined || gone.has(item.id)) continue
      named.set(name, [...(named.get(name) ?? []), item])
    }
    let removedNow = 0
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
      for (const duplicate of same) {
        if (duplicate.id === survivor.id) continue
        await options.remove(duplicate, survivor)
        gone.add(duplicate.id)
        removed.push(duplicate.id)
        removedNow++
      }
      result[index] = { survivor, removed, others: all.filter(i => kindOf(i) !== kind) }
    }
    if (removedNow === 0) break
    if (round === 1) {
      options.log.info(
        `Concurrent runs created the same ${options.what}: kept the oldest, removed ${removedNow} duplicate(s); looking once more to confirm.`
      )
    }
  }
  return result
}
