/**
 * The burn rate as a release gate (`max-burn-rate`, `burn-window`, outputs
 * `burn-rate` and `burn-rate-short`, outcome `budget-burning`), through the
 * emulator: one history read serving the budget and the burn rate, a check
 * burning over both windows closing the gate before any poll, the fastest
 * burner in the outputs, the summary's table and chart, JUnit, rows that
 * cannot be placed, and the inputs that go with it. The past is seeded; a
 * scripted clock makes each check's result fresh and up between polls.
 */
import { describe, expect, it } from '@jest/globals'
import { XMLParser } from 'fast-xml-parser'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import type { Clock } from '../../src/api/pacer.js'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ rateLimit: false, pageSize: 50 })
const dir = mkdtempSync(join(tmpdir(), 'gate-burn-'))
const START = Date.parse('2026-11-23T08:00:00Z')
const MINUTE = 60_000
const at = (s: number) => new Date(START + s * 1000).toISOString()

/** One result a minute for `minutes` minutes before the start, newest first; `down(i)`: i minutes + 1 before. */
const minutely = (minutes: number, down: (i: number) => boolean = () => false) =>
  Array.from({ length: minutes }, (_, i) => ({
    status: down(i) ? 'down' : 'up',
    responseTime: 100,
    checkedAt: new Date(START - (i + 1) * MINUTE).toISOString()
  }))

function scripted(on: Emulator, ids: string[]): Clock {
  let now = START
  let poll = 0
  return {
    now: () => now,
    sleep: async ms => {
      now += ms
      poll++
      for (const id of ids)
        Object.assign(on.checks.get(id) as object, { status: 'up', responseTime: 100, lastCheckedAt: at(poll) })
    }
  }
}

function gate(inputs: Record<string, string>, ids: string[]) {
  for (const id of ids)
    Object.assign(emulator.checks.get(id) as object, { status: 'up', responseTime: 100, lastCheckedAt: at(0.5) })
  return runAction(
    emulator,
    {
      operation: 'wait-for-check',
      'poll-interval': '1s',
      timeout: '5s',
      slo: '99%',
      'slo-window': '1d',
      'max-burn-rate': '10',
      'check-id': ids.join(','),
      ...inputs
    },
    { clock: scripted(emulator, ids), env: { GITHUB_WORKSPACE: dir } }
  )
}

const polls = (id: string) => emulator.requests.filter(r => r.path === `/checks/${id}`).length
const historyReads = (id: string) => emulator.requests.filter(r => r.path.startsWith(`/checks/${id}/history`))

/** A day of results, 14 failed in the last hour (the last five minutes all failed): the budget is not spent. */
const burningDay = () => minutely(24 * 60, i => i < 5 || (i >= 20 && i < 29))

describe('a budget burning over both windows closes the gate before any poll', () => {
  it('budget-burning: named with both rates; the fastest burner in the outputs, not the first target', async () => {
    const calm = emulator.seedCheck({ name: 'calm', url: 'https://calm.example.com/' })
    const slow = emulator.seedCheck({ name: 'slow-burn', url: 'https://slow.example.com/' })
    const fast = emulator.seedCheck({ name: 'fast-burn', url: 'https://fast.example.com/' })
    emulator.history.set(calm.id, minutely(24 * 60))
    emulator.history.set(
      slow.id,
      minutely(24 * 60, i => i < 5 || (i >= 20 && i < 27))
    ) // 12 of 60: 20, 100
    emulator.history.set(fast.id, burningDay()) // 14 of 60: 23.3333, 100
    const { core } = await gate({ 'junit-file': 'burn.xml' }, [calm.id, slow.id, fast.id])
    expect(core.outputs).toMatchObject({
      passed: 'false',
      outcome: 'budget-burning',
      'burn-rate': '23.3333',
      'burn-rate-short': '100',
      'check-id': fast.id
    })
    // 1440 results, 14 failed: 99.0277% up, the budget (1%) not spent
    expect(core.outputs.availability).toBe('99.0277')
    const slowText = `slow-burn (${slow.id}): burn rate 20 over 1h (12 of 60 result(s) failed), 100 over 5m (5 of 5 result(s) failed), against a max of 10: burning too fast`
    const fastText = `fast-burn (${fast.id}): burn rate 23.3333 over 1h (14 of 60 result(s) failed), 100 over 5m (5 of 5 result(s) failed), against a max of 10: burning too fast`
    expect(core.failed).toBe(
      `wait-for-check: the error budget burns too fast for 2 of 3 check(s); the gate closed before any poll: ${slowText} | ${fastText}`
    )
    // One history read each (a day of results: 29 pages of 50) serves the budget and the burn rate; no poll.
    for (const id of [calm.id, slow.id, fast.id]) {
      expect(historyReads(id)).toHaveLength(29)
      expect(polls(id)).toBe(1)
    }
    const result = resultOf(core) as Array<{ id: string; burnRate: Record<string, unknown>; notPolled?: boolean }>
    expect(result.map(r => [r.id, r.burnRate.burning, r.notPolled ?? false])).toEqual([
      [calm.id, false, true],
      [slow.id, true, false],
      [fast.id, true, false]
    ])
    expect(result[2].burnRate).toMatchObject({
      max: 10,
      long: {
        window: '1h',
        rate: 23.3333,
        results: 60,
        failed: 14,
        judged: true,
        over: true,
        from: at(-3600),
        to: at(0)
      },
      short: { window: '5m', rate: 100, results: 5, failed: 5, judged: true, over: true, from: at(-300), to: at(0) }
    })
    const failed = JSON.parse(core.outputs['failed-checks']) as Array<{ id: string; reason: string }>
    expect(failed.map(f => f.id)).toEqual([slow.id, fast.id])
    expect(failed[1].reason).toBe(`error budget burning too fast: ${fastText.slice(fastText.indexOf(': ') + 2)}`)
    const text = core.summaryText
    expect(text).toContain('Release gate closed: the error budget burns too fast')
    expect(text).toContain('2 of 3 check(s) burned the error budget too fast: the gate closed before any poll')
    expect(text).toContain(
      `Not polled (the gate closed before any poll; none of them was judged burning too fast): calm (${calm.id.replace('_', '\\_')}).`
    )
    expect(text).toContain('| Check | Burn rate, 1h | Burn rate, 5m | Max | Failures over 1h | Verdict |')
    expect(text).toContain(
      '| fast-burn | 23\\.3333 (14/60 failed) over | 100 (5/5 failed) over | 10 | ▁▁▁▁▁▁▇█▁▁▁█ | burning too fast |'
    )
    expect(text).toContain('| calm | 0 (0/60 failed) | 0 (0/5 failed) | 10 | ▁▁▁▁▁▁▁▁▁▁▁▁ | within the max |')
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      readFileSync(join(dir, 'burn.xml'), 'utf8')
    )
    const cases = xml.testsuites.testsuite.testcase as Array<Record<string, unknown>>
    expect(
      cases.map(c => (c.failure ? (c.failure as { type: string }).type : c.skipped !== undefined ? 'skipped' : 'ok'))
    ).toEqual(['skipped', 'budget-burning', 'budget-burning'])
  })

  it('a spent budget is named first: outcome budget-exhausted even when the rate burns too', async () => {
    const spent = emulator.seedCheck({ name: 'spent', url: 'https://spent.example.com/' })
    emulator.history.set(
      spent.id,
      minutely(24 * 60, i => i < 20)
    ) // 20 of 1440: 98.6%, below 99%
    const { core } = await gate({}, [spent.id])
    expect(core.outputs).toMatchObject({
      outcome: 'budget-exhausted',
      'burn-rate': '33.3333',
      'burn-rate-short': '100'
    })
    expect(core.failed).toMatch(/^wait-for-check: the error budget is spent for 1 of 1 check\(s\)/)
  })
})

describe('a rate that does not burn over both windows lets the gate poll', () => {
  it('exactly at the max passes; over in the long window only passes; the outputs say the rates', async () => {
    const edge = emulator.seedCheck({ name: 'edge', url: 'https://edge.example.com/' })
    const old = emulator.seedCheck({ name: 'old-spike', url: 'https://old.example.com/' })
    emulator.history.set(
      edge.id,
      minutely(24 * 60, i => i < 60 && i % 10 === 0)
    ) // 6 of 60: exactly 10; 1 of 5: 20
    emulator.history.set(
      old.id,
      minutely(24 * 60, i => i >= 40 && i < 49 && i !== 44)
    ) // 8 of 60; 0 of 5
    const { core } = await gate({}, [edge.id, old.id])
    expect(core.outputs).toMatchObject({
      passed: 'true',
      outcome: 'passed',
      'burn-rate': '13.3333',
      'burn-rate-short': '0'
    })
    expect(core.outputs['check-id']).toBe(edge.id)
    expect(core.summaryText).toContain(
      'an error budget not spent (99% over 24h), an error budget not burning faster than 10x over both the 1h and its last 5m'
    )
    expect(core.summaryText).toContain('| edge | 10 (6/60 failed) | 20 (1/5 failed) over | 10 |')
  })

  it('a check probed every 10 minutes: the short window not judged, the summary says the long one decides', async () => {
    const sparse = emulator.seedCheck({ name: 'sparse', url: 'https://sparse.example.com/' })
    emulator.history.set(
      sparse.id,
      Array.from({ length: 144 }, (_, i) => ({
        status: i === 0 ? 'down' : 'up',
        checkedAt: new Date(START - 2 * MINUTE - i * 10 * MINUTE).toISOString()
      }))
    )
    const { core } = await gate({}, [sparse.id])
    // 1 of 6 in the hour: 16.6666, over 10; the 5m window has 1 result, so the hour alone decides: burning.
    expect(core.outputs).toMatchObject({ outcome: 'budget-burning', 'burn-rate': '16.6666', 'burn-rate-short': '' })
    expect(core.summaryText).toContain('the 5m window not judged (1 result(s), 5 needed: the 1h window alone decides)')
    expect(core.summaryText).toContain('| sparse | 16\\.6666 (1/6 failed) over | not judged (1/1 failed) | 10 |')
  })

  it('fewer than 5 results in the hour: a warning, the rule skipped, the gate polls', async () => {
    const young = emulator.seedCheck({ name: 'young', url: 'https://young.example.com/' })
    emulator.history.set(young.id, [
      ...minutely(4, () => true),
      ...minutely(24 * 60).slice(90) // older than the hour, up: the budget is judged and not spent
    ])
    const { core } = await gate({}, [young.id])
    expect(core.outputs).toMatchObject({ outcome: 'passed', 'burn-rate': '', 'burn-rate-short': '' })
    // The line that says every check met its conditions says the burn rate was not judged for this one.
    expect(core.summaryText).toContain('(the burn rate not judged for 1 of 1 check(s): see below)')
    expect(core.logs).toContainEqual(
      `warning: young (${young.id}): no burn rate: 4 result(s) with a status in the 1h before the step started (5 needed); the burn rate is not judged.`
    )
  })
})

describe('errs closed', () => {
  it('rows whose time cannot be placed: outcome error naming the budget and burn rate, how many and an example', async () => {
    const odd = emulator.seedCheck({ name: 'odd', url: 'https://odd.example.com/' })
    emulator.history.set(odd.id, [...minutely(60), { status: 'down', checkedAt: 1_790_000_000_000 }] as never)
    const { core } = await gate({}, [odd.id])
    expect(core.outputs.outcome).toBe('error')
    expect(core.failed).toContain(
      `the error budget and burn rate of 1 of 1 check(s) are unknown, so the gate cannot pass: odd (${odd.id}): 1 history row(s) with a time in a form the action cannot place (such as 1790000000000)`
    )
  })
})

describe('the inputs, refused before any request', () => {
  const refused = async (inputs: Record<string, string>, message: string) => {
    const before = emulator.requests.length
    const { core } = await runAction(emulator, { operation: 'wait-for-check', 'check-id': 'chk_1', ...inputs })
    expect(core.failed).toBe(message)
    expect(emulator.requests.length).toBe(before)
  }

  it('max-burn-rate needs slo; burn-window needs max-burn-rate; the window between 12m and slo-window', async () => {
    await refused(
      { 'max-burn-rate': '14.4' },
      'max-burn-rate needs slo (an objective such as 99.9%): the rate is measured against the budget slo leaves'
    )
    await refused(
      { slo: '99.9%', 'burn-window': '6h' },
      'burn-window needs max-burn-rate (such as 14.4): the window is what the burn rate is measured over'
    )
    await refused(
      { slo: '99.9%', 'max-burn-rate': '14.4', 'burn-window': '11m' },
      'burn-window must be at least 12m: its short window is its last twelfth (1h gives 5m)'
    )
    await refused(
      { slo: '99.9%', 'slo-window': '7d', 'max-burn-rate': '14.4', 'burn-window': '8d' },
      "burn-window (8d) must not be longer than slo-window (7d): the burn rate is a share of that window's budget"
    )
    await refused(
      { slo: '99.9%', 'max-burn-rate': '14.4%' },
      'max-burn-rate must be a number above 0 with at most 6 decimals, a multiple of the rate that spends the budget exactly over slo-window (14.4, 6), got "14.4%": a multiple, not a percentage'
    )
  })

  it('a multiple the objective cannot reach is refused: at 99%, every result failed burns at 100', async () => {
    await refused(
      { slo: '99%', 'max-burn-rate': '100' },
      'max-burn-rate 100 can never be exceeded with slo 99%: a window in which every result failed burns at 100. Choose a lower multiple (14.4 or 6 are usual)'
    )
    await refused(
      { slo: '99.95%', 'max-burn-rate': '2000' },
      'max-burn-rate 2000 can never be exceeded with slo 99.95%: a window in which every result failed burns at 2000. Choose a lower multiple (14.4 or 6 are usual)'
    )
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'check-id': 'chk_none',
      slo: '99%',
      'max-burn-rate': '99.999999'
    })
    expect(core.failed).not.toContain('max-burn-rate')
  })
})
