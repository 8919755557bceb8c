/**
 * `npm run local`: refuses a port another process holds; stops every process it started, however it
 * ends; exits with the action's result; writes the action's files into a temporary workspace, never
 * into the repository.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../helpers/runner.js'

const SCRIPT = join(ROOT, 'scripts', 'local-action.sh')
// Each run's temporary folder goes under this one (TMPDIR), removed at the end.
const TMP = mkdtempSync(join(tmpdir(), 'local-test-'))
afterAll(() => rmSync(TMP, { recursive: true, force: true }))

const run = (args: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>(resolve => {
    execFile(
      'bash',
      [SCRIPT, ...args],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, TMPDIR: TMP, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    )
  })
const listening = (port: number) =>
  new Promise<boolean>(resolve => {
    const socket = createConnection({ port, host: '127.0.0.1' })
    socket.on('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
/** A port free a moment ago, for LOCAL_PORT (so these tests need not wait for 8080). */
const freePort = () =>
  new Promise<number>(resolve => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })
const inputsFile = (name: string, lines: string[]) => {
  const file = join(TMP, name)
  writeFileSync(file, [...lines, 'INPUT_API-KEY=local-key', 'GITHUB_REPOSITORY=acme/shop', ''].join('\n'))
  return file
}

describe('npm run local', () => {
  it('refuses port 8080 when another process holds it', async () => {
    if (await listening(8080)) return // someone else's 8080: this machine cannot tell
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(8080, '127.0.0.1', resolve))
    try {
      const r = await run()
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('port 8080 is in use by another process: stop it first')
    } finally {
      holder.close()
    }
  })

  it('runs the action against its own emulator, then leaves nothing running', async () => {
    if (await listening(8080)) return
    const r = await run()
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Job summary')
    expect(r.stdout).toContain('The action succeeded.')
    expect(await listening(8080)).toBe(false)
  }, 60_000)

  it('exits 1 when the action fails, and says so', async () => {
    const port = await freePort()
    const inputs = inputsFile('fail.env', ['INPUT_OPERATION=get-check', 'INPUT_CHECK-ID=no-such-check'])
    const r = await run([inputs], { LOCAL_PORT: String(port) })
    expect(r.stdout).toContain('check no-such-check not found')
    expect(r.stderr).toContain('The action failed (exit status 1).')
    expect(r.code).toBe(1)
    expect(await listening(port)).toBe(false)
  }, 60_000)

  it("is quiet by default: the action's own lines, its outputs, its summary; --verbose adds the banner", async () => {
    const port = await freePort()
    const inputs = inputsFile('quiet.env', ['INPUT_OPERATION=list-checks'])
    const r = await run([inputs], { LOCAL_PORT: String(port) })
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('Checks (0)')
    expect(r.stdout).toContain('Outputs:\n  result: []\n  count: 0')
    expect(r.stdout).not.toMatch(/Action Metadata|Emulator:|::debug::|::add-mask::|::set-output/)
    expect(lines.length).toBeLessThan(20)
    const verbose = await run([inputs, '--verbose'], { LOCAL_PORT: String(port) })
    expect(verbose.stdout).toContain('Action Metadata')
    expect(verbose.stdout).toContain(`Emulator: http://127.0.0.1:${port}/v1`)
  }, 60_000)

  it('writes relative file inputs into a temporary workspace it names, never into the repository', async () => {
    const port = await freePort()
    const before = readdirSync(ROOT).sort()
    const inputs = inputsFile('export.env', [
      'INPUT_OPERATION=export-checks',
      'INPUT_CHECKS-FILE=exported-checks.yml',
      // An INPUT_BASE-URL in the file is replaced by the emulator's.
      'INPUT_BASE-URL=http://127.0.0.1:1/v1'
    ])
    const r = await run([inputs, '--verbose'], { LOCAL_PORT: String(port) })
    expect(r.code).toBe(0)
    expect(readdirSync(ROOT).sort()).toEqual(before)
    expect(existsSync(join(ROOT, 'exported-checks.yml'))).toBe(false)
    const workspace = /workspace \(relative file inputs land here\): (\S+)/.exec(r.stdout)?.[1]
    expect(workspace?.startsWith(TMP)).toBe(true)
    expect(readFileSync(join(workspace as string, 'exported-checks.yml'), 'utf8')).toContain('written by export-checks')
    expect(r.stdout).toContain(`Emulator: http://127.0.0.1:${port}/v1`)
  }, 60_000)

  it('runs against another API given by LOCAL_BASE_URL, starting no emulator', async () => {
    const port = await freePort()
    const inputs = inputsFile('other.env', ['INPUT_OPERATION=list-checks', 'INPUT_MAX-RETRIES=0'])
    const r = await run([inputs, '--verbose'], { LOCAL_BASE_URL: `http://127.0.0.1:${port}/v1` })
    expect(r.stdout).toContain(`API: http://127.0.0.1:${port}/v1 (LOCAL_BASE_URL; no emulator started)`)
    // Nothing listens there: the action fails, and so does the script.
    expect(r.code).toBe(1)
    expect(await listening(port)).toBe(false)
  }, 60_000)
})
