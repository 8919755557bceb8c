/**
 * The key's budget is shared by every job that uses it: three syncs at once
 * against one small server window stay (almost) clear of 429s by pacing to
 * the RateLimit-Remaining / -Reset headers, and every one of them finishes.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { realClock } from '../../src/api/pacer.js'
import { runAction, startEmulator } from '../helpers/harness.js'

const dir = mkdtempSync(join(tmpdir(), 'budget-'))
let emulator: Emulator | undefined
afterEach(() => emulator?.stop())

function fleetFile(name: string, prefix: string, n: number): string {
  const lines = Array.from(
    { length: n },
    (_, i) => `- name: ${prefix}-${i}\n  url: https://fleet.example.com/${prefix}/${i}`
  )
  writeFileSync(join(dir, name), lines.join('\n') + '\n')
  return name
}

const syncs = (target: Emulator, headers: boolean) =>
  Promise.all(
    ['a', 'b', 'c'].map(prefix =>
      runAction(
        target,
        { operation: 'sync-checks', 'checks-file': fleetFile(`${prefix}.yml`, prefix, 8), 'max-retries': '10' },
        { env: { GITHUB_WORKSPACE: dir }, clock: realClock, pacing: true }
      ).then(outcome => ({ outcome, headers }))
    )
  )

describe('a rate-limit budget shared by concurrent jobs', () => {
  it('three syncs under one 20-per-2 s window: all finish, at most 3 429s', async () => {
    emulator = await startEmulator({ rateLimit: { limit: 20, windowMs: 2000 } })
    const runs = await syncs(emulator, true)
    for (const { outcome } of runs) expect(outcome.core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(24)
    const limited = emulator.requests.filter(r => r.status === 429).length
    expect(limited).toBeLessThanOrEqual(3)
  })

  it('the same syncs against a server that sends no budget headers meet more 429s (the baseline)', async () => {
    emulator = await startEmulator({ rateLimit: { limit: 20, windowMs: 2000 }, rateLimitHeaders: false })
    const runs = await syncs(emulator, false)
    for (const { outcome } of runs) expect(outcome.core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(24)
    expect(emulator.requests.filter(r => r.status === 429).length).toBeGreaterThan(3)
  })
})
