/**
 * Concurrent runs converge on one resource per name, and never destroy what
 * existed before them.
 *
 * A name is created only after a look that misses it (snapshot.ts). When two
 * full reads proved it absent, every resource of that name and kind that
 * appears afterwards is absent from that proven read, so it was made during
 * the step (by this run or a racing one): that, and only that, is removable.
 * Each run waits for creates still in flight to land (the settle wait), looks
 * again, and orders the same-named ones of its kind by one total order (the
 * earliest `createdAt`, none last, then the smallest id): the first survives,
 * every run reports it, and the others are removed. Order alone never makes a
 * resource removable: absence from the proven read does.
 *
 * When the reads proved nothing (the list kept shifting), the create may go
 * ahead but removes nothing: a resource of the same name seen afterwards may
 * have existed all along, hidden from the reads; it is named, with ours,
 * and kept. The same id listed twice is one resource, never its own
 * duplicate; a resource without a name (as `nameOf` reads it) takes no part.
 */
import type { ListRead } from '../../api/pagination.js'
import type { Logger } from '../../api/types.js'
import { steadyRead } from './snapshot.js'
import { timeOf } from '../../values/values.js'

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
 * How long to wait after a create before looking again: creates that other
 * runs sent before ours landed take about as long as ours did, so wait that
 * long and half as much again (at least 250 ms), never more than `capMs`.
 */
export function settleMs(createTookMs: number, capMs: number): number {
  return Math.min(capMs, Math.round(createTookMs * 1.5) + 250)
}

export interface ConvergeOptions<T extends Ranked> {
  /** A full read of the collection now. */
  read: () => Promise<ListRead<T>>
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
   * The ids of the proven read taken before the creates (snapshot.ts), or
   * undefined when the reads proved nothing: then nothing is removed.
   */
  before: ReadonlySet<string> | undefined
}

export interface Converged<T> {
  /** The resource that stays: ours, or one a racing run created at the same time. */
  survivor: T
  /** Ids this run removed (others may have removed some of the duplicates first). */
  removed: string[]
  /** Same-named resources of the same kind this run could not prove new, so it kept them (the survivor aside). */
  kept: T[]
  /** Same-named resources of another kind (another URL): not removed, so the name stays ambiguous. */
  others: T[]
}

/** Can `item` be removed? Only when a proven read before the create did not hold it (made during the step). */
export const provablyNew = (item: Ranked, before: ReadonlySet<string> | undefined): boolean =>
  before !== undefined && !before.has(item.id)

/**
 * After creating `created` (this run's new resources, each with the name and
 * fields it was created with), remove the duplicates racing runs made, as far
 * as they are provably new. Returns, for each of `created` in order, the
 * survivor of its kind and what was kept.
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
  // Without a proven read before the create nothing is ever removed: one look names what is there.
  const rounds = options.before === undefined ? 1 : MAX_ROUNDS
  for (let round = 1; round <= rounds; round++) {
    const look = options.before === undefined ? await options.read() : await steadyRead(options.read)
    // A look that shifted may miss a racing run's create: it decides what to report, never what to remove.
    const before = look.shift ? undefined : options.before
    const named = new Map<string | undefined, T[]>()
    for (const item of uniqueById(look.items)) {
      const name = nameOf(item)
      if (name === undefined || gone.has(item.id)) continue
      const same = named.get(name)
      if (same) same.push(item)
      else named.set(name, [item])
    }
    let removedNow = 0
    let keptNow = 0
    for (const [index, mine] of created.entries()) {
      const all = [...(named.get(nameOf(mine)) ?? [])]
      // The first look may come before the list shows our create: it is there all the same.
      // Later looks are trusted (another run may have removed ours meanwhile).
      if (round === 1 && !all.some(i => i.id === mine.id)) all.push(mine)
      const kind = kindOf(mine)
      const same = all.filter(i => kindOf(i) === kind)
      if (same.length === 0) continue // everything of this kind is gone (removed by hand): keep what we knew
      const newOnes = same.filter(i => provablyNew(i, before))
      // The survivor is the first in order of the provably new (every racing run sees the same ones);
      // with nothing proven, ours (or, once ours is gone, the first left).
      const survivor =
        newOnes.length === same.length
          ? survivorOf(same)
          : (same.find(i => i.id === result[index].survivor.id) ?? survivorOf(same))
      const removed = [...result[index].removed]
      const kept = same.filter(i => i.id !== survivor.id && !newOnes.includes(i))
      for (const duplicate of newOnes) {
        if (duplicate.id === survivor.id) continue
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
    if (removedNow === 0 && round < rounds) await options.sleep(options.settleMs)
    if (round === 1 && removedNow > 0) {
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
  return `Also found ${kept.length} other identical ${what}(s) of this name (${ids}) that this run cannot prove were made during the step (the reads before the create never proved the name absent, so it may have existed all along): kept, not removed. ${survivor.id} is used; remove the one you do not want yourself (by id).`
}

/** Said when the reads before a create proved nothing (snapshot.ts): nothing is removed afterwards. */
export function unprovenLine(what: string, reads: number, doubt: string | undefined): string {
  return `The ${reads} full reads of the ${what}s proved nothing about what is there (${doubt ?? 'they did not agree'}): the create goes ahead, and a ${what} of the same name found afterwards is named and kept, never removed.`
}
