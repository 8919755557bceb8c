/**
 * What is said of identical checks of one name (check-targets.ts uses them as
 * one): a read names the one it uses and leaves the others; a write by name
 * writes each alike, so that they stay identical and the next run by name
 * finds them as this one did. The action never deletes one of them: they may
 * have existed before the step.
 */
import type { Check } from '../api/schemas.js'
import { str } from './common.js'
import type { Named } from './check-targets.js'
import type { OperationContext } from './types.js'

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

/** What a write by name says of identical duplicates: all written alike, which one the outputs name, how to remove one. */
export function alikeLine({ check, duplicates }: Named & { check: Check }, changed: boolean, dryRun: boolean): string {
  if (duplicates.length === 0) return ''
  const ids = [check, ...duplicates].map(c => c.id).join(', ')
  const done = !changed
    ? 'nothing differs in any of them'
    : dryRun
      ? 'each would be changed alike'
      : 'each was changed alike'
  return `${duplicates.length + 1} identical checks are named ${JSON.stringify(str(check.name))} (${ids}): ${done}, so they stay identical; the outputs name ${check.id}, the first in order. To keep one, delete the others with delete-check and check-id (check-id: ${duplicates[0].id}); the action never deletes a check that may have existed before the step.`
}
