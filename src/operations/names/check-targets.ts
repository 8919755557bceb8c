/**
 * What every check operation shares: finding the targeted checks (by id, or
 * by name; identical duplicates are warned about, never removed), the check
 * outputs and summary table, and converging with concurrent creates.
 */
import { UnsafeIdError, paths } from '../../api/monitoring.js'
import { type PackedRow, wholeOf } from '../../api/packed.js'
import type { Check } from '../../api/schemas.js'
import { type Mapping, didYouMean, idProblem } from '../../values/values.js'
import {
  type Selected,
  type Selection,
  fleetList,
  leaveOut,
  selectFleet,
  selectionLines,
  selectionOf
} from './selection.js'
import { differences, signature, str, withDefaultType, writableOf } from '../common.js'
import { Converged, convergeCreated, settleMs, survivorOf, uniqueById } from './converge.js'
import { type Named, alikeOf, warnDuplicates } from './duplicates.js'
import type { OperationContext, Outputs, Summary } from '../types.js'
import { OperationError, tableOf } from '../types.js'

export const PAUSED = 'paused'
export const isPaused = (c: Check) => str(c.status).toLowerCase() === PAUSED

export function checkOutputs(check: Check | Mapping | undefined): Outputs {
  if (!check) return {}
  return {
    'check-id': str(check.id),
    'check-name': str(check.name),
    'check-status': str(check.status),
    'response-time': str(check.responseTime),
    'last-checked-at': str(check.lastCheckedAt)
  }
}

export function checksTable(checks: Array<Check | Mapping>, extra?: { head: string; value: (c: Mapping) => string }) {
  const head = ['Check', 'ID', 'URL', 'Status', 'Response time (ms)', 'Last checked']
  if (extra) head.push(extra.head)
  return tableOf(head, checks, c => {
    const row: unknown[] = [c.name, c.id, c.url, c.status, c.responseTime, c.lastCheckedAt]
    if (extra) row.push(extra.value(c))
    return row
  })
}

export function checkSummary(title: string, checks: Array<Check | Mapping>, lines: string[] = []): Summary {
  return { title, lines, tables: checks.length > 0 ? [checksTable(checks)] : [] }
}

/** What a check monitors: its URL and type. Same-named checks that differ in it are never duplicates. */
export const monitored = (c: Check | Mapping): string => JSON.stringify([str(c.url), str(c.type) || 'http'])

/**
 * Identical checks, as concurrent runs of this action make them: every
 * writable field the same (type defaulting to http), and paused or not alike.
 * The status the service measures (up, down) does not tell them apart.
 */
export const sameSettings = (c: Check): string =>
  JSON.stringify([signature(withDefaultType(c), ['status']), statusSetting(c)])

/** Statuses the service measures (a running check); any other (paused, disabled, ...) was set by someone and must match. */
const MEASURED_STATUSES = ['', 'up', 'down', 'pending']
const statusSetting = (c: Check): string => {
  const status = str(c.status).toLowerCase()
  return MEASURED_STATUSES.includes(status) ? '' : status
}

/** A running check: its status is one the service measures (any case), not one someone set. */
export const isRunning = (c: Check): boolean => statusSetting(c) === ''

/** A list of checks indexed once: lookups by name without scanning the list again. */
export interface CheckIndex {
  /** The check named `name` (see findByName); `where` says where in an error ("on the service"). */
  byName: (name: string, where?: string) => Named
  /** Does a check of the list have this name? */
  has: (name: string) => boolean
  /** How many of the list's rows have this name (an id listed twice counts twice): no check is made whole. */
  count: (name: string) => number
}

/** A check as a list read keeps it: whole, or packed (packed.ts) and made whole where a lookup answers with it. */
export type Listed = Check | PackedRow<Check>
/** Indexes of lists already indexed: the plan and sync index the same list once between them. */
const indexes = new WeakMap<readonly Listed[], CheckIndex>()

/**
 * Index a list once (the same id listed twice under one name is one check) for
 * many lookups: a plan's entries, several check-names. The same list gets the
 * same index: its named checks sorted by name (stable: list order among equal
 * names) and searched by halves, one array rather than a map of five times its size.
 */
export function indexChecks(checks: readonly Listed[]): CheckIndex {
  const known = indexes.get(checks)
  if (known) return known
  const named = checks.filter((c): c is Listed & { name: string } => typeof c.name === 'string')
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  /** Where the checks named `name` begin in `named` (the first whose name is not before it). */
  const first = (name: string) => {
    let [low, high] = [0, named.length]
    while (low < high) {
      const middle = (low + high) >>> 1
      if (named[middle].name < name) low = middle + 1
      else high = middle
    }
    return low
  }
  const index: CheckIndex = {
    byName: (name, where = '') => {
      const [start, end] = [first(name), first(`${name}\0`)]
      return resolveNamed(uniqueById(named.slice(start, end)).map(wholeOf), name, where)
    },
    has: name => named[first(name)]?.name === name,
    count: name => first(`${name}\0`) - first(name)
  }
  indexes.set(checks, index)
  return index
}

/**
 * The check named `name` in a list. The same id listed twice is one check.
 * Several identical ones (see sameSettings) are used as one: the first in
 * survival order (converge.ts) is the check, the others are named in a
 * warning and never removed: they existed before this step. Several that
 * differ are an error naming them and what differs. One lookup scans the
 * list; for many, use indexChecks.
 */
export function findByName(checks: Check[], name: string, where = ''): Named {
  return resolveNamed(uniqueById(checks.filter(c => c.name === name)), name, where)
}

/** The Named of a name's checks (each id once, in list order). */
function resolveNamed(matches: Check[], name: string, where: string): Named {
  // Refused here, not only where a path is built: a read (get-check) would output it as check-id.
  for (const check of matches) if (idProblem(check.id)) throw new UnsafeIdError(check.id)
  if (matches.length <= 1) return { check: matches[0], duplicates: [] }
  const check = survivorOf(matches)
  const duplicates = matches.filter(c => c.id !== check.id)
  if (duplicates.every(c => sameSettings(c) === sameSettings(check))) return { check, duplicates }
  const differ = new Set(
    duplicates.flatMap(c => [...differences(writableOf(c), check), ...differences(writableOf(check), c)])
  )
  throw new OperationError(
    `${matches.length} checks${where} are named ${JSON.stringify(name)} (${matches.map(c => c.id).join(', ')}) and they differ (${[...differ].join(', ') || 'status'}), so the action will not choose between them; delete all but one, or target one with check-id`
  )
}

/** ` (did you mean "a"?)` for a name that no check of `checks` has, or nothing (values.ts). */
const nearNames = (name: string, checks: Check[]) =>
  didYouMean(
    name,
    checks.map(c => str(c.name))
  )

/** The check that check-id (or else the single check-name) targets, with its identical duplicates (none by id). */
export async function findTarget(ctx: OperationContext): Promise<Named & { check: Check }> {
  const { checkIds, checkNames } = ctx.config
  if (checkIds.length > 0) {
    const check = await ctx.api.getCheck(checkIds[0])
    if (!check)
      throw new OperationError(`check ${checkIds[0]} not found (GET ${paths.check(checkIds[0])} answered 404)`)
    return { check, duplicates: [] }
  }
  const all = await ctx.api.listChecks()
  const named = findByName(all, checkNames[0])
  if (named.check) return { check: named.check, duplicates: named.duplicates }
  throw new OperationError(
    `no check named ${JSON.stringify(checkNames[0])} (looked through ${all.length} checks)${nearNames(checkNames[0], all)}`
  )
}

/** The check findTarget finds, for a read: identical duplicates are warned about. */
export async function targetCheck(ctx: OperationContext): Promise<{ check: Check; notes: string[] }> {
  const named = await findTarget(ctx)
  return { check: named.check, notes: warnDuplicates(ctx, named) }
}

export interface Targets {
  checks: Check[]
  notes: string[]
  /** With `alike`: the names whose identical duplicates are among `checks`, to be written alike. */
  alike: Array<Named & { check: Check }>
  /** The ids of the checks taken from a list read (by name, by prefix or pattern), rather than read one by one by id. */
  listed: ReadonlySet<string>
  /** Pages that list read took, when there was one: what a read of the list costs (the gate's rounds). */
  listPages?: number
  /** The selection by names (name-prefix, name-pattern, exclude), when the inputs make one (selection.ts). */
  selection?: Selection
  /** The checks exclude left out: never targets, whatever named them. */
  excluded: Check[]
  /** What the selection selected and exclude left out, in words (in `notes` too). */
  selectionLines: string[]
}

/**
 * Every check that check-id and check-name (lists) and name-prefix and
 * name-pattern target, less what exclude leaves out (selection.ts); names and
 * the selection are looked up in one list read. Identical duplicates of a
 * name are warned about and left, or with `alike` (a write: pause, resume)
 * targeted too, after it, so that the write keeps them identical.
 */
export async function targetChecks(ctx: OperationContext, alike = false): Promise<Targets> {
  const { checkIds, checkNames } = ctx.config
  const selection = selectionOf(ctx.config)
  const found: Check[] = []
  const notes: string[] = []
  let alikeNames: Targets['alike'] = []
  let listPages: number | undefined
  let fleet: Selected | undefined
  for (const id of checkIds) {
    const check = await ctx.api.getCheck(id)
    if (!check) throw new OperationError(`check ${id} not found (GET ${paths.check(id)} answered 404)`)
    found.push(check)
  }
  if (checkNames.length > 0 || selection) {
    const read = selection ? await fleetList(ctx, selection) : await ctx.api.readChecks()
    const all = read.items
    listPages = read.pages
    const missing: string[] = []
    const named: Named[] = []
    const index = indexChecks(all)
    for (const name of checkNames) {
      const one = index.byName(name)
      if (one.check) named.push(one)
      else missing.push(name)
    }
    if (missing.length > 0) {
      const near = missing.map(name => nearNames(name, all)).join('')
      throw new OperationError(
        `no check named ${missing.map(name => JSON.stringify(name)).join(', ')} (looked through ${all.length} checks)${near}`
      )
    }
    for (const one of named) {
      if (!alike) notes.push(...warnDuplicates(ctx, one))
      found.push(...(alike ? alikeOf(one) : [one.check as Check]))
      if (alike && one.duplicates.length > 0) alikeNames.push(one as Named & { check: Check })
    }
    if (selection) {
      fleet = selectFleet(all, selection)
      found.push(...fleet.matches)
    }
  }
  let checks = uniqueById(found)
  let excluded: Check[] = []
  let lines: string[] = []
  if (selection) {
    // An excluded check is never a target, whatever else (an id, a name) names it.
    const out = leaveOut(checks, selection)
    checks = out.kept
    excluded = uniqueById([...(fleet?.excluded ?? []), ...out.excluded])
    alikeNames = alikeNames.filter(one => checks.some(c => c.id === one.check.id))
    lines = selectionLines(selection, { matches: fleet?.matches ?? [], excluded })
    for (const line of lines) ctx.log.info(line)
    notes.push(...lines)
  }
  const byId = new Set(checkIds)
  const listed = new Set(checks.filter(c => !byId.has(c.id)).map(c => c.id))
  return {
    checks,
    notes,
    alike: alikeNames,
    listed,
    ...(listPages !== undefined ? { listPages } : {}),
    ...(selection ? { selection } : {}),
    excluded,
    selectionLines: lines
  }
}

/**
 * Converge this run's new checks with any that concurrent runs created under
 * the same names (converge.ts). `before`: the ids of the proven read before
 * the creates (snapshot.ts), undefined when the reads proved nothing.
 */
export function convergeChecks(
  ctx: OperationContext,
  created: Check[],
  createTookMs: number,
  before: ReadonlySet<string> | undefined
): Promise<Array<Converged<Check>>> {
  return convergeCreated(created, {
    before,
    what: 'check',
    read: () => ctx.api.readChecks(),
    nameOf: c => (typeof c.name === 'string' ? c.name : undefined),
    kindOf: monitored,
    remove: async duplicate => {
      await ctx.api.deleteCheck(duplicate.id)
    },
    sleep: ms => ctx.clock.sleep(ms, ctx.signal),
    settleMs: settleMs(createTookMs, ctx.config.requestTimeoutMs),
    log: ctx.log
  })
}
