/**
 * Which incident a title means, and what to say and do about others of the
 * same title: identical duplicates found at the start (used as one, never
 * resolved), duplicates a racing run made (resolved in favour of the
 * survivor), and one that appeared while this run updated another. An exact
 * title is ours; a title the service may have made from ours (blanks, case, a
 * cut) is ours only when the incident's message shows it (evidence.ts):
 * without that it is someone else's, and left alone. `matchOf` decides it for
 * every path: the look-up by title, the create's recovery and the races after
 * a create or an update.
 */
import { paths } from '../../api/monitoring.js'
import type { Incident } from '../../api/schemas.js'
import { type Mapping, timeOf } from '../../values/values.js'
import { dryRunSkips, signature, str, writableOf } from '../common.js'
import { survivorOf, uniqueById } from '../names/converge.js'
import type { OperationContext, OperationResult } from '../types.js'
import { OperationError } from '../types.js'
import { type Evidence, evidenceWords, folded, showsEvidence } from './evidence.js'

export const RESOLVED = 'resolved'
export const isResolved = (i: Incident | Mapping) => str(i.status).toLowerCase() === RESOLVED

/** Titles the same incident exactly (as another run of this step sends it). */
export function sameTitle(a: unknown, b: string): boolean {
  return a === b
}

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
  if (shown === '') return false
  const mine = folded(ours)
  return folded(stored) === mine || ([...stored].length >= MIN_CUT_TITLE && mine.startsWith(shown))
}

/**
 * How a listed incident's title stands to ours: `exact`; `changed`, a form
 * the service may have made of ours (`changedTitle`) on an incident whose
 * message shows it is this step's (evidence.ts), which keeps the
 * incident-key; `keyCut`, such a form cut before the key, so whose matrix leg
 * it is cannot be told; `foreign`, such a form on an incident without that
 * evidence: someone else's. Undefined: another title.
 */
export type Match = 'exact' | 'changed' | 'keyCut' | 'foreign'

export function matchOf(incident: Incident | Mapping, ours: string, evidence: Evidence): Match | undefined {
  if (sameTitle(incident.title, ours)) return 'exact'
  if (!changedTitle(incident.title, ours)) return undefined
  if (!showsEvidence(incident.message, evidence)) return 'foreign'
  return keepsKey(incident.title, evidence.key) ? 'changed' : 'keyCut'
}

/** Whether an incident is the one our title means: its exact title, or a changed form of it with evidence (`matchOf`). */
export function meansTitle(incident: Incident | Mapping, ours: string, evidence: Evidence): boolean {
  const match = matchOf(incident, ours, evidence)
  return match === 'exact' || match === 'changed'
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
  if (shown !== head && folded(shown) === folded(head)) changes.push('case changed')
  if ([...folded(stored)].length < [...folded(ours)].length) changes.push(`cut to ${[...stored].length} characters`)
  return changes.join(', ') || 'changed'
}

/**
 * The newest unresolved incident with this exact title: the latest createdAt
 * (else updatedAt, also when createdAt is in a form the action cannot place,
 * such as an epoch number); without either, the last in list order.
 */
export function newestUnresolved(incidents: Incident[], title: string): Incident | undefined {
  const time = (i: Incident) => timeOf(i.createdAt) || timeOf(i.updatedAt) || Number.NEGATIVE_INFINITY
  let newest: Incident | undefined
  for (const incident of incidents) {
    if (!sameTitle(incident.title, title) || isResolved(incident)) continue
    if (newest === undefined || time(incident) >= time(newest)) newest = incident
  }
  return newest
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
  /** No exact match, and these have a form of our title but no evidence of being ours: left alone. */
  foreign?: Incident[]
}

/**
 * The unresolved incident a title means. By the exact title first: the
 * newest; when every unresolved incident with the title is identical (title,
 * message, status and every other field, as concurrent runs of one step make
 * them), they are used as one: the first in survival order (converge.ts); the
 * others are named, never resolved (they existed before this step). With no
 * exact match, one whose title the service made from ours and whose message
 * shows it is ours (`matchOf`) when it is the only one; two or more are
 * `ambiguous`, never a guess; those without the evidence are `foreign`. The
 * same id listed twice is one incident.
 */
export function byTitle(incidents: Incident[], title: string, evidence: Evidence): Titled {
  const unique = uniqueById(incidents).filter(i => !isResolved(i))
  const open = unique.filter(i => sameTitle(i.title, title))
  if (open.length >= 2 && open.every(i => signature(i) === signature(open[0]))) {
    const incident = survivorOf(open)
    return { incident, duplicates: open.filter(i => i.id !== incident.id) }
  }
  if (open.length > 0) return { incident: newestUnresolved(unique, title), duplicates: [] }
  const loose = (match: Match) => unique.filter(i => matchOf(i, title, evidence) === match)
  const [changed, keyCut, foreign] = [loose('changed'), loose('keyCut'), loose('foreign')]
  const others = foreign.length > 0 ? { foreign } : {}
  if (keyCut.length > 0) return { duplicates: [], keyCut, ...others }
  if (changed.length === 1) return { incident: changed[0], duplicates: [], changed: true, ...others }
  if (changed.length >= 2) return { duplicates: [], ambiguous: changed, ...others }
  return { duplicates: [], ...others }
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
 * What a look-up by title tells the run: a line for each incident left alone
 * as someone else's; an error naming them when it cannot choose; a line when
 * the service changed the title; a warning about identical duplicates (which
 * is used; the others are left). Returns the lines for the summary.
 */
export function titleNotes(ctx: OperationContext, titled: Titled, title: string, evidence: Evidence): string[] {
  const lines = (titled.foreign ?? []).map(i => foreignLine(i, title, evidence))
  for (const line of lines) ctx.log.info(line)
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
  if (!incident) return lines
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

/** Why an incident whose title may be a form of ours was left alone. */
function foreignLine(incident: Incident, title: string, evidence: Evidence): string {
  const shown = str(incident.title)
  const words = evidenceWords(evidence)
  const why = words
    ? `it names no ${words} as the action writes them`
    : 'this run has no workflow, repository or incident-key to look for'
  return `Left incident ${incident.id} alone: its title ${JSON.stringify(shown)} may be one the service made from ${JSON.stringify(title)} (${titleChanges(shown, title)}), but its message does not show it is this workflow's (${why}), so it is someone else's.`
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
  updated: OperationResult,
  title: string,
  evidence: Evidence
): Promise<string[]> {
  if (updated.outputs.changed !== true || ctx.config.dryRun) return []
  const others = uniqueById(await ctx.api.listIncidents()).filter(
    i => i.id !== current.id && meansTitle(i, title, evidence) && !isResolved(i)
  )
  if (others.length === 0) return []
  const line = `Another unresolved incident titled ${JSON.stringify(title)} appeared while this run updated ${current.id}: ${others.map(i => i.id).join(', ')} (opened by a concurrent run, or missed by the first look). This run cannot prove which existed first, so it resolves neither: ${current.id} is used; resolve the one you do not want with resolve-incident and incident-id.`
  ctx.log.warning(line)
  return [line]
}
