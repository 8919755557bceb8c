/**
 * What must hold where GitHub refuses edits (refused-edits.ts; contract:
 * "Version 6 rules": "One comment, one issue, even when GitHub refuses an
 * edit"), beside invariants.ts, whose drift-issue rules (driftIssueRules)
 * already hold at most one open drift issue per workflow and checks file and
 * none once the last watch of a file found no drift, whichever is live, not
 * counting one GitHub refuses to close:
 *
 * - at most one of the action's comments on a pull request per step (one
 *   marker), not counting one GitHub refuses both to edit and to delete (no
 *   run can take it out of the way: it can neither delete it nor edit it into
 *   a pointer without the marker). Judged in every round: the export's plan
 *   comments once, a watch on each of its looks.
 */
import type { After } from './invariants.js'

/** The marker that finds a step's comment again (sticky.ts markerOf): one per step identity. */
const MARKER = /<!-- monitoring-action: [0-9a-f]{32} -->/

export function refusedEditsRules(after: After): string[] {
  return oneCommentRule(after)
}

/** At most one comment of ours per pull request and marker, but one GitHub will neither edit nor delete. */
export function oneCommentRule(after: After): string[] {
  const stuck = (id: number) => {
    const refused = after.refused?.comments.get(id) ?? []
    return refused.includes('edit') && refused.includes('delete')
  }
  const steps = new Map<string, Array<{ id: number; on: string }>>()
  for (const comment of after.comments ?? []) {
    const marker = MARKER.exec(comment.body)?.[0]
    if (marker === undefined || comment.user.type !== 'Bot' || stuck(comment.id)) continue
    const key = `${comment.on} ${marker}`
    steps.set(key, [...(steps.get(key) ?? []), { id: comment.id, on: comment.on }])
  }
  const out: string[] = []
  for (const list of steps.values()) {
    if (list.length < 2) continue
    const refused = (after.comments ?? [])
      .filter(c => list[0].on === c.on && after.refused?.comments.has(c.id) && MARKER.test(c.body))
      .map(c => `${c.id}: GitHub refuses ${(after.refused?.comments.get(c.id) ?? []).join(', ')}`)
    out.push(
      `${list.length} comments of one step are on ${list[0].on} (${list.map(c => c.id).join(', ')}): one step keeps one comment${refused.length ? ` (${refused.join('; ')})` : ''}`
    )
  }
  return out
}
