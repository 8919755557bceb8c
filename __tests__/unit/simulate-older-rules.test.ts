/**
 * The simulation's rules over issue 40's conditions can say no: each is fed a
 * round as the bundle before the fix played it (a second incident opened, a
 * resolve that found nothing, no word about the changed title) and must name
 * it; the round as the fixed bundle plays it passes.
 */
import { describe, expect, it } from '@jest/globals'
import { storedTitle } from '../../emulator/store.js'
import type { Stored } from '../../emulator/store.js'
import type { After, Before, Executed } from '../../scripts/lib/simulate/invariants.js'
import { olderRules } from '../../scripts/lib/simulate/older-rules.js'
import { LONG_TITLE } from '../../scripts/lib/simulate/older.js'
import type { Round, Run } from '../../scripts/lib/simulate/world.js'

const form = { cutAt: 40 }
const held: Stored = { id: 'inc_old', title: storedTitle(LONG_TITLE, form), status: 'investigating' }
const round = { older: { titles: form }, faults: [] } as unknown as Round
const before = { unresolved: [held] } as unknown as Before
const afterWith = (...incidents: Stored[]) =>
  ({ incidents: new Map(incidents.map(i => [i.id, i])) }) as unknown as After

function played(kind: Run['kind'], outputs: Record<string, string>, stdout: string): Executed {
  const run = { n: 1, kind, inputs: { 'incident-title': LONG_TITLE }, env: {}, startMs: 0, writes: true } as Run
  const result = { code: 0, signal: null, stdout, stderr: '', outputs, summary: '', state: {}, ms: 1, all: stdout }
  return { run, steps: [{ what: 'main', result, bound: 1, startedAt: 0, inputs: run.inputs }], secrets: [] } as Executed
}

const SAID = "The service changed this incident's title: ..."

describe('olderRules', () => {
  it('an open that opened a second incident for the title is named', () => {
    const second: Stored = { id: 'inc_new', title: held.title, status: 'resolved' }
    const out = olderRules(round, before, afterWith(held, second), [
      played('open', { 'incident-id': 'inc_old', changed: 'true' }, SAID)
    ])
    expect(out).toEqual([expect.stringContaining('opened a second incident for it: inc_new')])
  })

  it('a resolve that found nothing while the incident stays unresolved is named', () => {
    const out = olderRules(round, before, afterWith(held), [played('resolve', { changed: 'false' }, 'nothing')])
    expect(out).toEqual([expect.stringContaining('said there was nothing to resolve, and inc_old is still unresolved')])
  })

  it('a run that used the incident without saying the title changed is named', () => {
    const out = olderRules(round, before, afterWith(held), [played('open', { 'incident-id': 'inc_old' }, 'Updated')])
    expect(out).toEqual([expect.stringContaining('used inc_old without saying the service changed the title')])
  })

  it('the round as the fixed bundle plays it passes; a service that keeps titles as sent is not judged', () => {
    const resolved = { ...held, status: 'resolved' }
    expect(
      olderRules(round, before, afterWith(resolved), [
        played('open', { 'incident-id': 'inc_old', changed: 'true' }, SAID),
        played('resolve', { 'incident-id': 'inc_old', changed: 'true' }, SAID)
      ])
    ).toEqual([])
    const asSent = { ...round, older: {} } as Round
    expect(olderRules(asSent, before, afterWith(held), [played('resolve', { changed: 'false' }, '')])).toEqual([])
  })
})
