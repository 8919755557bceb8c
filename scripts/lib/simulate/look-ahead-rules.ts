/**
 * What must hold over issue 52's gates and fleets (contract: "Release gates
 * that look ahead: the burn rate", "Selection by pattern"), beside
 * invariants.ts: a burn-rate gate never passes while the check's history
 * burns over the max in both windows, and says `budget-burning` only when it
 * does; a pattern pause never touches the check its `exclude` names, nor a
 * name its pattern does not match, and pauses every other match; and (issue
 * 53) check-api beside them leaves no check of its own behind.
 */
import type { After, Before, Executed } from './invariants.js'
import { statedWindowEnd, touchedWhen } from './invariants.js'
import { BURN, PATTERN, type Run } from './schedule.js'

/**
 * check-api (issue 53) beside the round's writers: its own check is gone once the round's post steps
 * ran (deleted by the main step, or by the post step after a cancel), and no check of anyone else's
 * is named like one of its own.
 */
export function checkApiRules(before: Before, after: After, executed: Executed[]): string[] {
  if (!executed.some(e => e.run.kind === 'check-api')) return []
  const out: string[] = []
  for (const check of after.checks.values())
    if (String(check.name).startsWith('check-api-'))
      out.push(`check-api left its own check ${JSON.stringify(check.name)} (${check.id}) on the account`)
  for (const check of before.checks.values())
    if (String(check.name).startsWith('check-api-'))
      out.push(`the world holds ${JSON.stringify(check.name)}, a name check-api takes for its own`)
  return out
}

type Step = Executed['steps'][number]
type Entry = { at: number; status: unknown }

/**
 * The burn rate: passed while both windows surely burn over the max is the release the rule exists to hold;
 * budget-burning while surely neither does is a release held for nothing. The windows end where the action
 * started (its `result` says; within the process's life), and a view may show a result up to a second early:
 * each window's results near its edges may be in or out, so only what holds in each extreme is judged.
 */
export function burnRule(run: Run, gate: Step, id: string, before: Before, after: After): string[] {
  const stated = statedWindowEnd(gate.result.outputs.result, 'burnRate')
  const end = gate.startedAt + gate.result.ms
  const known = stated !== undefined && stated >= gate.startedAt && stated <= end
  const to = known ? stated : gate.startedAt
  const doubtUntil = known ? to + 1_000 : end
  const all: Entry[] = [
    ...(before.history.get(id) ?? []).map(h => ({ at: Date.parse(String(h.checkedAt)), status: h.status })),
    ...after.probed.filter(p => p.id === id)
  ].filter(e => typeof e.status === 'string' && e.status.trim() !== '')
  const failed = (e: Entry) => String(e.status).trim().toLowerCase() !== 'up'
  /** A window's results in its two extremes: doubtful failures left out (best) or doubtful ups (worst). */
  const extremes = (from: number) => {
    const inside = all.filter(e => e.at >= from && e.at < doubtUntil)
    const doubtful = (e: Entry) => e.at < from + 1_000 || e.at >= to
    const sure = inside.filter(e => !doubtful(e))
    return [
      [...sure, ...inside.filter(e => doubtful(e) && !failed(e))],
      [...sure, ...inside.filter(e => doubtful(e) && failed(e))]
    ]
  }
  const max = Number(BURN.max)
  const over = (list: Entry[]) => list.filter(failed).length / list.length / (1 - BURN.objective) > max
  const burning = (long: Entry[], short: Entry[]) => long.length >= 5 && over(long) && (short.length < 5 || over(short))
  const cases = extremes(to - BURN.windowMs).flatMap(long =>
    extremes(to - BURN.windowMs / 12).map(short => burning(long, short))
  )
  const surely = cases.every(Boolean)
  const surelyNot = !cases.some(Boolean)
  const outcome = gate.result.outputs.outcome
  const label = `run ${run.n} (burn-gate) on ${JSON.stringify(run.inputs['check-name'])} (max ${BURN.max} over ${BURN.window} and its last twelfth)`
  if (surely && gate.result.outputs.passed === 'true') return [`${label} passed while both windows burn over the max`]
  if (surelyNot && outcome === 'budget-burning') return [`${label} said budget-burning while neither window does`]
  if (
    surely &&
    run.cancelMs === undefined &&
    !['budget-burning', 'budget-exhausted', 'error'].includes(String(outcome))
  )
    return [`${label} ended ${JSON.stringify(outcome)}, not budget-burning, while both windows burn over the max`]
  return []
}

/** A glob as the contract reads one, for the simulation's fixed pattern (only `*`). */
const matches = (pattern: string, name: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map(p => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's'
  ).test(name)

/**
 * A pattern pause: the excluded check and the names the pattern does not match are never touched (during
 * or after the round; a prefix pause in the same round may pause the excluded one, so it is judged only
 * without one); when a pattern pause ended 0, every other match was paused midway.
 */
export function patternRules(before: Before, after: After, executed: Executed[]): string[] {
  const out: string[] = []
  const pausers = executed.filter(e => e.run.kind === 'pattern-pause')
  if (pausers.length === 0) return out
  const prefixToo = executed.some(e => e.run.kind === 'prefix-pause')
  const ok = pausers.some(e => e.run.cancelMs === undefined && e.steps[0].result.code === 0)
  for (const [id, was] of before.checks) {
    const name = String(was.name)
    if (!name.includes('sim-pp')) continue
    const excluded = matches(PATTERN.exclude, name)
    if (matches(PATTERN.pattern, name) && !excluded) {
      if (ok && after.midway.get(id)?.status !== 'paused')
        out.push(`a pattern pause ended 0, and ${JSON.stringify(name)} (${PATTERN.pattern}) was not paused`)
      continue
    }
    if (prefixToo && name.startsWith('sim-pp-')) continue
    for (const when of touchedWhen(after, id, was))
      out.push(
        `a pattern pause on ${PATTERN.pattern}${excluded ? ` excluding ${PATTERN.exclude}` : ''} touched ${JSON.stringify(name)} (${when} the round)`
      )
  }
  return out
}
