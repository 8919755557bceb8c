/**
 * The bundle behind a proxy, as on a self-hosted runner: the action's own
 * requests go through HTTP(S)_PROXY with @actions/http-client's tunnel agent
 * (CONNECT), `no_proxy` is honoured, and a step that loads @actions/github
 * (whose import builds Octokit's fetch through undici's ProxyAgent when a
 * proxy applies to the GitHub API) still works, with undici loaded first.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GITHUB_ENV, KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

// HTTPS (a key is only sent over plain http to a loopback host), with a
// certificate for the name the step uses, trusted through NODE_EXTRA_CA_CERTS.
const TLS = fileURLToPath(new URL('../fixtures/tls/', import.meta.url))
const emulator = useEmulator({
  tls: { key: readFileSync(TLS + 'key.pem', 'utf8'), cert: readFileSync(TLS + 'cert.pem', 'utf8') }
})

/** A CONNECT proxy that sends every tunnel to the emulator, whatever host was asked for. */
const tunnels: string[] = []
/** The Proxy-Authorization header of each CONNECT, as the proxy received it. */
const authorizations: Array<string | undefined> = []
const proxy = http.createServer((_req, res) => res.writeHead(405).end())
const open = new Set<net.Socket>()
proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
  tunnels.push(String(req.url))
  authorizations.push(req.headers['proxy-authorization'])
  open.add(socket)
  socket.on('close', () => open.delete(socket))
  const upstream = net.connect(Number(new URL(emulator.baseUrl).port), '127.0.0.1', () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    upstream.write(head)
    upstream.pipe(socket)
    socket.pipe(upstream)
  })
  upstream.on('error', () => socket.destroy())
  socket.on('error', () => upstream.destroy())
})
let proxyUrl = ''

beforeAll(async () => {
  await new Promise<void>(resolve => proxy.listen(0, '127.0.0.1', resolve))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const socket of open) socket.destroy()
  await new Promise<void>(resolve => proxy.close(() => resolve()))
})

/** The emulator by a name only the proxy can reach (loopback addresses never use a proxy). */
const viaName = () => emulator.baseUrl.replace('127.0.0.1', 'monitoring.proxied.test')

const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv, nodeArgs: string[] = []) =>
  runStep(
    { 'api-key': KEY, 'base-url': viaName(), ...inputs },
    { env: { ...GITHUB_ENV, NODE_EXTRA_CA_CERTS: TLS + 'cert.pem', ...env }, nodeArgs }
  )

describe('behind a proxy (dist/index.js)', () => {
  it('get-check goes through https_proxy as a CONNECT tunnel', async () => {
    tunnels.length = 0
    const check = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const r = await step({ operation: 'get-check', 'check-id': check.id }, { https_proxy: proxyUrl })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect(tunnels).toContain(`monitoring.proxied.test:${new URL(emulator.baseUrl).port}`)
  })

  it('tunnel is evaluated for a step through a proxy: it reads assert, which a step without one never reads (startup.test.ts)', async () => {
    const hook = join(mkdtempSync(join(tmpdir(), 'proxy-hook-')), 'builtins.cjs')
    writeFileSync(
      hook,
      "process.on('exit', () => process.stderr.write('\\nBUILTINS=' + process.moduleLoadList.filter(m => m.startsWith('NativeModule ')).map(m => m.slice(13)).join(',') + '\\n'))\n"
    )
    const check = emulator.seedCheck({ name: 'shop-tunnel', url: 'https://shop.example.com/' })
    const r = await step({ operation: 'get-check', 'check-id': check.id }, { https_proxy: proxyUrl }, [
      '--require',
      hook
    ])
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect((/BUILTINS=(.*)/.exec(r.stderr)?.[1] ?? '').split(',')).toContain('assert')
  })

  it("a proxy's user and password reach it as Proxy-Authorization, and the step prints no deprecation warning (tunnel's new Buffer)", async () => {
    authorizations.length = 0
    const check = emulator.seedCheck({ name: 'shop-auth', url: 'https://shop.example.com/' })
    const withUser = proxyUrl.replace('http://', 'http://deploy:s3cret@')
    const r = await step({ operation: 'get-check', 'check-id': check.id }, { https_proxy: withUser })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect(authorizations).toEqual(['Basic ' + Buffer.from('deploy:s3cret').toString('base64')])
    expect(r.stdout).not.toContain('s3cret')
  })

  it('a hostile proxy password (an encoded @, :, line break and ::error::) is sent byte for byte as tunnel sent it, and never printed', async () => {
    authorizations.length = 0
    const check = emulator.seedCheck({ name: 'shop-auth-hostile', url: 'https://shop.example.com/' })
    const password = 'p%40ss%3Aw%0A%3A%3Aerror%3A%3Ax'
    const r = await step(
      { operation: 'get-check', 'check-id': check.id },
      { https_proxy: proxyUrl.replace('http://', `http://deploy:${password}@`) }
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    // @actions/http-client decodes the URL's user and password, then joins them: the header holds the decoded password.
    expect(authorizations).toEqual([
      'Basic ' + Buffer.from(`deploy:${decodeURIComponent(password)}`).toString('base64')
    ])
    for (const shown of [password, decodeURIComponent(password), '::error::']) {
      expect(r.stdout).not.toContain(shown)
      expect(r.summary).not.toContain(shown)
    }
  })

  it('no_proxy that names the host sends nothing through the proxy (and the name does not resolve)', async () => {
    tunnels.length = 0
    const check = emulator.seedCheck({ name: 'shop-2', url: 'https://shop.example.com/' })
    const r = await step(
      { operation: 'get-check', 'check-id': check.id, 'max-retries': '0', 'request-timeout': '5s' },
      { https_proxy: proxyUrl, no_proxy: '.proxied.test' }
    )
    expect(r.code).toBe(1)
    expect(tunnels).toEqual([])
  })

  it('open-incident, which loads @actions/github, works with a proxy set for the GitHub API too', async () => {
    tunnels.length = 0
    const r = await step(
      { operation: 'open-incident', 'incident-title': 'Deploy failed behind a proxy' },
      { https_proxy: proxyUrl, GITHUB_API_URL: 'https://api.github.example.com' }
    )
    expect(r.stderr).toBe('')
    expect(r.stdout).not.toContain('::error::')
    expect(r.code).toBe(0)
    expect(emulator.incidents.get(r.outputs['incident-id'])?.message).toContain('/acme/shop/actions/runs/4242')
    expect(tunnels.length).toBeGreaterThan(0)
  })
})
