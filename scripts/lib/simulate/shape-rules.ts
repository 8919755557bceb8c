/**
 * What must hold over the shapes that broke main ff43772 (issue 37; contract:
 * "Version 5 rules"), beside invariants.ts, which already catches some of
 * them as they are: a check that existed before the round deleted (a create
 * after a reordered read), a prefix pause that missed a member, a secret in
 * a header string, a `{name, value}` pair or after a `?` in a parameter's
 * value (the round's secrets), one probe counted twice (gateRules), and
 * identical failed rows that leave a spent budget passing (budgetRule); and
 * over a checks file that merges a `defaults:` holder (mergeRule).
 */
import type { After, Before, Executed } from './invariants.js'
import { FILES, PAUSE_PREFIX } from './schedule.js'
import { MERGED_OWNER } from './shapes.js'

/** Values that stand beside names containing a secret word (`AUTH_MODE=main`, `?author=ann`): never masked. */
const WORDS = ['main', 'europe', 'healthy', 'ann']
/** A history time the action can place: ISO 8601, or an HTTP date (RFC 1123, always GMT: the budget judges it). */
const PLACEABLE = /^\d{4}-\d\d-\d\dT\d\d:\d\d|^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} [\d:]{8} GMT$/

export function shapeRules(before: Before, after: After, executed: Executed[]): string[] {
  return [
    ...fleetGateRule(before, after, executed),
    ...handPauseRule(after),
    ...maskRule(executed),
    ...budgetRule(before, executed),
    ...mergeRule(after, executed)
  ]
}

/**
 * A fleet gate over a reordered list judges every member or ends `error`; it never passes while one was
 * down all round (a reordered read hid it).
 */
function fleetGateRule(before: Before, after: After, executed: Executed[]): string[] {
  const out: string[] = []
  const members = [...before.checks.values()].filter(c => String(c.name).startsWith(PAUSE_PREFIX))
  const down = members.filter(c => c.status === 'down' && !after.probed.some(p => p.id === c.id && p.status === 'up'))
  for (const { run, steps } of executed) {
    const prefix = run.inputs['name-prefix']
    if (run.inputs.operation !== 'wait-for-check' || prefix !== PAUSE_PREFIX) continue
    const main = steps.find(s => s.what === 'main')
    // Every member the gate judged is in its result; a gate that could not see them all ends `error`.
    const outcome = main?.result.outputs.outcome
    const missing = members.filter(c => !(main?.result.outputs.result ?? '').includes(c.id))
    if (run.cancelMs === undefined && outcome !== undefined && outcome !== 'error' && missing.length > 0)
      out.push(
        `run ${run.n} (fleet gate on ${prefix}) ended ${JSON.stringify(outcome)} without judging ${missing.map(c => JSON.stringify(c.name)).join(', ')} (a gate that cannot see every member ends "error")`
      )
    if (main?.result.outputs.passed === 'true' && down.length > 0)
      out.push(
        `run ${run.n} (fleet gate on ${prefix}) passed while ${down.map(c => JSON.stringify(c.name)).join(', ')} was down all round (outcome ${JSON.stringify(main.result.outputs.outcome)})`
      )
  }
  return out
}

/**
 * A check another actor paused during the round stays paused: no post step resumes what it did not pause.
 * But for a pause that landed between a run's read of the check and its write: that run moved it, as far
 * as any client can know (the API has no conditional write).
 */
function handPauseRule(after: After): string[] {
  return after.handPaused
    .filter(id => after.checks.get(id)?.status !== 'paused' && !after.handPausedInWindow.includes(id))
    .map(
      id =>
        `check ${id} (${JSON.stringify(after.checks.get(id)?.name)}) was paused by another actor during the round and is not paused now`
    )
}

/** Nothing short and harmless is masked job-wide, though the name beside it contains a secret word. */
function maskRule(executed: Executed[]): string[] {
  const out: string[] = []
  for (const { run, steps } of executed) {
    for (const { what, result } of steps) {
      for (const line of result.stdout.split('\n')) {
        const masked = /^::add-mask::(.*)$/.exec(line)?.[1]?.trim()
        if (masked !== undefined && WORDS.includes(masked.toLowerCase()))
          out.push(`run ${run.n} (${run.kind}) ${what} masked a harmless value job-wide: ${JSON.stringify(line)}`)
      }
    }
  }
  return out
}

/** A budget gate over history rows whose time the action cannot place never passes (the budget is unknown). */
function budgetRule(before: Before, executed: Executed[]): string[] {
  const out: string[] = []
  for (const { run, steps } of executed) {
    if (run.inputs.slo === undefined) continue
    const was = [...before.checks.values()].find(c => c.name === run.inputs['check-name'])
    const rows = was ? (before.history.get(was.id) ?? []) : []
    const odd = rows.filter(h => !PLACEABLE.test(String(h.checkedAt)))
    const main = steps.find(s => s.what === 'main')
    if (odd.length > 0 && main?.result.outputs.passed === 'true')
      out.push(
        `run ${run.n} (budget-gate) on ${JSON.stringify(run.inputs['check-name'])} passed over ${odd.length} history row(s) whose time it cannot place (${JSON.stringify(odd[0].checkedAt)})`
      )
  }
  return out
}

/**
 * No check the service held during the round has a `<<` field (a merge key is never sent). Once a sync of
 * the file that merges `defaults:` (shapes.ts) ended well, the merged values arrived: each check only that
 * file names carries the holder's `owner` (no other file, and no other run, writes those names).
 */
function mergeRule(after: After, executed: Executed[]): string[] {
  // Each check once, midway or after the round or deleted.
  const held = new Map(
    [...after.midway.values(), ...after.checks.values(), ...after.deleted]
      .filter(c => Object.hasOwn(c, '<<'))
      .map(c => [c.id, c])
  )
  const out = [...held.values()].map(
    c => `check ${c.id} (${JSON.stringify(c.name)}) has a "<<" field: a merge key was sent as a field`
  )
  const synced = executed.find(
    ({ run, steps }) =>
      run.env[MERGED_OWNER] !== undefined &&
      steps.some(
        s => (s.what === 'main' || s.what === 're-run') && s.inputs['dry-run'] !== 'true' && s.result.code === 0
      )
  )
  if (!synced) return out
  const { run } = synced
  const file = run.inputs['checks-file']
  const owner = run.env[MERGED_OWNER]
  const others = Object.entries(FILES).flatMap(([name, names]) => (name === file ? [] : names))
  const own = (FILES[file] ?? []).filter(name => !others.includes(name))
  for (const check of after.checks.values()) {
    if (own.includes(String(check.name)) && check.owner !== owner)
      out.push(
        `run ${run.n} (${run.kind}) synced ${file}, which merges defaults: (owner ${JSON.stringify(owner)}), yet ${check.id} (${JSON.stringify(check.name)}) has owner ${JSON.stringify(check.owner)}`
      )
  }
  return out
}
