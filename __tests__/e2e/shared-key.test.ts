/**
 * Several jobs sharing one key, as separate processes of the committed
 * bundle started together against one emulator (scripts/lib/shared-key.ts):
 * four syncs creating checks, an upsert and a release gate started while they
 * contend. The service's window is scaled down (24 requests per 3 s) so that
 * the jobs need three of them; the pacing follows the service's answers, not
 * a clock of its own, so the rules are the same as at 100 a minute (the bench
 * measures that). With the rate-limit headers every job meets at most one
 * 429; without them (only 429 and Retry-After) the bound is looser
 * (limitedBound in scripts/lib/shared-key.ts says why). Every job finishes
 * either way, and the gate is answered.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { KEY, startEmulator } from '../helpers/harness.js'
import { LIMITED_KEEPING_UP, limitedBound, runSharedKey } from '../../scripts/lib/shared-key.js'

const RATE = { limit: 24, windowMs: 3000 }
const MIX = { jobs: 6, creates: 6, gateAfterMs: 1000, gateTimeout: '60s' }
let emulator: Emulator | undefined
afterEach(() => emulator?.stop())

async function run(headers: boolean) {
  emulator = await startEmulator({
    rateLimit: RATE,
    rateLimitHeaders: headers,
    latency: { GET: 30, POST: 50, PUT: 30 }
  })
  const outcome = await runSharedKey(emulator, KEY, mkdtempSync(join(tmpdir(), 'shared-key-')), MIX)
  // Every job finished, and did what it was asked: 4 syncs of 6 creates, an upsert, the gate's check.
  for (const job of outcome.jobs)
    expect([job.name, job.result.code, job.result.outputs.error]).toEqual([job.name, 0, undefined])
  expect(emulator.checks.size).toBe(4 * MIX.creates + 1 + 1)
  const gate = outcome.jobs.find(j => j.kind === 'gate')
  expect(gate?.result.outputs.outcome).toBe('passed')
  // The jobs needed more than one window: the limit was met, not avoided by there being room.
  expect(outcome.served).toBeGreaterThan(RATE.limit)
  return outcome
}

describe('six jobs on one key, as processes', () => {
  it('with the rate-limit headers: every job finishes, none meets more than one 429', async () => {
    const outcome = await run(true)
    for (const job of outcome.jobs) expect([job.name, job.limited <= LIMITED_KEEPING_UP]).toEqual([job.name, true])
  }, 120_000)

  it('without them (only 429 and Retry-After): every job finishes, the 429s each meets stay in bound (limitedBound)', async () => {
    const outcome = await run(false)
    // Window ends the jobs lived through: at most one for each window the requests filled.
    const ends = Math.floor((outcome.served - 1) / RATE.limit) + 1
    for (const job of outcome.jobs)
      expect([job.name, job.limited <= limitedBound(false, ends)]).toEqual([job.name, true])
    // The limit was met: nothing told the jobs the window was spent.
    expect(outcome.refused).toBeGreaterThan(0)
  }, 120_000)
})
