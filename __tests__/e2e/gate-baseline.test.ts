/**
 * The release gate against each check's own past, through dist/index.js: the
 * probing emulator and a local target give fresh results; the history before
 * the step is seeded, as the service would have recorded it.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, useEmulator, useTarget } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator({ probe: true, timeScale: 0.1 })
const target = useTarget()

/** Results recorded 1, 2, ... minutes before now (newest first), each up with this response time. */
const pastResults = (times: number[]) =>
  times.map((responseTime, i) => ({
    status: 'up',
    responseTime,
    checkedAt: new Date(Date.now() - (i + 1) * 60_000).toISOString()
  }))

const gate = (inputs: Record<string, string>) =>
  runStep({
    'api-key': KEY,
    'base-url': emulator.baseUrl,
    operation: 'wait-for-check',
    'poll-interval': '200ms',
    baseline: '1h',
    ...inputs
  })

describe('wait-for-check with a baseline, through dist/index.js', () => {
  it('passes a release as fast as the check usually is: baseline-p95 set, the summary shows the baseline', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    emulator.history.set(check.id, pastResults(Array<number>(40).fill(400)))
    const r = await gate({ 'check-id': check.id, 'max-response-time-increase': '20%', timeout: '10s' })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ passed: 'true', outcome: 'passed', 'baseline-p95': '400' })
    expect(r.stdout).toMatch(
      new RegExp(`app \\(${check.id}\\): baseline p95 400 ms of \\d+ result\\(s\\) in the 1h before the step started`)
    )
    expect(r.summary).toContain('| Baseline p95 (ms) | Limit (ms) |')
    expect(r.summary).toMatch(/\| 400 \| 480 \|/)
  })

  it('fails a release that made the check slower, naming the check, its result, the baseline p95 and the limit', async () => {
    target.delayMs = 300
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    // 40 results: a probe the emulator makes before the step starts cannot move the p95.
    emulator.history.set(check.id, pastResults(Array<number>(40).fill(20)))
    const r = await gate({ 'check-id': check.id, 'max-response-time-increase': '50ms', timeout: '2s' })
    expect(r.code).toBe(1)
    expect(r.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out', 'baseline-p95': '20' })
    expect(r.stdout).toMatch(
      new RegExp(
        `::error::wait-for-check: 1 of 1 check\\(s\\) did not pass within 2 s: app \\(${check.id}\\): status up, response time \\d+ ms, .*: response time \\d+ ms is above the limit 70 ms \\(baseline p95 20 ms \\+50 ms\\)`
      )
    )
    const [failed] = JSON.parse(r.outputs['failed-checks']) as Array<{ baseline: { p95: number; limit: number } }>
    expect(failed.baseline).toMatchObject({ p95: 20, limit: 70 })
  })

  it('SIGINT during a slow history read: the read is cut off at once; outcome=error, summary and JUnit <error>', async () => {
    const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
    const path = `/checks/${check.id}/history`
    emulator.inject({ method: 'GET', path, trickle: 'body', trickleIntervalMs: 100, trickleForMs: 20_000 })
    const cwd = mkdtempSync(join(tmpdir(), 'gate-sigint-'))
    const r = await runStep(
      {
        'api-key': KEY,
        'base-url': emulator.baseUrl,
        operation: 'wait-for-check',
        'check-id': check.id,
        baseline: '1h',
        'max-response-time-increase': '20%',
        timeout: '60s',
        'junit-file': 'gate.xml'
      },
      {
        cwd,
        onSpawn: child => {
          const wait = setInterval(() => {
            if (emulator.count('GET', path) > 0) {
              clearInterval(wait)
              child.kill('SIGINT')
            }
          }, 20)
        }
      }
    )
    expect(r.code).toBe(1) // failed by the step itself, not ended by a signal
    expect(r.ms).toBeLessThan(5_000) // the runner's SIGTERM would come 7.5 s after the SIGINT
    expect(r.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(JSON.parse(r.outputs['failed-checks'])).toEqual([expect.objectContaining({ id: check.id })])
    expect(r.stdout).toContain(`::error::GET ${path} was cut off: the job is being cancelled`)
    expect(r.summary).toContain('Release gate')
    expect(readFileSync(join(cwd, 'gate.xml'), 'utf8')).toContain('<error')
  })
})
