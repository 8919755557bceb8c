/** The release gate through dist/index.js, against the probing emulator and a local target. */
import { describe, expect, it } from '@jest/globals'
import { KEY, useEmulator, useTarget } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator({ probe: true, timeScale: 0.1 })
const target = useTarget()

const gate = (inputs: Record<string, string>) =>
  runStep({
    'api-key': KEY,
    'base-url': emulator.baseUrl,
    operation: 'wait-for-check',
    'poll-interval': '200ms',
    ...inputs
  })

describe('wait-for-check through dist/index.js', () => {
  it('passes once the local target answers', async () => {
    target.mode = 'down'
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    setTimeout(() => (target.mode = 'up'), 800)
    const r = await gate({ 'check-id': check.id, timeout: '10s' })
    expect(r.code).toBe(0)
    expect(r.outputs.passed).toBe('true')
    expect(r.stdout).toContain('::group::Poll 1')
    expect(r.summary).toContain('Release gate passed')
  })

  it('fails naming the check when the target does not answer; the timeout holds within one poll interval', async () => {
    const check = emulator.seedCheck({ name: 'app', url: 'http://127.0.0.1:1/closed', interval: 1 })
    const r = await gate({ 'check-name': 'app', timeout: '2s' })
    expect(r.code).toBe(1)
    expect(r.outputs.passed).toBe('false')
    expect(r.stdout).toMatch(
      new RegExp(
        `::error::wait-for-check: 1 of 1 check\\(s\\) did not pass within 2 s: app \\(${check.id}\\): status down`
      )
    )
    // node start-up (~0.2 s) + 2 s timeout + at most one poll interval and one request
    expect(r.ms).toBeGreaterThanOrEqual(2000)
    expect(r.ms).toBeLessThan(2000 + 200 + 1500)
  })

  it('rejects a stale result', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1, status: 'paused' })
    Object.assign(emulator.checks.get(check.id) ?? {}, {
      status: 'up',
      lastCheckedAt: new Date(Date.now() - 3_600_000).toISOString()
    })
    const r = await gate({ 'check-id': check.id, timeout: '1s' })
    expect(r.code).toBe(1)
    expect(r.outputs.error).toContain('before this step started (stale)')
  })

  it('check-history reports count and uptime', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    await new Promise(res => setTimeout(res, 350))
    target.mode = 'down'
    await new Promise(res => setTimeout(res, 250))
    const r = await runStep({
      'api-key': KEY,
      'base-url': emulator.baseUrl,
      operation: 'check-history',
      'check-id': check.id
    })
    expect(r.code).toBe(0)
    const count = Number(r.outputs.count)
    expect(count).toBeGreaterThanOrEqual(4)
    const entries = JSON.parse(r.outputs.result) as Array<{ status: string }>
    const up = entries.filter(e => e.status === 'up').length
    expect(r.outputs.uptime).toBe(((up / count) * 100).toFixed(2))
    expect(Number(r.outputs.uptime)).toBeGreaterThan(0)
    expect(Number(r.outputs.uptime)).toBeLessThan(100)
  })
})
