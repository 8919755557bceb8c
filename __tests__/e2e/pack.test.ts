/**
 * The package as users get it: `npm pack`, installed into an empty folder
 * without development dependencies, runs `monitoring-ci --help` and a
 * get-check against the emulator. (Its production dependencies are the
 * packages the bundle holds, kept as such so that `npm audit --omit=dev`
 * covers them; the command loads none of them from node_modules.)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from '@jest/globals'
import { KEY, useEmulator } from '../helpers/harness.js'
import { ROOT } from '../helpers/runner.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'pack-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the package, installed', () => {
  it('installed without development dependencies: monitoring-ci --help and get-check work from node_modules/.bin', async () => {
    const npm = (args: string[], cwd: string) =>
      execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false' } })
    const packed = npm(['pack', '--pack-destination', dir, '--silent'], ROOT).trim().split('\n').pop() ?? ''
    const app = join(dir, 'app')
    execFileSync('mkdir', [app])
    writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}')
    npm(['install', '--omit=dev', '--no-fund', '--prefer-offline', join(dir, packed)], app)
    const installed = readdirSync(join(app, 'node_modules'))
    expect(installed).toContain('monitoring-action')
    // No development dependency (the test runner, the bundler) came with it.
    expect(installed.filter(name => ['jest', '@vercel', 'typescript', 'eslint'].includes(name))).toEqual([])
    const bin = join(app, 'node_modules', '.bin', 'monitoring-ci')
    const help = execFileSync(bin, ['--help'], { encoding: 'utf8', env: { PATH: process.env.PATH } })
    expect(help).toContain('Usage: monitoring-ci <operation>')
    emulator.seedCheck({ id: 'chk_pack', name: 'packed', url: 'https://shop.example.com/' })
    const { spawn } = await import('node:child_process')
    const out = await new Promise<{ code: number | null; stdout: string }>(resolve => {
      const child = spawn(bin, ['get-check', '--check-name', 'packed'], {
        env: { PATH: process.env.PATH, MONITORING_API_KEY: KEY, MONITORING_BASE_URL: emulator.baseUrl }
      })
      let stdout = ''
      child.stdout.on('data', d => (stdout += d))
      child.on('close', code => resolve({ code, stdout }))
    })
    expect(out.code).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({ 'check-id': 'chk_pack', 'check-name': 'packed' })
  }, 120_000)
})
