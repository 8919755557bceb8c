import { describe, expect, it } from '@jest/globals'
import dns from 'node:dns'
import { KEY, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/'
const create = { operation: 'create-check', 'check-name': 'shop', 'check-url': site }

describe('server errors and the network', () => {
  it('retries a 503 on GET and succeeds', async () => {
    emulator.inject({ path: '/checks', status: 503, times: 2 })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    expect(emulator.count()).toBe(3)
  })

  it('a 500 storm ends after max-retries naming method, path, status and message', async () => {
    emulator.inject({ status: 500, body: { message: 'database on fire' }, times: Infinity })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-id': 'chk_1' })
    expect(core.failed).toBe(
      'GET /checks/chk_1 failed: HTTP 500 Internal Server Error: database on fire (after 4 attempts)'
    )
    expect(emulator.count()).toBe(4)
  })

  it('an HTML error page is reported by its title, not its markup', async () => {
    emulator.inject({
      status: 502,
      body: '<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>',
      times: Infinity
    })
    const { core } = await runAction(emulator, { operation: 'list-checks', 'max-retries': '0' })
    expect(core.failed).toBe('GET /checks failed: HTTP 502 Bad Gateway: 502 Bad Gateway')
  })

  it('a request slower than request-timeout fails with a timeout after retries', async () => {
    emulator.inject({ path: '/checks', delayMs: 1500, times: Infinity })
    const started = Date.now()
    const { core } = await runAction(emulator, {
      operation: 'list-checks',
      'request-timeout': '200ms',
      'max-retries': '1'
    })
    expect(core.failed).toBe('GET /checks timed out after 200 ms (request-timeout) (after 2 attempts)')
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('a dropped connection on GET is retried', async () => {
    emulator.inject({ path: '/checks', drop: true })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    expect(emulator.count()).toBe(2)
  })

  it('connection refused names the cause', async () => {
    const { core } = await runAction(undefined, {
      operation: 'list-checks',
      'base-url': 'http://127.0.0.1:1/v1',
      'max-retries': '0'
    })
    expect(core.failed).toContain('GET /checks failed: connection refused')
  })

  it('a refused connection names the base URL tried, and is retried (a service restarting comes back)', async () => {
    const { core } = await runAction(undefined, {
      operation: 'list-checks',
      'base-url': 'http://127.0.0.1:1/v1/',
      'max-retries': '2'
    })
    expect(core.failed).toBe(
      'GET /checks failed: connection refused (is base-url right, and is the service up?) [ECONNREFUSED], trying base-url http://127.0.0.1:1/v1 (after 3 attempts)'
    )
    expect(core.logs.filter(l => l.includes('retry'))).toHaveLength(2)
  })

  it('an unknown host (ENOTFOUND) names the host and the base URL, and is not retried: retrying cannot help', async () => {
    // The resolver's answer, the same on every machine (an offline one would say EAI_AGAIN for any name).
    const realLookup = dns.lookup
    const patched = ((host: string, ...rest: unknown[]) => {
      const callback = rest.at(-1) as (error: NodeJS.ErrnoException) => void
      if (host !== 'api.monitoring.invalid') return (realLookup as (...a: unknown[]) => void)(host, ...rest)
      process.nextTick(() =>
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host }))
      )
    }) as typeof dns.lookup
    dns.lookup = patched
    try {
      const { core } = await runAction(undefined, {
        operation: 'list-checks',
        'base-url': 'https://api.monitoring.invalid/v1',
        'max-retries': '3'
      })
      expect(core.failed).toBe(
        'GET /checks failed: the host name api.monitoring.invalid does not resolve [ENOTFOUND], trying base-url https://api.monitoring.invalid/v1; not retried: check base-url'
      )
      expect(core.logs.filter(l => l.includes('retry'))).toEqual([])
      expect(core.everything()).not.toContain(KEY)
    } finally {
      dns.lookup = realLookup
    }
  })

  it('malformed JSON on a 200 is a clear error', async () => {
    emulator.inject({
      path: '/checks',
      status: 200,
      body: '{"data": [',
      headers: { 'Content-Type': 'application/json' }
    })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBe('GET /checks returned HTTP 200 but its body is not JSON: "{\\"data\\": ["')
  })

  it('a 200 whose JSON is not the resource (no id) is a clear error naming the field', async () => {
    emulator.inject({ path: '/checks/chk_1', status: 200, body: { data: { name: 'no id here' } } })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-id': 'chk_1' })
    expect(core.failed).toMatch(/^GET \/checks\/chk_1 returned a check that does not match the API: id: /)
  })

  it('a 200 that is not a list where a list is due is a clear error', async () => {
    emulator.inject({ path: '/checks', status: 200, body: { data: { id: 'x' } } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('GET /checks returned HTTP 200 but not a list')
  })

  it('a failed write still sets the outputs already known (the target)', async () => {
    const check = emulator.seedCheck({ name: 'known', url: site, status: 'up' })
    emulator.inject({ method: 'PUT', status: 400, body: { error: { message: 'no' } } })
    const { core } = await runAction(emulator, {
      operation: 'update-check',
      'check-name': 'known',
      'check-interval': '5'
    })
    expect(core.failed).toBe(`PUT /checks/${check.id} failed: HTTP 400 Bad Request: no`)
    expect(core.outputs).toMatchObject({
      'check-id': check.id,
      'check-name': 'known',
      'check-status': 'up',
      error: core.failed
    })
    const inc = emulator.seedIncident({ title: 'T' })
    emulator.inject({ method: 'PUT', status: 400 })
    const incident = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': 'T' })
    expect(incident.core.outputs['incident-id']).toBe(inc.id)
  })

  it('a 404 on PUT is not retried', async () => {
    const check = emulator.seedCheck({ name: 'x', url: site })
    emulator.inject({ method: 'PUT', status: 404, body: { error: { message: 'gone' } } })
    const { core } = await runAction(emulator, {
      operation: 'update-check',
      'check-id': check.id,
      'check-interval': '5'
    })
    expect(core.failed).toBe(`PUT /checks/${check.id} failed: HTTP 404 Not Found: gone`)
    expect(emulator.count('PUT')).toBe(1)
  })
})

describe('creates are never duplicated', () => {
  it('a POST applied then answered with 500 is found, not sent again', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 500 })
    const { core } = await runAction(emulator, create)
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(1)
    expect(emulator.count('POST')).toBe(1)
    expect(core.outputs['check-id']).toBe([...emulator.checks.keys()][0])
  })

  it('a POST applied then dropped is found, not sent again', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, drop: true })
    const { core } = await runAction(emulator, create)
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(1)
    expect(emulator.count('POST')).toBe(1)
  })

  it('a POST that failed before anything was created is sent again', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 503 })
    const { core } = await runAction(emulator, create)
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(1)
    expect(emulator.count('POST')).toBe(2)
  })

  it('an existing check with the same name and URL is not mistaken for the new one', async () => {
    const old = emulator.seedCheck({ name: 'shop', url: site })
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 500 })
    const { core } = await runAction(emulator, create)
    expect(core.failed).toBeUndefined()
    expect(core.outputs['check-id']).not.toBe(old.id)
    expect(emulator.checks.size).toBe(2)
  })

  it('a POST that times out while the server still applies it makes one check', async () => {
    // The server finishes 250 ms after the client gave up; the lookup waits request-timeout first.
    emulator.inject({ method: 'POST', path: '/checks', delayMs: 550 })
    const { core, slept } = await runAction(emulator, { ...create, 'request-timeout': '300ms' }, { timeScale: 1 })
    expect(slept[0]).toBe(300)
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(1)
  })

  it('an upsert re-run after an ambiguous failure never makes two checks', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 502, times: Infinity })
    const upsert = { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site }
    await runAction(emulator, upsert)
    await runAction(emulator, upsert)
    expect(emulator.checks.size).toBe(1)
  })

  it('a POST failing forever says no check was created', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 500, times: Infinity })
    const { core } = await runAction(emulator, { ...create, 'max-retries': '1' })
    expect(core.failed).toContain('POST /checks failed: HTTP 500')
    expect(core.failed).toContain('no check was created')
    expect(emulator.checks.size).toBe(0)
    expect(emulator.count('POST')).toBe(2)
  })
})
