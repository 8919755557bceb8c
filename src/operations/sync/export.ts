/**
 * export-checks: bring an account under code. Every check (or those under
 * name-prefix) written as a checks file that sync-checks accepts and that
 * plans nothing right after: from a whole list (snapshot.ts), written whole or not at all, sorted by name,
 * values in secret positions as variables the step lists.
 */
import * as path from 'node:path'
import { load } from '../../lazy/modules.cjs'
import { redact } from '../../secrets/secrets.js'
import { str } from '../common.js'
import { chosenBy, excludedJson, narrowList, selectionLines, selectionOf } from '../names/selection.js'
import { wholeList } from '../names/snapshot.js'
import type { Operation } from '../types.js'
import { OperationError } from '../types.js'
import { cannotWrite, writeWhole } from '../write-whole.js'
import { MAX_CHECKS_FILE_BYTES } from './checks-file-read.js'
import { ExportError, checksFileText, exportEntries, heldSecret } from './export-file.js'

export const exportChecks: Operation = async ctx => {
  const { config } = ctx
  const given = config.checksFile as string
  const file = path.resolve(ctx.workspace, given)
  const selection = selectionOf(config)
  const prefix = config.namePrefix
  // Only a prefix alone is what sync-checks can prune by (prune-prefix); a pattern or exclude is not.
  const byPrefixOnly = selection?.prefix !== undefined && selection.patterns.length === 0 && !selection.exclude.length
  await load('yaml')
  // A file missing a check would make a later sync with prune delete it: only a whole list is exported.
  const all = await wholeList(() => ctx.api.readChecks(), 'export-checks', 'nothing was written')
  const selected = narrowList(all, selection)
  const checks = selected.matches
  let exported: ReturnType<typeof exportEntries>
  try {
    exported = exportEntries(checks)
  } catch (error) {
    if (error instanceof ExportError) throw new OperationError(`export-checks: ${error.message}`)
    throw error
  }
  const { entries, ids, lifted, warnings } = exported
  for (const warning of warnings) ctx.log.warning(warning)
  // A lifted value is replaced in its secret position only: names and other fields that hold the same
  // text stay as they are in the file, with a warning. The key (or another secret this step knew before
  // the lifting) in any other field would be committed with the file: refused.
  const held = heldSecret(entries, ctx.redact)
  if (held) {
    const { index, field } = held
    throw new OperationError(
      `export-checks: check ${ids[index]} (${JSON.stringify(str(entries[index].name))}) holds a secret this step knows (the api-key) in the field ${field}, where export-checks cannot put a variable; a checks file is meant to be committed, so nothing was written. Remove the secret from that field, or export a name-prefix that leaves the check out.`
    )
  }
  const values = lifted.map(l => l.value)
  for (const [index, entry] of entries.entries()) {
    const also = heldSecret([entry], text => redact(text, values))
    if (also) {
      ctx.log.warning(
        `export-checks: check ${ids[index]} (${JSON.stringify(str(entry.name))}) holds, in the field ${also.field}, the same text as a value lifted into a variable; it stays as it is there. Check that field before you commit the file.`
      )
    }
  }
  // From now on the lifted values are secrets of this job (those that can be masked job-wide: core/context.ts).
  for (const value of values) ctx.addSecret(value)
  if (entries.length === 0) {
    ctx.log.warning(
      `export-checks: no check${prefix === undefined ? ' on the service' : ` whose name starts with ${JSON.stringify(prefix)}`}: the file lists none. sync-checks refuses such a file with prune and no prune-prefix (it would delete every check).`
    )
  }
  const variables = lifted.map(l => l.variable)
  const text = checksFileText(given, entries, {
    baseUrl: config.baseUrl,
    ...(selection === undefined ? {} : byPrefixOnly ? { namePrefix: prefix } : { chosenBy: chosenBy(selection) }),
    variables
  })
  if (Buffer.byteLength(text) > MAX_CHECKS_FILE_BYTES) {
    throw new OperationError(
      `export-checks: the checks file would be ${Buffer.byteLength(text)} bytes, more than the ${MAX_CHECKS_FILE_BYTES} bytes (10 MiB) sync-checks reads; nothing was written. Export the fleet in parts with name-prefix.`
    )
  }
  try {
    await writeWhole(file, text)
  } catch (error) {
    throw new OperationError(`checks-file ${given}: ${cannotWrite(file, error)}; nothing was written`)
  }
  const scope =
    selection === undefined
      ? ''
      : byPrefixOnly
        ? ` whose names start with ${JSON.stringify(prefix)}`
        : ` selected by ${chosenBy(selection)}`
  ctx.log.info(`Wrote ${entries.length} check(s)${scope} to ${given} (${Buffer.byteLength(text)} bytes).`)
  if (variables.length > 0) {
    ctx.log.info(
      `The file holds no secret: ${variables.length} value(s) in secret positions are variables. Set them for sync-checks (from your secrets): ${variables.join(', ')}.`
    )
  }
  const lines = [
    `Wrote ${entries.length} of the service's ${all.length} check(s)${scope} to ${given}.`,
    byPrefixOnly || selection === undefined
      ? `Right after this export, sync-checks of ${given}${prefix === undefined ? '' : ` with prune-prefix ${JSON.stringify(prefix)}`} plans nothing.`
      : `Right after this export, sync-checks of ${given} without prune plans nothing. Never sync it with prune: the checks the selection left out are not in it, and prune would delete them.`,
    ...(selection && !byPrefixOnly ? selectionLines(selection, selected) : []),
    ...(variables.length > 0
      ? [`The file holds no secret: set these ${variables.length} variable(s) for sync-checks, from your secrets.`]
      : [])
  ]
  return {
    outputs: {
      count: entries.length,
      result: {
        path: given,
        count: entries.length,
        variables,
        ...(selection?.exclude.length ? { excluded: excludedJson(selected.excluded) } : {})
      }
    },
    summary: {
      title: 'Checks exported',
      lines,
      tables: [
        ...(variables.length > 0
          ? [{ head: ['Variable', 'Check', 'Where'], rows: lifted.map(l => [l.variable, l.check, l.where]) }]
          : []),
        {
          head: ['Check', 'ID', 'URL (as written)'],
          rows: entries.map((e, i) => [e.name, ids[i], e.url])
        }
      ]
    }
  }
}
