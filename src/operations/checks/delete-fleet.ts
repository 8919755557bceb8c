/**
 * delete-check with name-prefix: every check whose name starts with it, with
 * the check-id / check-name check if given, resolved from one list read before
 * any write; more than max-deletions is refused whole; a check already gone
 * (a 404, a name no check has) is no error.
 */
import { paths } from '../../api/monitoring.js'
import type { Check } from '../../api/schemas.js'
import { byPrefix, fleetList, prefixLine } from '../names/selection.js'
import { checkOutputs, checkSummary, findByName } from '../names/check-targets.js'
import { dryRunSkips, str } from '../common.js'
import { uniqueById } from '../names/converge.js'
import type { OperationContext, OperationResult, Outputs } from '../types.js'
import { OperationError } from '../types.js'

/** How many checks an error message names; the summary's table has them all. */
const NAMED_IN_MESSAGE = 20

const described = (checks: Check[]): string => {
  const shown = checks.slice(0, NAMED_IN_MESSAGE).map(c => `${c.id} (${JSON.stringify(str(c.name))})`)
  const more = checks.length - shown.length
  return `${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
}

/** The targets, in order: the check-id check, the check-name check (and its identical duplicates), the prefix's. */
async function targets(ctx: OperationContext, prefix: string): Promise<{ checks: Check[]; notes: string[] }> {
  const { checkIds, checkNames } = ctx.config
  const found: Check[] = []
  const notes: string[] = []
  for (const id of checkIds) {
    const check = await ctx.api.getCheck(id)
    if (check) found.push(check)
    else notes.push(`Check ${id} does not exist: nothing to delete for check-id.`)
  }
  const { items: all } = await fleetList(ctx, prefix)
  for (const name of checkNames) {
    const named = findByName(all, name)
    if (named.check) found.push(named.check, ...named.duplicates)
    else notes.push(`No check named ${JSON.stringify(name)}: nothing to delete for check-name.`)
  }
  const matches = byPrefix(all, prefix)
  found.push(...matches)
  notes.unshift(prefixLine(prefix, matches))
  return { checks: uniqueById(found), notes }
}

export async function deleteByPrefix(ctx: OperationContext): Promise<OperationResult> {
  const { maxDeletions, dryRun } = ctx.config
  const prefix = ctx.config.namePrefix as string
  const { checks, notes } = await targets(ctx, prefix)
  for (const note of notes) ctx.log.info(note)
  if (checks.length > maxDeletions) {
    const message = `delete-check refused: ${checks.length} checks are targeted (${described(checks)}), more than max-deletions (${maxDeletions}). Nothing was deleted. If these deletes are meant, raise max-deletions for this run; else make name-prefix narrower (end it with a separator: pr-12- never matches pr-123-web)`
    throw new OperationError(message, { changed: false }, checkSummary('delete-check refused', checks, [message]))
  }
  if (dryRun) {
    for (const check of checks) dryRunSkips(ctx, 'DELETE', paths.check(check.id))
    return {
      outputs: { ...checkOutputs(checks[0]), changed: true, deleted: checks.length, result: checks },
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
      result: deleted
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
    outputs: { ...checkOutputs(checks[0]), changed: deleted.length > 0, deleted: deleted.length, result: checks },
    summary: checkSummary(
      deleted.length > 0 ? `Checks deleted: ${deleted.length}` : 'Checks already gone',
      checks,
      lines
    )
  }
}
