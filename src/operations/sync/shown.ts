/**
 * A plan entry as it is shown anywhere (the log, `result`, the plan file, the
 * summary, the comment, the drift issue, an error): every value in a secret
 * position is *** (secret-positions.ts), whether it is today's, the service's old one
 * or one of a check about to be deleted, and the step's own secrets are ***
 * in every form. A field whose secrets differ between old and new says so
 * with `"secretChanged": true` (shown as "(secret changed)"), so a rotation is
 * still seen as a change although both sides read the same. The plan itself
 * keeps the real values: only what is shown is masked.
 */
import { maskPositions, secretsIn } from '../../secrets/secret-positions.js'
import { canonical } from '../common.js'
import type { FieldChange, PlanEntry } from './plan.js'

const identity = <T>(value: T): T => value

/** `entry` as shown: secrets by position and by value as ***, a secret's change marked. */
export function shownEntry(entry: PlanEntry, redactValue: <T>(value: T) => T = identity): PlanEntry {
  // Nothing in a secret position to show (a fleet's unchanged entries): the entry as it is, redacted by value.
  if (entry.body === undefined && Object.keys(entry.changes).length === 0) return redactValue(entry)
  const changes: Record<string, FieldChange> = {}
  for (const [field, change] of Object.entries(entry.changes)) {
    const masked = (value: unknown) => redactValue(maskPositions({ [field]: value }))[field]
    const shown: FieldChange = {}
    if ('from' in change) shown.from = masked(change.from)
    if ('to' in change) shown.to = masked(change.to)
    if ('from' in change && 'to' in change) {
      const secretsDiffer =
        canonical(secretsIn({ [field]: change.from })) !== canonical(secretsIn({ [field]: change.to }))
      // Also a change that redaction by value hid whole (a templated value in a plain field).
      const hidden = canonical(shown.from) === canonical(shown.to)
      if (secretsDiffer || hidden) shown.secretChanged = true
    }
    changes[field] = shown
  }
  return redactValue({
    ...entry,
    changes,
    ...(entry.body === undefined ? {} : { body: maskPositions(entry.body) })
  })
}

/** Every entry of a plan as shown. */
export function shownPlan(plan: PlanEntry[], redactValue: <T>(value: T) => T = identity): PlanEntry[] {
  return plan.map(e => shownEntry(e, redactValue))
}
