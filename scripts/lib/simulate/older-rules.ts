/**
 * What must hold over issue 40's conditions (older.ts; contract: "Version 5,
 * continued"), beside invariants.ts, whose worldRules already judges a late
 * write: no check this round touched ends paused unless a warning named it as
 * a write sent without an answer.
 *
 * Over a service that stores incident titles in its own form:
 * - open-incident never opens a second incident for a title whose unresolved
 *   incident the service holds in its form (unless a run said its reads
 *   could prove nothing (a list of incidents that shifts), or a resolve of
 *   that title ran in the round);
 * - resolve-incident of such a title never says "nothing to resolve" while
 *   that incident stays unresolved;
 * - a run that used that incident says the service changed the title.
 * Someone else's incident (two-readers-rules.ts) is none of these.
 */
import { storedTitle } from '../../../emulator/store.js'
import type { After, Before, Executed } from './invariants.js'
import type { Round } from './world.js'

export function olderRules(round: Round, before: Before, after: After, executed: Executed[]): string[] {
  const form = round.older.titles
  if (!form) return []
  const out: string[] = []
  const unresolvedBefore = (title: string) =>
    before.unresolved.filter(
      i => i.title === storedTitle(title, form) && i.title !== title && !before.foreign?.includes(i.id)
    )
  const isResolved = (status: unknown) => String(status ?? '').toLowerCase() === 'resolved'
  // Reads of the incidents that shift prove nothing: a create may then go ahead (contract: "Version 5 rules").
  const unproven = round.faults.some(f => f.shift !== undefined && f.path === '/incidents')
  for (const { run, steps } of executed) {
    const title = run.inputs['incident-title']
    if (title === undefined || run.cancelMs !== undefined) continue
    const main = steps.find(s => s.what === 'main')
    if (!main || main.result.code !== 0) continue
    for (const held of unresolvedBefore(title)) {
      const label = `run ${run.n} (${run.kind}) of ${JSON.stringify(title)}, which the service holds as ${JSON.stringify(held.title)} (${held.id})`
      const resolves = executed.some(e => e.run.kind === 'resolve' && e.run.inputs['incident-title'] === title)
      if (run.kind === 'open' && !unproven && !resolves) {
        const second = [...after.incidents.values()].filter(
          i => i.id !== held.id && i.title === held.title && !before.unresolved.some(b => b.id === i.id)
        )
        if (second.length > 0) out.push(`${label} opened a second incident for it: ${second.map(i => i.id).join(', ')}`)
      }
      const now = after.incidents.get(held.id)
      if (run.kind === 'resolve' && main.result.outputs.changed === 'false' && now && !isResolved(now.status))
        out.push(`${label} said there was nothing to resolve, and ${held.id} is still unresolved`)
      if (main.result.outputs['incident-id'] === held.id && !main.result.stdout.includes('changed this incident'))
        out.push(`${label} used ${held.id} without saying the service changed the title`)
    }
  }
  return out
}
