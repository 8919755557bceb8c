/**
 * The committed bundle, run as the runner runs it, against the emulator.
 */
import { describe, expect, it } from '@jest/globals'
import { KEY, credentialsOf, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator()
const common = credentialsOf(emulator)

const site = 'https://shop.example.com/health'
/** The runner consumes ::add-mask:: lines (never prints them); every other line must not hold the key. */
const withoutMaskCommands = (text: string) =>
  text
    .split('\n')
    .filter(l => !l.startsWith('::add-mask::'))
    .join('\n')
const step = (inputs: Record<string, string>, options = {}) => runStep({ ...common, ...inputs }, options)

describe('check operations through dist/index.js', () => {
  it('upsert twice makes one check; the second run changes nothing', async () => {
    const inputs = { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site, 'alert-channels': 'email' }
    const first = await step(inputs)
    expect(first.code).toBe(0)
    expect(first.outputs['check-id']).toMatch(/^chk_/)
    expect(first.outputs.changed).toBe('true')
    expect(first.summary).toContain('### Check created')
    const second = await step(inputs)
    expect(second.code).toBe(0)
    expect(second.outputs.changed).toBe('false')
    expect(second.outputs['check-id']).toBe(first.outputs['check-id'])
    expect(emulator.checks.size).toBe(1)
  })

  it('create, get, update, history, list, delete, delete again', async () => {
    const created = await step({
      operation: 'create-check',
      check: `name: api\nurl: ${site}\ninterval: 30\nowner: team-a`
    })
    expect(created.code).toBe(0)
    const id = created.outputs['check-id']
    const got = await step({ operation: 'get-check', 'check-id': id })
    expect(got.outputs).toMatchObject({ 'check-id': id, 'check-name': 'api', 'check-status': 'pending' })
    expect(JSON.parse(got.outputs.result)).toMatchObject({ owner: 'team-a' })
    const updated = await step({ operation: 'update-check', 'check-name': 'api', 'check-interval': '15' })
    expect(updated.outputs.changed).toBe('true')
    expect(emulator.checks.get(id)).toMatchObject({ interval: 15, owner: 'team-a' })
    const history = await step({ operation: 'check-history', 'check-id': id })
    expect(history.code).toBe(0)
    expect(history.outputs.count).toBe('0')
    const listed = await step({ operation: 'list-checks' })
    expect(listed.outputs.count).toBe('1')
    const deleted = await step({ operation: 'delete-check', 'check-id': id })
    expect(deleted.outputs.changed).toBe('true')
    const again = await step({ operation: 'delete-check', 'check-id': id })
    expect(again.code).toBe(0)
    expect(again.outputs.changed).toBe('false')
  })

  it('pause with auto-resume: the post step resumes what the main step paused', async () => {
    const a = emulator.seedCheck({ name: 'a', url: site, status: 'up' })
    const inputs = { operation: 'pause-check', 'check-id': a.id, 'auto-resume': 'true' }
    const main = await step(inputs)
    expect(main.code).toBe(0)
    expect(emulator.checks.get(a.id)?.status).toBe('paused')
    expect(JSON.parse(main.state['paused-check-ids'])).toEqual([a.id])
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(post.stdout).toContain(`auto-resume: resumed 1 check(s) this job paused: ${a.id} (a).`)
    expect(emulator.checks.get(a.id)?.status).toBe('up')
  })

  it('the post step of any other operation sends nothing', async () => {
    const main = await step({ operation: 'list-checks' })
    const before = emulator.requests.length
    const post = await step({ operation: 'list-checks' }, { state: main.state })
    expect(post.code).toBe(0)
    expect(emulator.requests.length).toBe(before)
  })

  it('dry-run writes nothing', async () => {
    const r = await step({ operation: 'upsert-check', 'check-name': 'x', 'check-url': site, 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(r.outputs.changed).toBe('true')
    expect(r.stdout).toContain('[dry-run] would send POST /checks')
    expect(emulator.checks.size).toBe(0)
  })
})

describe('failures through dist/index.js: one clear message, exit code 1, no key', () => {
  const expectOneError = (r: { code: number | null; stdout: string }, message: string) => {
    expect(r.code).toBe(1)
    const errors = r.stdout.split('\n').filter(l => l.startsWith('::error::'))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(message)
    expect(r.stdout).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/)
  }

  it('401', async () => {
    const r = await step({ operation: 'list-checks', 'api-key': 'not-the-key-0000' })
    expectOneError(r, 'GET /checks failed: HTTP 401 Unauthorized')
    expect(withoutMaskCommands(r.all)).not.toContain('not-the-key-0000')
    expect(r.outputs.error).toContain('API access')
  })

  it('404', async () => {
    const r = await step({ operation: 'get-check', 'check-id': 'chk_gone' })
    expectOneError(r, 'check chk_gone not found')
  })

  it('429 storm', async () => {
    emulator.inject({ status: 429, headers: { 'Retry-After': '0' }, times: Infinity })
    const r = await step({ operation: 'list-checks', 'max-retries': '2' })
    expectOneError(r, 'GET /checks was rate limited (HTTP 429) after 3 attempts')
    expect(emulator.count()).toBe(3)
  })

  it('500 storm', async () => {
    emulator.inject({ status: 500, times: Infinity })
    const r = await step({ operation: 'list-checks', 'max-retries': '1' })
    expectOneError(r, 'GET /checks failed: HTTP 500 Internal Server Error')
    expect(emulator.count()).toBe(2)
  })

  it('timeout', async () => {
    emulator.inject({ delayMs: 2000, times: Infinity })
    const r = await step({ operation: 'list-checks', 'max-retries': '0', 'request-timeout': '300ms' })
    expectOneError(r, 'GET /checks timed out after 300 ms')
    expect(r.ms).toBeLessThan(2000)
  })

  it('malformed JSON', async () => {
    emulator.inject({ status: 200, body: 'not json', times: Infinity })
    const r = await step({ operation: 'list-checks' })
    expectOneError(r, 'GET /checks returned HTTP 200 but its body is not JSON')
  })

  it('bad input, before any request', async () => {
    const r = await step({ operation: 'wait-for-check', 'check-id': 'chk_1', timeout: 'forever' })
    expectOneError(r, 'timeout must be a duration')
    expect(emulator.count()).toBe(0)
  })

  it('fail-on-error false: green, with a warning and the error output', async () => {
    const r = await step({ operation: 'get-check', 'check-id': 'chk_gone', 'fail-on-error': 'false' })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('::warning::check chk_gone not found')
    expect(r.outputs.error).toContain('check chk_gone not found')
  })

  it('no duplicate check after an ambiguous create failure', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 500 })
    const r = await step({ operation: 'create-check', 'check-name': 'once', 'check-url': site })
    expect(r.code).toBe(0)
    expect(emulator.checks.size).toBe(1)
    expect(r.outputs['check-id']).toBe([...emulator.checks.keys()][0])
  })

  it('the key never appears, even with step debug logging on', async () => {
    emulator.inject({ status: 400, body: { error: { message: `key ${KEY} is odd` } } })
    const r = await step({ operation: 'list-checks' }, { env: { RUNNER_DEBUG: '1', ACTIONS_STEP_DEBUG: 'true' } })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('::debug::GET /checks')
    // The runner masks what follows ::add-mask::; every other line must not hold the key.
    expect(withoutMaskCommands(r.all)).not.toContain(KEY)
  })
})
