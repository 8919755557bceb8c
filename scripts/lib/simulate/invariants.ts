/**
 * What must hold after a round, whatever the faults and cancels did: each
 * rule names the promise it keeps (contract: "Precise rules" and "Version 3
 * rules for trust").
 */
import type { Stored } from '../../../emulator/store.js'
import { formsOf } from '../../../src/secrets.js'
import type { StepResult } from '../runner.js'
import { INJECTED, Run, touches } from './schedule.js'

export interface Before {
  checks: Map<string, Stored>
  unresolved: Stored[]
}

export interface Executed {
  run: Run
  /** Each process of this run in order: the main step, its post step, the re-run (and its post step). */
  steps: Array<{ what: string; result: StepResult; bound: number; startedAt: number }>
}

const isResolved = (i: Stored) => String(i.status ?? '').toLowerCase() === 'resolved'
const sameTitle = (a: unknown, b: string) =>
  String(a ?? '')
    .trim()
    .toLowerCase() === b.trim().toLowerCase()

/** Workflow commands the action itself writes; anything else at a line's start is an injection. */
const MEANT = /^::(add-mask|debug|warning|error|notice|group|endgroup)( [^:]*)?::/

/** Everything a step wrote that people and later jobs read (the runner consumes ::add-mask:: lines). */
function readable(result: StepResult): string {
  const stdout = result.stdout
    .split('\n')
    .filter(line => !line.startsWith('::add-mask::'))
    .join('\n')
  return [stdout, result.stderr, JSON.stringify(result.outputs), result.summary, JSON.stringify(result.state)].join(
    '\n'
  )
}

export function violations(
  before: Before,
  after: { checks: Map<string, Stored>; incidents: Map<string, Stored> },
  executed: Executed[],
  secrets: { key: string; templated: string }
): string[] {
  const out: string[] = []
  // What runs said they kept: the only excuse for two of one name (the action cannot tell, so it keeps both).
  const said = executed
    .flatMap(e => e.steps.flatMap(s => s.result.stdout.split('\n')))
    .filter(line =>
      /cannot prove|identical checks are named|identical unresolved incidents|another URL or type/.test(line)
    )
    .join('\n')

  // Nothing that existed before the round is deleted or resolved unless a run was asked to.
  for (const [id, check] of before.checks) {
    if (!after.checks.has(id))
      out.push(`check ${id} (${JSON.stringify(check.name)}) existed before the round and was deleted`)
  }
  const resolveAsked = executed.filter(e => e.run.kind === 'resolve').map(e => e.run.inputs['incident-title'])
  for (const incident of before.unresolved) {
    const now = after.incidents.get(incident.id)
    if (now && !isResolved(now)) continue
    if (resolveAsked.some(title => sameTitle(incident.title, title))) continue
    out.push(
      `incident ${incident.id} (${JSON.stringify(incident.title)}) was unresolved before the round and is not now`
    )
  }

  // At most one check per name and one unresolved incident per title, unless a run said it kept them.
  const byName = new Map<string, Stored[]>()
  for (const check of after.checks.values())
    byName.set(String(check.name), [...(byName.get(String(check.name)) ?? []), check])
  for (const [name, list] of byName) {
    if (list.length > 1 && !list.every(c => said.includes(c.id))) {
      out.push(
        `${list.length} checks are named ${JSON.stringify(name)} (${list.map(c => c.id).join(', ')}) and no run said why`
      )
    }
  }
  const byTitle = new Map<string, Stored[]>()
  for (const i of after.incidents.values()) {
    if (!isResolved(i)) byTitle.set(String(i.title), [...(byTitle.get(String(i.title)) ?? []), i])
  }
  for (const [title, list] of byTitle) {
    if (list.length > 1 && !list.every(i => said.includes(i.id))) {
      out.push(`${list.length} unresolved incidents are titled ${JSON.stringify(title)} and no run said why`)
    }
  }

  // No check left paused that was not paused before; one someone else paused stays paused.
  for (const [id, check] of after.checks) {
    const was = before.checks.get(id)
    const paused = String(check.status) === 'paused'
    if (paused && was?.status !== 'paused') out.push(`check ${id} (${JSON.stringify(check.name)}) was left paused`)
    if (!paused && was?.status === 'paused') out.push(`check ${id} was paused by someone else and is not paused now`)
  }

  for (const { run, steps } of executed) {
    for (const { what, result, bound } of steps) {
      const label = `run ${run.n} (${run.kind}) ${what}`
      // Every process ended within its bound.
      if (result.ms > bound) out.push(`${label} took ${result.ms} ms, more than its bound of ${bound} ms`)
      // No secret in any form.
      const text = readable(result)
      const held = run.kind === 'sync' ? [secrets.key, secrets.templated] : [secrets.key]
      for (const form of held.flatMap(formsOf)) {
        if (text.includes(form)) out.push(`${label} wrote a secret (${JSON.stringify(form.slice(0, 6))}…)`)
      }
      // No workflow command the action did not mean, whatever ends a line.
      for (const line of result.stdout.split(/\r\n|\r|\n/)) {
        const trimmed = line.trimStart()
        const injected = trimmed.startsWith(INJECTED) || new RegExp(`^::[a-z-]+( [^:]*)?::${INJECTED}`).test(trimmed)
        if ((trimmed.startsWith('::') && !MEANT.test(trimmed)) || injected) {
          out.push(`${label} wrote a workflow command it did not mean: ${JSON.stringify(line.slice(0, 80))}`)
        }
      }
    }
    // A gate passes only on what the service holds: a fresh result (with require-fresh) in the expected
    // status. Nothing probes during a round, so the data's lastCheckedAt and status are the only results.
    const gate = steps.find(s => s.what === 'main')
    if (run.kind === 'gate' && gate && gate.result.outputs.passed === 'true') {
      const name = run.inputs['check-name']
      const target = [...after.checks.values()].find(c => c.name === name)
      const lastChecked = Date.parse(String(target?.lastCheckedAt ?? ''))
      if (run.inputs['require-fresh'] !== 'false' && !(lastChecked > gate.startedAt - 5_000)) {
        out.push(
          `run ${run.n} (gate) passed on ${JSON.stringify(name)}, whose last result (${String(target?.lastCheckedAt)}) is older than the step (TZ ${run.env.TZ})`
        )
      }
      const touched = executed.some(e => touches(e.run, name))
      const was = [...before.checks.values()].find(c => c.name === name)
      if (was?.status === 'down' && !touched)
        out.push(`run ${run.n} (gate) passed on ${JSON.stringify(name)}, which is down`)
    }
    // Every run that ended 0 reports ids that exist.
    const last = steps.filter(s => !s.what.startsWith('post')).at(-1)
    if (last && last.result.code === 0) {
      const checkId = last.result.outputs['check-id']
      const incidentId = last.result.outputs['incident-id']
      if (checkId && !after.checks.has(checkId))
        out.push(`run ${run.n} (${run.kind}) ended 0 with check-id ${checkId}, which does not exist`)
      if (incidentId && !after.incidents.has(incidentId)) {
        out.push(`run ${run.n} (${run.kind}) ended 0 with incident-id ${incidentId}, which does not exist`)
      }
    }
  }
  return out
}
