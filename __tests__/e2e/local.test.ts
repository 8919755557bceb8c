/** `npm run local`: refuses a port another process holds; stops every process it started, however it ends. */
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { createConnection, createServer } from 'node:net'
import { join } from 'node:path'
import { ROOT } from '../helpers/runner.js'

const SCRIPT = join(ROOT, 'scripts', 'local-action.sh')
const run = () =>
  new Promise<{ code: number; stdout: string; stderr: string }>(resolve => {
    execFile('bash', [SCRIPT], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
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
    expect(await listening(8080)).toBe(false)
  }, 60_000)
})
