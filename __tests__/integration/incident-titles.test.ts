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
/** A message that shows an incident is this workflow's (the harness runs workflow "Deploy" in acme/shop). */
const OURS = 'Workflow "Deploy" (job deploy) failed in acme/shop on refs/heads/main.'

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
    const a = emulator.seedIncident({ title: 'deploy failed on main', message: OURS, status: 'investigating' })
    const b = emulator.seedIncident({
      title: 'Deploy failed  on main',
      message: `${OURS} Again.`,
      status: 'identified'
    })
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
    const exact = emulator.seedIncident({
      title: 'Deploy failed on main',
      message: 'by a person',
      status: 'investigating'
    })
    emulator.seedIncident({ title: 'deploy failed on main', message: OURS, status: 'investigating' })
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
    const cut = emulator.seedIncident({ title: at, message: OURS, status: 'investigating' })
    const found = await runAction(emulator, { operation: 'open-incident', 'incident-title': long })
    expect(found.core.outputs['incident-id']).toBe(cut.id)
    expect(found.core.logs.join('\n')).toContain(`cut to ${MIN_CUT_TITLE} characters`)

    emulator.reset()
    const short = emulator.seedIncident({
      title: long.slice(0, MIN_CUT_TITLE - 1),
      message: OURS,
      status: 'investigating'
    })
    const opened = await runAction(emulator, { operation: 'open-incident', 'incident-title': long })
    expect(opened.core.outputs['incident-id']).not.toBe(short.id)
    expect(emulator.count('POST', '/incidents')).toBe(1)
  })

  it('a cut the service marked with an ellipsis is found; a resolved incident of that form is not', async () => {
    const long = 'Deploy failed on main: checkout answered HTTP 502 in smoke'
    emulator.seedIncident({ title: `${long.slice(0, 40)}…`, message: 'old', status: 'resolved' })
    const marked = emulator.seedIncident({ title: `${long.slice(0, 40)}...`, message: OURS, status: 'investigating' })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': long })
    expect(core.outputs['incident-id']).toBe(marked.id)
    expect(emulator.incidents.get(marked.id)?.status).toBe('resolved')
  })
})

describe("someone else's incident under a looser title (a service that stores titles as sent)", () => {
  const OUR_TITLE = 'Deploy failed: payments-api production EU'
  const PERSON = 'Payments are failing in production; Jane is on it.'
  const leftAlone = (id: string) => `Left incident ${id}`

  describe.each([
    ['the start of ours (a cut)', 'Deploy failed: payments-api production'],
    ['the start of ours with an ellipsis', 'Deploy failed: payments-api product...'],
    ['ours in other case', 'deploy failed: PAYMENTS-API production eu'],
    ['ours with other blanks', 'Deploy failed:  payments-api\tproduction EU ']
  ])('titled %s, its message by a person', (_, theirs) => {
    it('resolve-incident finds nothing to resolve, leaves it as it was, and says which it left alone and why', async () => {
      const foreign = emulator.seedIncident({ title: theirs, message: PERSON, status: 'identified' })
      const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': OUR_TITLE })
      expect(core.failed).toBeUndefined()
      expect(core.outputs.changed).toBe('false')
      expect(core.outputs.result).toBe('null')
      expect(emulator.count('PUT')).toBe(0)
      expect(emulator.incidents.get(foreign.id)).toMatchObject({ title: theirs, message: PERSON, status: 'identified' })
      const logs = core.logs.join('\n')
      expect(logs).toContain(leftAlone(foreign.id))
      expect(logs).toContain(`does not show it is this workflow's`)
      expect(logs).toContain(`workflow "Deploy" in acme/shop`)
      expect(logs).toContain(`No unresolved incident titled ${OUR_TITLE}: nothing to resolve.`)
      expect(logs).not.toContain("The service changed this incident's title")
      // The summary is Markdown: the id's underscore is escaped there.
      expect(core.summaryText).toContain(leftAlone(foreign.id.replace(/_/g, '\\_')))
    })

    it('open-incident opens ours beside it and never writes to it', async () => {
      const foreign = emulator.seedIncident({ title: theirs, message: PERSON, status: 'identified' })
      const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': OUR_TITLE })
      expect(core.failed).toBeUndefined()
      expect(core.outputs['incident-id']).not.toBe(foreign.id)
      expect(emulator.count('POST', '/incidents')).toBe(1)
      expect(emulator.count('PUT')).toBe(0)
      expect(emulator.incidents.get(foreign.id)).toMatchObject({ title: theirs, message: PERSON, status: 'identified' })
      expect(emulator.incidents.get(core.outputs['incident-id'])?.title).toBe(OUR_TITLE)
      expect(core.logs.join('\n')).toContain(leftAlone(foreign.id))
    })

    it('update-incident finds none and changes nothing', async () => {
      const foreign = emulator.seedIncident({ title: theirs, message: PERSON, status: 'identified' })
      const { core } = await runAction(emulator, {
        operation: 'update-incident',
        'incident-title': OUR_TITLE,
        'incident-status': 'monitoring'
      })
      expect(core.failed).toContain(`no unresolved incident titled`)
      expect(emulator.count('PUT')).toBe(0)
      expect(emulator.incidents.get(foreign.id)?.status).toBe('identified')
      expect(core.logs.join('\n')).toContain(leftAlone(foreign.id))
    })
  })

  it.each([
    [
      'another workflow of this repository',
      'Workflow "Deploy EU" (job deploy) failed in acme/shop on refs/heads/main.'
    ],
    [
      'this workflow name in another repository',
      'Workflow "Deploy" (job deploy) failed in acme/shop-eu on refs/heads/main.'
    ],
    ['the workflow and repository in loose words', 'The Deploy workflow of acme/shop failed.']
  ])('a message naming %s is not evidence: left alone', async (_, message) => {
    const foreign = emulator.seedIncident({ title: 'Deploy failed: payments-api production', message })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': OUR_TITLE })
    expect(core.outputs.changed).toBe('false')
    expect(emulator.incidents.get(foreign.id)?.status).toBe('investigating')
    expect(core.logs.join('\n')).toContain(leftAlone(foreign.id))
  })

  it.each([
    ['the default message', OURS],
    ['a custom message with the line the action adds', 'Checkout is failing\nSent by workflow "Deploy" in acme/shop.'],
    ['a message the service lower-cased', OURS.toLowerCase()]
  ])('%s is evidence: the looser match is ours and is resolved', async (_, message) => {
    const mine = emulator.seedIncident({ title: 'Deploy failed: payments-api production', message })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': OUR_TITLE })
    expect(core.outputs).toMatchObject({ 'incident-id': mine.id, changed: 'true' })
    expect(emulator.incidents.get(mine.id)?.status).toBe('resolved')
    expect(core.logs.join('\n')).toContain("The service changed this incident's title")
  })

  it('an exact title is ours even without evidence (as it always was)', async () => {
    const exact = emulator.seedIncident({ title: OUR_TITLE, message: PERSON })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': OUR_TITLE })
    expect(core.outputs).toMatchObject({ 'incident-id': exact.id, changed: 'true' })
    expect(core.logs.join('\n')).not.toContain('Left incident')
  })

  it("someone else's incident does not make ours ambiguous: ours is used, theirs named as left alone", async () => {
    const foreign = emulator.seedIncident({ title: 'Deploy failed: payments-api production', message: PERSON })
    const mine = emulator.seedIncident({ title: OUR_TITLE.toLowerCase(), message: OURS })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': OUR_TITLE })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['incident-id']).toBe(mine.id)
    expect(emulator.incidents.get(foreign.id)?.status).toBe('investigating')
    expect(core.logs.join('\n')).toContain(leftAlone(foreign.id))
  })
})

describe('a custom incident-message on a service that changes titles', () => {
  const custom = { 'incident-title': TITLE, 'incident-message': 'Checkout is failing ({short_sha})' }

  it('gets one line naming the workflow and repository; the re-run and the resolve find the incident by it', async () => {
    emulator.incidentTitles = { cutAt: 40 }
    const first = await runAction(emulator, { operation: 'open-incident', ...custom })
    const id = first.core.outputs['incident-id']
    expect(emulator.incidents.get(id)?.message).toBe(
      'Checkout is failing (0123456)\nSent by workflow "Deploy" in acme/shop.'
    )
    const again = await runAction(emulator, { operation: 'open-incident', ...custom })
    expect(again.core.outputs).toMatchObject({ 'incident-id': id, changed: 'false' })
    const done = await runAction(emulator, { operation: 'resolve-incident', ...custom })
    expect(done.core.outputs).toMatchObject({ 'incident-id': id, 'incident-status': 'resolved' })
    expect(emulator.incidents.get(id)?.message).toBe(
      'Checkout is failing (0123456)\nSent by workflow "Deploy" in acme/shop.'
    )
    expect(emulator.count('POST', '/incidents')).toBe(1)
  })

  it('a message that names them already is sent as written', async () => {
    const { core } = await runAction(emulator, {
      operation: 'open-incident',
      'incident-title': TITLE,
      'incident-message': 'workflow "{workflow}" failed in {repository}'
    })
    expect(emulator.incidents.get(core.outputs['incident-id'])?.message).toBe('workflow "Deploy" failed in acme/shop')
  })
})

describe('matrix legs (incident-key): the key as evidence', () => {
  const TITLE_OF_LEG = 'Nightly deploy failed on the main branch'
  const leg = (operation: string) => ({ operation, 'incident-title': TITLE_OF_LEG, 'incident-key': 'linux-x64' })
  const noWorkflow = { env: { GITHUB_WORKFLOW: '', GITHUB_REPOSITORY: '' } }

  it('without a workflow or repository to name, the key in the message finds the leg again', async () => {
    emulator.incidentTitles = { cutAt: 60, lowerCase: true }
    const first = await runAction(emulator, leg('open-incident'), noWorkflow)
    const id = first.core.outputs['incident-id']
    expect(String(emulator.incidents.get(id)?.message)).toContain('Sent with incident-key "linux-x64".')
    const again = await runAction(emulator, leg('open-incident'), noWorkflow)
    expect(again.core.outputs['incident-id']).toBe(id)
    const done = await runAction(emulator, leg('resolve-incident'), noWorkflow)
    expect(done.core.outputs).toMatchObject({ 'incident-id': id, changed: 'true' })
    expect(emulator.count('POST', '/incidents')).toBe(1)
  })

  it("someone else's incident with the key in its title but not in its message is left alone", async () => {
    const foreign = emulator.seedIncident({
      title: 'nightly deploy failed on the main branch [linux-x64]',
      message: 'Nightly build is red on linux-x64 [linux-x64]'
    })
    const { core } = await runAction(emulator, leg('open-incident'))
    expect(core.outputs['incident-id']).not.toBe(foreign.id)
    expect(emulator.incidents.get(foreign.id)?.message).toBe('Nightly build is red on linux-x64 [linux-x64]')
    expect(core.logs.join('\n')).toContain(`Left incident ${foreign.id}`)
  })

  it("someone else's incident cut before the key is no reason to stop: ours is opened", async () => {
    const foreign = emulator.seedIncident({ title: 'Nightly deploy failed on the main', message: 'by a person' })
    const { core } = await runAction(emulator, leg('open-incident'))
    expect(core.failed).toBeUndefined()
    expect(core.outputs['incident-id']).not.toBe(foreign.id)
    expect(emulator.count('POST', '/incidents')).toBe(1)
  })
})

describe("someone else's incident appearing while this run opens its own", () => {
  const OUR_TITLE = 'Deploy failed: payments-api production EU'
  const THEIRS = 'Deploy failed: payments-api production'

  it('on a service that cuts both to one title, it is never resolved as a duplicate of ours', async () => {
    emulator.incidentTitles = { cutAt: THEIRS.length }
    let foreign = ''
    emulator.afterAnswer = request => {
      if (request.method !== 'POST' || foreign) return
      foreign = emulator.seedIncident({ title: THEIRS, message: 'opened by a person' }).id
    }
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': OUR_TITLE })
    expect(core.failed).toBeUndefined()
    expect(foreign).not.toBe('')
    expect(core.outputs['incident-id']).not.toBe(foreign)
    expect(emulator.incidents.get(foreign)).toMatchObject({ status: 'investigating', message: 'opened by a person' })
  })

  it('after a create whose answer was lost, it is never taken for the one this run made', async () => {
    let foreign = ''
    emulator.inject({ method: 'POST', path: '/incidents', status: 503 })
    emulator.afterAnswer = request => {
      if (request.method !== 'POST' || foreign) return
      foreign = emulator.seedIncident({ title: THEIRS, message: 'opened by a person' }).id
    }
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': OUR_TITLE })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['incident-id']).not.toBe(foreign)
    expect(emulator.incidents.get(core.outputs['incident-id'])?.title).toBe(OUR_TITLE)
    expect(emulator.incidents.get(foreign)).toMatchObject({ status: 'investigating', message: 'opened by a person' })
  })
})
