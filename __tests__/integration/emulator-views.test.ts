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

  it('POST history gives a check a past: the entries given, or made (results, everySeconds, down)', async () => {
    const c = emulator.seedCheck({ name: 'p', url: 'https://p.example.com/' })
    const made = await admin('history', { checkId: c.id, results: 5, everySeconds: 60, down: 2 })
    expect(await made.json()).toEqual({ checkId: c.id, added: 5, entries: 5 })
    const entries = emulator.history.get(c.id) ?? []
    expect(entries.map(e => e.status)).toEqual(['down', 'down', 'up', 'up', 'up'])
    const times = entries.map(e => Date.parse(String(e.checkedAt)))
    expect(times[0] - times[1]).toBe(60_000) // newest first, a minute apart
    expect(Date.now() - times[0]).toBeLessThan(65_000)
    const given = [{ checkedAt: '2026-11-24T03:30:00Z', status: 'up', responseTime: 80 }]
    const other = emulator.seedCheck({ name: 'q', url: 'https://q.example.com/' })
    expect((await admin('history', { checkId: other.id, entries: given })).status).toBe(200)
    expect(emulator.history.get(other.id)).toEqual(given)
    expect((await admin('history', { checkId: 'chk_nope', results: 1 })).status).toBe(404)
    expect((await admin('history', { checkId: c.id, results: -1 })).status).toBe(400)
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
