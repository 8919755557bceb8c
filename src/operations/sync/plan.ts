/**
 * The plan of sync-checks: what to do to make the service's checks equal the
 * file's, as data a person can review (each field's old and new value) and a
 * later run can hold itself to (the plan file, `approved-plan`). Pure.
 */
import type { Check } from '../../api/schemas.js'
import type { Mapping } from '../../values/values.js'
import { PackedValues, wholeOf } from '../../api/packed.js'
import { Listed, indexChecks, isPaused } from '../names/check-targets.js'
import { uniqueById } from '../names/converge.js'
import { alikeOf } from '../names/duplicates.js'
import { canonical, differences, str, withDefaultType, writableOf } from '../common.js'

export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged'

/** One field's change: `from` is absent for a create, `to` for a delete. */
export interface FieldChange {
  from?: unknown
  to?: unknown
  /** As shown: a value in a secret position changed (both sides show ***; shown.ts). */
  secretChanged?: true
}

export interface PlanEntry {
  action: PlanAction
  name: string
  id?: string
  /** Fields that differ (update), that are set (create) or that go (delete). */
  fields: readonly string[]
  /** Each of `fields`, old and new. */
  changes: Readonly<Record<string, FieldChange>>
  /** What is sent: the whole check for create and update. */
  body?: Mapping
  /** After applying: done, failed or not attempted. */
  outcome?: 'applied' | 'failed' | 'not applied'
  /** Why, when the fields do not say: a check that a concurrent run also created. */
  note?: string
  /**
   * Paused in the service while its file entry does not state `status`: the
   * sync keeps it paused (a deploy's pause window is never undone), but its
   * monitoring is off where the file says it runs, so it is drift.
   */
  paused?: boolean
}

/** What is said of a paused entry (see PlanEntry.paused). */
export const PAUSED_NOTE =
  'status: paused in the service, not stated in the file (monitoring is off; a sync keeps it paused: state status: up in the file to resume it, or status: paused to keep it)'

/** The entries that are drift: a create, update or delete, or a check paused where the file does not say so. */
export const drifting = (plan: PlanEntry[]): PlanEntry[] => plan.filter(e => e.action !== 'unchanged' || e.paused)

/** The action as people read it: an unchanged entry that is paused (see PlanEntry.paused) shows as `paused`. */
export const shownAction = (e: PlanEntry): string => (e.action === 'unchanged' && e.paused ? 'paused' : e.action)

export interface PlanOptions {
  prune: boolean
  prunePrefix?: string
}

/** The fields and changes of an entry that changes nothing: one empty pair for a fleet's unchanged entries, never added to. */
const NOTHING: Pick<PlanEntry, 'fields' | 'changes'> = Object.freeze({
  fields: Object.freeze([]),
  changes: Object.freeze({})
})

/** What a deleted check takes with it: its writable fields. */
function deleted(check: Check): Pick<PlanEntry, 'fields' | 'changes'> {
  const changes: Record<string, FieldChange> = {}
  for (const [field, value] of Object.entries(writableOf(check))) {
    if (field !== 'name' && value !== undefined && value !== null) changes[field] = { from: value }
  }
  return { fields: Object.keys(changes), changes }
}

/** The entry that makes `current` (of the entry's name) match `spec` (`body`: spec with its defaults). */
function entryFor(name: string, spec: Mapping, body: Mapping, current: Check): PlanEntry {
  const fields = differences(body, current)
  const changes = Object.fromEntries(fields.map(field => [field, { from: current[field] ?? null, to: body[field] }]))
  // A check paused by hand that the file states as running: kept paused, shown as drift.
  const paused = !('status' in spec) && isPaused(current)
  if (fields.length > 0) {
    const update: PlanEntry = {
      action: 'update',
      name,
      id: current.id,
      fields,
      changes,
      body: { ...writableOf(current), ...body }
    }
    return paused ? { ...update, paused } : update
  }
  // Written out, not spread from NOTHING: a fleet's entry holds its fields in the object itself, no array of them beside it.
  const id = current.id
  return paused
    ? { action: 'unchanged', name, id, fields: NOTHING.fields, changes: NOTHING.changes, paused }
    : { action: 'unchanged', name, id, fields: NOTHING.fields, changes: NOTHING.changes }
}

/**
 * A checks file's entries kept packed (packed.ts) as they are read: each
 * name at hand, each entry made whole again where the plan reads it.
 */
export class PackedSpecs {
  readonly names: string[] = []
  private readonly places: number[] = []

  /** `specs`: where the entries are kept (the sync keeps the list's checks there too, after them). */
  constructor(private readonly specs = new PackedValues()) {}

  push(spec: Mapping): void {
    this.names.push(String(spec.name))
    this.places.push(this.specs.add(spec))
  }

  get length(): number {
    return this.names.length
  }

  /** The i-th entry: a new object each call. */
  spec(i: number): Mapping {
    return this.specs.value(this.places[i]) as Mapping
  }
}

/** The file's entries a plan is made from: as read, or packed. */
export type Wanted = readonly Mapping[] | PackedSpecs

/** The names of the file's entries, in order. */
export const wantedNames = (wanted: Wanted): readonly string[] =>
  wanted instanceof PackedSpecs ? wanted.names : wanted.map(spec => String(spec.name))

/**
 * What to do to make `server` equal `wanted`: an entry per check, so a name
 * with identical duplicates (duplicates.ts) has an entry for each id.
 */
export function computePlan(wanted: Wanted, server: readonly Listed[], options: PlanOptions): PlanEntry[] {
  const plan: PlanEntry[] = []
  const index = indexChecks(server)
  const names = wantedNames(wanted)
  for (let i = 0; i < names.length; i++) {
    const name = names[i]
    const spec = wanted instanceof PackedSpecs ? wanted.spec(i) : wanted[i]
    const named = index.byName(name, ' on the service')
    const body = withDefaultType(spec)
    if (!named.check) {
      const changes = Object.fromEntries(Object.entries(body).map(([field, to]) => [field, { to }]))
      plan.push({ action: 'create', name, fields: Object.keys(body), changes, body })
      continue
    }
    // Identical checks of one name are changed alike, an entry for each, and never deleted here.
    for (const current of alikeOf(named)) plan.push(entryFor(name, spec, body, current))
  }
  if (options.prune) {
    const listed = new Set(names)
    for (const check of uniqueById(server)) {
      const name = str(check.name)
      if (listed.has(name)) continue
      if (options.prunePrefix !== undefined && !name.startsWith(options.prunePrefix)) continue
      plan.push({ action: 'delete', name, id: check.id, ...deleted(wholeOf(check)) })
    }
  }
  return plan
}

export function countOf(plan: PlanEntry[], action: PlanAction, onlyApplied = false): number {
  return plan.filter(e => e.action === action && (!onlyApplied || e.outcome === 'applied' || action === 'unchanged'))
    .length
}

/** The order a plan is shown in: what changes first. */
export function sortedForShow(plan: PlanEntry[]): PlanEntry[] {
  const order = ['create', 'update', 'delete', 'paused', 'unchanged']
  return [...plan].sort((a, b) => order.indexOf(shownAction(a)) - order.indexOf(shownAction(b)))
}

/** A value as it is shown in a plan: JSON, cut to `max` characters (see wholeValues for the rest). */
export function shown(value: unknown, max = 80): string {
  const text = value === undefined ? 'absent' : JSON.stringify(value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/**
 * Old and new value as `a → b`. Long ones are cut around where they differ,
 * with the same context on both sides, so a change is never hidden by the cut
 * (`…?region=eu-west&…` → `…?region=attacker.example&…`).
 */
export function shownChange(from: unknown, to: unknown, max = 80): string {
  const a = from === undefined ? 'absent' : canonical(from)
  const b = to === undefined ? 'absent' : canonical(to)
  if (a.length <= max && b.length <= max) return `${a} → ${b}`
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const context = 12
  const from0 = Math.max(0, start - context)
  const cut = (text: string) => {
    const stop = Math.min(text.length, text.length - end + context)
    const middle = text.slice(from0, stop)
    const inner = middle.length > max ? `${middle.slice(0, max - 1)}…` : middle
    return `${from0 > 0 ? '…' : ''}${inner}${stop < text.length ? '…' : ''}`
  }
  return `${cut(a)} → ${cut(b)}`
}

/** One field of an entry as shown: `interval: 60 → 30`; values cut to `max` (Infinity: whole). */
function describeField(entry: PlanEntry, field: string, max: number): string {
  const change = entry.changes[field] ?? {}
  if (entry.action === 'create') return `${field}: ${shown(change.to, max)}`
  if (entry.action === 'delete') return `${field}: ${shown(change.from, max)}`
  if (!change.secretChanged) return `${field}: ${shownChange(change.from, change.to, max)}`
  // Only a secret changed: one side says it all. Else the change, and that a secret in it changed too.
  const same = canonical(change.from) === canonical(change.to)
  return `${field}: ${same ? shown(change.to, max) : shownChange(change.from, change.to, max)} (secret changed)`
}

/**
 * An entry's changes as one line: `interval: 60 → 30; url: "a" → "b"`. Values
 * longer than `max` are cut (see wholeValues for the rest). Pass an entry
 * whose values are already redacted: redaction comes before any cut.
 */
export function describeChanges(entry: PlanEntry, max = 80): string {
  const fields = entry.fields.map(field => describeField(entry, field, max))
  return [...fields, ...(entry.paused ? [PAUSED_NOTE] : [])].join('; ')
}

/**
 * The fields of a plan that describeChanges cuts, each in full: `update "name"
 * (id) url: whole → whole`. A reviewer sees every character of what will be applied
 * (the job summary and the comment fold them under the table).
 */
export function wholeValues(plan: PlanEntry[], max = 80): string[] {
  const out: string[] = []
  for (const entry of plan) {
    for (const field of entry.fields) {
      const whole = describeField(entry, field, Number.POSITIVE_INFINITY)
      if (whole !== describeField(entry, field, max)) {
        out.push(`${entry.action} ${JSON.stringify(entry.name)}${entry.id ? ` (${entry.id})` : ''} ${whole}`)
      }
    }
  }
  return out
}

/**
 * An entry as `result` and the plan file have it: no request body, no outcome
 * unless applied. An entry that holds nothing else (no body, note or outcome:
 * a fleet's unchanged entries) is already that, field for field in the same
 * order (computePlan writes them so), and is its own result, not a copy each.
 */
export function entryResult(e: PlanEntry): Mapping {
  if (e.body === undefined && e.note === undefined && e.outcome === undefined && e.id !== undefined) {
    return e as unknown as Mapping
  }
  return {
    action: e.action,
    name: e.name,
    id: e.id ?? null,
    fields: e.fields,
    changes: e.changes,
    ...(e.note ? { note: e.note } : {}),
    ...(e.paused ? { paused: true } : {}),
    ...(e.outcome ? { outcome: e.outcome } : {})
  }
}

/** Two plans' entries compared on what they would do (action, name, id, changes). */
export function sameEntry(a: Mapping, b: Mapping): boolean {
  const key = (e: Mapping) => canonical({ action: e.action, name: e.name, id: e.id ?? null, changes: e.changes ?? {} })
  return key(a) === key(b)
}
