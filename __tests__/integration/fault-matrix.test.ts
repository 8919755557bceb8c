/**
 * The fault matrix: each fault of the emulator against a read (get-check), an
 * update (update-check's PUT), a delete and a create (create-check's POST).
 * Each row asserts the outcome, the requests sent to the faulted endpoint, the
 * time the action chose to wait (bounded) and the message a user sees.
 * docs/reasoning/faults.md shows the same matrix in words.
 */
import { describe, expect, it } from '@jest/globals'
import type { Fault } from '../../emulator/server.js'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

type Kind = 'read' | 'update' | 'delete' | 'create'
const METHOD: Record<Kind, string> = { read: 'GET', update: 'PUT', delete: 'DELETE', create: 'POST' }
const MAX_RETRIES = 2

/** Run one kind of operation with a fault on its request; return what happened. */
async function attempt(kind: Kind, fault: Fault, extra: Record<string, string> = {}) {
  const check = emulator.seedCheck({ name: 'm', url: 'https://m.example.com/', interval: 60 })
  const pathFor = kind === 'create' ? '/checks' : `/checks/${check.id}`
  emulator.inject({ ...fault, method: METHOD[kind], path: pathFor })
  const inputs: Record<string, string> = {
    read: { operation: 'get-check', 'check-id': check.id },
    update: { operation: 'update-check', 'check-id': check.id, 'check-interval': '30' },
    delete: { operation: 'delete-check', 'check-id': check.id },
    create: { operation: 'create-check', 'check-name': 'new', 'check-url': 'https://new.example.com/' }
  }[kind]
  const started = Date.now()
  // A short request-timeout only where the fault is slowness: elsewhere a loaded machine must not turn into a timeout.
  const outcome = await runAction(emulator, {
    ...inputs,
    'max-retries': String(MAX_RETRIES),
    'request-timeout': fault.delayMs ? '300ms' : '10s',
    ...extra
  })
  const waited = outcome.slept.reduce((a, b) => a + b, 0)
  return {
    ...outcome,
    check,
    sent: emulator.count(METHOD[kind], pathFor),
    posts: emulator.count('POST'),
    realMs: Date.now() - started,
    waited,
    created: [...emulator.checks.values()].filter(c => c.name === 'new').length
  }
}

/** The action's own bound on waiting: max-retries waits, each at most 2 minutes. */
const WAIT_BOUND_MS = MAX_RETRIES * 120_000
const kinds: Kind[] = ['read', 'update', 'delete', 'create']

const transient: Array<[string, Fault]> = [
  ['429 with Retry-After in seconds', { status: 429, headers: { 'Retry-After': '3' } }],
  [
    '429 with Retry-After as an HTTP date',
    { status: 429, headers: { 'Retry-After': new Date(Date.now() + 4000).toUTCString() } }
  ],
  ['429 with only X-RateLimit-Reset', { status: 429, headers: { 'X-RateLimit-Reset': '2' } }],
  ['429 with only RateLimit-Reset', { status: 429, headers: { 'RateLimit-Reset': '2' } }],
  ['429 with no header', { status: 429 }],
  ['500 once', { status: 500 }],
  ['502 once', { status: 502 }],
  ['503 once', { status: 503 }],
  ['a dropped connection', { drop: true }],
  ['a response slower than request-timeout', { delayMs: 1000 }]
]

describe.each(transient)('%s, then success', (_name, fault) => {
  it.each(kinds)('%s: succeeds; the request is sent once more; no duplicate', async kind => {
    const r = await attempt(kind, fault)
    expect(r.core.failed).toBeUndefined()
    if (kind === 'create') {
      expect(r.created).toBe(1)
      // a 429 was a refusal: resent; an ambiguous failure: looked up, found nothing, resent
      expect(r.posts).toBe(2)
    } else {
      expect(r.sent).toBe(2)
    }
    if (kind === 'delete') expect(emulator.checks.has(r.check.id)).toBe(false)
    if (kind === 'update') expect(emulator.checks.get(r.check.id)?.interval).toBe(30)
    expect(r.waited).toBeLessThanOrEqual(WAIT_BOUND_MS)
    if (fault.status === 429 && fault.headers) expect(r.waited).toBeGreaterThanOrEqual(1000)
  })
})

const forever: Array<[string, Fault, RegExp]> = [
  [
    '429 forever',
    { status: 429, headers: { 'Retry-After': '1' }, times: Infinity },
    /was rate limited \(HTTP 429\) after 3 attempts/
  ],
  ['500 forever', { status: 500, times: Infinity }, /failed: HTTP 500 Internal Server Error/],
  ['503 forever', { status: 503, times: Infinity }, /failed: HTTP 503 Service Unavailable/],
  [
    'dropped forever',
    { drop: true, times: Infinity },
    /failed: the connection was (reset \[ECONNRESET\]|dropped before an answer)/
  ],
  [
    'slower than request-timeout forever',
    { delayMs: 1000, times: Infinity },
    /timed out after 300 ms \(request-timeout\)/
  ]
]

describe.each(forever)('%s', (_name, fault, message) => {
  it.each(kinds)('%s: fails after max-retries with a clear message; nothing created', async kind => {
    const r = await attempt(kind, fault)
    expect(r.core.failed).toMatch(message)
    expect(r.core.failed).toMatch(new RegExp(`^${METHOD[kind]} /checks`))
    expect(kind === 'create' ? r.posts : r.sent).toBe(MAX_RETRIES + 1)
    if (kind === 'create') {
      expect(r.created).toBe(0)
      if (fault.status !== 429) expect(r.core.failed).toContain('no check was created')
    }
    expect(r.waited).toBeLessThanOrEqual(WAIT_BOUND_MS + 3 * 300)
    expect(r.realMs).toBeLessThan(10_000)
  })
})

describe('a write applied, then answered with a failure', () => {
  it.each<[string, Fault]>([
    ['500', { after: true, status: 500 }],
    ['a dropped connection', { after: true, drop: true }]
  ])('%s: no duplicate create, and the result is right', async (_name, fault) => {
    const create = await attempt('create', fault)
    expect(create.core.failed).toBeUndefined()
    expect(create.created).toBe(1)
    expect(create.posts).toBe(1)
    emulator.reset()
    const update = await attempt('update', fault)
    expect(update.core.failed).toBeUndefined()
    expect(update.sent).toBe(2)
    expect(emulator.checks.get(update.check.id)?.interval).toBe(30)
    emulator.reset()
    const del = await attempt('delete', fault)
    expect(del.core.failed).toBeUndefined()
    expect(del.core.outputs.changed).toBe('true')
    expect(del.sent).toBe(2)
  })
})

describe('answers that are not retried', () => {
  it.each(kinds)('%s: malformed JSON on a 200', async kind => {
    const r = await attempt(kind, { status: 200, body: '{"data": {', headers: { 'Content-Type': 'application/json' } })
    if (kind === 'delete') {
      // a 2xx to a DELETE is success whatever its body
      expect(r.core.failed).toBeUndefined()
    } else if (kind === 'create') {
      // nothing was created by this fault, and a 2xx is never resent blindly
      expect(r.core.failed).toMatch(/^POST \/checks returned HTTP 200 but its body is not JSON/)
      expect(r.posts).toBe(1)
    } else {
      expect(r.core.failed).toMatch(
        new RegExp(`^${METHOD[kind]} /checks/chk_\\w+ returned HTTP 200 but its body is not JSON`)
      )
      expect(r.sent).toBe(1)
    }
  })

  it('a create answered 201 with an unreadable body is found by a lookup, not sent again', async () => {
    const r = await attempt('create', { after: true, status: 201, body: '<html>created</html>' })
    expect(r.core.failed).toBeUndefined()
    expect(r.created).toBe(1)
    expect(r.posts).toBe(1)
    expect(r.core.outputs['check-id']).toMatch(/^chk_/)
  })

  it.each<[string, Fault['body'], string]>([
    ['error.message', { error: { message: 'bad interval' } }, 'bad interval'],
    ['error as a string', { error: 'bad interval' }, 'bad interval'],
    ['message', { message: 'bad interval' }, 'bad interval'],
    ['errors[]', { errors: [{ message: 'bad interval' }, { message: 'bad url' }] }, 'bad interval; bad url'],
    ['plain text', 'bad interval', 'bad interval'],
    ['an HTML page', '<html><head><title>Bad Request</title></head><body>...</body></html>', 'Bad Request'],
    ['no body', '', '']
  ])('400 with %s: not retried; the message is shown', async (_name, body, message) => {
    for (const kind of kinds) {
      emulator.reset()
      const r = await attempt(kind, { status: 400, body })
      expect(r.core.failed).toBe(
        `${METHOD[kind]} /checks${kind === 'create' ? '' : `/${r.check.id}`} failed: HTTP 400 Bad Request${message ? `: ${message}` : ''}`
      )
      expect(kind === 'create' ? r.posts : r.sent).toBe(1)
    }
  })

  it.each([401, 403, 404])('%i is not retried', async status => {
    for (const kind of ['update', 'create'] as Kind[]) {
      emulator.reset()
      const r = await attempt(kind, { status, body: { error: { message: 'no' } } })
      expect(r.core.failed).toContain(`failed: HTTP ${status}`)
      expect(kind === 'create' ? r.posts : r.sent).toBe(1)
    }
  })
})
