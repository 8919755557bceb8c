/**
 * delete-check of a fleet (name-prefix, name-pattern; names/selection.ts):
 * the checks it selects, with the check-id / check-name check if given, less
 * what exclude leaves out, resolved from a whole list read before any write;
 * more than max-deletions is refused whole; a check already gone (a 404, a
 * name no check has) is no error.
 */
import { paths } from '../../api/monitoring.js'
import type { Check } from '../../api/schemas.js'
import { checkOutputs, checkSummary, findByName } from '../names/check-targets.js'
import { dryRunSkips, str } from '../common.js'
import { uniqueById } from '../names/converge.js'
import { type Selection, fleetList, leaveOut, selectFleet, selectionLines, withExcluded } from '../names/selection.js'
import type { OperationContext, OperationResult, Outputs } from '../types.js'
import { OperationError } from '../types.js'

/** How many checks an error message names; the summary's table has them all. */
const NAMED_IN_MESSAGE = 20

const described = (checks: Check[]): string => {
  const shown = checks.slice(0, NAMED_IN_MESSAGE).map(c => `${c.id} (${JSON.stringify(str(c.name))})`)
  const more = checks.length - shown.length
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}

/** The targets, in order: the check-id check, the check-name check (and its identical duplicates), the fleet's; and what exclude left out. */
async function targets(
  ctx: OperationContext,
  selection: Selection
): Promise<{ checks: Check[]; excluded: Check[]; notes: string[] }> {
  const { checkIds, checkNames } = ctx.config
  const found: Check[] = []
  const notes: string[] = []
  for (const id of checkIds) {
    const check = await ctx.api.getCheck(id)
    if (check) found.push(check)
    else notes.push(`Check ${id} does not exist: nothing to delete for check-id.`)
  }
  const { items: all } = await fleetList(ctx, selection)
  for (const name of checkNames) {
    const named = findByName(all, name)
    if (named.check) found.push(named.check, ...named.duplicates)
    else notes.push(`No check named ${JSON.stringify(name)}: nothing to delete for check-name.`)
  }
  const fleet = selectFleet(all, selection)
  // An excluded check is never deleted, whatever else (an id, a name) names it.
  const { kept, excluded } = leaveOut(uniqueById([...found, ...fleet.matches]), selection)
  const left = uniqueById([...fleet.excluded, ...excluded])
  notes.unshift(...selectionLines(selection, { matches: fleet.matches, excluded: left }))
  return { checks: kept, excluded: left, notes }
}

export async function deleteFleet(ctx: OperationContext, selection: Selection): Promise<OperationResult> {
  const { maxDeletions, dryRun } = ctx.config
  const { checks, excluded, notes } = await targets(ctx, selection)
  const result = (deleted: Check[]) => withExcluded(deleted, selection, excluded)
  for (const note of notes) ctx.log.info(note)
  if (checks.length > maxDeletions) {
    const message = `delete-check refused: ${checks.length} checks are targeted (${described(checks)}), more than max-deletions (${maxDeletions}). Nothing was deleted. If these deletes are meant, raise max-deletions for this run; else narrow the selection (end a name-prefix with a separator: pr-12- never matches pr-123-web; or leave checks out with exclude)`
    throw new OperationError(message, { changed: false }, checkSummary('delete-check refused', checks, [message]))
  }
  if (dryRun) {
    for (const check of checks) dryRunSkips(ctx, 'DELETE', paths.check(check.id))
    return {
      outputs: { ...checkOutputs(checks[0]), changed: true, deleted: checks.length, result: result(checks) },
      summary: checkSummary(`Checks would be deleted (dry run): ${checks.length}`, checks, notes)
    }
  }
  const deleted: Check[] = []
  const gone: Check[] = []
  for (const [i, check] of checks.entries()) {
    const known = (): Outputs => ({
      ...checkOutputs(checks[0]),
      changed: deleted.length > 0,
      deleted: deleted.length,
      result: result(deleted)
    })
    const stop = (why: string): never => {
      const left = checks.slice(i)
      const message = `${why} (deleted: ${deleted.length > 0 ? described(deleted) : 'none'}; not deleted: ${described(left)})`
      throw new OperationError(message, known(), checkSummary('delete-check stopped half-way', deleted, [message]))
    }
    if (ctx.signal.aborted) stop('delete-check was cancelled')
    try {
      if (await ctx.api.deleteCheck(check.id)) deleted.push(check)
      else gone.push(check)
    } catch (error) {
      stop(error instanceof Error ? error.message : String(error))
    }
  }
  const lines = [
    ...notes,
    deleted.length > 0 ? `Deleted ${deleted.length}: ${described(deleted)}.` : 'Nothing was deleted.',
    ...(gone.length > 0 ? [`Already gone (deleted meanwhile): ${described(gone)}.`] : [])
  ]
  ctx.log.info(lines.slice(notes.length).join(' '))
  return {
    outputs: {
      ...checkOutputs(checks[0]),
      changed: deleted.length > 0,
      deleted: deleted.length,
      result: result(checks)
    },
    summary: checkSummary(
      deleted.length > 0 ? `Checks deleted: ${deleted.length}` : 'Checks already gone',
      checks,
      lines
    )
  }
}
