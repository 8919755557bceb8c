/** Incident automation and status pages through dist/index.js, with the runner's GITHUB_* context. */
import { describe, expect, it } from '@jest/globals'
import { GITHUB_ENV, KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator()

const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  runStep({ 'api-key': KEY, 'base-url': emulator.baseUrl, ...inputs }, { env: { ...GITHUB_ENV, ...env } })

describe('incident automation through dist/index.js', () => {
  it('fail, re-run fails, recover: exactly one incident, resolved, whose text links to the run', async () => {
    const open = { operation: 'open-incident', 'incident-title': 'Deploy of shop failed' }
    const first = await step(open)
    expect(first.code).toBe(0)
    const id = first.outputs['incident-id']
    expect(first.outputs['incident-status']).toBe('investigating')
    expect(emulator.incidents.get(id)?.message).toContain(
      'https://github.example.com/acme/shop/actions/runs/4242/attempts/1'
    )

    const rerun = await step(open, { GITHUB_RUN_ATTEMPT: '2' })
    expect(rerun.code).toBe(0)
    expect(rerun.outputs['incident-id']).toBe(id)
    expect(emulator.incidents.get(id)?.message).toContain('/actions/runs/4242/attempts/2')

    const resolve = await step(
      { operation: 'resolve-incident', 'incident-title': 'Deploy of shop failed' },
      { GITHUB_RUN_ATTEMPT: '3' }
    )
    expect(resolve.code).toBe(0)
    expect(resolve.outputs['incident-status']).toBe('resolved')
    expect(resolve.summary).toContain('### Incident resolved')

    expect(emulator.incidents.size).toBe(1)
    const incident = emulator.incidents.get(id)
    expect(incident).toMatchObject({ title: 'Deploy of shop failed', status: 'resolved' })
    expect(String(incident?.message)).toContain('https://github.example.com/acme/shop/actions/runs/4242/attempts/3')

    const list = await step({ operation: 'list-incidents' })
    expect(list.outputs.count).toBe('1')
  })

  it('resolve with nothing open succeeds with changed=false', async () => {
    const r = await step({ operation: 'resolve-incident', 'incident-title': 'Nothing' })
    expect(r.code).toBe(0)
    expect(r.outputs.changed).toBe('false')
  })
})

describe('status pages through dist/index.js', () => {
  it('created, read and listed', async () => {
    const created = await step({ operation: 'create-status-page', 'status-page': '{"name": "Shop", "public": true}' })
    expect(created.code).toBe(0)
    const id = created.outputs['status-page-id']
    const got = await step({ operation: 'get-status-page', 'status-page-id': id })
    expect(JSON.parse(got.outputs.result)).toMatchObject({ id, name: 'Shop', public: true })
    const listed = await step({ operation: 'list-status-pages' })
    expect(listed.outputs.count).toBe('1')
    expect(listed.outputs['status-page-id']).toBe(id)
  })
})
