/**
 * A fleet by name prefix (`name-prefix` on pause-check, resume-check,
 * wait-for-check and delete-check): every check whose name starts with it,
 * taken from a whole list read at the step's start (snapshot.ts). Nothing matching is an
 * error naming the prefix and the names nearest to it, before any write.
 */
import { UnsafeIdError } from '../api/monitoring.js'
import type { ListRead } from '../api/pagination.js'
import type { Check } from '../api/schemas.js'
import { editDistance, idProblem } from '../values.js'
import { str } from './common.js'
import { uniqueById } from './converge.js'
import { wholeRead } from './snapshot.js'
import { OperationError, type OperationContext } from './types.js'

/**
 * The list a fleet is chosen from: a whole list (snapshot.ts): two full reads
 * in a row that did not shift and agree (the later one: its rows, and the
 * pages it took). A list that moves while it is paged can hide a member from
 * any one read, and a check of the prefix left out would stay unpaused,
 * undeleted or unjudged without a word: when no such pair comes, the step
 * fails naming the doubt and acts on nothing.
 */
export function fleetList(ctx: OperationContext, prefix: string): Promise<ListRead<Check>> {
  return wholeRead(
    () => ctx.api.readChecks(),
    `name-prefix ${JSON.stringify(prefix)}`,
    `nothing was ${ctx.config.dryRun ? 'planned' : 'acted on'}`
  )
}

/**
 * Every check of `all` whose name starts with `prefix` (case counts), each id
 * once, in list order; same-named checks are all included. None is an error.
 */
export function byPrefix(all: Check[], prefix: string): Check[] {
  const matches = uniqueById(all.filter(c => str(c.name).startsWith(prefix)))
  // Refused here, not only where a path is built: a dry run would list it as a target.
  for (const check of matches) if (idProblem(check.id)) throw new UnsafeIdError(check.id)
  if (matches.length === 0) throw new OperationError(noMatch(prefix, all))
  return matches
}

/** "no check name starts with "shpo-" (looked through 3 checks; the nearest names: ...)". */
export function noMatch(prefix: string, all: Check[]): string {
  const checks = uniqueById(all)
  const near = nearestNames(
    prefix,
    checks.map(c => str(c.name))
  )
  const nearest =
    near.length > 0
      ? `; the nearest names: ${near.map(n => JSON.stringify(n)).join(', ')}`
      : checks.length === 0
        ? ''
        : '; no check has a name'
  return `no check name starts with name-prefix ${JSON.stringify(prefix)} (looked through ${checks.length} checks${nearest}); nothing was changed`
}

/** Prefixes longer than this are not compared (the cost grows with its length times the list's). */
const MAX_COMPARED = 200

/**
 * The names whose start is nearest to `prefix` (case aside): the fewest edits
 * from the prefix to the name's first characters (as many as the prefix has,
 * one fewer or one more), then by name. Always some when there are names.
 */
export function nearestNames(prefix: string, names: string[], limit = 3): string[] {
  const p = prefix.toLowerCase().slice(0, MAX_COMPARED)
  const scored: Array<[string, number]> = []
  for (const name of new Set(names.filter(n => n !== ''))) {
    const n = name.toLowerCase()
    let best = Number.POSITIVE_INFINITY
    for (const length of [p.length - 1, p.length, p.length + 1]) {
      if (length >= 0) best = Math.min(best, editDistance(p, n.slice(0, length)))
    }
    scored.push([name, best])
  }
  return scored
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([name]) => name)
}

/** One line about what a prefix selected, for the log and the summary. */
export function prefixLine(prefix: string, matches: Check[]): string {
  return `name-prefix ${JSON.stringify(prefix)} selects ${matches.length} check(s), from the list read at the start.`
}
