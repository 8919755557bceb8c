/**
 * The plan on disk: `plan-file` writes it (`{"version": 1, "checks": [...]}`),
 * `approved-plan` reads one back and holds this run to it. Both files are
 * plain JSON that a workflow passes between jobs as an artifact.
 */
import { readFile, stat } from 'node:fs/promises'
import { Mapping, isMapping } from '../../values/values.js'
import { canonical } from '../common.js'
import { PlanEntry, entryResult, sameEntry, shown } from './plan.js'
import { cannotWrite, writeWhole } from '../write-whole.js'

export const PLAN_VERSION = 1
/** The largest approved plan read (a plan of thousands of checks is far smaller). */
const MAX_PLAN_BYTES = 20 * 1024 * 1024

export class PlanFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PlanFileError'
  }
}

/** The plan file's JSON: the entries as `result` has them, without outcomes. */
export function planDocument(plan: PlanEntry[]): { version: number; checks: Mapping[] } {
  return { version: PLAN_VERSION, checks: plan.map(e => entryResult({ ...e, outcome: undefined })) }
}

/** Write the plan whole or not at all. */
export async function writePlanFile(
  given: string,
  file: string,
  plan: PlanEntry[],
  redactValue: <T>(value: T) => T = value => value
): Promise<void> {
  try {
    // Secrets (a templated token) are *** in the file as in every other report: value by value, so it stays JSON.
    await writeWhole(file, JSON.stringify(redactValue(planDocument(plan)), null, 2) + '\n')
  } catch (error) {
    throw new PlanFileError(`plan-file ${given}: ${cannotWrite(file, error)}`)
  }
}

const label = (e: Mapping) => `${String(e.action)} ${JSON.stringify(e.name)}${e.id ? ` (${String(e.id)})` : ''}`

/** Read an approved plan: JSON with version 1 and a list of entries, else an error naming the input. */
export async function readApprovedPlan(given: string, file: string): Promise<Mapping[]> {
  const fail = (why: string): never => {
    throw new PlanFileError(`approved-plan ${given}: ${why}`)
  }
  let text = ''
  try {
    const size = (await stat(file)).size
    if (size > MAX_PLAN_BYTES) fail(`is ${size} bytes, more than the ${MAX_PLAN_BYTES} a plan file may have`)
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (error instanceof PlanFileError) throw error
    const code = (error as { code?: string }).code
    fail(
      `cannot read ${file}${code ? ` (${code})` : ''}; it is the plan-file of the reviewed dry-run (download its artifact first)`
    )
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    fail('is not JSON written by plan-file')
  }
  if (!isMapping(doc) || doc.version !== PLAN_VERSION || !Array.isArray(doc.checks)) {
    fail(`is not a plan file of version ${PLAN_VERSION} ({"version": 1, "checks": [...]})`)
  }
  const checks = (doc as Mapping).checks as unknown[]
  if (!checks.every(e => isMapping(e) && typeof e.action === 'string' && typeof e.name === 'string')) {
    fail('has an entry without an action and a name')
  }
  const seen = new Set<string>()
  for (const entry of checks as Mapping[]) {
    const key = `${String(entry.action)} ${JSON.stringify(entry.name)} ${String(entry.id ?? '')}`
    if (seen.has(key)) fail(`has the entry ${label(entry)} twice: it was not written by plan-file`)
    seen.add(key)
  }
  return checks as Mapping[]
}

/**
 * How the plan computed now differs from the approved one, one line per
 * difference (none: the same plan). Unchanged entries count too: a check
 * that changed on the service since the review makes the plans differ.
 */
export function planDifferences(
  approved: Mapping[],
  now: PlanEntry[],
  redactValue: <T>(value: T) => T = value => value
): string[] {
  // Compared as the plan file holds them: secrets *** on both sides.
  const current = now.map(e => redactValue(entryResult({ ...e, outcome: undefined })))
  const key = (e: Mapping) => `${String(e.action)}\u0000${String(e.name)}\u0000${String(e.id ?? '')}`
  const left = new Map(approved.map(e => [key(e), e]))
  const out: string[] = []
  for (const entry of current) {
    const match = left.get(key(entry))
    if (!match) {
      const changes = Object.entries(isMapping(entry.changes) ? (entry.changes as Record<string, Mapping>) : {})
      const what = changes.map(([field, change]) => `${field}: ${changeText(change)}`).join(', ')
      out.push(`now also ${label(entry)}${what ? ` (${what})` : ''}`)
      continue
    }
    left.delete(key(entry))
    if (!sameEntry(match, entry)) {
      out.push(`${label(entry)} changes ${changed(match, entry)}`)
    }
  }
  for (const entry of left.values()) out.push(`no longer ${label(entry)}`)
  return out
}

/** One field's change as text: `60 → 30`, or only the side there is. */
function changeText(change: Mapping | undefined): string {
  if (!change) return 'no change'
  if (!('from' in change)) return shown(change.to, 40)
  if (!('to' in change)) return `${shown(change.from, 40)} (deleted)`
  const secret = change.secretChanged ? ' (secret changed)' : ''
  return `${shown(change.from, 40)} → ${shown(change.to, 40)}${secret}`
}

/** Which fields' changes differ between an approved entry and the one computed now. */
function changed(approved: Mapping, now: Mapping): string {
  const a = (isMapping(approved.changes) ? approved.changes : {}) as Record<string, Mapping>
  const b = now.changes as Record<string, Mapping>
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])]
  return fields
    .filter(f => canonical(a[f] ?? null) !== canonical(b[f] ?? null))
    .map(f => `${f} (approved: ${changeText(a[f])}; now: ${changeText(b[f])})`)
    .join(', ')
}
