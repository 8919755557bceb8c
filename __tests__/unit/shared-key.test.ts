/**
 * Jobs sharing one key, in virtual time (helpers/shared-key-model.ts): the
 * action's own pacer and retry decision against a model of the service's
 * fixed window of 100 requests a minute. The mixes are what an organisation
 * runs together: a release gate polling every 10 s, upserts, and syncs of 15
 * creates (4 in flight, as sync-checks applies a plan), started over a few
 * hundred milliseconds or two seconds (process start-up), at 60 or 250 ms a
 * round trip. The integration test (shared-key) and the bench run the same
 * mixes as real processes.
 */
import { describe, expect, it } from '@jest/globals'
import { ModelJob, floorMs, runShared } from '../helpers/shared-key-model.js'
import { LIMITED_KEEPING_UP, limitedBound } from '../../scripts/lib/shared-key.js'

function mix(n: number, spreadMs: number): ModelJob[] {
  return Array.from({ length: n }, (_, i): ModelJob => {
    const startMs = (i * 7919) % spreadMs
    if (i === 0) return { name: 'gate', requests: 3, thinkMs: 10_000, startMs: 100 }
    if (i % 5 === 1) return { name: `upsert-${i}`, requests: 3, startMs }
    return { name: `sync-${i}`, requests: 17, concurrency: 4, startMs }
  })
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

const cases = [10, 25].flatMap(jobs =>
  [60, 250].flatMap(latencyMs => [300, 2000].map(spreadMs => ({ jobs, latencyMs, spreadMs })))
)

describe('many jobs on one key, with the rate-limit headers', () => {
  it.each(cases)(
    '$jobs jobs, $latencyMs ms a round trip, started over $spreadMs ms: at most one 429 each, within 1.25x the floor, none later than twice the median',
    async ({ jobs, latencyMs, spreadMs }) => {
      const { results, server } = await runShared(mix(jobs, spreadMs), { headers: true, latencyMs })
      for (const job of results) {
        expect(job.failed).toBeUndefined()
        expect(job.limited).toBeLessThanOrEqual(LIMITED_KEEPING_UP)
      }
      const last = Math.max(...results.map(r => r.finishedMs))
      // The requests need more than one window here, so the floor is at least a minute.
      expect(floorMs(server.served)).toBeGreaterThanOrEqual(60_000)
      expect(last).toBeLessThanOrEqual(1.25 * floorMs(server.served))
      expect(last).toBeLessThanOrEqual(2 * median(results.map(r => r.finishedMs)))
      // The gate's three polls, 10 s apart, all answered within its 5 minutes.
      expect(results[0].finishedMs).toBeLessThan(300_000)
    }
  )

  it('the gate among them is answered from the reserve, not at the reset', async () => {
    const { results } = await runShared(mix(10, 300), { headers: true, latencyMs: 60 })
    // Three polls 10 s apart: about 20 s, where waiting for each reset would take two minutes.
    expect(results[0].finishedMs).toBeLessThan(25_000)
  })
})

describe('jobs coming back at a reset the headers round up to a whole second', () => {
  // A bulk job that read many answers knows the reset to the millisecond; a gate or an upsert that
  // met a 429 (or saw the window spent) knows it from one answer, rounded up to the second, so it
  // comes back up to a second late. Spending the whole window at its start left them a second 429.
  const bulkAndLight = (gates: number, bulkRequests: number): ModelJob[] => [
    { name: 'export', requests: bulkRequests, startMs: 0 },
    ...Array.from({ length: gates }, (_, i): ModelJob => ({
      name: `gate-${i}`,
      requests: 4,
      thinkMs: 500,
      startMs: 150 + 40 * i
    }))
  ]

  it.each([
    { limit: 20, windowMs: 2000, gates: 1, bulk: 60 },
    { limit: 26, windowMs: 2000, gates: 1, bulk: 80 },
    { limit: 20, windowMs: 3000, gates: 1, bulk: 60 },
    { limit: 100, windowMs: 60_000, gates: 1, bulk: 300 },
    { limit: 20, windowMs: 2000, gates: 2, bulk: 60 },
    { limit: 21, windowMs: 2000, gates: 3, bulk: 60 },
    { limit: 40, windowMs: 3000, gates: 2, bulk: 100 },
    // Four gates come back at each reset: the bulk job's hold at the window's start lets them in.
    { limit: 20, windowMs: 2000, gates: 4, bulk: 60 }
  ])(
    'a key of $limit per $windowMs ms, a bulk job and $gates gate(s) started while it spends: at most one 429 each',
    async ({ limit, windowMs, gates, bulk }) => {
      const over: string[] = []
      for (const latencyMs of [4, 20, 60]) {
        const { results } = await runShared(bulkAndLight(gates, bulk), { headers: true, latencyMs, limit, windowMs })
        for (const job of results) {
          expect(job.failed).toBeUndefined()
          if (job.limited > LIMITED_KEEPING_UP) over.push(`${job.name} at ${latencyMs} ms: ${job.limited} 429s`)
        }
      }
      expect(over).toEqual([])
    }
  )
})

describe('many jobs on one key, without the headers (only 429 and Retry-After)', () => {
  it.each(cases)(
    '$jobs jobs, $latencyMs ms, over $spreadMs ms: every job finishes within 1.25x the floor; the 429s each job meets are bounded; the gate is answered',
    async ({ jobs, latencyMs, spreadMs }) => {
      const { results, server } = await runShared(mix(jobs, spreadMs), { headers: false, latencyMs })
      // Window ends the jobs lived through: at most one for each window the requests filled.
      const ends = Math.floor((server.served - 1) / 100) + 1
      for (const job of results) {
        expect(job.failed).toBeUndefined()
        expect(job.limited).toBeLessThanOrEqual(limitedBound(false, ends))
      }
      const last = Math.max(...results.map(r => r.finishedMs))
      expect(last).toBeLessThanOrEqual(1.25 * floorMs(server.served))
      // Nothing tells a job that others wait until it meets a 429 itself: the window goes first
      // come, first served, so a job may end later than twice the median (jobs that fit in the
      // first window end within a second), and the gate's poll, made while the window is spent,
      // waits for the reset. That is the gap docs/benchmark-rows.md states; the gate is answered
      // within its timeout all the same.
      expect(results[0].finishedMs).toBeLessThan(300_000)
    }
  )
})
