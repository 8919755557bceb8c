/**
 * The rules for trust through dist/index.js, as the runner runs it:
 * secrets in every form, times without a zone, the post stage that a
 * workflow's env cannot forge, and whole values in a reviewed plan.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, until, useEmulator } from '../helpers/harness.js'
import { StepResult, runStep } from '../helpers/runner.js'
import { formsOf } from '../../src/secrets/secrets.js'

const workspace = mkdtempSync(join(tmpdir(), 'trust-'))
const emulator = useEmulator()

const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  runStep(
    { 'api-key': KEY, 'base-url': emulator.baseUrl, ...inputs },
    { cwd: workspace, env: { GITHUB_WORKSPACE: workspace, ...env } }
  )

/** Everything the step wrote that a person or a later job reads, less the runner's own mask commands. */
const written = (r: StepResult, ...files: string[]) =>
  [
    r.stdout
      .split('\n')
      .filter(l => !l.startsWith('::add-mask::'))
      .join('\n'),
    r.stderr,
    JSON.stringify(r.outputs),
    r.summary,
    ...files.map(f => readFileSync(join(workspace, f), 'utf8'))
  ].join('\n')

describe('a templated secret never shows, in any form', () => {
  // A quote, a backslash, a tab and a line break: JSON escapes each of them.
  const secret = 'se"cr\\et\tva\nlue-p@ss-0123'
  const encoded = encodeURIComponent(secret)

  it('in result, plan-file, the job summary and the log: raw, JSON-escaped and percent-encoded', async () => {
    // The service normalises URLs: it gives back the token percent-encoded.
    emulator.seedCheck({ name: 'api', url: `https://api.example.com/health?token=${encoded}&v=1`, interval: 60 })
    writeFileSync(
      join(workspace, 'secret.yml'),
      '- name: api\n  url: "https://api.example.com/health?token=${HEALTH_TOKEN}&v=2"\n  interval: 60\n'
    )
    const r = await step(
      { operation: 'sync-checks', 'checks-file': 'secret.yml', 'dry-run': 'true', 'plan-file': 'plan.json' },
      { HEALTH_TOKEN: secret }
    )
    expect(r.code).toBe(0)
    expect(r.outputs.updated).toBe('1')
    const all = written(r, 'plan.json')
    for (const form of formsOf(secret)) expect(all).not.toContain(form)
    expect(all).not.toContain(encoded.toLowerCase())
    expect(all).toContain('***')
    // and what holds JSON is still JSON
    expect(() => JSON.parse(r.outputs.result)).not.toThrow()
    expect(() => JSON.parse(readFileSync(join(workspace, 'plan.json'), 'utf8'))).not.toThrow()
  })

  it('a numeric secret keeps result and the plan file valid JSON, and the approved apply goes through', async () => {
    emulator.seedCheck({ name: 'ttl', url: 'https://t.example.com/', interval: 60, tokenTtl: 60 })
    // Declared a secret (TOKEN_TTL's last word is no secret word: without the mark, 3600 is shown).
    writeFileSync(
      join(workspace, 'ttl.yml'),
      '- name: ttl\n  url: https://t.example.com/\n  interval: 36000\n  tokenTtl: ${secret:TOKEN_TTL}\n'
    )
    const inputs = { operation: 'sync-checks', 'checks-file': 'ttl.yml' }
    const env = { TOKEN_TTL: '3600' }
    const dry = await step({ ...inputs, 'dry-run': 'true', 'plan-file': 'ttl-plan.json' }, env)
    expect(dry.code).toBe(0)
    const plan = JSON.parse(readFileSync(join(workspace, 'ttl-plan.json'), 'utf8')) as {
      checks: Array<{ changes: Record<string, { to: unknown }> }>
    }
    expect(plan.checks[0].changes.tokenTtl.to).toBe('***')
    expect(plan.checks[0].changes.interval.to).toBe(36000) // another number is never touched
    expect(JSON.parse(dry.outputs.result)[0].changes.interval.to).toBe(36000)
    const applied = await step({ ...inputs, 'approved-plan': 'ttl-plan.json' }, env)
    expect(applied.stderr + applied.stdout).not.toContain('::error::')
    expect(applied.code).toBe(0)
    expect([...emulator.checks.values()][0]).toMatchObject({ tokenTtl: 3600, interval: 36000 })
    // A number is never masked job-wide: it would spoil every later log line that holds it.
    expect(dry.stdout).not.toContain('::add-mask::3600')
  })
})

describe('times without a zone are UTC, whatever the runner time zone', () => {
  const zoneless = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().replace('Z', '')
  const gate = (id: string, tz: string) =>
    step({ operation: 'wait-for-check', 'check-id': id, timeout: '1500ms', 'poll-interval': '500ms' }, { TZ: tz })

  it('west of UTC, a 30-minute-old result never passes the gate as fresh', async () => {
    const old = emulator.seedCheck({ name: 'old', url: 'https://o.example.com/', status: 'up' })
    Object.assign(emulator.checks.get(old.id) as object, { lastCheckedAt: zoneless(30 * 60_000) })
    const r = await gate(old.id, 'America/New_York')
    expect(r.code).toBe(1)
    expect(r.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(JSON.parse(r.outputs['failed-checks'])[0].reason).toContain('before this step started (stale)')
  })

  it('east of UTC, a fresh result is fresh', async () => {
    const fresh = emulator.seedCheck({ name: 'fresh', url: 'https://f.example.com/', status: 'up' })
    // A result a moment after the step's first read (however long the step takes to start).
    const running = gate(fresh.id, 'Asia/Tokyo')
    await until(() => emulator.count('GET', `/checks/${fresh.id}`) >= 1)
    Object.assign(emulator.checks.get(fresh.id) as object, { lastCheckedAt: zoneless(0) })
    const r = await running
    expect(r.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
  })
})

describe('the post stage comes from the file the runner starts, never from the environment', () => {
  it('STATE_isPost=true in the step env does not make the main step a silent no-op: a gate on a down check fails', async () => {
    const down = emulator.seedCheck({ name: 'down', url: 'https://d.example.com/', status: 'down' })
    const r = await step(
      { operation: 'wait-for-check', 'check-id': down.id, timeout: '1s', 'poll-interval': '500ms' },
      { STATE_isPost: 'true', 'STATE_paused-check-ids': '[]' }
    )
    expect(r.code).toBe(1)
    expect(r.outputs.passed).toBe('false')
    expect(emulator.count('GET')).toBeGreaterThan(0)
  })
})

describe('a reviewed plan shows every character of what will be applied', () => {
  it('the end of a long URL is in the summary, folded under the table', async () => {
    const tail = '&notify=https://attacker.example/collect'
    const url = `https://shop.example.com/health?${'region=eu-west&'.repeat(6)}x=1${tail}`
    writeFileSync(join(workspace, 'long.yml'), `- name: shop\n  url: "${url}"\n`)
    const r = await step({ operation: 'sync-checks', 'checks-file': 'long.yml', 'dry-run': 'true' })
    expect(r.code).toBe(0)
    expect(r.summary).toContain('(whole values below)')
    expect(r.summary).toContain('<details><summary>Whole values (1)</summary>')
    expect(r.summary).toContain(tail)
    // the log line shows it whole too
    expect(r.stdout).toContain(tail)
  })
})
