/**
 * Which incident a title means, and what to say and do about others of the
 * same title: identical duplicates found at the start (used as one, never
 * resolved), duplicates a racing run made (resolved in favour of the
 * survivor), and one that appeared while this run updated another.
 */
import { paths } from '../../api/monitoring.js'
import type { Incident } from '../../api/schemas.js'
import { type Mapping, timeOf } from '../../values.js'
import { dryRunSkips, signature, str, writableOf } from '../common.js'
import { survivorOf, uniqueById } from '../converge.js'
import type { OperationContext, OperationResult } from '../types.js'
import { OperationError } from '../types.js'

export const RESOLVED = 'resolved'
export const isResolved = (i: Incident | Mapping) => str(i.status).toLowerCase() === RESOLVED

/** Titles the same incident exactly (as another run of this step sends it). */
export function sameTitle(a: unknown, b: string): boolean {
  return a === b
}

/** A title with runs of blanks one space, the ends trimmed, lower case: what a service's changes keep. */
const folded = (title: string) => title.replace(/\s+/g, ' ').trim().toLowerCase()

/**
 * The shortest title a service's cut may leave and still name ours
 * (characters): a shorter one is too likely the start of another title.
 */
export const MIN_CUT_TITLE = 30

/**
 * Whether a title the service shows is one it made from ours: the same once
 * blanks are collapsed and case ignored, or the start of ours so formed, cut
 * so that the service's title is MIN_CUT_TITLE characters or more (an
 * ellipsis the cut added counted, a blank it trimmed not).
 * Not an exact match: that is `sameTitle`.
 */
export function changedTitle(stored: unknown, ours: string): boolean {
  if (typeof stored !== 'string' || stored === ours) return false
  const shown = folded(stored.replace(/(?:\.\.\.|\u2026)$/, ''))
  const mine = folded(ours)
  if (shown === '' || mine === '') return false
  return folded(stored) === mine || ([...stored].length >= MIN_CUT_TITLE && mine.startsWith(shown))
}

/** A title the service shows is ours: exactly, or as it changed it (`changedTitle`), keeping the incident-key. */
export function meansTitle(stored: unknown, ours: string, key?: string): boolean {
  return sameTitle(stored, ours) || (changedTitle(stored, ours) && keepsKey(stored, key))
}

/** Whether a title the service shows still holds the incident-key (`[key]`), or there is none. */
export function keepsKey(stored: unknown, key: string | undefined): boolean {
  return key === undefined || folded(str(stored)).includes(folded(`[${key}]`))
}

/** What the service changed in a title, in words: `blanks collapsed, cut to 120 characters`. */
export function titleChanges(stored: string, ours: string): string {
  const collapse = (t: string) => t.replace(/\s+/g, ' ').trim()
  const shown = collapse(stored)
  const head = [...collapse(ours)].slice(0, [...shown].length).join('')
  const changes: string[] = []
  if (collapse(ours) !== ours && shown === stored) changes.push('blanks collapsed')
  if (shown !== head && shown.toLowerCase() === head.toLowerCase()) changes.push('case changed')
  if ([...folded(stored)].length < [...folded(ours)].length) changes.push(`cut to ${[...stored].length} characters`)
  return changes.join(', ') || 'changed'
}

/**
 * The newest unresolved incident with this exact title: the latest createdAt
 * (else updatedAt); without either, the last in list order.
 */
export function newestUnresolved(incidents: Incident[], title: string): Incident | undefined {
  const candidates = incidents
    .map((incident, index) => ({ incident, index }))
    .filter(({ incident }) => sameTitle(incident.title, title) && !isResolved(incident))
  const time = (i: Incident) => timeOf(str(i.createdAt || i.updatedAt)) || Number.NEGATIVE_INFINITY
  candidates.sort((a, b) => time(a.incident) - time(b.incident) || a.index - b.index)
  return candidates[candidates.length - 1]?.incident
}

/**
 * The unresolved incident a title means, and identical unresolved duplicates
 * of it (left by concurrent runs). `changed`: it was found by the title as the
 * service changed it (`changedTitle`), not by ours. `ambiguous`: no exact
 * match, and two or more the service may have made from ours.
 */
export interface Titled {
  incident?: Incident
  duplicates: Incident[]
  changed?: boolean
  ambiguous?: Incident[]
  /** With an incident-key: ones the service cut before the key, so whose leg they are cannot be told. */
  keyCut?: Incident[]
}

/**
 * The unresolved incident a title means. By the exact title first: the
 * newest; when every unresolved incident with the title is identical (title,
 * message, status and every other field, as concurrent runs of one step make
 * them), they are used as one: the first in survival order (converge.ts); the
 * others are named, never resolved (they existed before this step). With no
 * exact match, one whose title the service made from ours (`changedTitle`)
 * when it is the only one; two or more are `ambiguous`, never a guess. The
 * same id listed twice is one incident.
 */
export function byTitle(incidents: Incident[], title: string, key?: string): Titled {
  const unique = uniqueById(incidents)
  const open = unique.filter(i => sameTitle(i.title, title) && !isResolved(i))
  if (open.length > 1 && open.every(i => signature(i) === signature(open[0]))) {
    const incident = survivorOf(open)
    return { incident, duplicates: open.filter(i => i.id !== incident.id) }
  }
  if (open.length > 0) return { incident: newestUnresolved(unique, title), duplicates: [] }
  const changed = unique.filter(i => changedTitle(i.title, title) && !isResolved(i))
  const keyCut = changed.filter(i => !keepsKey(i.title, key))
  if (keyCut.length > 0) return { duplicates: [], keyCut }
  if (changed.length === 1) return { incident: changed[0], duplicates: [], changed: true }
  if (changed.length > 1) return { duplicates: [], ambiguous: changed }
  return { duplicates: [] }
}

/** Whether a look-up by title found something: an incident, or more than one it cannot choose between. */
export const titleFound = (titled: Titled) => !!titled.incident || !!titled.ambiguous || !!titled.keyCut

export const duplicateMessage = (survivor: Incident) =>
  `Duplicate of incident ${survivor.id}, opened at the same time by another run of the same step; resolved in favour of ${survivor.id}.`

/** Resolve an incident as a duplicate of `survivor`; already resolved is fine. */
export async function resolveAsDuplicate(
  ctx: OperationContext,
  duplicate: Incident,
  survivor: Incident
): Promise<void> {
  if (isResolved(duplicate)) return
  const body = { ...writableOf(duplicate), status: RESOLVED, message: duplicateMessage(survivor) }
  if (dryRunSkips(ctx, 'PUT', paths.incident(duplicate.id), body)) return
  await ctx.api.updateIncident(duplicate.id, body)
}

/**
 * What a look-up by title tells the run: an error naming them when it cannot
 * choose; a line when the service changed the title; a warning about
 * identical duplicates (which is used; the others are left). Returns the
 * lines for the summary.
 */
export function titleNotes(ctx: OperationContext, titled: Titled, title: string): string[] {
  if (titled.ambiguous) {
    const named = titled.ambiguous.map(i => `${i.id} (${JSON.stringify(str(i.title))})`).join(', ')
    throw new OperationError(
      `no unresolved incident is titled ${JSON.stringify(title)}, and ${titled.ambiguous.length} have a title the service may have made from it (blanks collapsed, case changed, or cut): ${named}. The action does not guess; target one by incident-id, or resolve the others.`
    )
  }
  if (titled.keyCut) {
    const named = titled.keyCut.map(i => `${i.id} (${JSON.stringify(str(i.title))})`).join(', ')
    throw new OperationError(
      `no unresolved incident is titled ${JSON.stringify(title)}, and the service cut ${titled.keyCut.length === 1 ? 'the title of one that may be this one' : 'the titles of some that may be this one'} before its incident-key, so which matrix leg it belongs to cannot be told (${named}); the action does not guess: use a shorter incident-title, so that the key survives the cut, or target one by incident-id.`
    )
  }
  const { incident, duplicates } = titled
  if (!incident) return []
  const lines: string[] = []
  if (titled.changed) {
    const line = `The service changed this incident's title: it shows ${JSON.stringify(str(incident.title))} for ${JSON.stringify(title)} (${titleChanges(str(incident.title), title)}). Matched in that form: using ${incident.id}.`
    ctx.log.info(line)
    lines.push(line)
  }
  if (duplicates.length > 0) {
    const line = `${duplicates.length + 1} identical unresolved incidents are titled ${JSON.stringify(str(incident.title))}: using ${incident.id}; the others (${duplicates.map(i => i.id).join(', ')}) are left as they are, since they may have existed before this step and the action never resolves those. Resolve the ones you do not want with resolve-incident and incident-id.`
    ctx.log.warning(line)
    lines.push(line)
  }
  return lines
}

/**
 * After open-incident updated an incident, look once more: a racing run may
 * have resolved it and another opened a new one of the same title meanwhile
 * (our update then reopened the first). Which of the two existed first this
 * run cannot prove, so it resolves neither and says so.
 */
export async function othersAfterUpdate(
  ctx: OperationContext,
  current: Incident,
  updated: OperationResult
): Promise<string[]> {
  if (updated.outputs.changed !== true || ctx.config.dryRun) return []
  const title = str(current.title)
  const others = uniqueById(await ctx.api.listIncidents()).filter(
    i => i.id !== current.id && sameTitle(i.title, title) && !isResolved(i)
  )
  if (others.length === 0) return []
  const line = `Another unresolved incident titled ${JSON.stringify(title)} appeared while this run updated ${current.id}: ${others.map(i => i.id).join(', ')} (opened by a concurrent run, or missed by the first look). This run cannot prove which existed first, so it resolves neither: ${current.id} is used; resolve the one you do not want with resolve-incident and incident-id.`
  ctx.log.warning(line)
  return [line]
}
