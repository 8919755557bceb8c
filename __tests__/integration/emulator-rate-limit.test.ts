/**
 * The emulator's rate limit set while it runs (`setRateLimit`), as a
 * simulation sets one for each round: the new limit holds from the next
 * request, with or without its headers, every window starts afresh, and the
 * windows opened are recorded (`rateWindowStarts`) until a reset.
 */
import { describe, expect, it } from '@jest/globals'
import { KEY, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ rateLimit: false })
const list = () => fetch(`${emulator.baseUrl}/checks`, { headers: { Authorization: `Bearer ${KEY}` } })

describe('emulator rate limit set while it runs', () => {
  it('a limit set between requests holds from the next one; off again, nothing is refused', async () => {
    for (let i = 0; i < 5; i++) expect((await list()).status).toBe(200)
    expect(emulator.rateWindowStarts).toEqual([])

    emulator.setRateLimit({ rateLimit: { limit: 2, windowMs: 2_000 }, rateLimitHeaders: true })
    const first = await list()
    expect(first.status).toBe(200)
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1')
    expect(first.headers.get('ratelimit-limit')).toBe('2')
    expect((await list()).status).toBe(200)
    const refused = await list()
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(emulator.options.rateLimit).toEqual({ limit: 2, windowMs: 2_000 })
    expect(emulator.rateWindowStarts).toHaveLength(1)

    emulator.setRateLimit({ rateLimit: false, rateLimitHeaders: true })
    for (let i = 0; i < 5; i++) expect((await list()).status).toBe(200)
  })

  it('without its headers: only the 429 and Retry-After say it; a reset forgets the windows, not the limit', async () => {
    emulator.setRateLimit({ rateLimit: { limit: 1, windowMs: 1_000 }, rateLimitHeaders: false })
    const served = await list()
    expect(served.status).toBe(200)
    expect(served.headers.get('x-ratelimit-remaining')).toBeNull()
    expect(served.headers.get('ratelimit-remaining')).toBeNull()
    const refused = await list()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(refused.headers.get('x-ratelimit-remaining')).toBeNull()
    await new Promise(resolve => setTimeout(resolve, 1_050))
    expect((await list()).status).toBe(200)
    expect(emulator.rateWindowStarts).toHaveLength(2)
    const [a, b] = emulator.rateWindowStarts
    expect(b - a).toBeGreaterThanOrEqual(1_000)

    emulator.reset()
    expect(emulator.rateWindowStarts).toEqual([])
    expect((await list()).status).toBe(200)
    expect((await list()).status).toBe(429)
    emulator.setRateLimit({ rateLimit: false, rateLimitHeaders: true })
  })
})
