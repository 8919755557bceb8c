/**
 * Reports people would rather look at: check-history with since, p95 and a
 * trend; the summaries of the gate and the history as snapshots (ids and the
 * clock fixed), with hostile names escaped and long tables capped.
 */
import { describe, expect, it } from '@jest/globals'
import type { Clock } from '../../src/api/pacer.js'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const NOW = Date.parse('2026-11-23T08:00:00Z')
const fixed: Clock = { now: () => NOW, sleep: async () => {} }
const at = (minutesAgo: number) => new Date(NOW - minutesAgo * 60_000).toISOString()
/** The summary with the random ids made stable. */
const stable = (text: string) => text.replace(/chk\\_[0-9a-f]+/g, 'chk\\_ID')

function seedHistory(name: string, entries: Array<{ status: string; responseTime?: number; minutesAgo: number }>) {
  const check = emulator.seedCheck({ name, url: 'https://h.example.com/', status: 'up', lastCheckedAt: at(1) })
  emulator.history.set(
    check.id,
    entries.map(e => ({ status: e.status, responseTime: e.responseTime, checkedAt: at(e.minutesAgo) }))
  )
  return check
}

describe('check-history', () => {
  it('since (a duration) keeps the newer entries; p95, min/avg and uptime are of those', async () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({
      status: i % 10 === 3 ? 'down' : 'up',
      responseTime: 100 + i * 10,
      minutesAgo: i * 10
    }))
    const check = seedHistory('hist', entries)
    const { core } = await runAction(
      emulator,
      { operation: 'check-history', 'check-id': check.id, since: '2h' },
      { clock: fixed }
    )
    expect(core.failed).toBeUndefined()
    // entries 0..12 are within 120 minutes
    expect(core.outputs.count).toBe('13')
    expect(core.outputs['response-time-p95']).toBe('220')
    expect(core.outputs.uptime).toBe('92.31') // one down (entry 3) in 13
    expect(core.summaryText).toContain('Response time min / avg / p95: 100 / 160 / 220 ms.')
    expect(core.summaryText).toContain('27 older or undated left out')
  })

  it('since (an ISO time); a bad since is an input error naming it', async () => {
    const check = seedHistory('iso', [
      { status: 'up', responseTime: 50, minutesAgo: 5 },
      { status: 'up', responseTime: 70, minutesAgo: 90 }
    ])
    const { core } = await runAction(emulator, {
      operation: 'check-history',
      'check-id': check.id,
      since: at(60)
    })
    expect(core.outputs.count).toBe('1')
    const bad = await runAction(emulator, { operation: 'check-history', 'check-id': check.id, since: 'yesterday' })
    expect(bad.core.failed).toMatch(/^since must be a duration \(90m, 48h, 7d\) or an ISO 8601 time with its offset/)
  })

  it('no response times: p95 is empty, and the summary says nothing about them', async () => {
    const check = seedHistory('none', [{ status: 'up', minutesAgo: 1 }])
    const { core } = await runAction(emulator, { operation: 'check-history', 'check-id': check.id }, { clock: fixed })
    expect(core.outputs['response-time-p95']).toBe('')
    expect(core.summaryText).not.toContain('Response time min')
  })
})

describe('summary snapshots', () => {
  it('check-history: marks, relative times, the trend, hostile text escaped, the table capped at 50 rows', async () => {
    const entries = Array.from({ length: 60 }, (_, i) => ({
      status: i === 2 ? 'down' : i === 4 ? 'paused' : 'up',
      responseTime: 100 + ((i * 37) % 90),
      minutesAgo: i * 5
    }))
    const check = seedHistory('shop | <img src=x onerror=alert(1)> \n::error::x', entries)
    emulator.history.get(check.id)![0].note = '<script>|'
    const { core } = await runAction(emulator, { operation: 'check-history', 'check-id': check.id }, { clock: fixed })
    expect(stable(core.summaryText)).toMatchSnapshot()
  })
})
