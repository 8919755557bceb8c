/**
 * A service that stores incident titles in its own form (blanks collapsed,
 * case changed, cut to a length; contract, "Version 5, continued"): the
 * fail / re-run / recover story still leaves one incident, each run that
 * meets the changed title says so, and a looser match counts only when it is
 * the only one.
 */
import { describe, expect, it } from '@jest/globals'
import { runAction, useEmulator } from '../helpers/harness.js'
import { MIN_CUT_TITLE } from '../../src/operations/incidents/titles.js'

const emulator = useEmulator()

const TITLE = 'Deploy  of shop failed on main:   checkout answered HTTP 502 in the smoke test'
const open = { operation: 'open-incident', 'incident-title': TITLE }
const resolve = { operation: 'resolve-incident', 'incident-title': TITLE }
const unresolved = () => [...emulator.incidents.values()].filter(i => i.status !== 'resolved')

describe.each([
  ['blanks collapsed', { collapseBlanks: true }, 'blanks collapsed'],
  ['lower-cased and collapsed', { collapseBlanks: true, lowerCase: true }, 'blanks collapsed, case changed'],
  ['cut to 40 characters', { cutAt: 40 }, 'cut to 40 characters']
])('a service that stores titles %s', (_, form, said) => {
  it('open, re-run, re-run, resolve: one incident, never a second, resolved at the end; each run says the title changed', async () => {
    emulator.incidentTitles = form
    const first = await runAction(emulator, open)
    expect(first.core.failed).toBeUndefined()
    const id = first.core.outputs['incident-id']
    const stored = String(emulator.incidents.get(id)?.title)
    expect(stored).not.toBe(TITLE)
    expect(first.core.summaryText).toContain(`The service stored the title as`)
    expect(first.core.summaryText).toContain(`(${said})`)

    for (const attempt of ['2', '3']) {
      const again = await runAction(emulator, open, { env: { GITHUB_RUN_ATTEMPT: attempt } })
      expect(again.core.failed).toBeUndefined()
      expect(again.core.outputs['incident-id']).toBe(id)
      expect(again.core.logs.join('\n')).toContain(
        `The service changed this incident's title: it shows ${JSON.stringify(stored)} for ${JSON.stringify(TITLE)} (${said}). Matched in that form: using ${id}.`
      )
      expect(again.core.summaryText).toContain("The service changed this incident's title")
      // Only the message changes: the title is left as the service holds it.
      expect(emulator.requests.filter(r => r.method === 'PUT').length).toBe(Number(attempt) - 1)
    }
    expect(emulator.count('POST', '/incidents')).toBe(1)
    expect(emulator.incidents.size).toBe(1)

    const done = await runAction(emulator, resolve)
    expect(done.core.failed).toBeUndefined()
    expect(done.core.outputs).toMatchObject({ 'incident-id': id, 'incident-status': 'resolved', changed: 'true' })
    expect(done.core.logs.join('\n')).toContain("The service changed this incident's title")
    expect(unresolved()).toEqual([])
    expect(emulator.incidents.size).toBe(1)
  })
})

describe('matrix legs (incident-key) on a service that cuts titles', () => {
  const leg = (key: string) => ({
    operation: 'open-incident',
    'incident-title': 'Nightly deploy failed on the main branch',
    'incident-key': key
  })

  it("a cut that kept the key is found; one that lost it never becomes another leg's: an error, nothing written", async () => {
    emulator.incidentTitles = { cutAt: 60 }
    const linux = await runAction(emulator, leg('linux-x64'))
    const id = linux.core.outputs['incident-id']
    expect(String(emulator.incidents.get(id)?.title)).toContain('[linux-x64]')
    const again = await runAction(emulator, leg('linux-x64'))
    expect(again.core.outputs['incident-id']).toBe(id)
    expect(emulator.incidents.size).toBe(1)

    emulator.reset()
    emulator.incidentTitles = { cutAt: 40 }
    const first = await runAction(emulator, leg('linux-x64'))
    expect(first.core.logs.join('\n')).toContain('The service cut the title before its incident-key [linux-x64]')
    const windows = await runAction(emulator, leg('windows-x64'))
    expect(windows.core.failed).toContain('before its incident-key')
    expect(windows.core.failed).toContain(first.core.outputs['incident-id'])
    expect(windows.core.failed).toContain('does not guess')
    expect(emulator.count('POST')).toBe(1)
    expect(emulator.count('PUT')).toBe(0)
  })
})

describe('a create whose answer was lost, on a service that cuts titles', () => {
  it('finds the incident it made by the title as the service stored it: never a second POST', async () => {
    emulator.incidentTitles = { cutAt: 40 }
    emulator.inject({ method: 'POST', path: '/incidents', after: true, status: 500 })
    const { core } = await runAction(emulator, open)
    expect(core.failed).toBeUndefined()
    expect(emulator.count('POST', '/incidents')).toBe(1)
    expect(emulator.incidents.size).toBe(1)
    expect(core.outputs['incident-id']).toBe([...emulator.incidents.keys()][0])
  })
})

describe('how loose the match may be', () => {
  it('two unresolved incidents the service may have made from one title: an error naming both, nothing written', async () => {
    const a = emulator.seedIncident({ title: 'deploy failed on main', message: 'm', status: 'investigating' })
    const b = emulator.seedIncident({ title: 'Deploy failed  on main', message: 'n', status: 'identified' })
    for (const operation of ['open-incident', 'resolve-incident', 'update-incident']) {
      const { core } = await runAction(emulator, {
        operation,
        'incident-title': 'Deploy failed on main',
        'incident-message': 'x'
      })
      expect(core.failed).toContain('no unresolved incident is titled "Deploy failed on main"')
      expect(core.failed).toContain(`${a.id} ("deploy failed on main")`)
      expect(core.failed).toContain(`${b.id} ("Deploy failed  on main")`)
      expect(core.failed).toContain('does not guess')
    }
    expect(emulator.count('POST')).toBe(0)
    expect(emulator.count('PUT')).toBe(0)
  })

  it('an exact title wins over one the service may have changed; no line about a change', async () => {
    const exact = emulator.seedIncident({ title: 'Deploy failed on main', message: 'm', status: 'investigating' })
    emulator.seedIncident({ title: 'deploy failed on main', message: 'm', status: 'investigating' })
    const { core } = await runAction(emulator, {
      operation: 'resolve-incident',
      'incident-title': 'Deploy failed on main'
    })
    expect(core.outputs['incident-id']).toBe(exact.id)
    expect(core.logs.join('\n')).not.toContain('changed this incident')
  })

  it(`a cut counts from ${MIN_CUT_TITLE} characters: one shorter is another title, and a new incident is opened`, async () => {
    const long = 'Deploy failed on main; checkout-answered HTTP 502'
    const at = long.slice(0, MIN_CUT_TITLE)
    expect(at.endsWith(' ')).toBe(false)
    const cut = emulator.seedIncident({ title: at, message: 'm', status: 'investigating' })
    const found = await runAction(emulator, { operation: 'open-incident', 'incident-title': long })
    expect(found.core.outputs['incident-id']).toBe(cut.id)
    expect(found.core.logs.join('\n')).toContain(`cut to ${MIN_CUT_TITLE} characters`)

    emulator.reset()
    const short = emulator.seedIncident({
      title: long.slice(0, MIN_CUT_TITLE - 1),
      message: 'm',
      status: 'investigating'
    })
    const opened = await runAction(emulator, { operation: 'open-incident', 'incident-title': long })
    expect(opened.core.outputs['incident-id']).not.toBe(short.id)
    expect(emulator.count('POST', '/incidents')).toBe(1)
  })

  it('a cut the service marked with an ellipsis is found; a resolved incident of that form is not', async () => {
    const long = 'Deploy failed on main: checkout answered HTTP 502 in smoke'
    emulator.seedIncident({ title: `${long.slice(0, 40)}…`, message: 'old', status: 'resolved' })
    const marked = emulator.seedIncident({ title: `${long.slice(0, 40)}...`, message: 'm', status: 'investigating' })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': long })
    expect(core.outputs['incident-id']).toBe(marked.id)
    expect(emulator.incidents.get(marked.id)?.status).toBe('resolved')
  })
})
