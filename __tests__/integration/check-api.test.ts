/**
 * check-api when things go wrong: a refused key, a service that times out, a list that pages
 * forever (bounded), a failure half-way through its writes and a cancel (its own check deleted
 * by the main step, or by the post step), and hostile strings from the service kept as data.
 */
import { describe, expect, it } from '@jest/globals'
import { EventEmitter } from 'node:events'
import { runAction, scaledClock, until, useEmulator } from '../helpers/harness.js'
import { SITE, pointsOf, seedAccount } from '../helpers/check-api.js'

const emulator = useEmulator({ pageSize: 2 })
const inputs = { operation: 'check-api' }
const withWrites = { ...inputs, 'check-api-writes': 'true' }
const ownChecks = () => [...emulator.checks.values()].filter(c => String(c.name).startsWith('check-api-'))

describe('check-api fails only when the service cannot be reached or refuses the key', () => {
  it('a refused key: the step fails, saying so, after one request', async () => {
    seedAccount(emulator)
    const run = await runAction(emulator, { ...inputs, 'api-key': 'not-the-key-0123' })
    expect(run.core.failed).toContain('GET /checks failed: HTTP 401')
    expect(emulator.requests).toHaveLength(1)
  })

  it('a service that does not answer in time: the step fails, naming the timeout', async () => {
    seedAccount(emulator)
    emulator.inject({ method: 'GET', path: '/checks', delayMs: 3000, times: -1 })
    const run = await runAction(emulator, { ...inputs, 'request-timeout': '1s', 'max-retries': '0' }, { timeScale: 1 })
    expect(run.core.failed).toBe('GET /checks timed out after 1000 ms (request-timeout)')
  })

  it.each(['headers', 'body'] as const)(
    'a service that trickles its %s: the step fails within request-timeout, naming it, not after the trickle',
    async trickle => {
      seedAccount(emulator)
      emulator.inject({ method: 'GET', path: '/checks', trickle, trickleIntervalMs: 100, trickleForMs: 8000 })
      const started = Date.now()
      const run = await runAction(
        emulator,
        { ...inputs, 'request-timeout': '1s', 'max-retries': '0' },
        { timeScale: 1 }
      )
      expect(run.core.failed).toBe('GET /checks timed out after 1000 ms (request-timeout)')
      expect(Date.now() - started).toBeLessThan(6000)
    }
  )

  it('a list that is not a list: its points are unknown with why, the run goes on and ends well', async () => {
    seedAccount(emulator)
    emulator.inject({ method: 'GET', path: '/incidents', status: 200, body: { oops: true } })
    const run = await runAction(emulator, inputs)
    expect(run.core.failed).toBeUndefined()
    expect(run.core.logs.join('\n')).toContain('incidents could not be read whole')
    expect(pointsOf(run.core).paging.found).not.toBe('unknown')
  })
})

describe('a list that pages forever is bounded by the page cap', () => {
  // No rate limit: 100 pages in a moment would spend the minute's budget.
  const endless = useEmulator({ pageSize: 1, rateLimit: false })
  it('101 checks one a page: the read stops at 100 pages; paging says so; the step ends well', async () => {
    for (let i = 0; i < 101; i++) endless.seedCheck({ name: `c${i}`, url: SITE, status: 'up' })
    const run = await runAction(endless, inputs)
    expect(run.core.failed).toBeUndefined()
    expect(endless.count('GET', '/checks')).toBe(100) // 100 pages, none more (no history: the list was not whole)
    expect(endless.count('GET', '/incidents')).toBe(1)
    const paging = pointsOf(run.core).paging
    expect(paging.found).toContain('checks: GET /checks has more than 100 pages; stopped rather than read without end')
    expect(paging.consequence).toContain('up to 100 pages a list')
  })
})

describe('its own check is deleted whatever happens', () => {
  it('a PUT that fails half-way: the writes stop, the check is deleted, the points after are unknown with why', async () => {
    seedAccount(emulator)
    emulator.inject({ method: 'PUT', path: 're:^/checks/', status: 500, times: -1 })
    const run = await runAction(emulator, { ...withWrites, 'max-retries': '0' })
    expect(run.core.failed).toBeUndefined()
    expect(ownChecks()).toEqual([])
    expect(emulator.deletedChecks).toHaveLength(1)
    const points = pointsOf(run.core)
    expect(points['create echo'].found).toContain('status "paused"')
    expect(points.PUT.found).toBe('unknown')
    expect(points.PUT.why).toMatch(
      /^the writes stopped at PUT \/checks\/chk_\w+: PUT \/checks\/chk_\w+ failed: HTTP 500/
    )
    expect(run.core.state['check-api-own-check']).toBe('')
  })

  it('SIGINT during a write: the write finishes, nothing new is sent, the post step deletes the check', async () => {
    seedAccount(emulator)
    emulator.inject({ method: 'PUT', path: 're:^/checks/', delayMs: 300 })
    const signals = new EventEmitter()
    const running = runAction(emulator, withWrites, { signals, timeScale: 1 })
    await until(() => emulator.count('PUT') === 1)
    signals.emit('SIGINT')
    const main = await running
    expect(main.core.failed).toContain('the job is being cancelled')
    expect(ownChecks()).toHaveLength(1)
    expect(emulator.count('DELETE')).toBe(0)
    const saved = JSON.parse(main.core.state['check-api-own-check']) as { name: string; id: string }
    expect(saved).toEqual({ name: ownChecks()[0].name, id: ownChecks()[0].id })
    const post = await runAction(emulator, withWrites, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect(ownChecks()).toEqual([])
    expect(post.core.logs).toContain(
      `info: check-api's own check ${saved.id} (${saved.name}) was left by the main step: deleted.`
    )
  })

  it('SIGINT then SIGTERM during the create: the post step finds the check by its name and deletes it', async () => {
    seedAccount(emulator)
    emulator.inject({ method: 'POST', path: '/checks', delayMs: 300 })
    const signals = new EventEmitter()
    const exits: number[] = []
    const running = runAction(emulator, withWrites, { signals, exit: code => exits.push(code), timeScale: 1 })
    await until(() => emulator.count('POST') === 1)
    signals.emit('SIGINT')
    signals.emit('SIGTERM')
    await running
    expect(exits).toEqual([143])
    await until(() => ownChecks().length === 1)
    const post = await runAction(emulator, withWrites, {
      state: { 'check-api-own-check': JSON.stringify({ name: ownChecks()[0].name }) }
    })
    expect(post.core.failed).toBeUndefined()
    expect(ownChecks()).toEqual([])
  })

  // The post step's watch over a create sent without an answer: until twice request-timeout has passed since it was sent.
  const unansweredState = (name: string, sentAt = Date.now()) => ({
    'check-api-own-check': JSON.stringify({ name, sentAt })
  })

  it('a create sent without an answer that lands while the post step runs, and a retry that lands later: both deleted', async () => {
    // The runner's post step may start before a create a SIGTERM left under way lands (the command's starts at once).
    const name = 'check-api-1a7e1a7e'
    const clock = scaledClock(1)
    const post = runAction(
      emulator,
      { ...withWrites, 'request-timeout': '2s' },
      { state: unansweredState(name), clock }
    )
    await until(() => clock.slept.length >= 1)
    const first = emulator.seedCheck({ name, url: 'https://example.com/', status: 'paused' })
    await until(() => emulator.deletedChecks.length === 1)
    const second = emulator.seedCheck({ name, url: 'https://example.com/', status: 'paused' })
    const ended = await post
    expect(ended.core.failed).toBeUndefined()
    expect(ownChecks()).toEqual([])
    expect(emulator.deletedChecks.map(c => c.id)).toEqual([first.id, second.id])
    expect(ended.core.logs).toContain(
      `info: check-api's own check ${first.id}, ${second.id} (${name}) was left by the main step: deleted.`
    )
  })

  /** The post step over a create sent at `sentAt` that never lands, request-timeout 1 s: what it did and how long. */
  async function watchUnlanded(sentAt: number) {
    const clock = scaledClock(1)
    const started = Date.now()
    const post = await runAction(
      emulator,
      { ...withWrites, 'request-timeout': '1s' },
      { state: unansweredState('check-api-0badc0de', sentAt), clock }
    )
    expect(post.core.failed).toBeUndefined()
    return { logs: post.core.logs, slept: clock.slept, ms: Date.now() - started }
  }

  it('a create sent without an answer that never lands: the post step watches until twice the request timeout has passed since, then says so', async () => {
    const { logs, slept, ms } = await watchUnlanded(Date.now())
    expect(ms).toBeGreaterThanOrEqual(1_900)
    expect(emulator.count('GET', '/checks')).toBe(slept.length + 1)
    expect(logs).toContain(
      "info: check-api's own check check-api-0badc0de was not there when twice the request timeout (2 s) had passed since its create was sent: nothing to delete."
    )
  })

  it('a sentAt in the future (a skewed clock, a state set by hand) counts as now: the watch is still bounded', async () => {
    const { slept, ms } = await watchUnlanded(Date.now() + 3_600_000)
    expect(ms).toBeLessThan(10_000)
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2_000)
  })

  it('a cancel between two reads of that watch: the post step ends, warning that the check could still land', async () => {
    const name = 'check-api-0badc0de'
    const signals = new EventEmitter()
    const clock = scaledClock(1)
    const running = runAction(emulator, withWrites, { state: unansweredState(name), signals, clock })
    await until(() => clock.slept.length === 1)
    signals.emit('SIGINT')
    const post = await running
    expect(post.core.failed).toBeUndefined()
    expect(emulator.count('GET', '/checks')).toBe(1)
    expect(post.core.logs).toContain(
      `warning: check-api's own check ${name} was not there yet, and the post step was cancelled while its create (sent without an answer) could still land: if a check named ${name} appears, delete it.`
    )
  })

  it('a cancel while a read of that watch is under way: the same warning, not a failure', async () => {
    const name = 'check-api-0badc0de'
    emulator.inject({ method: 'GET', path: '/checks', delayMs: 2_000 })
    const signals = new EventEmitter()
    const running = runAction(emulator, withWrites, { state: unansweredState(name), signals, timeScale: 1 })
    await until(() => emulator.count('GET', '/checks') === 1)
    signals.emit('SIGINT')
    const post = await running
    expect(post.core.failed).toBeUndefined()
    expect(post.core.logs).toContain(
      `warning: check-api's own check ${name} was not there yet, and the post step was cancelled while its create (sent without an answer) could still land: if a check named ${name} appears, delete it.`
    )
  })

  it("a cancel during the create's own look after a timeout, the create landing later: the post step still deletes it", async () => {
    seedAccount(emulator)
    // The create times out at 1 s, waits as long again before it looks (create.ts); it lands at 1.5 s.
    emulator.inject({ method: 'POST', path: '/checks', delayMs: 1_500, late: true })
    const signals = new EventEmitter()
    const inputs = { ...withWrites, 'request-timeout': '1s', 'max-retries': '0' }
    const running = runAction(emulator, inputs, { signals, timeScale: 1 })
    await until(() => emulator.count('POST') === 1)
    await new Promise(resolve => setTimeout(resolve, 1_200))
    signals.emit('SIGINT')
    const main = await running
    const post = await runAction(emulator, inputs, { state: main.core.state, timeScale: 1 })
    expect(post.core.failed).toBeUndefined()
    await new Promise(resolve => setTimeout(resolve, 500)) // anything still to land has landed
    expect(ownChecks()).toEqual([])
    expect(emulator.deletedChecks).toHaveLength(1)
  })

  it('the post step with nothing saved (the main step deleted its check) stays quiet', async () => {
    const post = await runAction(emulator, withWrites, { state: { 'check-api-own-check': '' } })
    expect(post.core.logs).toEqual([])
    expect(emulator.requests).toEqual([])
  })
})

describe('hostile strings from the service stay data', () => {
  it('a status with a workflow command, a pipe and an image: escaped in the summary, one line in the log', async () => {
    const hostile = 'up\n::error::pwned|<img src=x onerror=alert(1)>'
    emulator.seedCheck({
      name: 'evil\n::error::name',
      url: SITE,
      status: hostile,
      lastCheckedAt: new Date().toISOString()
    })
    const run = await runAction(emulator, inputs)
    expect(run.core.failed).toBeUndefined()
    expect(pointsOf(run.core)['status values'].found).toBe(`checks: ${hostile}`)
    const summary = run.core.summaryText
    expect(summary).not.toContain('<img')
    expect(summary).toContain('&lt;img')
    expect(summary).toContain('\\|')
    expect(summary.split('\n').some(line => line.startsWith('::error::'))).toBe(false)
    for (const line of run.core.logs) expect(line).not.toMatch(/\n::error::/)
  })
})
