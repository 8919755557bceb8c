/**
 * What is said of identical checks of one name (check-targets.ts uses them as
 * one): a read names the one it uses and leaves the others; a write by name
 * (update, upsert, pause, resume, and each entry of a sync's plan) writes
 * each alike (alikeOf), so that they stay identical and the next run by name
 * finds them as this one did. The action never deletes one of them: they may
 * have existed before the step.
 */
import type { Check } from '../../api/schemas.js'
import { str } from '../common.js'
import type { OperationContext } from '../types.js'

export interface Named {
  /** The check the name means: the only one, or the first (in survival order) of identical ones. */
  check?: Check
  /** Identical checks of the same name besides it: kept, never removed (they may have existed before the step). */
  duplicates: Check[]
}

/** What a read says of identical checks of one name: which one is used, and that the others stay. */
export function duplicatesLine(named: Named): string {
  const { check, duplicates } = named
  if (!check || duplicates.length === 0) return ''
  return `${duplicates.length + 1} identical checks are named ${JSON.stringify(str(check.name))}: using ${check.id}; the others (${duplicates.map(c => c.id).join(', ')}) are left as they are, since they may have existed before this step and the action never deletes those. Delete the ones you do not want with delete-check and check-id.`
}

/** Warn about identical checks of one name (see duplicatesLine). Returns the line for the summary, if any. */
export function warnDuplicates(ctx: OperationContext, named: Named): string[] {
  const line = duplicatesLine(named)
  if (line) ctx.log.warning(line)
  return line ? [line] : []
}

/** The checks a write by name changes: the one the name means, then each identical duplicate, alike. */
export const alikeOf = ({ check, duplicates }: Named): Check[] => (check ? [check, ...duplicates] : [])

/** `3 identical checks are named "shop" (a, b, c)`. */
const identicalNamed = ({ check, duplicates }: Named & { check: Check }): string =>
  `${duplicates.length + 1} identical checks are named ${JSON.stringify(str(check.name))} (${[check, ...duplicates].map(c => c.id).join(', ')})`

/** How to end up with one of them. */
const keepOne = (duplicates: Check[]): string =>
  `To keep one, delete the others with delete-check and check-id (check-id: ${duplicates[0].id}); the action never deletes a check that may have existed before the step.`

/** What a write by name says of identical duplicates: all written alike, which one the outputs name, how to remove one. */
export function alikeLine(named: Named & { check: Check }, changed: boolean, dryRun: boolean): string {
  if (named.duplicates.length === 0) return ''
  const done = !changed
    ? 'nothing differs in any of them'
    : dryRun
      ? 'each would be changed alike'
      : 'each was changed alike'
  return `${identicalNamed(named)}: ${done}, so they stay identical; the outputs name ${named.check.id}, the first in order. ${keepOne(named.duplicates)}`
}

/** What sync-checks says of identical duplicates: its plan has an entry for each (alikeOf), changed alike. */
export function planAlikeLine(named: Named & { check: Check }, changed: boolean): string {
  if (named.duplicates.length === 0) return ''
  const done = changed ? 'the plan changes each alike' : 'nothing differs in any of them'
  return `${identicalNamed(named)}: ${done}, an entry for each, so they stay identical. ${keepOne(named.duplicates)}`
}
