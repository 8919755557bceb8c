/** Incident automation and status pages through dist/index.js, with the runner's GITHUB_* context. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { GITHUB_ENV, KEY, useEmulator } from '../helpers/harness.js'
import { FakeGitHub, runStep } from '../helpers/runner.js'

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

describe('{job_url} through dist/index.js', () => {
  const github = new FakeGitHub()
  beforeAll(() => github.start())
  afterAll(() => github.stop())

  it("is the page of the job in progress on this runner, found with the job's token", async () => {
    github.jobs = [
      {
        id: 1,
        name: 'build',
        status: 'completed',
        runner_name: 'runner-7',
        html_url: 'https://github.example.com/acme/shop/actions/runs/4242/job/1'
      },
      {
        id: 2,
        name: 'deploy (eu)',
        status: 'in_progress',
        runner_name: 'runner-9',
        html_url: 'https://github.example.com/acme/shop/actions/runs/4242/job/2'
      },
      {
        id: 3,
        name: 'deploy (us)',
        status: 'in_progress',
        runner_name: 'runner-7',
        html_url: 'https://github.example.com/acme/shop/actions/runs/4242/job/3'
      }
    ]
    const r = await step(
      {
        operation: 'open-incident',
        'incident-title': 'Deploy failed',
        'incident-message': 'See {job_url}',
        'github-token': 'ghs_job0123456789'
      },
      { RUNNER_NAME: 'runner-7', GITHUB_API_URL: github.url }
    )
    expect(r.code).toBe(0)
    expect(emulator.incidents.get(r.outputs['incident-id'])?.message).toBe(
      'See https://github.example.com/acme/shop/actions/runs/4242/job/3\nSent by workflow "Deploy" in acme/shop.'
    )
    expect(github.requests.map(q => q.path)).toEqual([
      '/repos/acme/shop/actions/runs/4242/attempts/1/jobs?per_page=100&page=1'
    ])
  })

  it('falls back to the run when GitHub refuses (no actions: read), and asks nothing when the text does not want it', async () => {
    github.reset()
    github.refuse = 403
    const r = await step(
      {
        operation: 'open-incident',
        'incident-title': 'Deploy failed 2',
        'incident-message': 'See {job_url}',
        'github-token': 'ghs_job0123456789'
      },
      { RUNNER_NAME: 'runner-7', GITHUB_API_URL: github.url }
    )
    expect(r.code).toBe(0)
    expect(emulator.incidents.get(r.outputs['incident-id'])?.message).toBe(
      'See https://github.example.com/acme/shop/actions/runs/4242/attempts/1\nSent by workflow "Deploy" in acme/shop.'
    )
    expect(r.stdout).toContain('it needs permissions: actions: read')
    github.reset()
    await step(
      { operation: 'open-incident', 'incident-title': 'Deploy failed 3', 'github-token': 'ghs_job0123456789' },
      { RUNNER_NAME: 'runner-7', GITHUB_API_URL: github.url }
    )
    expect(github.requests).toEqual([])
  })
})
