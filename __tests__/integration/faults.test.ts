import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Emulator } from '../../emulator/server.js'
import { KEY, runAction, startEmulator } from '../helpers/harness.js'

let emulator: Emulator
beforeAll(async () => {
  emulator = await startEmulator()
})
afterAll(() => emulator.stop())
beforeEach(() => emulator.reset())

const site = 'https://shop.example.com/'
const create = { operation: 'create-check', 'check-name': 'shop', 'check-url': site }

describe('authentication', () => {
  it('a 401 says where keys are found, is not retried, and never shows the key', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': 'wrong-key-value-123' })
    expect(core.failed).toContain('GET /checks failed: HTTP 401 Unauthorized: Invalid API key')
    expect(core.failed).toContain('account settings, under "API access"')
    expect(emulator.count()).toBe(1)
    expect(core.everything()).not.toContain('wrong-key-value-123')
  })

  it('a server that echoes the key in its error never gets it into outputs or the summary', async () => {
    emulator.inject({ path: '/checks', status: 400, body: { error: `bad key ${KEY}` } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('bad key ***')
    expect(core.everything()).not.toContain(KEY)
  })
})

describe('rate limit', () => {
  it('waits as Retry-After says and succeeds', async () => {
    emulator.inject({ path: '/checks', status: 429, headers: { 'Retry-After': '2' }, times: 2 })
    const { core, slept } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    expect(slept).toEqual([2000, 2000])
    expect(emulator.count('GET', '/checks')).toBe(3)
  })

  it('understands Retry-After as an HTTP date and X-RateLimit-Reset as a Unix time', async () => {
    const inFiveSeconds = new Date(Date.now() + 5000).toUTCString()
    emulator.inject({ path: '/checks', status: 429, headers: { 'Retry-After': inFiveSeconds } })
    emulator.inject({
      path: '/checks',
      status: 429,
      headers: { 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3) }
    })
    const { core, slept } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    expect(slept[0]).toBeGreaterThan(3000)
    expect(slept[0]).toBeLessThanOrEqual(5000)
    expect(slept[1]).toBeGreaterThan(1000)
    expect(slept[1]).toBeLessThanOrEqual(4000)
  })

  it('a 429 storm ends after max-retries with a message that names the rate limit', async () => {
    emulator.inject({ path: '/checks', status: 429, times: Infinity })
    const { core, slept } = await runAction(emulator, { operation: 'list-checks', 'max-retries': '2' })
    expect(core.failed).toContain('GET /checks was rate limited (HTTP 429) after 3 attempts')
    expect(core.failed).toContain('100 requests a minute')
    expect(emulator.count()).toBe(3)
    expect(slept).toHaveLength(2)
  })

  it('a wait longer than 2 minutes is not made', async () => {
    emulator.inject({ path: '/checks', status: 429, headers: { 'Retry-After': '600' } })
    const { core, slept } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('asked to wait 600 s, more than the 2 minutes')
    expect(slept).toHaveLength(0)
  })

  it('a 429 on a POST is simply retried: it was refused, not created', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 429, headers: { 'Retry-After': '1' } })
    const { core } = await runAction(emulator, create)
    expect(core.failed).toBeUndefined()
    expect(emulator.count('POST')).toBe(2)
    expect(emulator.checks.size).toBe(1)
  })

  it('the real limit of the emulator (429 with Retry-After) is survived', async () => {
    const limited = await startEmulator({ rateLimit: { limit: 3, windowMs: 1000 } })
    try {
      for (let i = 0; i < 3; i++) limited.seedCheck({ name: `c${i}`, url: site })
      const { core } = await runAction(
        limited,
        { operation: 'pause-check', 'check-name': 'c0,c1,c2' },
        { timeScale: 1 }
      )
      expect(core.failed).toBeUndefined()
      expect(limited.requests.filter(r => r.status === 429).length).toBeGreaterThan(0)
      expect([...limited.checks.values()].every(c => c.status === 'paused')).toBe(true)
    } finally {
      await limited.stop()
    }
  })
})

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

describe('redirects and pagination never take the key elsewhere', () => {
  let other: http.Server
  let otherUrl: string
  const seen: string[] = []
  beforeAll(async () => {
    other = http.createServer((req, res) => {
      seen.push(String(req.headers.authorization ?? ''))
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end('[]')
    })
    await new Promise<void>(r => other.listen(0, '127.0.0.1', () => r()))
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>(r => other.close(() => r())))

  it('a redirect to another origin is an error and is not followed', async () => {
    emulator.inject({ path: '/checks', status: 302, headers: { Location: `${otherUrl}/v1/checks` } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('was redirected (HTTP 302) to another origin')
    expect(seen).toHaveLength(0)
  })

  it('a redirect within the origin is followed', async () => {
    emulator.seedCheck({ name: 'x', url: site })
    emulator.inject({ path: '/old-checks', status: 301, headers: { Location: '/v1/checks' } })
    const { core } = await runAction(emulator, {
      operation: 'get-check',
      'check-name': 'x',
      'base-url': emulator.baseUrl
    })
    expect(core.failed).toBeUndefined()
  })

  it('a next-page link to another origin is an error and is not followed', async () => {
    emulator.inject({
      path: '/checks',
      status: 200,
      body: { data: [], links: { next: `${otherUrl}/v1/checks?page=2` } }
    })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('next-page link to another origin')
    expect(seen).toHaveLength(0)
  })

  it('a next link that loops is stopped', async () => {
    emulator.inject({ path: '/checks', status: 200, headers: { Link: '</v1/checks>; rel="next"' }, body: [], times: 3 })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('next-page link to a page already read')
  })
})

describe('fail-on-error: false', () => {
  it('ends green with a warning and the error output', async () => {
    const { core } = await runAction(emulator, {
      operation: 'get-check',
      'check-id': 'chk_none',
      'fail-on-error': 'false'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.error).toContain('check chk_none not found')
    expect(core.logs.some(l => l.startsWith('warning:') && l.includes('fail-on-error is false'))).toBe(true)
  })

  it('also in the post step: a resume that fails is a warning', async () => {
    const check = emulator.seedCheck({ name: 'p', url: site, status: 'up' })
    const inputs = {
      operation: 'pause-check',
      'check-id': check.id,
      'auto-resume': 'true',
      'fail-on-error': 'false',
      'max-retries': '0'
    }
    const main = await runAction(emulator, inputs)
    emulator.inject({ method: 'PUT', status: 500, times: Infinity })
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect(
      post.core.logs.some(
        l =>
          l.startsWith('warning: auto-resume could not resume 1 of 1 check(s)') &&
          l.includes(`PUT /checks/${check.id} failed: HTTP 500`)
      )
    ).toBe(true)
    const strict = await runAction(emulator, { ...inputs, 'fail-on-error': 'true' }, { state: main.core.state })
    expect(strict.core.failed).toContain(`PUT /checks/${check.id} failed: HTTP 500`)
  })

  it('also for bad input', async () => {
    const { core } = await runAction(emulator, { operation: 'get-check', 'fail-on-error': 'false', timeout: 'soon' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.error).toContain('timeout must be a duration')
  })
})

describe('bad input', () => {
  it('fails before any request, naming the input', async () => {
    const { core } = await runAction(emulator, {
      operation: 'create-check',
      'check-name': 'x',
      'check-url': site,
      'check-interval': 'abc'
    })
    expect(core.failed).toBe('check-interval must be a whole number, got "abc"')
    expect(emulator.count()).toBe(0)
  })

  it('refuses plain http to a non-loopback host', async () => {
    const { core } = await runAction(undefined, { operation: 'list-checks', 'base-url': 'http://api.example.com/v1' })
    expect(core.failed).toContain('base-url must use https')
  })
})

describe('secrets', () => {
  it('the key is masked before anything else is printed or sent', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    const firstNonInput = core.calls.find(c => c !== 'getInput')
    expect(firstNonInput).toBe('setSecret')
    expect(emulator.requests.length).toBe(1)
  })
})

describe('a key pasted with a line break', () => {
  it('is masked whole and line by line, and refused before any request', async () => {
    const { core } = await runAction(emulator, {
      operation: 'list-checks',
      'api-key': 'first-half-1234\nsecond-half-5678'
    })
    expect(core.secrets).toEqual(
      expect.arrayContaining(['first-half-1234\nsecond-half-5678', 'first-half-1234', 'second-half-5678'])
    )
    expect(core.failed).toBe('api-key must be a single token without spaces, line breaks or control characters')
    expect(emulator.count()).toBe(0)
  })
})

describe('bounds', () => {
  it('a response body over 10 MiB is not read into memory', async () => {
    emulator.inject({ path: '/checks', status: 200, body: 'x'.repeat(11 * 1024 * 1024) })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBe('GET /checks answered with a body larger than 10485760 bytes; not read')
  })

  it('more than 100 pages is an error, not an endless read', async () => {
    const paged = await startEmulator({ pageSize: 1 })
    try {
      for (let i = 0; i < 101; i++) paged.seedCheck({ name: `c${i}`, url: site })
      const { core } = await runAction(paged, { operation: 'list-checks' })
      expect(core.failed).toContain('has more than 100 pages; stopped')
      expect(paged.count('GET')).toBe(100)
    } finally {
      await paged.stop()
    }
  })

  it('a result too large for an output is replaced by a note; the step still succeeds', async () => {
    emulator.seedCheck({ name: 'big', url: site, notes: 'n'.repeat(600 * 1024) })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    const result = JSON.parse(core.outputs.result)
    expect(result).toMatchObject({ truncated: true })
    expect(result.note).toContain('(1 items)')
    expect(core.outputs.count).toBe('1')
  })

  it('a summary of many checks is cut to 500 rows with a note', async () => {
    for (let i = 0; i < 520; i++) emulator.seedCheck({ name: `c${i}`, url: site })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.summaryText).toContain('_20 more rows not shown._')
    expect(core.outputs.count).toBe('520')
  })

  it('a summary that cannot be written is a warning, not a failure', async () => {
    const { core } = await runAction(
      emulator,
      { operation: 'list-checks' },
      {
        prepare: c => {
          c.summary = {
            addRaw: () => ({
              write: async () => {
                throw new Error('disk full')
              }
            })
          }
        }
      }
    )
    expect(core.failed).toBeUndefined()
    expect(core.logs).toContain('warning: The job summary could not be written: disk full')
    expect(core.outputs.count).toBe('0')
  })
})
