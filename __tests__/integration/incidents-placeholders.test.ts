/** Incident text placeholders {ref_name} and {job_url}, incident-key, and resolve-incident's loose title match. */
import { describe, expect, it } from '@jest/globals'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const incidents = () => [...emulator.incidents.values()]
/** The line the action adds to a custom message, naming the workflow and repository (the harness's). */
const SENT_BY = '\nSent by workflow "Deploy" in acme/shop.'
/** A message that shows an incident is this workflow's. */
const OURS = 'Workflow "Deploy" (job deploy) failed in acme/shop.'

describe('placeholders', () => {
  it('{ref_name} is the branch; {job_url} falls back to the run when the job cannot be found', async () => {
    const { core } = await runAction(
      emulator,
      {
        operation: 'open-incident',
        'incident-title': 'Deploy failed',
        'incident-message': 'Deploy of {ref_name} failed: {job_url}'
      },
      { env: { GITHUB_REF: 'refs/heads/release/2.1', GITHUB_REF_NAME: 'release/2.1' } }
    )
    expect(core.failed).toBeUndefined()
    expect(incidents()[0].message).toBe(
      `Deploy of release/2.1 failed: https://github.example.com/acme/shop/actions/runs/4242/attempts/1${SENT_BY}`
    )
  })

  it('{ref_name} without GITHUB_REF_NAME is the ref without refs/tags/', async () => {
    await runAction(
      emulator,
      { operation: 'open-incident', 'incident-title': 'Tag failed', 'incident-message': 'tag {ref_name}' },
      { env: { GITHUB_REF: 'refs/tags/v1.2.3', GITHUB_REF_NAME: '' } }
    )
    expect(incidents()[0].message).toBe(`tag v1.2.3${SENT_BY}`)
  })
})

describe('incident-key', () => {
  it('matrix legs keep one incident each; the same key updates and resolves its own', async () => {
    const open = (key: string) =>
      runAction(emulator, { operation: 'open-incident', 'incident-title': 'Tests failed', 'incident-key': key })
    await open('linux')
    await open('windows')
    await open('linux')
    expect(
      incidents()
        .map(i => i.title)
        .sort()
    ).toEqual(['Tests failed [linux]', 'Tests failed [windows]'])
    const { core } = await runAction(emulator, {
      operation: 'resolve-incident',
      'incident-title': 'Tests failed',
      'incident-key': 'windows'
    })
    expect(core.failed).toBeUndefined()
    const byTitle = Object.fromEntries(incidents().map(i => [i.title, i.status]))
    expect(byTitle).toEqual({ 'Tests failed [linux]': 'investigating', 'Tests failed [windows]': 'resolved' })
  })
})

describe('resolve-incident by title', () => {
  it("matches after trimming and ignoring case an incident whose message shows it is this workflow's", async () => {
    emulator.seedIncident({ title: 'Checkout Down', message: OURS, status: 'investigating' })
    const { core } = await runAction(emulator, {
      operation: 'resolve-incident',
      'incident-title': '  checkout down '
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['incident-status']).toBe('resolved')
    expect(incidents()[0]).toMatchObject({ title: 'Checkout Down', status: 'resolved' })
  })

  it('an exact match wins over a loose one (another key differing only in case is not resolved)', async () => {
    emulator.seedIncident({ title: 'Deploy failed [Prod]', message: 'm', status: 'investigating' })
    emulator.seedIncident({ title: 'Deploy failed [prod]', message: 'm', status: 'investigating' })
    await runAction(emulator, {
      operation: 'resolve-incident',
      'incident-title': 'Deploy failed',
      'incident-key': 'Prod'
    })
    const status = Object.fromEntries(incidents().map(i => [i.title, i.status]))
    expect(status).toEqual({ 'Deploy failed [Prod]': 'resolved', 'Deploy failed [prod]': 'investigating' })
  })

  it('open-incident finds an incident whose title differs only in case (as a service that changes case stores it), and says so', async () => {
    const held = emulator.seedIncident({ title: 'Checkout Down', message: OURS, status: 'investigating' })
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': 'checkout down' })
    expect(incidents()).toHaveLength(1)
    expect(core.outputs['incident-id']).toBe(held.id)
    expect(incidents()[0].title).toBe('Checkout Down') // its title is left as the service holds it
    expect(core.logs.join('\n')).toContain(
      `The service changed this incident's title: it shows "Checkout Down" for "checkout down" (case changed). Matched in that form: using ${held.id}.`
    )
  })
})

describe('open-incident racing a resolve and another open (found by the seeded simulation, seed 1160)', () => {
  it('looks again after its update: a new unresolved incident of the title is named, neither is resolved', async () => {
    const old = emulator.seedIncident({ title: 'Deploy failed', message: 'before', status: 'investigating' })
    // While our PUT waits (a slow answer, as after a 429's Retry-After), another run resolves the incident and
    // a third, seeing none unresolved, opens a new one: our PUT then reopens the first.
    emulator.inject({ method: 'PUT', path: `/incidents/${old.id}`, delayMs: 400, times: 1 })
    let racer = ''
    setTimeout(() => {
      Object.assign(emulator.incidents.get(old.id) ?? {}, { status: 'resolved' })
      racer = emulator.seedIncident({ title: 'Deploy failed', message: 'racer', status: 'investigating' }).id
    }, 150)
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': 'Deploy failed' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['incident-id']).toBe(old.id)
    const unresolved = incidents().filter(i => i.status !== 'resolved')
    expect(unresolved.map(i => i.id).sort()).toEqual([old.id, racer].sort())
    const warning = core.logs.find(l => l.startsWith('warning: Another unresolved incident'))
    expect(warning).toContain(racer)
    expect(warning).toContain(`${old.id} is used`)
    expect(core.summaryText).toContain(racer.replace('_', '\\_'))
  })

  it('without a race it looks once more and says nothing; a re-run that changes nothing does not look', async () => {
    const old = emulator.seedIncident({ title: 'Deploy failed', message: 'before', status: 'investigating' })
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': 'Deploy failed' })
    expect(core.outputs.changed).toBe('true')
    expect(core.logs.filter(l => l.startsWith('warning:'))).toEqual([])
    expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
      'GET /incidents',
      `PUT /incidents/${old.id}`,
      'GET /incidents'
    ])
  })
})
