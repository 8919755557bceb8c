/**
 * Auto-resume survives partial failure and cancellation; every wait of the
 * release gate (Retry-After, pacing, poll sleep) stays inside its timeout.
 */
import { describe, expect, it } from '@jest/globals'
import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Pacer, realClock } from '../../src/api/pacer.js'
import { runAction, until, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/'
const statusOf = (id: string) => emulator.checks.get(id)?.status

describe('auto-resume survives partial failure and cancellation', () => {
  const seed = () => [1, 2, 3].map(i => emulator.seedCheck({ id: `chk_${i}`, name: `c${i}`, url: site, status: 'up' }))
  const inputs = { operation: 'pause-check', 'check-id': 'chk_1, chk_2, chk_3', 'auto-resume': 'true' }

  it('the second pause answering 400 leaves the first recorded; the post step resumes it', async () => {
    seed()
    emulator.inject({ method: 'PUT', path: '/checks/chk_2', status: 400, body: { error: 'locked' } })
    const main = await runAction(emulator, inputs)
    expect(main.core.failed).toContain('PUT /checks/chk_2 failed: HTTP 400 Bad Request: locked')
    expect(main.core.failed).toContain('already set to paused: chk_1')
    expect(statusOf('chk_1')).toBe('paused')
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual(['chk_1', 'chk_2'])
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([statusOf('chk_1'), statusOf('chk_2'), statusOf('chk_3')]).toEqual(['up', 'up', 'up'])
    expect(post.core.logs.filter(l => l.startsWith('info:'))).toEqual([
      'info: auto-resume: resumed 1 check(s) this job paused: chk_1 (c1).'
    ])
    expect(post.core.summaryText).toContain('Resumed the checks this job paused: chk\\_1 (c1).')
  })

  it('a failed pause is never reported as done: changed=false when none landed; only the landed ones are named', async () => {
    seed()
    emulator.inject({ method: 'PUT', path: '/checks/chk_1', status: 400, body: { error: 'locked' } })
    const first = await runAction(emulator, inputs)
    expect(first.core.failed).toContain('PUT /checks/chk_1 failed')
    expect(first.core.failed).not.toContain('already set to paused')
    expect(first.core.outputs.changed).toBe('false')
    expect(statusOf('chk_1')).toBe('up')
    emulator.inject({ method: 'PUT', path: '/checks/chk_2', status: 400, body: { error: 'locked' } })
    const second = await runAction(emulator, inputs)
    expect(second.core.failed).toContain('(already set to paused: chk_1)')
    expect(second.core.outputs.changed).toBe('true')
    expect(statusOf('chk_2')).toBe('up')
  })

  it('SIGINT between the PUTs: the PUT under way finishes, no new one starts, the post step resumes both', async () => {
    seed()
    emulator.inject({ method: 'PUT', path: '/checks/chk_2', delayMs: 300 })
    const signals = new EventEmitter()
    const running = runAction(emulator, inputs, { signals, timeScale: 1 })
    // Cancel once the first pause has landed and the second is under way.
    await until(() => statusOf('chk_1') === 'paused' && emulator.count('PUT', '/checks/chk_2') === 1)
    signals.emit('SIGINT')
    const main = await running
    expect(main.core.failed).toContain('the job is being cancelled')
    expect(main.core.logs).toContain(
      'warning: The job is being cancelled (SIGINT): no new request is sent; a read under way is cut off, a write under way may finish.'
    )
    expect([statusOf('chk_1'), statusOf('chk_2'), statusOf('chk_3')]).toEqual(['paused', 'paused', 'up'])
    expect(emulator.count('PUT', '/checks/chk_3')).toBe(0)
    expect(signals.listenerCount('SIGINT')).toBe(0)
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([statusOf('chk_1'), statusOf('chk_2'), statusOf('chk_3')]).toEqual(['up', 'up', 'up'])
  })

  it('SIGTERM ends the step at once; what was recorded is resumed by the post step', async () => {
    seed()
    emulator.inject({ method: 'PUT', path: '/checks/chk_2', delayMs: 200 })
    const signals = new EventEmitter()
    const exits: number[] = []
    const running = runAction(emulator, inputs, { signals, exit: code => exits.push(code), timeScale: 1 })
    await until(() => statusOf('chk_1') === 'paused' && emulator.count('PUT', '/checks/chk_2') === 1)
    signals.emit('SIGTERM')
    expect(exits).toEqual([143])
    const main = await running
    // The runner would have ended the process; what was on disk by then is what counts.
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual(expect.arrayContaining(['chk_1', 'chk_2']))
    await until(() => statusOf('chk_2') === 'paused')
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([statusOf('chk_1'), statusOf('chk_2'), statusOf('chk_3')]).toEqual(['up', 'up', 'up'])
  })

  it('a check paused before the step is never resumed, and the post step stays quiet with nothing to do', async () => {
    emulator.seedCheck({ id: 'chk_p', name: 'was-paused', url: site, status: 'paused' })
    const only = { ...inputs, 'check-id': 'chk_p' }
    const main = await runAction(emulator, only)
    expect(main.core.state['paused-check-ids']).toBeUndefined()
    const post = await runAction(emulator, only, { state: main.core.state })
    expect(statusOf('chk_p')).toBe('paused')
    expect(post.core.logs).toEqual([])
    expect(post.core.summaryText).toBe('')
    expect(emulator.count()).toBe(1)
  })

  it('recorded but resumed by someone else meanwhile: the post step leaves it alone, quietly', async () => {
    seed()
    const main = await runAction(emulator, { ...inputs, 'check-id': 'chk_1' })
    await runAction(emulator, { operation: 'resume-check', 'check-id': 'chk_1' })
    const post = await runAction(emulator, { ...inputs, 'check-id': 'chk_1' }, { state: main.core.state })
    expect(post.core.logs.filter(l => !l.startsWith('debug:'))).toEqual([])
    expect(post.core.summaryText).toBe('')
    expect(emulator.count('PUT', '/checks/chk_1')).toBe(2)
  })

  it('a resume that fails does not stop the others; the failure is reported with what was resumed', async () => {
    seed()
    const main = await runAction(emulator, inputs)
    emulator.inject({ method: 'PUT', path: '/checks/chk_1', status: 500, times: Infinity })
    const post = await runAction(emulator, { ...inputs, 'max-retries': '0' }, { state: main.core.state })
    expect([statusOf('chk_1'), statusOf('chk_2'), statusOf('chk_3')]).toEqual(['paused', 'up', 'up'])
    expect(post.core.failed).toMatch(/^auto-resume could not resume 1 of 3 check\(s\) this job paused/)
    expect(post.core.failed).toContain('chk_1: PUT /checks/chk_1 failed: HTTP 500')
    expect(post.core.summaryText).toContain('Resumed the checks this job paused: chk\\_2 (c2), chk\\_3 (c3).')
  })
})

describe('the gate never waits past its timeout', () => {
  it('a 429 asking for 100 s with a 2 s timeout closes the gate at once instead of waiting', async () => {
    emulator.seedCheck({ id: 'chk_g', name: 'g', url: site, status: 'up', lastCheckedAt: new Date().toISOString() })
    emulator.inject({ method: 'GET', path: '/checks/chk_g', status: 429, headers: { 'Retry-After': '100' } })
    const started = Date.now()
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-name': 'g',
        timeout: '2s',
        'poll-interval': '100ms',
        'require-fresh': 'false'
      },
      { clock: realClock, pacing: true }
    )
    expect(Date.now() - started).toBeLessThan(2500)
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toContain('polling stopped early')
    expect(core.failed).toContain("would pass the operation's time limit")
  })

  it('a 429 asking for 100 s while finding the checks is an error at once, with passed=false', async () => {
    emulator.seedCheck({ id: 'chk_g', name: 'g', url: site, status: 'up' })
    emulator.inject({ method: 'GET', path: '/checks/chk_g', status: 429, headers: { 'Retry-After': '100' } })
    const started = Date.now()
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': 'chk_g', timeout: '2s' },
      { clock: realClock, pacing: true }
    )
    expect(Date.now() - started).toBeLessThan(1000)
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toContain('GET /checks/chk_g was rate limited (HTTP 429); not retried')
  })

  it('25 checks at a 100 ms poll: pacing never waits past the timeout', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => emulator.seedCheck({ name: `p${i}`, url: site }).id)
    // A key that may not list the checks: the rounds read them one by one (25 requests a round, not one page).
    emulator.inject({ method: 'GET', path: '/checks', status: 403, times: Infinity })
    const started = Date.now()
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': ids.join(','), timeout: '3s', 'poll-interval': '100ms' },
      { clock: realClock, pacing: new Pacer(60, 60_000, realClock) }
    )
    expect(Date.now() - started).toBeLessThan(3500)
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toContain('pacing to the rate limit')
    expect(emulator.count()).toBeLessThanOrEqual(61)
  })

  it('an "up" that arrives after the timeout does not pass the gate', async () => {
    emulator.seedCheck({ id: 'chk_l', name: 'late', url: site, status: 'up', lastCheckedAt: new Date().toISOString() })
    emulator.inject({ method: 'GET', path: '/checks/chk_l', delayMs: 1500, times: Infinity })
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-name': 'late', timeout: '1s', 'require-fresh': 'false' },
      { clock: realClock }
    )
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toContain('the answer arrived after the timeout')
  })

  it('consecutive-passes: a slow read of the results between polls is cut at the timeout; the gate never passes late', async () => {
    // Each poll sees a newer up, so the gate reads the history between polls; that read answers after the timeout.
    const t0 = Date.now()
    const iso = (ms: number) => new Date(t0 + ms).toISOString()
    emulator.seedCheck({ id: 'chk_h', name: 'h', url: site, status: 'up', responseTime: 100, lastCheckedAt: iso(0) })
    emulator.history.set('chk_h', [
      { status: 'up', responseTime: 100, checkedAt: iso(20) },
      { status: 'up', responseTime: 100, checkedAt: iso(10) },
      { status: 'up', responseTime: 100, checkedAt: iso(0) }
    ])
    emulator.inject({
      method: 'GET',
      path: '/checks/chk_h/history',
      trickle: 'body',
      trickleIntervalMs: 100,
      trickleForMs: 3000,
      times: Infinity
    })
    const clock = {
      now: () => Date.now(),
      sleep: async (ms: number, signal?: AbortSignal) => {
        await realClock.sleep(Math.min(ms, 50), signal)
        Object.assign(emulator.checks.get('chk_h') as object, { lastCheckedAt: iso(20) })
      }
    }
    const started = Date.now()
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': 'chk_h',
        timeout: '2s',
        'poll-interval': '1s',
        'consecutive-passes': '2',
        'require-fresh': 'false'
      },
      { clock }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(Date.now() - started).toBeLessThan(2800)
    expect(core.failed).toContain('polling stopped early')
    expect(emulator.requests.filter(r => r.path.endsWith('/history')).length).toBeGreaterThan(0)
  })

  it('SIGINT ends the gate during its poll sleep', async () => {
    emulator.seedCheck({ id: 'chk_s', name: 's', url: site })
    const signals = new EventEmitter()
    const started = Date.now()
    const running = runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': 'chk_s', timeout: '30s', 'poll-interval': '10s' },
      { clock: realClock, signals }
    )
    await until(() => emulator.count() >= 1)
    signals.emit('SIGINT')
    const { core } = await running
    expect(Date.now() - started).toBeLessThan(2000)
    expect(core.failed).toContain('cancelled')
    expect(core.outputs.passed).toBe('false')
  })

  it('SIGINT during a slow history read cuts the read off: outcome=error, the summary and the JUnit <error> are written', async () => {
    emulator.seedCheck({ id: 'chk_r', name: 'r', url: site, status: 'up', lastCheckedAt: new Date().toISOString() })
    // A slow answer: its headers, then a byte of the body every 100 ms for 10 s (it stops once the client goes).
    emulator.inject({
      method: 'GET',
      path: '/checks/chk_r/history',
      trickle: 'body',
      trickleIntervalMs: 100,
      trickleForMs: 10_000
    })
    const dir = mkdtempSync(join(tmpdir(), 'cancel-read-'))
    const signals = new EventEmitter()
    const started = Date.now()
    const running = runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': 'chk_r',
        timeout: '60s',
        baseline: '1h',
        'max-response-time-increase': '20%',
        'junit-file': 'gate.xml'
      },
      { clock: realClock, signals, env: { GITHUB_WORKSPACE: dir } }
    )
    await until(() => emulator.count('GET', '/checks/chk_r/history') === 1)
    signals.emit('SIGINT')
    const { core } = await running
    expect(Date.now() - started).toBeLessThan(2000) // not the 10 s the read would take
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.failed).toContain('GET /checks/chk_r/history was cut off: the job is being cancelled')
    expect(JSON.parse(core.outputs['failed-checks'])).toEqual([expect.objectContaining({ id: 'chk_r' })])
    expect(core.summaryText).toContain('chk\\_r')
    expect(readFileSync(join(dir, 'gate.xml'), 'utf8')).toContain('<error')
  })
})

describe('a pause sent without an answer: the post step watches until request-timeout', () => {
  const inputs = { operation: 'pause-check', 'check-id': 'chk_w', 'auto-resume': 'true', 'request-timeout': '3s' }
  const state = (sentAt: number) => ({
    'paused-check-ids': JSON.stringify(['chk_w']),
    'unanswered-writes': JSON.stringify([{ id: 'chk_w', name: 'w', status: 'paused', sentAt }])
  })

  it('paused by an answered retry, then again by the lost attempt before the timeout: resumed both times', async () => {
    emulator.seedCheck({ id: 'chk_w', name: 'w', url: 'https://w.example.com/', status: 'paused' })
    // The lost attempt lands once the post step has resumed the check the first time.
    let landed = false
    emulator.afterAnswer = record => {
      if (landed || record.method !== 'PUT') return
      landed = true
      setTimeout(() => Object.assign(emulator.checks.get('chk_w') ?? {}, { status: 'paused' }), 800)
    }
    // Real waits: the watch reads once a second.
    const post = await runAction(emulator, inputs, { state: state(Date.now()), timeScale: 1 })
    expect(post.core.failed).toBeUndefined()
    expect(emulator.count('GET', '/checks/chk_w')).toBeLessThanOrEqual(5)
    expect(emulator.count('PUT', '/checks/chk_w')).toBe(2)
    expect(emulator.checks.get('chk_w')?.status).toBe('up')
    expect(post.core.logs).toContain('info: auto-resume: chk_w was paused again: resumed.')
    expect(post.core.logs.join('\n')).toContain('was never answered; chk_w was paused, and the post step resumed it')
  })

  it('a check deleted meanwhile: a warning that names it, nothing sent', async () => {
    const post = await runAction(emulator, inputs, { state: state(Date.now() - 10_000) })
    expect(post.core.failed).toBeUndefined()
    expect(post.core.logs.join('\n')).toMatch(
      /warning: the pause of chk_w \("w"\) sent at .* was never answered, and chk_w no longer exists/
    )
    expect(emulator.count('PUT')).toBe(0)
  })
})
