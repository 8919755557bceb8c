/**
 * A fleet gate spends requests like a list: each poll round reads its checks
 * one by one or from the list's pages, whichever costs fewer requests, and a
 * check read from a list row is judged exactly as one read by id. A check a
 * round's read of the list does not show (moved away while it was paged,
 * deleted, shown without the fields of a reading) is read by id, never judged
 * absent. The emulator does not probe here: a scripted clock sets each
 * check's result between polls, so every count is exact.
 */
import { describe, expect, it } from '@jest/globals'
import type { Emulator, RequestRecord } from '../../emulator/server.js'
import { Pacer, realClock } from '../../src/api/pacer.js'
import {
  SCRIPT_START,
  type ScriptedResult,
  resultOf,
  runAction,
  scriptedClock,
  useEmulator
} from '../helpers/harness.js'

const emulator = useEmulator({ rateLimit: false })
/** Two checks a page: a list of many pages, and reads that shift between them. */
const paged = useEmulator({ rateLimit: false, pageSize: 2 })
const site = 'https://shop.example.com/health'
const at = (s: number) => new Date(SCRIPT_START + s * 1000).toISOString()
const up = (s: number, responseTime = 100): ScriptedResult => ({ status: 'up', lastCheckedAt: at(s), responseTime })
const down = (s: number): ScriptedResult => ({ status: 'down', lastCheckedAt: at(s), responseTime: 900 })

/** `n` checks named `${prefix}${i}`, seeded in that order, up and checked before the step. */
const seed = (prefix: string, n: number, on: Emulator = emulator) =>
  Array.from({ length: n }, (_, i) => on.seedCheck({ name: `${prefix}${i}`, url: site, ...up(-60) }))

const progressOf = (logs: string[], name: string) =>
  logs
    .filter(l => l.startsWith(`info: ${name} (`) && l.includes('): status '))
    .map(l => l.slice(l.lastIndexOf(': ') + 2))
const shown = (r: RequestRecord) => `${r.method} ${r.path.replace(/\?.*$/, '')}`
const listPages = (requests: RequestRecord[]) => requests.filter(r => shown(r) === 'GET /checks').length
const byId = (requests: RequestRecord[]) => requests.filter(r => /^GET \/checks\/[^/]+$/.test(shown(r))).length

/**
 * Run a gate on a scripted clock (a poll a second, `timeout` 3 s: 4 rounds
 * unless it passes first; each check of `script` shows its first result
 * from the start, its next at each poll) and cut the emulator's request log into the
 * requests of each round; `lookup` is how many the step's first read of the
 * targets made (two whole reads of the list for a prefix).
 */
async function gateRounds(
  on: Emulator,
  inputs: Record<string, string>,
  lookup: number,
  script: Record<string, ScriptedResult[]> = {},
  between?: (poll: number) => void
) {
  for (const [id, results] of Object.entries(script)) Object.assign(on.checks.get(id) as object, results[0])
  const first = on.requests.length
  const marks: number[] = []
  const clock = scriptedClock(on, script, poll => {
    marks.push(on.requests.length)
    between?.(poll)
  })
  const { core } = await runAction(
    on,
    { operation: 'wait-for-check', 'poll-interval': '1s', timeout: '3s', 'require-fresh': 'false', ...inputs },
    { clock }
  )
  const starts = [first + lookup, ...marks]
  const rounds = [...marks, on.requests.length].map((end, i) => on.requests.slice(starts[i], end))
  return { core, rounds, lookup: on.requests.slice(first, first + lookup) }
}

describe('requests per poll round of a fleet by name-prefix (50 checks a page)', () => {
  // Five other checks come first in the list, so the fleet of n starts at its sixth row.
  it.each([
    [1, 1, 'a GET by id (one check: never the list)'],
    [10, 1, 'the one page that holds them'],
    [50, 2, 'the two pages that hold them (rows 6 to 55)'],
    [200, 5, 'the five pages that hold them (rows 6 to 205), where a GET each would be 200']
  ])('%i member(s): %i request(s) a round, %s', async (n, perRound) => {
    seed('other-', 5)
    seed('fleet-', n)
    const pages = Math.ceil((n + 5) / 50)
    const { core, rounds, lookup } = await gateRounds(
      emulator,
      { 'name-prefix': 'fleet-', 'expected-status': 'down' },
      2 * pages
    )
    expect(listPages(lookup)).toBe(2 * pages)
    expect(core.outputs.outcome).toBe('timed-out')
    expect(JSON.parse(core.outputs['failed-checks'])).toHaveLength(n)
    expect(rounds).toHaveLength(4)
    for (const round of rounds) {
      expect(round).toHaveLength(perRound)
      expect(n === 1 ? byId(round) : listPages(round)).toBe(perRound)
    }
    // Every member was judged at every round, whichever way it was read.
    expect(core.logs.filter(l => /^info: fleet-\d+ \(chk_\w+\): status up/.test(l))).toHaveLength(4 * n)
  })

  it('a list of more pages than members is not read: 10 members among 600 checks (12 pages) are read by id', async () => {
    seed('other-', 590)
    const fleet = seed('fleet-', 10)
    const { rounds } = await gateRounds(emulator, { 'name-prefix': 'fleet-', 'expected-status': 'down' }, 24)
    for (const round of rounds) expect(round.map(shown)).toEqual(fleet.map(c => `GET /checks/${c.id}`))
  })

  it('members that pass stop being read: the round reads the list for those still pending, by id for the last one', async () => {
    const fleet = seed('fleet-', 3)
    const { core, rounds } = await gateRounds(emulator, { 'name-prefix': 'fleet-', 'consecutive-passes': '1' }, 2, {
      [fleet[0].id]: [down(1), up(2)],
      [fleet[1].id]: [down(1), down(2), up(3)],
      [fleet[2].id]: [down(1), down(2), down(3), up(4)]
    })
    expect(core.outputs.outcome).toBe('passed')
    expect(rounds.map(round => round.map(shown))).toEqual([
      ['GET /checks'],
      ['GET /checks'],
      ['GET /checks'], // two pending: one page is cheaper than two GETs
      [`GET /checks/${fleet[2].id}`] // one pending: a GET
    ])
  })
})

describe('a gate by check-id finds out what the list costs', () => {
  it('25 checks at a 100 ms poll under 60 requests a minute: a page a round, so the time runs out, not the pacing', async () => {
    const ids = seed('p', 25).map(c => c.id)
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': ids.join(','), timeout: '3s', 'poll-interval': '100ms' },
      { clock: realClock, pacing: new Pacer(60, 60_000, realClock) }
    )
    // Results from before the step never pass: the gate polls for its whole 3 s, a round every 100 ms or so.
    expect(core.outputs.outcome).toBe('timed-out')
    expect(core.failed).toContain('25 of 25 check(s) did not pass within 3 s')
    expect(core.failed).not.toContain('pacing')
    const rounds = emulator.requests.slice(25)
    expect(rounds.length).toBeGreaterThan(10)
    expect(new Set(rounds.map(shown))).toEqual(new Set(['GET /checks']))
  })

  it('10 check-ids on one page: the first round tries the list, and every round reads one page', async () => {
    const fleet = seed('fleet-', 10)
    const { rounds } = await gateRounds(
      emulator,
      { 'check-id': fleet.map(c => c.id).join(','), 'expected-status': 'down' },
      10
    )
    expect(rounds.map(round => round.map(shown))).toEqual([1, 2, 3, 4].map(() => ['GET /checks']))
  })

  it('3 check-ids at the end of a long list: one try of 2 pages, then by id', async () => {
    seed('other-', 20, paged)
    const fleet = seed('fleet-', 3, paged)
    const ids = fleet.map(c => `GET /checks/${c.id}`)
    const inputs = { 'check-id': fleet.map(c => c.id).join(','), 'expected-status': 'down' }
    const { rounds } = await gateRounds(paged, inputs, 3)
    expect(rounds.map(round => round.map(shown))).toEqual([['GET /checks', 'GET /checks', ...ids], ids, ids, ids])
  })
})

describe('a check read from a list row is judged as one read by id', () => {
  it('freshness, a result before the step, one probe at two precisions, a miss: the same verdicts, poll by poll', async () => {
    const [a, b, c, d] = seed('fleet-', 4)
    const wholeSeconds = at(1).replace('.000Z', 'Z')
    const script: Record<string, ScriptedResult[]> = {
      [a.id]: [up(-10), up(1), up(1), up(2)],
      [b.id]: [up(-10), up(1), down(2), up(3)],
      [c.id]: [up(-10), { ...up(1, 500), lastCheckedAt: wholeSeconds }, up(1.4, 500), up(3)],
      [d.id]: [down(-10), down(1), down(2), down(3)]
    }
    // 4 s: a history read at the deadline itself is never sent, so the fourth poll (at 3 s) is the last whole one.
    const inputs = { 'require-fresh': 'true', 'consecutive-passes': '2', timeout: '4s' }
    const fleet = await gateRounds(emulator, { ...inputs, 'name-prefix': 'fleet-' }, 2, script)
    expect(fleet.rounds.map(byId)).toEqual([0, 0, 0, 0, 0])
    const fleetResult = resultOf(fleet.core) as Array<{ id: string }>
    for (const check of [a, b, c, d]) {
      const alone = await gateRounds(emulator, { ...inputs, 'check-id': check.id }, 1, { [check.id]: script[check.id] })
      expect(alone.rounds.map(byId).every(n => n === 1)).toBe(true)
      expect(progressOf(fleet.core.logs, check.name as string)).toEqual(
        progressOf(alone.core.logs, check.name as string)
      )
      expect(fleetResult.find(r => r.id === check.id)).toEqual((resultOf(alone.core) as unknown[])[0])
    }
    expect(progressOf(fleet.core.logs, 'fleet-0')).toEqual([
      'last checked 2026-11-23T07:59:50.000Z, before this step started (stale), neither a pass nor a miss (0/2)',
      'met the condition (1/2)',
      'no new result since the last poll (1/2)',
      'passed (2/2)'
    ])
    expect(progressOf(fleet.core.logs, 'fleet-2').slice(1, 3)).toEqual([
      'met the condition (1/2)',
      'no new result since the last poll (1/2)' // the same probe at another precision: counted once
    ])
  })
})

describe('a list that moves while a round reads it', () => {
  /** Six checks on three pages of two; from the second round on, `fault` shapes the round's reads of the list. */
  async function shifted(fault: Parameters<Emulator['inject']>[0]) {
    const fleet = seed('fleet-', 6, paged)
    const run = await gateRounds(paged, { 'name-prefix': 'fleet-', 'expected-status': 'down' }, 6, {}, poll => {
      if (poll === 1) paged.inject({ method: 'GET', path: '/checks', ...fault })
    })
    // Every member is judged at every round: none is taken as absent.
    for (const check of fleet) expect(progressOf(run.core.logs, check.name as string)).toHaveLength(4)
    return { fleet, ...run }
  }

  it('skip: the row a late page never shows is read by id in the same round', async () => {
    const { fleet, rounds } = await shifted({ shift: 'skip', times: 3 })
    expect(rounds[0].map(shown)).toEqual(['GET /checks', 'GET /checks', 'GET /checks'])
    expect(rounds[1].map(shown)).toEqual(['GET /checks', 'GET /checks', 'GET /checks', `GET /checks/${fleet[2].id}`])
    expect(rounds[2].map(shown)).toEqual(['GET /checks', 'GET /checks', 'GET /checks'])
  })

  it('reorder: the row moved to the head after the first page is read by id', async () => {
    const { fleet, rounds } = await shifted({ shift: 'reorder', moved: 'fleet-3', times: 3 })
    expect(rounds[1].map(shown)).toEqual(['GET /checks', 'GET /checks', 'GET /checks', `GET /checks/${fleet[3].id}`])
  })

  it('repeat: a row shown twice is one reading; every row was shown, so none is read by id', async () => {
    // Its pages start a row early: a fourth page holds the last row.
    const { rounds } = await shifted({ shift: 'repeat', times: 4 })
    expect(rounds[1].map(shown)).toEqual(['GET /checks', 'GET /checks', 'GET /checks', 'GET /checks'])
  })

  it('a member deleted meanwhile is read by id, and its 404 ends the gate as it does when read by id', async () => {
    const fleet = seed('fleet-', 3)
    const { core, rounds } = await gateRounds(
      emulator,
      { 'name-prefix': 'fleet-', 'expected-status': 'down' },
      2,
      {},
      poll => {
        if (poll === 1) emulator.checks.delete(fleet[1].id)
      }
    )
    expect(rounds[1].map(r => `${shown(r)} ${r.status}`)).toEqual(['GET /checks 200', `GET /checks/${fleet[1].id} 404`])
    expect(core.outputs.outcome).toBe('error')
    expect(core.failed).toContain(`check ${fleet[1].id} was deleted while waiting for it (GET answered 404)`)
  })
})

describe('a list the round cannot use', () => {
  it('rows without the fields of a reading (status, lastCheckedAt, responseTime) are read by id, then by id only', async () => {
    const fleet = seed('fleet-', 3)
    const summary = { data: fleet.map(c => ({ id: c.id, name: c.name, status: 'up' })) }
    const { core, rounds } = await gateRounds(
      emulator,
      { 'name-prefix': 'fleet-', 'expected-status': 'down' },
      2,
      {},
      poll => {
        if (poll === 1) emulator.inject({ method: 'GET', path: '/checks', status: 200, body: summary })
      }
    )
    const ids = fleet.map(c => `GET /checks/${c.id}`)
    expect(rounds.map(round => round.map(shown))).toEqual([['GET /checks'], ['GET /checks', ...ids], ids, ids])
    expect(core.logs).toContain(
      'info: Read 0 of 3 check(s) from 1 page(s) of the list; 3 not shown whole there, read by id.'
    )
    for (const check of fleet) expect(progressOf(core.logs, check.name as string)).toHaveLength(4)
  })

  it('the rate limit on a read of the list ends the gate as it would at a GET by id: no check is read after it', async () => {
    seed('fleet-', 3)
    const inputs = { 'name-prefix': 'fleet-', 'expected-status': 'down', 'max-retries': '0' }
    const { core, rounds } = await gateRounds(emulator, inputs, 2, {}, poll => {
      if (poll === 1) emulator.inject({ method: 'GET', path: '/checks', status: 429, headers: { 'Retry-After': '1' } })
    })
    expect(rounds.map(round => round.map(r => `${shown(r)} ${r.status}`))).toEqual([
      ['GET /checks 200'],
      ['GET /checks 429']
    ])
    expect(core.outputs.outcome).toBe('error')
    expect(core.failed).toContain('GET /checks')
    expect(core.failed).toMatch(/rate limit/i)
    expect(core.logs.join('\n')).not.toContain('read one by one')
  })

  it('a read of the list that fails is no verdict: the checks are read by id from then on, and the gate passes', async () => {
    const fleet = seed('fleet-', 3)
    const script = Object.fromEntries(fleet.map(c => [c.id, [down(-10), down(1), up(2)]]))
    const { core, rounds } = await gateRounds(emulator, { 'name-prefix': 'fleet-' }, 2, script, poll => {
      if (poll === 1)
        emulator.inject({ method: 'GET', path: '/checks', status: 403, body: { error: 'no list for this key' } })
    })
    const ids = fleet.map(c => `GET /checks/${c.id}`)
    expect(rounds.map(round => round.map(shown))).toEqual([['GET /checks'], ['GET /checks', ...ids], ids])
    expect(core.outputs.outcome).toBe('passed')
    expect(core.logs.join('\n')).toMatch(
      /info: Reading the list of checks failed \(GET \/checks failed: HTTP 403 Forbidden: no list for this key\..*\): the checks are read one by one from now on\./
    )
  })
})
