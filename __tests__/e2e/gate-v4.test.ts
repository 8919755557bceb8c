/**
 * The gate's version 4 rules through dist/index.js, as the runner runs it:
 * every zone-less time is UTC whatever the runner's TZ (a form the action
 * cannot place is never fresh).
 */
import { describe, expect, it } from '@jest/globals'
import { KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator()

const gate = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  runStep(
    { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'wait-for-check', 'poll-interval': '500ms', ...inputs },
    { env }
  )

/** `2026/11/25 04:43:11`: UTC, with slashes and a space, no zone. */
const slashed = (msAgo: number) =>
  new Date(Date.now() - msAgo)
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-/g, '/')
    .replace('T', ' ')

describe('a zone-less time in another form, on a runner west of UTC', () => {
  it('"YYYY/MM/DD HH:MM:SS" 10 minutes old (UTC) is stale under TZ=America/New_York: the gate closes', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    const lastCheckedAt = slashed(10 * 60_000)
    Object.assign(emulator.checks.get(c.id) as object, { lastCheckedAt, responseTime: 80 })
    const r = await gate({ 'check-id': c.id, timeout: '1500ms' }, { TZ: 'America/New_York' })
    expect(r.code).toBe(1)
    expect(r.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(JSON.parse(r.outputs['failed-checks'])[0].reason).toBe(
      `last checked ${lastCheckedAt}, before this step started (stale)`
    )
  })

  it('a form the action cannot place is never fresh, and the reason says so', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    // Date.parse reads this as New York time: 5 hours in the future, "fresh"
    const lastCheckedAt = new Date(Date.now())
      .toUTCString()
      .replace(/^\w+, /, '')
      .replace(' GMT', '')
    Object.assign(emulator.checks.get(c.id) as object, { lastCheckedAt, responseTime: 80 })
    const r = await gate({ 'check-id': c.id, timeout: '1500ms' }, { TZ: 'America/New_York' })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.outputs['failed-checks'])[0].reason).toBe(
      `last checked ${JSON.stringify(lastCheckedAt)}, a time in a form the action cannot read: never counted as fresh`
    )
  })
})
