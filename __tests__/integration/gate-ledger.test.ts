/**
 * The probe ledger through the whole gate, against the emulator over HTTP:
 * one probe shown at two precisions counts once between polls; fresh means
 * newer than what the step first saw (no allowance), and a result from before
 * the step neither passes nor resets; the error budget errs closed (times it
 * cannot place, failed results that look identical); the budget outputs name
 * the worst target; and an error before the targets are known never says
 * `failed-checks=[]`.
 */
import { describe, expect, it } from '@jest/globals'
import {
  SCRIPT_START,
  type ScriptedResult,
  afterFirstRead,
  resultOf,
  runAction,
  useEmulator,
  scriptedClock
} from '../helpers/harness.js'

const emulator = useEmulator()
const START = SCRIPT_START
const at = (s: number) => new Date(START + s * 1000).toISOString()

const progressOf = (logs: string[], name: string) =>
  logs
    .filter(l => l.startsWith(`info: ${name} (`) && l.includes('): status '))
    .map(l => l.slice(l.lastIndexOf(': ') + 2))

/** A gate asking 2 passes of `id` (3 s, a poll a second), `extra` inputs besides, the check scripted at each poll. */
const twoPasses = (id: string, script: ScriptedResult[], extra: Record<string, string> = {}) =>
  runAction(
    emulator,
    {
      operation: 'wait-for-check',
      'check-id': id,
      'consecutive-passes': '2',
      ...extra,
      timeout: '3s',
      'poll-interval': '1s'
    },
    { clock: scriptedClock(emulator, { [id]: script }) }
  )

/** Results a minute apart before START, newest first; `down` the indices that were down. */
function past(count: number, down: number[] = []) {
  return Array.from({ length: count }, (_, i) => ({
    status: down.includes(i) ? 'down' : 'up',
    responseTime: 100,
    checkedAt: new Date(START - (i + 1) * 60_000).toISOString()
  }))
}

describe('one probe at two precisions between polls', () => {
  it('consecutive-passes 2 does not pass on one probe read as …:06Z and then …:06.480Z', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const probe = { status: 'up', responseTime: 40 }
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        'consecutive-passes': '2',
        timeout: '4s',
        'poll-interval': '1s'
      },
      {
        clock: scriptedClock(emulator, {
          [c.id]: [
            { status: 'pending' },
            { ...probe, lastCheckedAt: '2026-11-23T08:00:06Z' },
            { ...probe, lastCheckedAt: '2026-11-23T08:00:06.480Z' }
          ]
        })
      }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(progressOf(core.logs, 'shop').slice(1, 3)).toEqual([
      'met the condition (1/2)',
      'no new result since the last poll (1/2)'
    ])
  })
})

describe('fresh means newer than what the step first saw', () => {
  it('a result probed 2.4 s before the step started is not fresh (no allowance for clock skew)', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, timeout: '2s', 'poll-interval': '1s' },
      {
        clock: scriptedClock(emulator, {
          [c.id]: [{ status: 'pending' }, { status: 'up', responseTime: 50, lastCheckedAt: at(-2.4) }]
        })
      }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(core.failed).toContain('before this step started (stale)')
  })

  it('the result the first read showed, though stamped after the start, is not fresh; the next one is', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    Object.assign(emulator.checks.get(c.id) as object, { status: 'up', responseTime: 50, lastCheckedAt: at(0.2) })
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, timeout: '3s', 'poll-interval': '1s' },
      {
        clock: scriptedClock(emulator, {
          [c.id]: [
            { status: 'up', responseTime: 50, lastCheckedAt: at(0.2) },
            { status: 'up', responseTime: 50, lastCheckedAt: at(2) }
          ]
        })
      }
    )
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    expect(progressOf(core.logs, 'shop')).toEqual([
      `last checked ${at(0.2)}, before this step started (stale), neither a pass nor a miss (0/1)`,
      'passed (1/1)'
    ])
  })

  it('a history row from before the step between two fresh ups neither resets the count nor shows as ❌', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    // The history: an up 6 s before the start (between the polls, it may lie after the first fresh one), then the two fresh ones.
    emulator.history.set(c.id, [
      { status: 'up', responseTime: 50, checkedAt: at(4) },
      { status: 'up', responseTime: 50, checkedAt: at(2) },
      { status: 'up', responseTime: 300, checkedAt: at(-6) }
    ])
    afterFirstRead(emulator, { [c.id]: { status: 'up', responseTime: 50, lastCheckedAt: at(2) } })
    const { core } = await twoPasses(c.id, [
      { status: 'up', responseTime: 50, lastCheckedAt: at(2) },
      { status: 'up', responseTime: 50, lastCheckedAt: at(4) }
    ])
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    expect(progressOf(core.logs, 'shop')).toEqual(['met the condition (1/2)', 'passed (2/2)'])
    expect(core.summaryText).toContain('| shop | ✅⏮✅ |')
    expect(core.summaryText).toContain('(✅ met, ❌ missed, ↺ no new result, ⏮ before the step)')
  })
})

describe('the count never passes its target', () => {
  it('two fresh passes seen at one poll (one in the history) after one before show as 2/2, in the log and the summary', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    // Three probes a minute apart, each with its own response time: three probes, never one seen twice.
    const probes = [
      { status: 'up', responseTime: 50, lastCheckedAt: at(10) },
      { status: 'up', responseTime: 120, lastCheckedAt: at(70) },
      { status: 'up', responseTime: 200, lastCheckedAt: at(130) }
    ]
    emulator.history.set(c.id, probes.map(({ lastCheckedAt, ...p }) => ({ ...p, checkedAt: lastCheckedAt })).reverse())
    afterFirstRead(emulator, { [c.id]: probes[0] })
    const { core } = await twoPasses(c.id, [probes[0], probes[2]])
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    // Three in a row (the first poll's, then the history's and the second poll's): shown as the target reached.
    expect(progressOf(core.logs, 'shop')).toEqual(['met the condition (1/2)', 'passed (2/2)'])
    expect(core.summaryText).toContain('| 2/2 | passed |')
    expect(core.everything()).not.toContain('3/2')
  })
})

describe('a miss is never lost to the one-probe tolerance', () => {
  it('a slow miss in the history within one probe of the next result resets the count: no pass on one good probe', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    // Fresh results at 2 s (up), 6 s (up but 3 s slow: a miss) and 7 s (up). The 3 s probe's duration makes
    // its time and the next one's "within one probe": taken as one, the miss would vanish and 2/2 pass.
    emulator.history.set(c.id, [
      { status: 'up', responseTime: 50, checkedAt: at(7) },
      { status: 'up', responseTime: 3000, checkedAt: at(6) },
      { status: 'up', responseTime: 50, checkedAt: at(2) }
    ])
    afterFirstRead(emulator, { [c.id]: { status: 'up', responseTime: 50, lastCheckedAt: at(2) } })
    const { core } = await twoPasses(
      c.id,
      [
        { status: 'up', responseTime: 50, lastCheckedAt: at(2) },
        { status: 'up', responseTime: 50, lastCheckedAt: at(7) }
      ],
      { 'max-response-time': '1000' }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(core.summaryText).toContain('❌')
  })
})

describe('a miss within one probe of the first read, after a pass, still resets', () => {
  it('a slow down probe at the first read, an up, then a down within its duration: the down resets, no pass', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    // The first read shows a 3.5 s probe (down) at -0.5 s. Then up at 0.1 s (another status: another probe,
    // counted), then down at 0.75 s: within 3.5 s of the first read's probe, yet after the counted up.
    Object.assign(emulator.checks.get(c.id) as object, { status: 'down', responseTime: 3472, lastCheckedAt: at(-0.5) })
    const { core } = await twoPasses(c.id, [
      { status: 'down', responseTime: 3472, lastCheckedAt: at(-0.5) },
      { status: 'up', responseTime: 87, lastCheckedAt: at(0.1) },
      { status: 'down', responseTime: 66, lastCheckedAt: at(0.75) },
      { status: 'up', responseTime: 36, lastCheckedAt: at(1.7) }
    ])
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(progressOf(core.logs, 'shop')).toContain('status is down, expected up (0/2)')
  })
})

describe('the error budget errs closed', () => {
  it('history times in a form the action cannot place: outcome error naming how many rows and the form, never a pass', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(
      c.id,
      past(10, [0, 1, 2]).map((e, i) => ({ ...e, checkedAt: `Nov 2${i % 9} 2026 10:00:00` }))
    )
    Object.assign(emulator.checks.get(c.id) as object, { status: 'up', responseTime: 50, lastCheckedAt: at(0.5) })
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, slo: '99.9%', timeout: '3s', 'fail-on-error': 'false' },
      { clock: scriptedClock(emulator, { [c.id]: [{ status: 'up', responseTime: 50, lastCheckedAt: at(1) }] }) }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.outputs.error).toContain(
      '10 history row(s) with a time in a form the action cannot place (such as "Nov 20 2026 10:00:00")'
    )
    expect(core.outputs.error).not.toContain('0 result(s)')
    expect(JSON.parse(core.outputs['failed-checks'])).toHaveLength(1)
  })

  /** The budget gate over `rows`, fail-on-error false, the check fresh and up at the first poll. */
  const budgetGate = async (rows: Array<Record<string, unknown>>, extra: Record<string, string> = {}) => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(c.id, rows)
    Object.assign(emulator.checks.get(c.id) as object, { status: 'up', responseTime: 50, lastCheckedAt: at(0.5) })
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, timeout: '3s', 'fail-on-error': 'false', ...extra },
      { clock: scriptedClock(emulator, { [c.id]: [{ status: 'up', responseTime: 50, lastCheckedAt: at(1) }] }) }
    )
    return { c, core }
  }
  const epochMs = (e: { checkedAt: string }) => Date.parse(e.checkedAt)

  it.each([
    ['epoch milliseconds', (e: { checkedAt: string }) => epochMs(e), String(START - 60_000)],
    ['epoch seconds', (e: { checkedAt: string }) => epochMs(e) / 1000, String((START - 60_000) / 1000)],
    ['epoch milliseconds as text', (e: { checkedAt: string }) => String(epochMs(e)), `"${START - 60_000}"`],
    ['a time of day alone', () => '10:00:00', '"10:00:00"']
  ])(
    'history times as %s cannot be placed: outcome error naming how many rows and the form, not the schema',
    async (_form, timeOf, example) => {
      const { core } = await budgetGate(
        past(10, [0, 1, 2]).map(e => ({ ...e, checkedAt: timeOf(e) })),
        { slo: '99.9%' }
      )
      expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
      expect(core.outputs.error).toContain(
        `shop (${core.outputs['check-id']}): 10 history row(s) with a time in a form the action cannot place (such as ${example})`
      )
      expect(core.outputs.error).not.toContain('does not match the API')
      expect(core.outputs.error).not.toContain('Invalid input')
    }
  )

  it('mixed rows: only the ones in a form the action cannot place are counted, and the budget is still unknown', async () => {
    const rows = past(10).map((e, i) => (i % 3 === 0 ? { ...e, checkedAt: epochMs(e) } : e))
    const { core } = await budgetGate(rows, { slo: '99.9%' })
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.outputs.error).toContain(
      `4 history row(s) with a time in a form the action cannot place (such as ${START - 60_000})`
    )
  })

  it('with baseline too, the one history read errs closed the same way', async () => {
    const { c, core } = await budgetGate(
      past(10).map(e => ({ ...e, checkedAt: epochMs(e) })),
      { slo: '99.9%', baseline: '1h', 'max-response-time-increase': '20%' }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.outputs.error).toContain('10 history row(s) with a time in a form the action cannot place')
    expect(emulator.requests.filter(r => r.path.startsWith(`/checks/${c.id}/history`))).toHaveLength(1)
  })

  it('a baseline alone over rows it cannot place is skipped, naming how many and the form; the gate judges without it', async () => {
    const { c, core } = await budgetGate(
      past(10).map(e => ({ ...e, checkedAt: epochMs(e) })),
      { baseline: '1h', 'max-response-time-increase': '20%' }
    )
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed', 'baseline-p95': '' })
    expect(core.logs).toContain(
      `warning: shop (${c.id}): no baseline: 0 result(s) up with a response time in the 1h before the step started (5 needed; left out: 10 with a time the action cannot place, such as ${START - 60_000}); the comparison is skipped: its results are judged without it.`
    )
  })

  it('check-history shows rows whose time is a number as they are, undated', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    emulator.history.set(
      c.id,
      past(3).map(e => ({ ...e, checkedAt: epochMs(e) }))
    )
    const { core } = await runAction(emulator, { operation: 'check-history', 'check-id': c.id })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.count).toBe('3')
    expect((resultOf(core) as Array<{ checkedAt: unknown }>).map(e => e.checkedAt)).toEqual(
      [1, 2, 3].map(i => START - i * 60_000)
    )
  })

  it('RFC 1123 times (an HTTP date, always GMT) are placed: a spent budget closes the gate', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    // 100 results, 2 down: 98% against 99.9%
    emulator.history.set(
      c.id,
      past(100, [3, 40]).map(e => ({ ...e, checkedAt: new Date(e.checkedAt).toUTCString() }))
    )
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, slo: '99.9%', timeout: '3s' },
      { clock: scriptedClock(emulator, { [c.id]: [{ status: 'up', responseTime: 50, lastCheckedAt: at(1) }] }) }
    )
    expect(emulator.history.get(c.id)?.[0].checkedAt).toBe('Mon, 23 Nov 2026 07:59:00 GMT')
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'budget-exhausted', availability: '98' })
  })

  it('failed results that look identical (three locations at one instant, no id) count each time; identical ups once', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const down = { status: 'down', responseTime: 30_000, checkedAt: at(-30) }
    const up = { status: 'up', responseTime: 100, checkedAt: at(-90) }
    // 1000 distinct ups, three identical downs, and one up shown three times: 3 of 1004 down is past a 99.9% budget
    emulator.history.set(c.id, [down, down, down, up, up, up, ...past(1000).slice(2)])
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, slo: '99.9%', timeout: '3s' },
      { clock: scriptedClock(emulator, { [c.id]: [{ status: 'up', responseTime: 50, lastCheckedAt: at(1) }] }) }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'budget-exhausted' })
    const budget = (resultOf(core) as Array<{ errorBudget: { results: number; up: number } }>)[0].errorBudget
    expect(budget).toMatchObject({ results: 1002, up: 999 })
  })
})

describe('budget outputs name the worst target', () => {
  it('three targets, the second spent: availability and budget of the second; failed-checks only it; the others named apart', async () => {
    const ids = ['web', 'shop', 'api'].map(name => emulator.seedCheck({ name, url: `https://${name}.example.com/` }).id)
    emulator.history.set(ids[0], past(1000))
    emulator.history.set(ids[1], past(1000, [1, 2, 3]))
    emulator.history.set(ids[2], past(1000))
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': ids.join(','), slo: '99.9%', timeout: '3s' },
      { clock: scriptedClock(emulator, {}) }
    )
    expect(core.outputs).toMatchObject({
      outcome: 'budget-exhausted',
      availability: '99.7',
      'error-budget-remaining': '-200',
      'check-id': ids[1]
    })
    expect(JSON.parse(core.outputs['failed-checks']).map((f: { id: string }) => f.id)).toEqual([ids[1]])
    const result = resultOf(core) as Array<{ id: string; notPolled?: boolean; errorBudget: { remaining: number } }>
    expect(result.map(r => [r.id, r.errorBudget.remaining, r.notPolled ?? false])).toEqual([
      [ids[0], 100, true],
      [ids[1], -200, false],
      [ids[2], 100, true]
    ])
    const escaped = (id: string) => id.replace('_', '\\_')
    expect(core.summaryText).toContain(
      `Not polled (the gate closed before any poll; their budgets are not spent): web (${escaped(ids[0])}), api (${escaped(ids[2])}).`
    )
  })
})

describe('an error before the targets are known', () => {
  it('a prefix that matches nothing, with fail-on-error false: outcome error, passed false, failed-checks never []', async () => {
    emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'name-prefix': 'nothing-',
      'fail-on-error': 'false',
      timeout: '2s'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.outputs['failed-checks']).not.toBe('[]')
    expect(core.outputs.error).toContain('nothing-')
  })
})
