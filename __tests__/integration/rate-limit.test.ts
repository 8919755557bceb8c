/** The rate limit: Retry-After and reset headers, 429 on a POST, the emulator's real limit. */
import { describe, expect, it } from '@jest/globals'
import { runAction, startEmulator, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/'
const create = { operation: 'create-check', 'check-name': 'shop', 'check-url': site }

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

  it.each(['1.', '.5', '-5', 'soon', '2026-11-26T12:00:30Z'])(
    'an unreadable Retry-After (%s) is backed off as if absent, and quoted in the log',
    async value => {
      emulator.inject({ path: '/checks', status: 429, headers: { 'Retry-After': value }, times: 2 })
      const { core, slept } = await runAction(emulator, { operation: 'list-checks' })
      expect(core.failed).toBeUndefined()
      expect(emulator.count('GET', '/checks')).toBe(3)
      // The back-off of attempts 1 and 2: 250-500 ms and 500-1000 ms, never a date of 2001's wait of 0.
      expect(slept).toHaveLength(2)
      expect(slept[0]).toBeGreaterThanOrEqual(250)
      expect(slept[1]).toBeGreaterThanOrEqual(500)
      const retries = core.logs.filter(l => l.includes('GET /checks: rate limited'))
      expect(retries).toHaveLength(2)
      for (const line of retries) {
        expect(line).toContain(`could not read Retry-After ${JSON.stringify(value)}: backing off`)
        expect(line).not.toContain('as the server asked')
      }
    }
  )

  it('the error after a 429 storm names the limit the service states', async () => {
    const headers = { 'X-RateLimit-Limit': '25', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1' }
    emulator.inject({ path: '/checks', status: 429, headers, times: Infinity })
    const { core } = await runAction(emulator, { operation: 'list-checks', 'max-retries': '1' })
    expect(core.failed).toContain('GET /checks was rate limited (HTTP 429) after 2 attempts')
    expect(core.failed).toContain('the service states a limit of 25 requests (X-RateLimit-Limit)')
    expect(core.failed).not.toContain('100 requests a minute')
  })

  it('a 429 storm ends after max-retries with a message that names the rate limit', async () => {
    emulator.inject({ path: '/checks', status: 429, times: Infinity })
    const { core, slept } = await runAction(emulator, { operation: 'list-checks', 'max-retries': '2' })
    expect(core.failed).toContain('GET /checks was rate limited (HTTP 429) after 3 attempts')
    expect(core.failed).toContain('the service states no limit; the API document gives 100 requests a minute')
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
