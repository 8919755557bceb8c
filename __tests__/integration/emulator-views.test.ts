/**
 * The emulator's views and shifting lists, set over its admin routes as a
 * simulation or a person at a terminal sets them: the data never changes,
 * only what a reader sees.
 */
import { describe, expect, it } from '@jest/globals'
import { KEY, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 2, rateLimit: false })
const admin = (action: string, body: unknown) =>
  fetch(`${emulator.baseUrl.replace(/\/v1$/, '')}/__emulator/${action}`, {
    method: 'POST',
    body: JSON.stringify(body)
  })
const get = async (path: string) =>
  (await (await fetch(`${emulator.baseUrl}${path}`, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as {
    data: Array<Record<string, unknown>>
    links: { next: string | null }
  }

describe('emulator views', () => {
  it('hides createdAt and writes times without a zone, while the data keeps both', async () => {
    const c = emulator.seedCheck({
      name: 'a',
      url: 'https://a.example.com/',
      lastCheckedAt: '2026-11-24T03:30:00.000Z'
    })
    expect((await admin('views', { createdAt: false, zonelessTimes: true })).status).toBe(200)
    const [row] = (await get('/checks')).data
    expect(row).not.toHaveProperty('createdAt')
    expect(row.lastCheckedAt).toBe('2026-11-24T03:30:00.000')
    expect(emulator.checks.get(c.id)).toHaveProperty('createdAt')
    expect((await admin('views', { createdAt: 'no' })).status).toBe(400)
    emulator.reset()
    expect(emulator.views).toEqual({ createdAt: true, zonelessTimes: false })
  })

  it('history times: when the probe started, or whole seconds; the check keeps its time to the millisecond', async () => {
    const c = emulator.seedCheck({
      name: 'h',
      url: 'https://h.example.com/',
      lastCheckedAt: '2026-11-24T03:30:00.250Z'
    })
    emulator.history.set(c.id, [{ status: 'up', responseTime: 1000, checkedAt: '2026-11-24T03:30:00.250Z' }])
    const shown = async () => (await get(`/checks/${c.id}/history`)).data[0].checkedAt
    expect(await shown()).toBe('2026-11-24T03:30:00.250Z')
    expect((await admin('views', { historyTimes: 'started' })).status).toBe(200)
    expect(await shown()).toBe('2026-11-24T03:29:59.250Z')
    expect((await admin('views', { historyTimes: 'whole-seconds', zonelessTimes: true })).status).toBe(200)
    expect(await shown()).toBe('2026-11-24T03:30:00')
    expect((await get('/checks')).data[0].lastCheckedAt).toBe('2026-11-24T03:30:00.250')
    expect((await admin('views', { historyTimes: 'later' })).status).toBe(400)
    expect(emulator.history.get(c.id)?.[0].checkedAt).toBe('2026-11-24T03:30:00.250Z')
  })

  it('a shifted list repeats (or skips) a row at the page boundary; the data is unchanged', async () => {
    for (const n of ['a', 'b', 'c']) emulator.seedCheck({ name: n, url: `https://${n}.example.com/` })
    const names = async () => {
      const first = await get('/checks')
      const second = await get(`/checks?page=2`)
      return [...first.data, ...second.data].map(r => r.name)
    }
    await admin('faults', { method: 'GET', path: '/checks', shift: 'repeat', times: 2 })
    expect(await names()).toEqual(['a', 'b', 'b', 'c'])
    await admin('faults', { method: 'GET', path: '/checks', shift: 'skip', times: 2 })
    expect(await names()).toEqual(['a', 'b'])
    expect(await names()).toEqual(['a', 'b', 'c'])
    emulator.clearFaults()
  })
})
