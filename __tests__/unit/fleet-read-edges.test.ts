/**
 * A gate's round reading its checks from the list (readRound in
 * src/operations/gate/fleet-read.ts), over HTTP to the emulator (two checks a
 * page): how many pages it reads, which checks it leaves to a GET by id (not
 * on the pages read, shown without the fields of a reading), what it logs,
 * and which failures of the list send the checks back to reads by id rather
 * than end the gate.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import type { Check } from '../../src/api/schemas.js'
import { type ListCost, planRound, readRound } from '../../src/operations/gate/fleet-read.js'
import { useEmulator } from '../helpers/harness.js'
import { contextOn } from '../helpers/operation-context.js'

const emulator = useEmulator({ rateLimit: false, pageSize: 2 })
const reading = { status: 'up', lastCheckedAt: '2026-03-01T09:59:00.000Z', responseTime: 120 }
/** Six checks on three pages: fleet-0 and fleet-1 on the first, fleet-4 and fleet-5 on the last. */
const seedSix = () =>
  Array.from({ length: 6 }, (_, i) =>
    emulator.seedCheck({ name: `fleet-${i}`, url: 'https://shop.example.com', ...reading })
  )
const listRequests = () => emulator.requests.filter(r => r.method === 'GET' && /^\/checks(\?|$)/.test(r.path))
const unknown = (missed: string[] = []): ListCost => ({ missed: new Set(missed) })
const ids = (rows: ReadonlyMap<string, Check>) => [...rows.keys()]

describe('readRound: the pages it reads', () => {
  it('one check pending: nothing is sent, nothing is shown, what is known stays as it was', async () => {
    const [one] = seedSix()
    const { ctx, lines } = contextOn(emulator)
    const known = { pages: 1, missed: new Set<string>() }
    const round = await readRound(ctx, [one.id], known)
    expect(round.rows.size).toBe(0)
    expect(round.known).toBe(known)
    expect(emulator.requests).toHaveLength(0)
    expect(lines).toEqual([])
  })

  it('every check pending: the pages to the one that shows the last, each row by its id, and the cost learned', async () => {
    const fleet = seedSix()
    const { ctx, lines } = contextOn(emulator)
    const round = await readRound(
      ctx,
      fleet.map(c => c.id),
      unknown()
    )
    expect(ids(round.rows).sort()).toEqual(fleet.map(c => c.id).sort())
    expect(round.rows.get(fleet[4].id)).toMatchObject({ name: 'fleet-4', ...reading })
    expect(round.known).toEqual({ pages: 3, missed: new Set() })
    expect(listRequests()).toHaveLength(3)
    expect(lines).toEqual(['info: Read 6 of 6 check(s) from 3 page(s) of the list.'])
  })

  it('stops at the page that shows the last check sought: the pages after it are not read', async () => {
    const fleet = seedSix()
    const { ctx } = contextOn(emulator)
    const sought = fleet.slice(0, 4).map(c => c.id)
    const round = await readRound(ctx, sought, unknown())
    expect(ids(round.rows).sort()).toEqual([...sought].sort())
    expect(round.known.pages).toBe(2)
    expect(listRequests()).toHaveLength(2)
  })

  it('counts only the checks sought as shown: other rows on the pages before do not end the read early', async () => {
    const fleet = seedSix()
    const { ctx } = contextOn(emulator)
    // The last four: the first page shows none of them (two rows of others), the third shows the last two.
    const sought = fleet.slice(2).map(c => c.id)
    const round = await readRound(ctx, sought, unknown())
    expect(ids(round.rows).sort()).toEqual([...sought].sort())
    expect(round.known).toEqual({ pages: 3, missed: new Set() })
    expect(listRequests()).toHaveLength(3)
  })

  it('a list never read is read for one page fewer than the checks: the rest is read by id', async () => {
    const fleet = seedSix()
    const { ctx, lines } = contextOn(emulator)
    // Two checks, on the first page and the last: one page at most (a second would cost as much as two GETs).
    const round = await readRound(ctx, [fleet[0].id, fleet[5].id], unknown())
    expect(ids(round.rows)).toEqual([fleet[0].id])
    expect(round.known).toEqual({ pages: 1, missed: new Set([fleet[5].id]) })
    expect(listRequests()).toHaveLength(1)
    expect(lines).toEqual([
      'info: Read 1 of 2 check(s) from 1 page(s) of the list; 1 not shown whole there, read by id.'
    ])
  })

  it('never reads more pages than the client follows, and that bound is no failure of the list', async () => {
    const fleet = seedSix()
    const { ctx, lines } = contextOn(emulator, { maxPages: 2 })
    const round = await readRound(
      ctx,
      fleet.map(c => c.id),
      unknown()
    )
    expect(ids(round.rows).sort()).toEqual(
      fleet
        .slice(0, 4)
        .map(c => c.id)
        .sort()
    )
    expect(round.known).toEqual({ pages: 2, missed: new Set([fleet[4].id, fleet[5].id]) })
    expect(listRequests()).toHaveLength(2)
    expect(lines).toEqual([
      'info: Read 4 of 6 check(s) from 2 page(s) of the list; 2 not shown whole there, read by id.'
    ])
  })

  it('a list known to cost too much is not read at all', async () => {
    const fleet = seedSix()
    const { ctx } = contextOn(emulator)
    const known = { pages: 3, missed: new Set<string>() }
    const round = await readRound(
      ctx,
      fleet.slice(0, 3).map(c => c.id),
      known
    )
    expect(round).toEqual({ rows: new Map(), known })
    expect(emulator.requests).toHaveLength(0)
  })

  it('a check deleted meanwhile is not on the list: left to a GET by id, never taken as absent', async () => {
    const fleet = seedSix()
    emulator.checks.delete(fleet[2].id)
    const { ctx, lines } = contextOn(emulator)
    const round = await readRound(
      ctx,
      fleet.map(c => c.id),
      unknown()
    )
    expect(round.rows.has(fleet[2].id)).toBe(false)
    expect(round.known).toEqual({ pages: 3, missed: new Set([fleet[2].id]) })
    expect(lines).toEqual([
      'info: Read 5 of 6 check(s) from 3 page(s) of the list; 1 not shown whole there, read by id.'
    ])
  })
})

describe('readRound: what a row must state to stand for its check', () => {
  const pageOf = (rows: unknown[]) => ({ method: 'GET', path: '/checks', status: 200, body: { data: rows } })

  it('a row without status, lastCheckedAt or responseTime is read by id; null stated counts as stated', async () => {
    const { ctx } = contextOn(emulator)
    const full = { name: 'x', url: 'https://x.example.com', ...reading }
    const without = (field: keyof typeof reading, id: string) => {
      const row: Record<string, unknown> = { ...full, id }
      delete row[field]
      return row
    }
    emulator.inject(
      pageOf([
        without('status', 'chk_s'),
        without('lastCheckedAt', 'chk_l'),
        without('responseTime', 'chk_r'),
        { ...full, id: 'chk_null', lastCheckedAt: null, responseTime: null, status: null },
        { ...full, id: 'chk_full' }
      ])
    )
    const pending = ['chk_s', 'chk_l', 'chk_r', 'chk_null', 'chk_full']
    const round = await readRound(ctx, pending, unknown())
    expect(ids(round.rows)).toEqual(['chk_null', 'chk_full'])
    expect(round.known.missed).toEqual(new Set(['chk_s', 'chk_l', 'chk_r']))
  })

  it('rows of checks not sought are not kept', async () => {
    const { ctx } = contextOn(emulator)
    emulator.inject(
      pageOf([
        { id: 'chk_other', name: 'o', ...reading },
        { id: 'chk_a', name: 'a', ...reading }
      ])
    )
    const round = await readRound(ctx, ['chk_a', 'chk_b'], unknown())
    expect(ids(round.rows)).toEqual(['chk_a'])
    expect(round.known).toEqual({ pages: 1, missed: new Set(['chk_b']) })
  })

  it('a row shown twice (the list moved while it was paged): its later reading stands', async () => {
    const { ctx } = contextOn(emulator)
    emulator.inject({
      method: 'GET',
      path: '/checks',
      status: 200,
      body: { data: [{ id: 'chk_a', name: 'a', ...reading }], links: { next: '/v1/checks?page=2' } }
    })
    emulator.inject(
      pageOf([
        { id: 'chk_a', name: 'a', ...reading, status: 'down' },
        { id: 'chk_b', ...reading }
      ])
    )
    const round = await readRound(ctx, ['chk_a', 'chk_b', 'chk_c'], unknown())
    expect(round.rows.get('chk_a')?.status).toBe('down')
    expect(round.known).toEqual({ pages: 2, missed: new Set(['chk_c']) })
  })
})

describe('readRound: a list that fails', () => {
  const checksOf = () => seedSix().map(c => c.id)

  it.each([
    ['an error status (403)', { status: 403, body: { error: { message: 'no list for this key' } } }, /HTTP 403/],
    ['a server error (500), not retried here', { status: 500 }, /HTTP 500/],
    ['a body that is not a list', { status: 200, body: { checks: 'none' } }, /not a list/],
    [
      'a redirect to another origin',
      { status: 302, headers: { Location: 'https://elsewhere.example.com/v1/checks' } },
      /redirect|302/i
    ],
    [
      'a next page on another origin',
      { status: 200, body: { data: [], links: { next: 'https://elsewhere.example.com/v1/checks?page=2' } } },
      /another origin/
    ]
  ])(
    '%s: no verdict on the checks; read by id this round and after, what was missed kept',
    async (_what, fault, said) => {
      const pending = checksOf()
      emulator.inject({ method: 'GET', path: '/checks', ...fault })
      const { ctx, lines } = contextOn(emulator)
      const round = await readRound(ctx, pending, unknown([pending[0]]))
      expect(round.rows.size).toBe(0)
      expect(round.known).toEqual({ pages: Number.POSITIVE_INFINITY, missed: new Set([pending[0]]) })
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(
        /^info: Reading the list of checks failed \(GET \/checks.*\): the checks are read one by one from now on\.$/
      )
      expect(lines[0]).toMatch(said)
      // And the next round does not try the list again.
      expect(planRound(pending, round.known)).toEqual({ by: 'id' })
    }
  )

  it.each([
    ['the rate limit (429)', { status: 429, headers: { 'Retry-After': '1' } }, 'rate-limit'],
    ['a connection dropped', { drop: true }, 'network']
  ])("%s is the gate's, as at a GET by id: thrown, nothing logged", async (_what, fault, kind) => {
    const pending = checksOf()
    emulator.inject({ method: 'GET', path: '/checks', ...fault })
    const { ctx, lines } = contextOn(emulator)
    const failure = readRound(ctx, pending, unknown())
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toMatchObject({ kind })
    expect(lines).toEqual([])
  })

  it('a cancelled job: the read is not sent, and the cancel is thrown', async () => {
    const pending = checksOf()
    const cancel = new AbortController()
    cancel.abort()
    const { ctx, lines } = contextOn(emulator, { signal: cancel.signal })
    await expect(readRound(ctx, pending, unknown())).rejects.toMatchObject({ kind: 'cancelled' })
    expect(lines).toEqual([])
    expect(emulator.requests).toHaveLength(0)
  })
})
