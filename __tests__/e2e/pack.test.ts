/**
 * The package as users get it: `npm pack`, installed into an empty folder
 * (nothing else installed: the command is the bundle), runs
 * `monitoring-ci --help` and a get-check against the emulator.
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
  it('holds the bundle and nothing to install: monitoring-ci --help and get-check work from node_modules/.bin', async () => {
    const npm = (args: string[], cwd: string) =>
      execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false' } })
    const packed = npm(['pack', '--pack-destination', dir, '--silent'], ROOT).trim().split('\n').pop() ?? ''
    const app = join(dir, 'app')
    execFileSync('mkdir', [app])
    writeFileSync(join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}')
    npm(['install', '--omit=dev', '--no-fund', '--offline', join(dir, packed)], app)
    // Nothing but the package itself: the command is the bundle.
    expect(readdirSync(join(app, 'node_modules')).filter(name => !name.startsWith('.'))).toEqual(['monitoring-action'])
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
