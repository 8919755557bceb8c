/**
 * Hostile conditions through the committed bundle, run as the runner runs it:
 * server text that tries to be a workflow command, a cancel (the real
 * SIGINT, then SIGTERM, then the post step), a server that trickles bytes,
 * and a Retry-After longer than the gate's timeout.
 */
import { describe, expect, it } from '@jest/globals'
import type { ChildProcess } from 'node:child_process'
import { credentialsOf, until, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator()
const common = credentialsOf(emulator)

const site = 'https://shop.example.com/'
const step = (inputs: Record<string, string>, options = {}) => runStep({ ...common, ...inputs }, options)
/** The lines the runner would read as commands: it splits on \n, \r and \r\n and skips leading blanks. */
const commands = (stdout: string) => stdout.split(/\r\n|\r|\n/).filter(line => /^\s*::/.test(line))

describe('server text is data', () => {
  it('names, statuses and errors that hold command syntax never become commands', async () => {
    const hostileName = 'x\n::error::pwned\r::warning::lone-cr\u2028::error::u2028 <prod> | cell'
    const check = emulator.seedCheck({ id: 'chk_h', name: hostileName, url: site, status: '::stop-commands::tok' })
    const paused = await step({ operation: 'pause-check', 'check-id': check.id })
    expect(paused.code).toBe(0)
    // Only the action's own commands: the key's mask and its debug lines (one per request).
    expect(commands(paused.stdout).filter(l => !l.startsWith('::add-mask::'))).toEqual([
      '::debug::GET /checks/chk_h',
      '::debug::PUT /checks/chk_h'
    ])
    expect(paused.stdout).toContain('x\\n::error::pwned\\r::warning::lone-cr\\u2028::error::u2028')
    const listed = await step({ operation: 'list-checks' })
    expect(commands(listed.stdout).filter(l => !l.startsWith('::add-mask::'))).toEqual(['::debug::GET /checks'])
    expect(listed.summary).toContain(
      '| x ::error::pwned ::warning::lone-cr ::error::u2028 &lt;prod&gt; \\| cell | chk\\_h |'
    )
    expect(listed.summary).not.toContain('<prod>')

    emulator.inject({
      path: `/checks/${check.id}`,
      method: 'PUT',
      status: 400,
      body: { error: '\n::error::from-the-server' }
    })
    const failed = await step({ operation: 'update-check', 'check-id': check.id, 'check-interval': '5' })
    expect(failed.code).toBe(1)
    // Exactly one error command: the action's own failure, with the server's text inside it.
    const lines = commands(failed.stdout).filter(l => !l.startsWith('::add-mask::') && !l.startsWith('::debug::'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^::error::PUT \/checks\/chk_h failed: HTTP 400 Bad Request: ::error::from-the-server/)
  })
})

describe('a cancelled job never leaves monitoring off', () => {
  it('SIGINT between two pauses, then SIGTERM, then the post step: both checks resumed', async () => {
    emulator.seedCheck({ id: 'chk_1', name: 'one', url: site, status: 'up' })
    emulator.seedCheck({ id: 'chk_2', name: 'two', url: site, status: 'up' })
    emulator.inject({ method: 'PUT', path: '/checks/chk_2', delayMs: 1500 })
    // The post step watches chk_2 (its PUT never answered) until request-timeout has passed since it was sent.
    const inputs = {
      operation: 'pause-check',
      'check-id': 'chk_1\nchk_2',
      'auto-resume': 'true',
      'request-timeout': '4s'
    }
    let child: ChildProcess | undefined
    const running = step(inputs, { onSpawn: (c: ChildProcess) => (child = c) })
    await until(() => emulator.checks.get('chk_1')?.status === 'paused' && emulator.count('PUT', '/checks/chk_2') === 1)
    child?.kill('SIGINT')
    // The runner sends SIGTERM some seconds later; here, sooner, while the second PUT is still under way.
    await new Promise(r => setTimeout(r, 300))
    if (child && child.exitCode === null) child.kill('SIGTERM')
    const main = await running
    expect(main.code === 143 || main.signal === 'SIGTERM').toBe(true)
    expect(main.stdout).toContain('The job is being cancelled (SIGINT)')
    expect(JSON.parse(main.state['paused-check-ids'])).toEqual(['chk_1', 'chk_2'])
    // The server finishes the PUT it received; then the runner runs the post step.
    await until(() => emulator.checks.get('chk_2')?.status === 'paused')
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(post.stdout).toContain('auto-resume: resumed 2 check(s) this job paused: chk_1 (one), chk_2 (two).')
    expect(post.summary).toContain('Resumed the checks this job paused')
    expect([emulator.checks.get('chk_1')?.status, emulator.checks.get('chk_2')?.status]).toEqual(['up', 'up'])
  })

  it('SIGINT alone: the PUT under way finishes, no new one starts, the step fails, the post step resumes', async () => {
    for (const i of [1, 2, 3]) emulator.seedCheck({ id: `chk_${i}`, name: `c${i}`, url: site, status: 'up' })
    emulator.inject({ method: 'PUT', path: '/checks/chk_2', delayMs: 500 })
    const inputs = { operation: 'pause-check', 'check-id': 'chk_1, chk_2, chk_3', 'auto-resume': 'true' }
    let child: ChildProcess | undefined
    const running = step(inputs, { onSpawn: (c: ChildProcess) => (child = c) })
    await until(() => emulator.checks.get('chk_1')?.status === 'paused' && emulator.count('PUT', '/checks/chk_2') === 1)
    child?.kill('SIGINT')
    const main = await running
    expect(main.code).toBe(1)
    expect(main.stdout).toMatch(/::error::.*the job is being cancelled/)
    expect(emulator.checks.get('chk_2')?.status).toBe('paused')
    expect(emulator.count('PUT', '/checks/chk_3')).toBe(0)
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect([1, 2, 3].map(i => emulator.checks.get(`chk_${i}`)?.status)).toEqual(['up', 'up', 'up'])
  })
})

describe('a pause sent without an answer counts as landed', () => {
  /** pause-check cancelled (SIGINT, SIGTERM 300 ms later) while the service holds its PUT for `holdMs`. */
  const cancelledDuringPut = async (inputs: Record<string, string>, holdMs: number) => {
    emulator.seedCheck({ id: 'chk_l', name: 'late', url: site, status: 'up' })
    emulator.inject({ method: 'PUT', path: '/checks/chk_l', delayMs: holdMs })
    let child: ChildProcess | undefined
    const running = step(inputs, { onSpawn: (c: ChildProcess) => (child = c) })
    await until(() => emulator.count('PUT', '/checks/chk_l') === 1)
    child?.kill('SIGINT')
    await new Promise(r => setTimeout(r, 300))
    if (child && child.exitCode === null) child.kill('SIGTERM')
    const main = await running
    expect(emulator.checks.get('chk_l')?.status).toBe('up') // the pause has not landed yet
    return main
  }

  it('the pause lands after the post step started: the post step waits for it, resumes the check and warns', async () => {
    const inputs = { operation: 'pause-check', 'check-id': 'chk_l', 'auto-resume': 'true', 'request-timeout': '6s' }
    const main = await cancelledDuringPut(inputs, 3_000)
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(emulator.checks.get('chk_l')?.status).toBe('up')
    expect(emulator.count('PUT', '/checks/chk_l')).toBe(2) // the late pause, then the post step's resume
    expect(post.stdout).toMatch(
      /::warning::the pause of chk_l \("late"\) sent at .* was never answered; chk_l was paused, and the post step resumed it, watching it until the request timeout \(6 s\) had passed since\. A service may still apply such a write later/
    )
    expect(post.summary).toContain('chk\\_l was paused, and the post step resumed it')
  })

  it('the pause has not landed when the request timeout has passed: the post step stops watching and warns to check by hand', async () => {
    const inputs = { operation: 'pause-check', 'check-id': 'chk_l', 'auto-resume': 'true', 'request-timeout': '2s' }
    const main = await cancelledDuringPut(inputs, 6_000)
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(post.ms).toBeLessThan(5_000)
    expect(emulator.count('GET', '/checks/chk_l')).toBeGreaterThanOrEqual(2) // it watched, not one glance
    expect(post.stdout).toMatch(
      /::warning::the pause of chk_l \("late"\) sent at .* was never answered, and chk_l was not paused when the request timeout \(2 s\) had passed since: a service may still apply it later\./
    )
  })

  it('without auto-resume, and for a resume, the post step warns that the write may still land and sends nothing', async () => {
    const inputs = { operation: 'pause-check', 'check-id': 'chk_l', 'request-timeout': '5s' }
    const main = await cancelledDuringPut(inputs, 2_000)
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(post.stdout).toMatch(
      /::warning::the pause of chk_l \("late"\) sent at .* was never answered .*may still apply it/
    )
    await until(() => emulator.checks.get('chk_l')?.status === 'paused')
    emulator.inject({ method: 'PUT', path: '/checks/chk_l', delayMs: 2_000 })
    let child: ChildProcess | undefined
    const resume = { operation: 'resume-check', 'check-id': 'chk_l' }
    const running = step(resume, { onSpawn: (c: ChildProcess) => (child = c) })
    await until(() => emulator.count('PUT', '/checks/chk_l') === 2)
    child?.kill('SIGTERM')
    const cancelled = await running
    const puts = emulator.count('PUT', '/checks/chk_l')
    const after = await step(resume, { state: cancelled.state })
    expect(after.code).toBe(0)
    expect(after.stdout).toMatch(/::warning::the resume of chk_l \("late"\) sent at .* was never answered/)
    expect(emulator.count('PUT', '/checks/chk_l')).toBe(puts)
  })

  it('an attempt that timed out, then a retry that paused: the step passes, and the post step resumes and warns that the first may still land', async () => {
    emulator.seedCheck({ id: 'chk_t', name: 'timed', url: site, status: 'up' })
    emulator.inject({ method: 'PUT', path: '/checks/chk_t', delayMs: 2_500, late: true })
    const inputs = { operation: 'pause-check', 'check-id': 'chk_t', 'auto-resume': 'true', 'request-timeout': '1s' }
    const main = await step(inputs)
    expect(main.code).toBe(0)
    expect(emulator.checks.get('chk_t')?.status).toBe('paused') // the retry's
    expect(JSON.parse(main.state['unanswered-writes'])).toEqual([
      expect.objectContaining({ id: 'chk_t', status: 'paused' })
    ])
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(post.stdout).toMatch(
      /::warning::the pause of chk_t \("timed"\) sent at .* was never answered; chk_t was paused, and the post step resumed it, watching it until the request timeout \(1 s\) had passed since\. A service may still apply such a write later: if chk_t is paused again, resume it\./
    )
    // The first attempt lands after all: monitoring is off, and the warning above said so.
    await until(() => emulator.checks.get('chk_t')?.status === 'paused')
  })

  it('a pause the service refused (4xx) is no write that may land: the post step stays quiet about it', async () => {
    emulator.seedCheck({ id: 'chk_r', name: 'refused', url: site, status: 'up' })
    emulator.inject({ method: 'PUT', path: '/checks/chk_r', status: 422, body: { error: 'no' } })
    const inputs = { operation: 'pause-check', 'check-id': 'chk_r', 'auto-resume': 'true' }
    const main = await step(inputs)
    expect(main.code).toBe(1)
    expect(main.state['unanswered-writes'] ?? '').toBe('')
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(post.stdout).not.toContain('never answered')
  })
})

describe('every output is bounded in bytes, text ones too', () => {
  it('get-check of a check whose name is 700,000 bytes: check-name cut to 512 KiB on a character boundary, with a note', async () => {
    // Two-byte characters, then four-byte ones across the cut: a cut mid-character would show U+FFFD.
    const name = 'é'.repeat(250_000) + '😀'.repeat(50_000)
    expect(Buffer.byteLength(name)).toBe(700_000)
    const check = emulator.seedCheck({ name, url: site })
    const r = await step({ operation: 'get-check', 'check-id': check.id }, { timeoutMs: 30_000 })
    expect(r.code).toBe(0)
    const out = r.outputs['check-name']
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(512 * 1024)
    expect(Buffer.byteLength(out)).toBeGreaterThan(512 * 1024 - 200)
    expect(out).not.toContain('\ufffd')
    expect(out.endsWith(' [truncated: check-name is 700000 bytes, more than the 524288 an output holds here]')).toBe(
      true
    )
    expect(name.startsWith(out.slice(0, out.indexOf('… [truncated')))).toBe(true)
    // result (JSON) is replaced by a note, as before; the step goes on.
    expect(JSON.parse(r.outputs.result)).toMatchObject({ truncated: true })
  })
})

describe('every wait is bounded', () => {
  it('a server that trickles its headers is cut off at request-timeout; the process exits', async () => {
    emulator.seedCheck({ id: 'chk_t', name: 't', url: site })
    emulator.inject({ path: '/checks/chk_t', trickle: 'headers', trickleIntervalMs: 100, trickleForMs: 60_000 })
    const result = await step(
      { operation: 'get-check', 'check-id': 'chk_t', 'request-timeout': '1s', 'max-retries': '0' },
      { timeoutMs: 20_000 }
    )
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('GET /checks/chk_t timed out after 1000 ms (request-timeout)')
    expect(result.ms).toBeLessThan(6000)
  })

  it('a gate with a 2 s timeout meeting Retry-After: 100 ends in time, not passed', async () => {
    emulator.seedCheck({ id: 'chk_g', name: 'g', url: site, status: 'up', lastCheckedAt: new Date().toISOString() })
    emulator.inject({ method: 'GET', path: '/checks/chk_g', status: 429, headers: { 'Retry-After': '100' } })
    const result = await step(
      {
        operation: 'wait-for-check',
        'check-name': 'g',
        timeout: '2s',
        'poll-interval': '200ms',
        'require-fresh': 'false'
      },
      { timeoutMs: 30_000 }
    )
    expect(result.code).toBe(1)
    expect(result.outputs.passed).toBe('false')
    expect(result.ms).toBeLessThan(6000)
  })
})
