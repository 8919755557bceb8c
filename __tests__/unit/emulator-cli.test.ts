/** The emulator's command line: every flag checked with a clear message, --help, --port 0, a port in use. */
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { USAGE, parseCli } from '../../emulator/options.js'
import { Emulator } from '../../emulator/server.js'
import { ROOT } from '../helpers/runner.js'

describe('parseCli', () => {
  it('--help, and defaults', () => {
    expect(parseCli(['--help'], {})).toEqual({ help: true })
    expect(USAGE).toContain('--port N')
    const parsed = parseCli([], {})
    expect(parsed).toMatchObject({
      options: { port: 8080, apiKeys: ['test-key'], rateLimit: { limit: 100, windowMs: 60_000 } }
    })
  })

  it.each([
    [['--time-scale', 'fast'], '--time-scale: "fast" is not a number above 0'],
    [['--port', '99999'], '--port: "99999" is not a whole number from 0 to 65535'],
    [['--port', 'http'], '--port: "http" is not a whole number'],
    [['--rate-limit', '100'], '--rate-limit: "100" should be N/S'],
    [['--page-size', '0'], '--page-size: "0" is not a whole number from 1 to 1000'],
    [['--put', 'patch'], '--put: "patch" should be replace or merge'],
    [['--profile', 'link-pages,no-createdat'], '--profile: unknown "no-createdat"; the profiles are link-pages,'],
    [['--create-latency', 'soon'], '--create-latency: "soon" is not a duration'],
    [['--latency', 'GET'], '--latency: "GET" should be ROUTE=DURATION'],
    [['--api-key', 'a b'], '--api-key: keys are comma-separated and cannot be empty or hold spaces'],
    [['--bogus'], "Unknown option '--bogus'"]
  ])('%j: %s', (argv, message) => {
    const parsed = parseCli(argv, {})
    expect('error' in parsed && parsed.error).toContain(message)
    expect('error' in parsed && parsed.error).toContain('See npm run emulator -- --help')
    expect('error' in parsed && parsed.error).not.toMatch(/\n\s+at /) // no stack trace
  })

  it('--profile: a list of profiles, each named in --help; an option given wins over a profile', () => {
    expect(parseCli(['--profile', 'link-pages, merge-put'], {})).toMatchObject({
      options: { profiles: ['link-pages', 'merge-put'] }
    })
    expect(parseCli([], { EMULATOR_PROFILE: 'seconds' })).toMatchObject({ options: { profiles: ['seconds'] } })
    for (const name of ['no-created-at', 'cursor-pages', 'bare-objects', 'history-oldest-first']) {
      expect(USAGE).toContain(`  ${name} `)
    }
    const merged = new Emulator({ profiles: ['merge-put', 'link-pages'], putSemantics: 'replace' })
    expect(merged.options).toMatchObject({ putSemantics: 'replace', collectionStyle: 'bare' })
    expect(() => new Emulator({ profiles: ['nope'] })).toThrow('unknown profile nope: the profiles are link-pages')
  })

  it('environment variables too', () => {
    expect(parseCli([], { EMULATOR_PORT: '0', EMULATOR_RATE_LIMIT: 'off' })).toMatchObject({
      options: { port: 0, rateLimit: false }
    })
  })
})

const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs')
function cli(args: string[], ms = 8000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    const child = execFile(
      process.execPath,
      [TSX, join(ROOT, 'emulator', 'cli.ts'), ...args],
      { timeout: ms },
      (error, stdout, stderr) => resolve({ code: child.exitCode ?? (error ? 1 : 0), stdout, stderr })
    )
    child.stdout?.on('data', (d: Buffer) => {
      if (String(d).includes('Admin:')) child.kill('SIGTERM')
    })
  })
}

describe('the emulator CLI', () => {
  it('--port 0 takes a free port and prints it with the key to use', async () => {
    const r = await cli(['--port', '0', '--api-key', 'local-key'])
    expect(r.stdout).toMatch(/listening: base-url http:\/\/127\.0\.0\.1:(?!0\/)\d+\/v1/)
    expect(r.stdout).toContain('API key(s): local-key')
  })

  it('a port another process holds is refused with what to do, and no stack trace', async () => {
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
    const port = (holder.address() as AddressInfo).port
    try {
      const r = await cli(['--port', String(port)])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain(`port ${port} is in use by another process`)
      expect(r.stderr).toContain('--port 0 takes any free one')
      expect(r.stderr).not.toMatch(/\n\s+at /)
    } finally {
      holder.close()
    }
  })
})
