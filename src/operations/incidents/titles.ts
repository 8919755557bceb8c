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

export const RESOLVED = 'resolved'
export const isResolved = (i: Incident | Mapping) => str(i.status).toLowerCase() === RESOLVED

/**
 * Titles the same incident: exactly, or (`loose`, for resolve-incident) after
 * trimming and ignoring case, so "Deploy failed " resolves "deploy failed".
 */
export function sameTitle(a: unknown, b: string, loose: boolean): boolean {
  return loose ? str(a).trim().toLowerCase() === b.trim().toLowerCase() : a === b
}

/**
 * The newest unresolved incident with this exact title: the latest createdAt
 * (else updatedAt); without either, the last in list order.
 */
export function newestUnresolved(incidents: Incident[], title: string, loose = false): Incident | undefined {
  const candidates = incidents
    .map((incident, index) => ({ incident, index }))
    .filter(({ incident }) => sameTitle(incident.title, title, loose) && !isResolved(incident))
  const time = (i: Incident) => timeOf(str(i.createdAt || i.updatedAt)) || Number.NEGATIVE_INFINITY
  candidates.sort((a, b) => time(a.incident) - time(b.incident) || a.index - b.index)
  return candidates[candidates.length - 1]?.incident
}

/** An unresolved incident with this title, and identical unresolved duplicates of it (left by concurrent runs). */
export interface Titled {
  incident?: Incident
  duplicates: Incident[]
}

/**
 * The unresolved incident a title means: the newest. When every unresolved
 * incident with the title is identical (title, message, status and every other
 * field, as concurrent runs of one step make them), they are used as one: the
 * first in survival order (converge.ts); the others are named, never resolved
 * (they existed before this step). The same id listed twice is one incident.
 */
export function byTitle(incidents: Incident[], title: string, loose = false): Titled {
  const open = uniqueById(incidents.filter(i => sameTitle(i.title, title, loose) && !isResolved(i)))
  if (open.length > 1 && open.every(i => signature(i) === signature(open[0]))) {
    const incident = survivorOf(open)
    return { incident, duplicates: open.filter(i => i.id !== incident.id) }
  }
  return { incident: newestUnresolved(uniqueById(incidents), title, loose), duplicates: [] }
}

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

/** Warn about identical unresolved incidents of one title: which is used; the others are left. */
export function warnDuplicates(ctx: OperationContext, titled: Titled): string[] {
  const { incident, duplicates } = titled
  if (!incident || duplicates.length === 0) return []
  const line = `${duplicates.length + 1} identical unresolved incidents are titled ${JSON.stringify(str(incident.title))}: using ${incident.id}; the others (${duplicates.map(i => i.id).join(', ')}) are left as they are, since they may have existed before this step and the action never resolves those. Resolve the ones you do not want with resolve-incident and incident-id.`
  ctx.log.warning(line)
  return [line]
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
    i => i.id !== current.id && sameTitle(i.title, title, false) && !isResolved(i)
  )
  if (others.length === 0) return []
  const line = `Another unresolved incident titled ${JSON.stringify(title)} appeared while this run updated ${current.id}: ${others.map(i => i.id).join(', ')} (opened by a concurrent run, or missed by the first look). This run cannot prove which existed first, so it resolves neither: ${current.id} is used; resolve the one you do not want with resolve-incident and incident-id.`
  ctx.log.warning(line)
  return [line]
}
