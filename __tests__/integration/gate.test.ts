/**
 * wait-for-check against an emulator that really probes a local target.
 * Check intervals are scaled down (interval 1 s x 0.1 = a probe every 100 ms).
 */
import { describe, expect, it } from '@jest/globals'
import { realClock } from '../../src/api/pacer.js'
import { resultOf, runAction, useEmulator, useTarget } from '../helpers/harness.js'
import { Target } from '../helpers/runner.js'

const emulator = useEmulator({ probe: true, timeScale: 0.1, probeTimeoutMs: 1000 })
const target = useTarget()

const gate = (inputs: Record<string, string>) =>
  runAction(
    emulator,
    { operation: 'wait-for-check', 'poll-interval': '100ms', timeout: '3s', ...inputs },
    { clock: realClock }
  )
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

describe('the probing emulator', () => {
  it('probes a check: pending until the first probe, then up, with history newest first', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    expect(check.status).toBe('pending')
    await sleep(350)
    const now = emulator.checks.get(check.id)
    expect(now?.status).toBe('up')
    expect(typeof now?.responseTime).toBe('number')
    const history = emulator.history.get(check.id) ?? []
    expect(history.length).toBeGreaterThanOrEqual(2)
    expect(String(history[0].checkedAt) > String(history[1].checkedAt)).toBe(true)
    expect(target.hits).toBeGreaterThanOrEqual(2)
  })

  it('a paused check is not probed and reports paused; resumed, it probes again', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    await sleep(150)
    await runAction(emulator, { operation: 'pause-check', 'check-id': check.id })
    const hits = target.hits
    await sleep(300)
    expect(target.hits).toBe(hits)
    expect(emulator.checks.get(check.id)?.status).toBe('paused')
    target.mode = 'down'
    await runAction(emulator, { operation: 'resume-check', 'check-id': check.id })
    await sleep(250)
    expect(target.hits).toBeGreaterThan(hits)
    expect(emulator.checks.get(check.id)?.status).toBe('down')
  })
})

describe('wait-for-check', () => {
  it('passes once the target comes up', async () => {
    target.mode = 'down'
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    setTimeout(() => (target.mode = 'up'), 600)
    const { core } = await gate({ 'check-id': check.id })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.passed).toBe('true')
    expect(core.outputs['check-status']).toBe('up')
    expect(core.outputs['last-checked-at']).not.toBe('')
    expect(core.logs.filter(l => l.startsWith('group: Poll')).length).toBeGreaterThan(1)
    expect(core.summaryText).toContain('| passed |')
  })

  it('fails on a target that stays down, naming the check, its status, response time and time checked', async () => {
    target.mode = 'down'
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    const started = Date.now()
    const { core } = await gate({ 'check-name': 'app', timeout: '1s' })
    const elapsed = Date.now() - started
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toMatch(
      new RegExp(
        `app \\(${check.id}\\): status down, response time \\d+ ms, checked 20\\d\\d-.*: status is down, expected up`
      )
    )
    expect(core.outputs.error).toBe(core.failed)
    expect(core.summaryText).toContain('Release gate closed')
    // the timeout holds within one poll interval (plus one request)
    expect(elapsed).toBeGreaterThanOrEqual(1000)
    expect(elapsed).toBeLessThan(1000 + 100 + 500)
  })

  it('timeout 1 (bare seconds) no longer than poll-interval: a notice naming both, suggesting minutes', async () => {
    target.mode = 'up'
    emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    const { core } = await gate({ 'check-name': 'app', timeout: '1', 'poll-interval': '1s' })
    expect(core.logs).toContain(
      'notice: timeout 1 is read as 1 s (a bare number is seconds), no longer than poll-interval (1 s): the gate polls at most once or twice before its time runs out. For minutes, write timeout: 1m.'
    )
    // With a unit, or longer than poll-interval, nothing is said.
    const { core: said } = await gate({ 'check-name': 'app', timeout: '1s', 'poll-interval': '1s' })
    const { core: longer } = await gate({ 'check-name': 'app', timeout: '2', 'poll-interval': '1s' })
    for (const c of [said, longer]) expect(c.logs.filter(l => l.startsWith('notice: timeout'))).toEqual([])
  })

  it('a closed gate fails the step even with fail-on-error false', async () => {
    target.mode = 'down'
    emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    const { core } = await gate({ 'check-name': 'app', timeout: '500ms', 'fail-on-error': 'false' })
    expect(core.failed).toContain('did not pass within 0.5 s')
  })

  it('ignores a stale up from before the step when require-fresh is on', async () => {
    const check = emulator.seedCheck({
      name: 'app',
      url: 'http://127.0.0.1:1/unused',
      interval: 1000,
      status: 'paused'
    })
    Object.assign(emulator.checks.get(check.id) ?? {}, {
      status: 'up',
      lastCheckedAt: new Date(Date.now() - 60_000).toISOString(),
      responseTime: 5
    })
    const fresh = await gate({ 'check-id': check.id, timeout: '400ms' })
    expect(fresh.core.outputs.passed).toBe('false')
    expect(fresh.core.failed).toContain('before this step started (stale)')
    const stale = await gate({ 'check-id': check.id, timeout: '400ms', 'require-fresh': 'false' })
    expect(stale.core.outputs.passed).toBe('true')
  })

  it('fails on max-response-time when the target is slow', async () => {
    target.delayMs = 150
    emulator.seedCheck({ name: 'slow', url: target.url, interval: 1 })
    const { core } = await gate({ 'check-name': 'slow', 'max-response-time': '100', timeout: '1s' })
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toMatch(/response time \d+ ms is above 100 ms/)
    const ok = await gate({ 'check-name': 'slow', 'max-response-time': '1s', timeout: '2s' })
    expect(ok.core.outputs.passed).toBe('true')
  })

  it('handles several checks: passes when all pass, stops polling those that passed', async () => {
    const other = new Target()
    await other.start()
    try {
      other.mode = 'down'
      const a = emulator.seedCheck({ name: 'a', url: target.url, interval: 1 })
      const b = emulator.seedCheck({ name: 'b', url: other.url, interval: 1 })
      setTimeout(() => (other.mode = 'up'), 700)
      const { core } = await gate({ 'check-id': a.id, 'check-name': 'b' })
      expect(core.failed).toBeUndefined()
      expect(core.outputs.passed).toBe('true')
      expect((resultOf(core) as Array<{ id: string }>).map(c => c.id)).toEqual([a.id, b.id])
      const polls = emulator.requests.filter(r => r.method === 'GET' && r.path.startsWith('/checks/'))
      const aPolls = polls.filter(r => r.path === `/checks/${a.id}`).length
      const bPolls = polls.filter(r => r.path === `/checks/${b.id}`).length
      expect(bPolls).toBeGreaterThan(aPolls)
    } finally {
      await other.stop()
    }
  })

  it('names only the checks that did not pass', async () => {
    const other = new Target()
    await other.start()
    try {
      other.mode = 'down'
      emulator.seedCheck({ name: 'good', url: target.url, interval: 1 })
      emulator.seedCheck({ name: 'bad', url: other.url, interval: 1 })
      const { core } = await gate({ 'check-name': 'good\nbad', timeout: '800ms' })
      expect(core.failed).toContain('1 of 2 check(s) did not pass')
      expect(core.failed).toContain('bad (')
      expect(core.failed).not.toContain('good (')
    } finally {
      await other.stop()
    }
  })

  it('a poll-interval longer than the timeout still polls at the start and at the timeout', async () => {
    target.mode = 'down'
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    const started = Date.now()
    await gate({ 'check-id': check.id, timeout: '600ms', 'poll-interval': '10s' })
    expect(Date.now() - started).toBeLessThan(1500)
    expect(emulator.count('GET', `/checks/${check.id}`)).toBe(3) // the target lookup, then two polls
  })

  it('no retry wait passes the timeout: the gate stops with a message that says so', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    emulator.inject({ path: `/checks/${check.id}`, status: 503, headers: { 'Retry-After': '30' }, times: Infinity })
    const started = Date.now()
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': check.id, timeout: '2s' },
      { clock: realClock }
    )
    expect(Date.now() - started).toBeLessThan(2000)
    expect(core.failed).toBe(
      `GET /checks/${check.id} failed: HTTP 503; not retried, because the wait (30.0 s) would pass the operation's time limit`
    )
    // The log never announces the retry the error then says was not made.
    expect(core.logs.filter(line => /retry \d+ of/.test(line))).toEqual([])
  })

  it('a 429 whose wait passes the timeout is said once: no retry line above the error', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    emulator.inject({ path: `/checks/${check.id}`, status: 429, headers: { 'Retry-After': '30' }, times: Infinity })
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': check.id, timeout: '2s' },
      { clock: realClock }
    )
    expect(core.failed).toContain('rate limited (HTTP 429); not retried, because the wait')
    expect(core.logs.filter(line => /retry \d+ of/.test(line))).toEqual([])
  })

  it('an API that stays unreachable is an error, not a closed gate', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    emulator.inject({ path: `/checks/${check.id}`, status: 503, times: Infinity })
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'check-name': 'app',
      timeout: '5s',
      'fail-on-error': 'false',
      'max-retries': '1'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.error).toContain(`GET /checks/${check.id} failed: HTTP 503`)
  })
})
