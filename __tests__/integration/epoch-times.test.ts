/**
 * A service that writes times as numbers (epoch milliseconds) where the API document shows strings:
 * a check's `lastCheckedAt`, an incident's `createdAt` and `updatedAt`. Every read keeps working
 * (the schema takes any value there, as for a history row's `checkedAt`); the one reader of times
 * (`placeTime`) cannot place a number, so the gate never counts such a result fresh, and check-api
 * names the form.
 */
import { describe, expect, it } from '@jest/globals'
import { SCRIPT_START, runAction, scriptedClock, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const site = 'https://shop.example.com/'
const epoch = Date.parse('2026-11-29T08:00:00Z')

describe('times written as epoch numbers', () => {
  it('get-check and list-checks read the check, its time given as the service wrote it', async () => {
    emulator.seedCheck({ id: 'chk_e', name: 'shop', url: site, status: 'up', lastCheckedAt: epoch, responseTime: 90 })
    const one = await runAction(emulator, { operation: 'get-check', 'check-name': 'shop' })
    expect(one.core.failed).toBeUndefined()
    expect(one.core.outputs['check-id']).toBe('chk_e')
    expect(one.core.outputs['last-checked-at']).toBe(String(epoch))
    const all = await runAction(emulator, { operation: 'list-checks' })
    expect(all.core.failed).toBeUndefined()
    expect(all.core.outputs.count).toBe('1')
  })

  it.each([[{ $date: '2026-11-29T08:00:00Z' }], [{ toString: 1 }], [[1]], [true]])(
    'a time that is neither text nor a number (%j) is refused as not matching the API, naming the field',
    async value => {
      emulator.seedCheck({ id: 'chk_o', name: 'odd', url: site, status: 'up', lastCheckedAt: value })
      const run = await runAction(emulator, { operation: 'get-check', 'check-name': 'odd' })
      expect(run.core.failed).toMatch(/does not match the API.*lastCheckedAt/)
      expect(run.core.failed).not.toContain('[object Object]')
    }
  )

  it('two checks of one name whose createdAt is a number: read as any (the first used, the other named), not refused', async () => {
    const older = emulator.seedCheck({ id: 'chk_b', name: 'twin', url: site, createdAt: epoch })
    emulator.seedCheck({ id: 'chk_c', name: 'twin', url: site, createdAt: epoch - 60_000 })
    expect(emulator.checks.get('chk_b')?.createdAt).toBe(epoch) // the emulator keeps the number
    const run = await runAction(emulator, { operation: 'get-check', 'check-name': 'twin' })
    expect(run.core.failed).toBeUndefined()
    expect(run.core.outputs['check-id']).toBe(older.id)
    expect(run.core.logs.join('\n')).toContain('chk_c')
  })

  it('open-incident finds its unresolved incident whose createdAt and updatedAt are numbers, and updates it', async () => {
    const ours = emulator.seedIncident({
      title: 'Deploy failed',
      message: 'first',
      status: 'investigating',
      createdAt: epoch,
      updatedAt: epoch
    })
    const run = await runAction(emulator, {
      operation: 'open-incident',
      'incident-title': 'Deploy failed',
      'incident-message': 'again'
    })
    expect(run.core.failed).toBeUndefined()
    expect(emulator.incidents.size).toBe(1)
    expect(run.core.outputs['incident-id']).toBe(ours.id)
  })

  it('wait-for-check: a result whose time is a number is never counted fresh; the gate times out saying why', async () => {
    emulator.seedCheck({ id: 'chk_w', name: 'gated', url: site, status: 'up', responseTime: 90 })
    // Each poll sees a new result, up, its time a number after the step's start.
    const clock = scriptedClock(emulator, {}, poll =>
      Object.assign(emulator.checks.get('chk_w') as object, { lastCheckedAt: SCRIPT_START + poll * 10_000 })
    )
    const run = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': 'chk_w', timeout: '1m' },
      { clock }
    )
    expect(run.core.outputs.outcome).toBe('timed-out')
    expect(run.core.failed).toContain(
      `last checked "${SCRIPT_START + 60_000}", a time in a form the action cannot read: never counted as fresh`
    )
  })

  it('check-api names the form: a number, which the action cannot place', async () => {
    emulator.seedCheck({ id: 'chk_c', name: 'api', url: site, status: 'up', lastCheckedAt: epoch, responseTime: 90 })
    const run = await runAction(emulator, { operation: 'check-api' })
    expect(run.core.failed).toBeUndefined()
    const points = JSON.parse(run.core.outputs.result) as Array<{ point: string; found: string; advice: string }>
    const times = points.find(p => p.point === 'times')
    expect(times?.found).toContain(`lastCheckedAt: a number (epoch time?), a form the action cannot place (${epoch})`)
    expect(times?.advice).toContain('tell the service owner which form')
  })
})
