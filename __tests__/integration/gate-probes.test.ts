/**
 * One probe counts once toward `consecutive-passes`, whatever its two records
 * say of its time: the check's `lastCheckedAt` (when the probe finished, to
 * the millisecond) and its history's `checkedAt` (when it started, or in whole
 * seconds: the emulator's `historyTimes` view). The emulator really probes a
 * local target here, one probe per wait of the gate, so the number of probes
 * is exact.
 */
import { describe, expect, it } from '@jest/globals'
import type { Clock } from '../../src/api/pacer.js'
import { runAction, useEmulator, useTarget } from '../helpers/harness.js'
import type { HistoryTimes } from '../../emulator/views.js'

const emulator = useEmulator()
const target = useTarget()

/**
 * A real clock whose waits return at once, each after one probe of `id` (at
 * most `probes` in all; `gapMs` of real time before each, so two probes are
 * in different seconds).
 */
function probing(id: string, probes: number, gapMs: number): Clock & { made: () => number } {
  let made = 0
  return {
    made: () => made,
    now: () => Date.now(),
    sleep: async () => {
      if (made >= probes) return
      await new Promise(r => setTimeout(r, gapMs))
      await emulator.probe(id)
      made++
    }
  }
}

const progressOf = (logs: string[]) =>
  logs.filter(l => l.startsWith('info: shop (') && l.includes('): status ')).map(l => l.slice(l.lastIndexOf(': ') + 2))

describe.each<[HistoryTimes, number, number]>([
  // history: when the probe started (T - its duration, here about 1 s); the check: when it finished (T)
  ['started', 1_000, 50],
  // history: whole seconds; the check: milliseconds; the probes more than a second apart
  ['whole-seconds', 0, 1_100]
])('history times %s beside lastCheckedAt to the millisecond', (historyTimes, delayMs, gapMs) => {
  it('consecutive-passes 3 does not pass after 2 probes: a probe seen in the check and in its history counts once', async () => {
    target.delayMs = delayMs
    emulator.views = { ...emulator.views, historyTimes }
    const c = emulator.seedCheck({ name: 'shop', url: target.url })
    const clock = probing(c.id, 2, gapMs)
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        'consecutive-passes': '3',
        timeout: '8s',
        'poll-interval': '1s'
      },
      { clock }
    )
    expect(clock.made()).toBe(2)
    // the history really does say another time than the check for the same probe
    const history = emulator.history.get(c.id) ?? []
    expect(history).toHaveLength(2)
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(JSON.parse(core.outputs['failed-checks'])[0].reason).toBe('met the condition in 2 of 3 results in a row')
    const progress = progressOf(core.logs)
    expect(progress.slice(0, 3)).toEqual([
      'status is pending, expected up; never checked (0/3)', // not probed yet
      'met the condition (1/3)',
      'met the condition (2/3)'
    ])
    expect(progress.slice(3).every(p => p === 'no new result since the last poll (2/3)')).toBe(true)
  })

  it('the third probe passes it: each probe counted once, none lost', async () => {
    target.delayMs = delayMs
    emulator.views = { ...emulator.views, historyTimes }
    const c = emulator.seedCheck({ name: 'shop', url: target.url })
    const clock = probing(c.id, 3, gapMs)
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        'consecutive-passes': '3',
        timeout: '10s',
        'poll-interval': '1s'
      },
      { clock }
    )
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    expect(clock.made()).toBe(3)
    expect(progressOf(core.logs)).toEqual([
      'status is pending, expected up; never checked (0/3)',
      'met the condition (1/3)',
      'met the condition (2/3)',
      'passed (3/3)'
    ])
  })
})

describe('a miss is never taken for a result already counted', () => {
  it('a down probe right before an up one (one whole second in the history) resets the count', async () => {
    emulator.views = { ...emulator.views, historyTimes: 'whole-seconds' }
    const c = emulator.seedCheck({ name: 'shop', url: target.url })
    // Each wait: a second later, the probes in the row, back to back: up | down, up | up | up.
    const rounds: Array<Array<'up' | 'down'>> = [['up'], ['down', 'up'], ['up'], ['up']]
    let made = 0
    const clock: Clock = {
      now: () => Date.now(),
      sleep: async () => {
        const round = rounds[made++]
        if (!round) return
        await new Promise(r => setTimeout(r, 1_100))
        for (const mode of round) {
          target.mode = mode
          await emulator.probe(c.id)
        }
      }
    }
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        'consecutive-passes': '3',
        timeout: '10s',
        'poll-interval': '1s'
      },
      { clock }
    )
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    expect(progressOf(core.logs)).toEqual([
      'status is pending, expected up; never checked (0/3)',
      'met the condition (1/3)',
      'met the condition (1/3)', // the down probe between the polls reset the count; the up after it is 1
      'met the condition (2/3)',
      'passed (3/3)'
    ])
    expect(core.summaryText).toContain('❌✅❌✅✅✅')
  })
})

describe('a miss in whole seconds that reads as older than the last result', () => {
  it('is judged all the same: a down probe in the same second as the result before it resets the count', async () => {
    emulator.views = { ...emulator.views, historyTimes: 'whole-seconds' }
    const c = emulator.seedCheck({ name: 'shop', url: target.url })
    let made = 0
    const clock: Clock = {
      now: () => Date.now(),
      sleep: async () => {
        made++
        if (made === 1) {
          // The first up probe early in a second, so that the down probe after it falls in the same second.
          while (Date.now() % 1000 > 150) await new Promise(r => setTimeout(r, 5))
          target.mode = 'up'
          await emulator.probe(c.id)
        } else if (made === 2) {
          // Between two polls: down (its history time, cut to the second, reads as before the up above), then up.
          target.mode = 'down'
          await emulator.probe(c.id)
          await new Promise(r => setTimeout(r, 1_100))
          target.mode = 'up'
          await emulator.probe(c.id)
        } else if (made <= 4) {
          await new Promise(r => setTimeout(r, 1_100))
          target.mode = 'up'
          await emulator.probe(c.id)
        }
      }
    }
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        'consecutive-passes': '3',
        timeout: '10s',
        'poll-interval': '1s'
      },
      { clock }
    )
    expect(progressOf(core.logs).slice(0, 5)).toEqual([
      'status is pending, expected up; never checked (0/3)',
      'met the condition (1/3)',
      'met the condition (1/3)', // the down probe reset the count: the up after it is the first of a new row
      'met the condition (2/3)',
      'passed (3/3)'
    ])
  })
})

describe('a history stamped a second before the probe finished, whatever its response time', () => {
  it('consecutive-passes 3 does not pass after 2 fast probes (the same figures a second apart are one probe)', async () => {
    target.delayMs = 0
    // The history says a second earlier than the check for each probe, though each took a few ms.
    emulator.views = { ...emulator.views, historyStartedAt: true }
    const c = emulator.seedCheck({ name: 'shop', url: target.url })
    // More than a second between probes: the history's time of the second falls after the first's result.
    const clock = probing(c.id, 2, 1_200)
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        'consecutive-passes': '3',
        timeout: '8s',
        'poll-interval': '1s'
      },
      { clock }
    )
    expect(clock.made()).toBe(2)
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(JSON.parse(core.outputs['failed-checks'])[0].reason).toBe('met the condition in 2 of 3 results in a row')
  })
})
