/**
 * A create never makes a duplicate (src/api/create.ts; contract: "idempotent
 * re-runs", "Retries"): after an ambiguous failure (5xx, 408, a dropped
 * connection, a timeout) the collection is looked up, and only when the
 * resource is not there is the POST sent again, within `max-retries`. A 2xx
 * that cannot be read is never sent again. Over real HTTP to the emulator,
 * with the client's waits recorded instead of slept.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiClient } from '../../src/api/client.js'
import { createResource } from '../../src/api/create.js'
import { ApiError } from '../../src/api/errors.js'
import { CheckSchema } from '../../src/api/schemas.js'
import { KEY, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ rateLimit: false })

/** A client whose waits are recorded and not slept, and whose log is kept. */
function clientOf(maxRetries = 2, requestTimeoutMs = 30_000) {
  const slept: number[] = []
  const lines: string[] = []
  const client = new ApiClient({
    baseUrl: emulator.baseUrl,
    apiKey: KEY,
    maxRetries,
    requestTimeoutMs,
    pacer: null,
    random: () => 0.5,
    clock: { now: () => Date.now(), sleep: async ms => void slept.push(ms) },
    log: {
      debug: () => {},
      info: line => void lines.push(`info: ${line}`),
      warning: line => void lines.push(`warning: ${line}`)
    }
  })
  return { client, slept, lines }
}

const body = { name: 'shop', url: 'https://shop.example.com' }
const isShop = (item: { name?: unknown }) => item.name === 'shop'
const create = (client: ApiClient, before: string[] = []) =>
  createResource(client, '/checks', body, CheckSchema, 'check', { before: new Set(before), matches: isShop })
const posts = () => emulator.requests.filter(r => r.method === 'POST').length
const lists = () => emulator.requests.filter(r => r.method === 'GET').length

describe('a create answered', () => {
  it('returns what the answer holds, found by no look', async () => {
    const { client } = clientOf()
    const created = await create(client)
    expect(created.item).toMatchObject({ name: 'shop' })
    expect(created.recovered).toBe(false)
    expect([posts(), lists()]).toEqual([1, 0])
  })

  it('a client error (4xx, not 408) is thrown at once: no look, no second POST', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 422, body: { error: { message: 'url is bad' } } })
    const { client } = clientOf()
    await expect(create(client)).rejects.toThrow(/POST \/checks.*422.*url is bad/)
    expect([posts(), lists()]).toEqual([1, 0])
  })
})

describe('after an ambiguous failure: look first, send again only when nothing was made', () => {
  it('a create the server made and then failed to answer is found, not sent again', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 502 })
    const { client, lines } = clientOf()
    const created = await create(client)
    expect(created.recovered).toBe(true)
    expect(created.item).toMatchObject({ name: 'shop' })
    expect([posts(), lists()]).toEqual([1, 1])
    expect(emulator.checks.size).toBe(1)
    expect(lines).toContainEqual(`info: The check was created despite the failure: ${created.item.id}`)
    // How long it took is unknown: taken as until the failure, from this attempt's start.
    expect(created.tookMs).toBeLessThan(60_000)
    expect(lines[0]).toMatch(/^warning: .*502.*\. Looking \/checks up to see whether the check was created anyway\.$/)
  })

  it('one that existed before, or that does not match, is not taken for it', async () => {
    const old = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com' })
    emulator.seedCheck({ name: 'other', url: 'https://other.example.com' })
    emulator.inject({ method: 'POST', path: '/checks', status: 503 })
    const { client } = clientOf()
    const created = await create(client, [String(old.id)])
    expect(created.recovered).toBe(false)
    expect(created.item.id).not.toBe(old.id)
    expect(posts()).toBe(2)
  })

  it('several made during the step (racing runs): the smallest id, wherever the list shows it', async () => {
    // Listed first, a create of a racing run that this step's reads never saw (not in `before`):
    // its id after ours, then before it.
    emulator.seedCheck({ id: 'zzz_racing', name: 'shop', url: 'https://shop.example.com' })
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 500 })
    const { client } = clientOf()
    const created = await create(client)
    expect(created.item.id).not.toBe('zzz_racing')
    emulator.reset()
    emulator.seedCheck({ id: 'aaa_racing', name: 'shop', url: 'https://shop.example.com' })
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 500 })
    expect((await create(client)).item.id).toBe('aaa_racing')
  })

  it('nothing made: sent again after a backoff, said only as it is sent; after max-retries, the error says each failure was checked', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 503, body: { error: { message: 'busy' } }, times: 3 })
    const { client, slept, lines } = clientOf(2)
    const failure = await create(client).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ApiError)
    expect((failure as ApiError).status).toBe(503)
    expect((failure as ApiError).serverMessage).toBe('busy')
    expect((failure as Error).message).toMatch(
      /POST \/checks.*503.*busy.*\(3 attempts; no check was created: checked after each failure\)/
    )
    expect([posts(), lists()]).toEqual([3, 3])
    expect(slept).toHaveLength(2)
    expect(lines.filter(l => l.includes('sending POST'))).toEqual([
      `warning: No check was created; sending POST /checks again (retry 1 of 2) in ${(slept[0] / 1000).toFixed(1)} s`,
      `warning: No check was created; sending POST /checks again (retry 2 of 2) in ${(slept[1] / 1000).toFixed(1)} s`
    ])
    expect(emulator.checks.size).toBe(0)
  })

  it('a failure on the last retry but one, then an answer: made once', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 500, times: 2 })
    const { client } = clientOf(2)
    const created = await create(client)
    expect(created.recovered).toBe(false)
    expect(posts()).toBe(3)
    expect(emulator.checks.size).toBe(1)
  })

  it('a 408 and a dropped connection are ambiguous too', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 408 })
    emulator.inject({ method: 'POST', path: '/checks', drop: true })
    const { client } = clientOf(2)
    await create(client)
    expect([posts(), lists()]).toEqual([3, 2])
  })

  it('a timeout: the server may still be working, so the look waits as long again first', async () => {
    // Held 5 s: the look (after the 100 ms timeout) comes long before it lands.
    emulator.inject({ method: 'POST', path: '/checks', delayMs: 5000 })
    const { client, slept } = clientOf(0, 100)
    await expect(create(client)).rejects.toThrow(/1 attempts; no check was created/)
    expect(slept[0]).toBe(100)
  })
})

describe('a 2xx the client cannot read', () => {
  it('an empty body: looked up, and never sent again, since the server said it made one', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 201, body: '' })
    const { client } = clientOf()
    await expect(create(client)).rejects.toThrow(/POST \/checks.*201 with an empty body; expected the created check/)
    expect([posts(), lists()]).toEqual([1, 1])
  })

  it('a body of blanks is an empty body', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 200, body: ' \n ' })
    const { client } = clientOf()
    await expect(create(client)).rejects.toThrow(/200 with an empty body; expected the created check/)
  })

  it('a body without the resource, and nothing made: the error names what was expected, and it is not sent again', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 201, body: { data: { name: 'no id' } } })
    const { client } = clientOf()
    await expect(create(client)).rejects.toThrow(/the created check/)
    expect([posts(), lists()]).toEqual([1, 1])
  })

  it('a body without the resource, made all the same: found by the look', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 201, body: { data: { name: 'no id' } } })
    const { client } = clientOf()
    const created = await create(client)
    expect(created.recovered).toBe(true)
    expect([posts(), lists()]).toEqual([1, 1])
  })
})
