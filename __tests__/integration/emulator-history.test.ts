/**
 * `POST /__emulator/history`: a check's past results, given over the admin
 * route as a person at a terminal gives them, so that a gate with `baseline`
 * has a history to read (docs/emulator.md).
 */
import { describe, expect, it } from '@jest/globals'
import { KEY, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 10, rateLimit: false })
const history = (body: unknown) =>
  fetch(`${emulator.baseUrl.replace(/\/v1$/, '')}/__emulator/history`, { method: 'POST', body: JSON.stringify(body) })
const read = async (id: string) => {
  const rows: Array<Record<string, unknown>> = []
  let next: string | null = `${emulator.baseUrl}/checks/${id}/history`
  while (next) {
    const page = (await (await fetch(next, { headers: { Authorization: `Bearer ${KEY}` } })).json()) as {
      data: Array<Record<string, unknown>>
      links: { next: string | null }
    }
    rows.push(...page.data)
    next = page.links.next
  }
  return rows
}

describe('POST /__emulator/history', () => {
  it('adds one up result per response time, newest first, everySeconds apart before now', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const before = Date.now()
    const answer = await history({ checkId: c.id, responseTimes: [100, 120, 140], everySeconds: 300 })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ checkId: c.id, added: 3, entries: 3 })
    const rows = await read(c.id)
    expect(rows.map(r => [r.status, r.responseTime])).toEqual([
      ['up', 100],
      ['up', 120],
      ['up', 140]
    ])
    const ages = rows.map(r => before - Date.parse(String(r.checkedAt)))
    expect(ages[0]).toBeGreaterThanOrEqual(300_000 - 1_000)
    expect(ages[0]).toBeLessThan(300_000 + 5_000)
    expect(ages[2] - ages[0]).toBe(600_000)
  })

  it('takes entries as written, and keeps the whole history newest first', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    await history({
      checkId: c.id,
      entries: [{ checkedAt: '2026-11-20T10:00:00Z', status: 'down', responseTime: 900 }]
    })
    await history({ checkId: c.id, entries: [{ checkedAt: '2026-11-21T10:00:00Z', status: 'up', responseTime: 90 }] })
    expect((await read(c.id)).map(r => r.checkedAt)).toEqual(['2026-11-21T10:00:00Z', '2026-11-20T10:00:00Z'])
  })

  it.each([
    [{ checkId: 'chk_nope', responseTimes: [1] }, 404, 'no check chk_nope'],
    [{ responseTimes: [1] }, 400, 'checkId'],
    [{ checkId: 'ID', responseTimes: [-1] }, 400, 'responseTimes'],
    [{ checkId: 'ID', responseTimes: [1], everySeconds: 0 }, 400, 'everySeconds'],
    [{ checkId: 'ID', entries: [{ checkedAt: 'yesterday', status: 'up' }] }, 400, 'checkedAt'],
    [{ checkId: 'ID' }, 400, 'responseTimes, results or entries']
  ])('refuses %j with a message', async (body, status, words) => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const answer = await history(JSON.parse(JSON.stringify(body).replace('"ID"', JSON.stringify(c.id))))
    expect(answer.status).toBe(status)
    expect(JSON.stringify(await answer.json())).toContain(words)
    expect(emulator.history.get(c.id)).toEqual([])
  })

  it('is what a gate with baseline reads', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    await history({ checkId: c.id, responseTimes: [...Array<number>(19).fill(120), 300], everySeconds: 60 })
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'check-id': c.id,
      baseline: '1h',
      'max-response-time-increase': '20%',
      timeout: '1s',
      'poll-interval': '1s'
    })
    expect(core.logs).toContain(
      `info: shop (${c.id}): baseline p95 120 ms of 20 result(s) in the 1h before the step started; limit 144 ms (+20%)`
    )
  })
})
