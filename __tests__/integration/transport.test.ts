/**
 * One HTTP exchange under hostile conditions: trickling servers, IPv6
 * loopback, untrusted certificates, bad redirects, proxies that refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import * as net from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Emulator } from '../../emulator/server.js'
import { ApiClient } from '../../src/api/client.js'
import { ApiError } from '../../src/api/errors.js'
import { MonitoringApi } from '../../src/api/monitoring.js'
import { KEY, runAction, startEmulator, useEmulator } from '../helpers/harness.js'

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/tls/${name}`, import.meta.url)), 'utf8')

const emulator = useEmulator()

/** Resolves when the emulator has no connection open, or after `ms`. */
async function connectionsClosed(e: Emulator, ms = 2000): Promise<number> {
  const until = Date.now() + ms
  while (e.openConnections() > 0 && Date.now() < until) await new Promise(r => setTimeout(r, 20))
  return e.openConnections()
}

describe('request-timeout bounds the whole exchange', () => {
  for (const variant of ['headers', 'body'] as const) {
    it(`a server that trickles its ${variant} is cut off at the limit and the socket is closed`, async () => {
      emulator.seedCheck({ id: 'chk_1', name: 'shop', url: 'https://shop.example.com/' })
      emulator.inject({ path: '/checks/chk_1', trickle: variant, trickleIntervalMs: 50, trickleForMs: 20_000 })
      const started = Date.now()
      const { core } = await runAction(emulator, {
        operation: 'get-check',
        'check-id': 'chk_1',
        'request-timeout': '500ms',
        'max-retries': '0'
      })
      const took = Date.now() - started
      expect(core.failed).toContain('GET /checks/chk_1 timed out after 500 ms (request-timeout)')
      expect(took).toBeLessThan(3000)
      // The request was aborted and its socket destroyed: the server sees the connection go.
      expect(await connectionsClosed(emulator)).toBe(0)
    })
  }

  it('a trickled answer that completes within the limit is read normally', async () => {
    emulator.seedCheck({ id: 'chk_1', name: 'shop', url: 'https://shop.example.com/' })
    emulator.inject({ path: '/checks/chk_1', trickle: 'headers', trickleIntervalMs: 20, trickleForMs: 100 })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-id': 'chk_1' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['check-name']).toBe('shop')
  })
})

describe('a hard deadline (withDeadline(at, true)) bounds requests too, not only waits', () => {
  const api = () =>
    new MonitoringApi(
      new ApiClient({ baseUrl: emulator.baseUrl, apiKey: KEY, maxRetries: 3, requestTimeoutMs: 30_000, pacer: null })
    )
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as ApiError
    )

  it('a request in flight at the deadline is cut off there (kind deadline, not retried) and its socket closed', async () => {
    emulator.seedCheck({ id: 'chk_1', name: 'shop', url: 'https://shop.example.com/' })
    // The emulator holds the request 1.5 s; request-timeout is 30 s; the deadline comes after 300 ms.
    emulator.latency = { 'GET /checks/chk_1/history': 1_500 }
    try {
      const started = Date.now()
      const tally = { sent: 0 }
      const error = await failureOf(
        api()
          .counting(tally)
          .withDeadline(started + 300, true)
          .checkHistory('chk_1')
      )
      expect(Date.now() - started).toBeLessThan(1_000)
      expect(error).toBeInstanceOf(ApiError)
      expect(error?.kind).toBe('deadline')
      expect(error?.message).toMatch(
        /^GET \/checks\/chk_1\/history was cut off after \d+ ms: the operation's time limit was reached$/
      )
      expect(emulator.requests).toHaveLength(1)
      // It went out: a request the deadline cut off still counts against the rate limit.
      expect(tally.sent).toBe(1)
      expect(await connectionsClosed(emulator)).toBe(0)
    } finally {
      emulator.latency = {}
    }
  })

  it('no request, and no next page, is sent once the deadline has passed', async () => {
    const tally = { sent: 0 }
    const error = await failureOf(
      api()
        .counting(tally)
        .withDeadline(Date.now() - 1, true)
        .listChecks()
    )
    expect(error?.message).toBe("GET /checks was not sent: the operation's time limit was reached")
    expect(emulator.count()).toBe(0)
    // Refused before it went out: not counted.
    expect(tally.sent).toBe(0)
  })

  it('without hard, a request in flight at the deadline still ends (request-timeout bounds it)', async () => {
    emulator.seedCheck({ id: 'chk_1', name: 'shop', url: 'https://shop.example.com/' })
    emulator.latency = { 'GET /checks/chk_1/history': 600 }
    try {
      const history = await api()
        .withDeadline(Date.now() + 100)
        .checkHistory('chk_1')
      expect(history).toEqual([])
    } finally {
      emulator.latency = {}
    }
  })
})

describe('IPv6 loopback', () => {
  let v6: Emulator | undefined
  let hasIpv6 = true
  beforeAll(async () => {
    hasIpv6 = await new Promise<boolean>(resolve => {
      const probe = net.createServer()
      probe.once('error', () => resolve(false))
      probe.listen(0, '::1', () => probe.close(() => resolve(true)))
    })
    if (hasIpv6) v6 = await startEmulator({ host: '::1' })
  })
  afterAll(() => v6?.stop())

  it('http://[::1]:PORT/v1 works', async () => {
    if (!hasIpv6 || !v6) {
      console.warn('This machine has no IPv6 loopback: the [::1] test cannot run here.')
      return
    }
    expect(v6.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/v1$/)
    v6.seedCheck({ id: 'chk_6', name: 'six', url: 'https://six.example.com/' })
    const { core } = await runAction(v6, { operation: 'get-check', 'check-id': 'chk_6' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['check-name']).toBe('six')
  })
})

describe('certificates', () => {
  let secure: Emulator
  beforeAll(async () => {
    secure = await startEmulator({ tls: { key: fixture('key.pem'), cert: fixture('cert.pem') } })
  })
  afterAll(() => secure.stop())

  it('an untrusted certificate is not retried and says how to trust a CA', async () => {
    expect(secure.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:/)
    const { core, slept } = await runAction(secure, { operation: 'list-checks', 'max-retries': '3' })
    expect(core.failed).toMatch(/^GET \/checks failed: the server's TLS certificate is not trusted/)
    expect(core.failed).toContain('NODE_EXTRA_CA_CERTS')
    expect(slept).toEqual([])
    expect(secure.count()).toBe(0)
  })
})

describe('an https base-url against a plain http server', () => {
  it('is not retried, and says to check the scheme, without an OpenSSL dump', async () => {
    const { core, slept } = await runAction(emulator, {
      operation: 'list-checks',
      'base-url': emulator.baseUrl.replace(/^http:/, 'https:'),
      'max-retries': '3'
    })
    const port = new URL(emulator.baseUrl).port
    expect(core.failed).toMatch(
      new RegExp(
        `^GET /checks failed: 127\\.0\\.0\\.1:${port} did not answer in TLS \\((EPROTO|ERR_SSL_[A-Z_]+)\\): base-url says https, and the server there seems to speak plain http\\. Check the scheme \\(and the port\\) of base-url; not retried$`
      )
    )
    expect(core.failed).not.toMatch(/SSL routines|openssl|:error:/i)
    expect(slept).toEqual([])
  })
})

describe('redirects and proxies', () => {
  it('a redirect whose Location is not a URL names the redirect and is not followed', async () => {
    emulator.inject({ path: '/checks', status: 302, headers: { Location: 'http://[not a host' } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('GET /checks was redirected (HTTP 302) to an invalid Location header')
    expect(core.failed).toContain('http://[not a host')
    expect(emulator.count()).toBe(1)
  })

  it('a proxy that refuses the connection is named in the error, without its credentials', async () => {
    const closed = net.createServer()
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', () => resolve()))
    const port = (closed.address() as net.AddressInfo).port
    await new Promise<void>(resolve => closed.close(() => resolve()))
    const saved = { https: process.env.https_proxy, no: process.env.no_proxy }
    process.env.https_proxy = `http://user:secret-pw@127.0.0.1:${port}`
    delete process.env.no_proxy
    try {
      const { core } = await runAction(undefined, {
        operation: 'list-checks',
        'base-url': 'https://api.monitoring.invalid/v1',
        'max-retries': '0'
      })
      expect(core.failed).toContain(`could not get through the proxy http://127.0.0.1:${port}/`)
      expect(core.failed).toContain('HTTPS_PROXY')
      expect(core.everything()).not.toContain('secret-pw')
    } finally {
      if (saved.https === undefined) delete process.env.https_proxy
      else process.env.https_proxy = saved.https
      if (saved.no !== undefined) process.env.no_proxy = saved.no
    }
  })
})
