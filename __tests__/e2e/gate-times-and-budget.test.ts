/**
 * The gate's times and error budget through dist/index.js, as the runner runs it:
 * every zone-less time is UTC whatever the runner's TZ (a form the action
 * cannot place is never fresh); the error budget (`slo`) closing the gate
 * before any poll, or letting it pass with its figures.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator()

const gate = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  runStep(
    { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'wait-for-check', 'poll-interval': '500ms', ...inputs },
    { env }
  )

/** `2026/11/25 04:43:11`: UTC, with slashes and a space, no zone. */
const slashed = (msAgo: number) =>
  new Date(Date.now() - msAgo)
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-/g, '/')
    .replace('T', ' ')

describe('a zone-less time in another form, on a runner west of UTC', () => {
  it('"YYYY/MM/DD HH:MM:SS" 10 minutes old (UTC) is stale under TZ=America/New_York: the gate closes', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    const lastCheckedAt = slashed(10 * 60_000)
    Object.assign(emulator.checks.get(c.id) as object, { lastCheckedAt, responseTime: 80 })
    const r = await gate({ 'check-id': c.id, timeout: '1500ms' }, { TZ: 'America/New_York' })
    expect(r.code).toBe(1)
    expect(r.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(JSON.parse(r.outputs['failed-checks'])[0].reason).toBe(
      `last checked ${lastCheckedAt}, before this step started (stale), neither a pass nor a miss`
    )
  })

  it('a form the action cannot place is never fresh, and the reason says so', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    // Date.parse reads this as New York time: 5 hours in the future, "fresh"
    const lastCheckedAt = new Date(Date.now())
      .toUTCString()
      .replace(/^\w+, /, '')
      .replace(' GMT', '')
    Object.assign(emulator.checks.get(c.id) as object, { lastCheckedAt, responseTime: 80 })
    const r = await gate({ 'check-id': c.id, timeout: '1500ms' }, { TZ: 'America/New_York' })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.outputs['failed-checks'])[0].reason).toBe(
      `last checked ${JSON.stringify(lastCheckedAt)}, a time in a form the action cannot read: never counted as fresh`
    )
  })
})

describe('the error budget through dist/index.js', () => {
  /** A check's past over the emulator's admin route, as a person at a terminal gives it. */
  const seed = async (checkId: string, results: number, down: number) => {
    const answer = await fetch(`${emulator.baseUrl.replace(/\/v1$/, '')}/__emulator/history`, {
      method: 'POST',
      body: JSON.stringify({ checkId, results, everySeconds: 60, down })
    })
    expect(answer.status).toBe(200)
  }

  it('a spent budget: outcome budget-exhausted before any poll, the step fails naming the check; summary and JUnit', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up', responseTime: 80 })
    await seed(c.id, 1000, 5) // 99.5% against 99.9%: -400% left
    const cwd = mkdtempSync(join(tmpdir(), 'gate-budget-'))
    const r = await runStep(
      {
        'api-key': KEY,
        'base-url': emulator.baseUrl,
        operation: 'wait-for-check',
        'check-id': c.id,
        slo: '99.9%',
        'require-fresh': 'false',
        timeout: '30s',
        'junit-file': 'gate.xml'
      },
      { cwd, env: { GITHUB_WORKSPACE: cwd } }
    )
    expect(r.code).toBe(1)
    expect(r.outputs).toMatchObject({
      passed: 'false',
      outcome: 'budget-exhausted',
      availability: '99.5',
      'error-budget-remaining': '-400'
    })
    // A workflow command's message escapes % as %25 (the runner shows %)
    expect(r.stdout.replace(/%25/g, '%')).toContain(
      `::error::wait-for-check: the error budget is spent for 1 of 1 check(s); the gate closed before any poll: shop (${c.id}): availability 99.5% (995 of 1000 result(s) up) in the 30d before the step started against an objective of 99.9%: error budget spent (-400% left)`
    )
    expect(emulator.requests.filter(r => r.path === `/checks/${c.id}`)).toHaveLength(1) // the lookup; no poll
    expect(r.summary).toContain('Release gate closed: the error budget is spent')
    expect(r.summary).toContain('░░░░░░░░░░ spent (-400% left)')
    expect(readFileSync(join(cwd, 'gate.xml'), 'utf8')).toContain('<failure type="budget-exhausted"')
  })

  it('SIGINT during a slow (trickling) history read: cut off at once, outcome=error, never a pass', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up', responseTime: 80 })
    const path = `/checks/${c.id}/history`
    emulator.inject({ method: 'GET', path, trickle: 'body', trickleIntervalMs: 100, trickleForMs: 20_000 })
    const r = await runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'wait-for-check', 'check-id': c.id, slo: '99.9%' },
      {
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
    expect(r.code).toBe(1)
    expect(r.ms).toBeLessThan(5_000)
    expect(r.outputs).toMatchObject({ passed: 'false', outcome: 'error', availability: '' })
    expect(r.stdout).toContain(`::error::GET ${path} was cut off: the job is being cancelled`)
  })

  it('a budget left: the gate polls and passes, with availability and error-budget-remaining', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up', responseTime: 80 })
    await seed(c.id, 2000, 1) // 99.95%: half the budget left
    const r = await gate({
      'check-id': c.id,
      slo: '99.9%',
      'slo-window': '30d',
      'require-fresh': 'false',
      timeout: '30s'
    })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({
      passed: 'true',
      outcome: 'passed',
      availability: '99.95',
      'error-budget-remaining': '50'
    })
    expect(r.summary).toContain('█████░░░░░ 50% left')
    expect(JSON.parse(r.outputs.result)[0].errorBudget).toMatchObject({ results: 2000, up: 1999, spent: false })
  })
})
