/**
 * Which checks a selection names: the one owner, used by every operation that
 * chooses checks by their names (list-checks, export-checks, pause-check,
 * resume-check, wait-for-check, delete-check). A selection is `name-prefix`
 * (a name starts with it) and `name-pattern` (whole-name glob patterns,
 * values/glob.ts), their union, less what `exclude` matches: an excluded
 * check is never a target, whatever else names it.
 *
 * A fleet is chosen from a whole list (snapshot.ts): a check the list hid
 * would stay unpaused, undeleted or unjudged without a word. The prefix and
 * each pattern must select some check (else an error naming them and the
 * nearest names), and what they select must outlast `exclude` (else an error
 * naming what it left out): a typo is never an empty success.
 */
import { UnsafeIdError } from '../../api/monitoring.js'
import type { ListRead } from '../../api/pagination.js'
import type { Check } from '../../api/schemas.js'
import type { Config } from '../../run/config.js'
import { compileGlob } from '../../values/glob.js'
import { idProblem } from '../../values/values.js'
import { str } from '../common.js'
import { OperationError, type OperationContext, type OperationResult } from '../types.js'
import { uniqueById } from './converge.js'
import { nearestNames } from './nearest-names.js'
import { wholeRead } from './snapshot.js'

export interface Selection {
  prefix?: string
  patterns: readonly string[]
  exclude: readonly string[]
}

/** What the checks selected by name are. */
export interface Selected {
  /** The checks the prefix or a pattern selects, but those exclude leaves out: each id once, in list order. */
  matches: Check[]
  /** The checks exclude left out, each id once, in list order. */
  excluded: Check[]
}

/** The selection the inputs make, or undefined when they choose no check by name (neither prefix nor pattern). */
export function selectionOf(config: Config): Selection | undefined {
  const { namePrefix: prefix, namePatterns: patterns, exclude } = config
  if (prefix === undefined && patterns.length === 0) return undefined
  return { ...(prefix !== undefined ? { prefix } : {}), patterns, exclude }
}

const quoted = (texts: readonly string[]) => texts.map(t => JSON.stringify(t)).join(', ')

/** `name-prefix "shop-" and name-pattern "*-web"`: the selection in words, exclude aside. */
export function selectionText(sel: Selection): string {
  return [
    ...(sel.prefix !== undefined ? [`name-prefix ${JSON.stringify(sel.prefix)}`] : []),
    ...(sel.patterns.length > 0 ? [`name-pattern ${quoted(sel.patterns)}`] : [])
  ].join(' and ')
}

/**
 * The list a fleet is chosen from: a whole list (snapshot.ts): two full reads
 * in a row that did not shift and agree (the later one: its rows, and the
 * pages it took). When no such pair comes, the step fails naming the doubt
 * and acts on nothing.
 */
export function fleetList(ctx: OperationContext, sel: Selection): Promise<ListRead<Check>> {
  return wholeRead(
    () => ctx.api.readChecks(),
    selectionText(sel),
    `nothing was ${ctx.config.dryRun ? 'planned' : 'acted on'}`
  )
}

/** Does exclude leave this check out? */
function excluder(sel: Selection): (check: Check) => boolean {
  const globs = sel.exclude.map(compileGlob)
  return check => globs.some(g => g.matches(str(check.name)))
}

/** Split checks into those exclude keeps and those it leaves out. */
export function leaveOut(checks: Check[], sel: Selection): { kept: Check[]; excluded: Check[] } {
  const out = excluder(sel)
  return { kept: checks.filter(c => !out(c)), excluded: checks.filter(out) }
}

/**
 * The fleet of `all`: every check whose name starts with the prefix or matches
 * a pattern (case counts; a name the service gives as a number is read as its
 * text), each id once, in list order; same-named checks all. A prefix or a
 * pattern that selects none, an exclude that leaves none, and a target whose
 * id would address another path are errors.
 */
export function selectFleet(all: Check[], sel: Selection): Selected {
  const globs = sel.patterns.map(compileGlob)
  const hit = new Set<number>()
  const prefixHit = { any: false }
  const chosen = uniqueById(all).filter(check => {
    const name = str(check.name)
    const byPrefix = sel.prefix !== undefined && name.startsWith(sel.prefix)
    if (byPrefix) prefixHit.any = true
    let byPattern = false
    for (const [i, glob] of globs.entries()) {
      if (glob.matches(name)) {
        hit.add(i)
        byPattern = true
      }
    }
    return byPrefix || byPattern
  })
  const unmatched = sel.patterns.filter((_, i) => !hit.has(i))
  if ((sel.prefix !== undefined && !prefixHit.any) || unmatched.length > 0) {
    throw new OperationError(noMatch({ prefix: prefixHit.any ? undefined : sel.prefix, patterns: unmatched }, all))
  }
  const { kept, excluded } = leaveOut(chosen, sel)
  // Refused here, not only where a path is built: a dry run would list it as a target.
  for (const check of kept) if (idProblem(check.id)) throw new UnsafeIdError(check.id)
  if (kept.length === 0) throw new OperationError(allExcluded(sel, excluded))
  return { matches: kept, excluded }
}

/**
 * list-checks and export-checks: a prefix alone narrows the list (none
 * matching is an empty list); with a pattern or exclude, the list is the
 * fleet they select (selectFleet), so that a typo is an error, not an empty list.
 */
export function narrowList(all: Check[], sel: Selection | undefined): Selected {
  if (sel === undefined) return { matches: all, excluded: [] }
  if (sel.patterns.length > 0 || sel.exclude.length > 0) return selectFleet(all, sel)
  const prefix = sel.prefix ?? ''
  return { matches: all.filter(c => str(c.name).startsWith(prefix)), excluded: [] }
}

/** How many checks an error message names; the summary and `result` have them all. */
const NAMED_IN_MESSAGE = 20

/** `"shop-a" (chk_1), "shop-b" (chk_2) and 3 more`. */
export function namedChecks(checks: Check[], limit = Number.POSITIVE_INFINITY): string {
  const shown = checks.slice(0, limit).map(c => `${JSON.stringify(str(c.name))} (${c.id})`)
  const more = checks.length - shown.length
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}

/**
 * "no check name starts with name-prefix "shpo-" (looked through 3 checks;
 * the nearest names: ...); nothing was changed", and the like of patterns.
 */
export function noMatch(unmatched: { prefix?: string; patterns: readonly string[] }, all: Check[]): string {
  const checks = uniqueById(all)
  const names = checks.map(c => str(c.name))
  // What each is measured from: the prefix, and each pattern's literal characters.
  const sought = [
    ...(unmatched.prefix !== undefined ? [unmatched.prefix] : []),
    ...unmatched.patterns.map(p => compileGlob(p).literal)
  ]
  const near = roundRobin(
    sought.map(s => nearestNames(s, names)),
    3
  )
  const nearest =
    near.length > 0 ? `; the nearest names: ${quoted(near)}` : checks.length === 0 ? '' : '; no check has a name'
  const what = [
    ...(unmatched.prefix !== undefined ? [`starts with name-prefix ${JSON.stringify(unmatched.prefix)}`] : []),
    ...(unmatched.patterns.length > 0 ? [`matches name-pattern ${quoted(unmatched.patterns)}`] : [])
  ].join(', and none ')
  return `no check name ${what} (looked through ${checks.length} checks${nearest}); nothing was changed`
}

/** The first of each list, then the second of each, ..., each name once, at most `limit`. */
function roundRobin(lists: string[][], limit: number): string[] {
  const ranked = lists.flatMap(list => list.map((name, rank) => ({ name, rank })))
  // The sort is stable: of one rank, the lists' order.
  return [...new Set(ranked.sort((a, b) => a.rank - b.rank).map(r => r.name))].slice(0, limit)
}

/** The error of an exclude that left out every check the selection selected. */
function allExcluded(sel: Selection, excluded: Check[]): string {
  return `exclude ${quoted(sel.exclude)} leaves out every check ${selectionText(sel)} selects (${excluded.length}: ${namedChecks(excluded, NAMED_IN_MESSAGE)}), so no check is left to act on; nothing was changed. Narrow exclude, or drop it`
}

/** What a selection selected, and each check exclude left out, for the log and the summary. */
export function selectionLines(sel: Selection, selected: Selected): string[] {
  // "name-prefix "a" selects", "name-pattern "a", "b" selects" (one input), "name-prefix "a" and name-pattern "b" select".
  const verb = sel.prefix !== undefined && sel.patterns.length > 0 ? 'select' : 'selects'
  return [
    `${selectionText(sel)} ${verb} ${selected.matches.length} check(s), from the list read at the start.`,
    ...(sel.exclude.length > 0
      ? [
          selected.excluded.length > 0
            ? `exclude ${quoted(sel.exclude)} left out ${selected.excluded.length} check(s), never targets: ${namedChecks(selected.excluded)}.`
            : `exclude ${quoted(sel.exclude)} left out no check.`
        ]
      : [])
  ]
}

/**
 * The `result` output of a step whose selection has `exclude`: the targets
 * and the checks it left out, `{targets, excluded}`; without exclude, the
 * targets as they are.
 */
export function withExcluded(targets: unknown, sel: Selection | undefined, excluded: Check[]): unknown {
  if (sel === undefined || sel.exclude.length === 0) return targets
  return { targets, excluded: excludedJson(excluded) }
}

/** The checks exclude left out, as `result` names them: `{id, name}`. */
export const excludedJson = (excluded: Check[]) => excluded.map(c => ({ id: c.id, name: c.name ?? null }))

/** `name-pattern "shop-*" but exclude "*-us-*"`: the whole selection in words. */
export const chosenBy = (sel: Selection): string =>
  `${selectionText(sel)}${sel.exclude.length > 0 ? ` but exclude ${quoted(sel.exclude)}` : ''}`

/**
 * A report (a gate's) with the selection's lines (what it selected, what
 * exclude left out) at the head of its summary, and `result` as withExcluded
 * makes it.
 */
export function selectionReported(
  reported: OperationResult,
  chosen: { selection?: Selection; selectionLines: string[]; excluded: Check[] }
): OperationResult {
  if (!chosen.selection) return reported
  const { outputs, summary } = reported
  return {
    ...reported,
    outputs: { ...outputs, result: withExcluded(outputs.result, chosen.selection, chosen.excluded) },
    summary: { ...summary, lines: [...chosen.selectionLines, ...summary.lines] }
  }
}
