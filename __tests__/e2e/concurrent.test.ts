/**
 * Concurrent runs of dist/index.js, started together as separate processes
 * (matrix legs, a re-run racing the original), against an emulator that holds
 * every create for half a second: one resource per name, every run agreeing,
 * also when creates are answered 500 or reset after they applied.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Emulator } from '../../emulator/server.js'
import { KEY, startEmulator } from '../helpers/harness.js'
import { StepResult, runStep } from '../helpers/runner.js'

const RUNS = 5
const TRIALS = 3
let emulator: Emulator
let bare: Emulator
beforeAll(async () => {
  emulator = await startEmulator({ createLatencyMs: 500 })
  // No createdAt: only the smallest id can make racing runs agree.
  bare = await startEmulator({ createLatencyMs: 500, createdAt: false })
})
afterAll(async () => {
  await emulator.stop()
  await bare.stop()
})

const together = (inputs: Record<string, string>): Promise<StepResult[]> =>
  Promise.all(
    Array.from({ length: RUNS }, () =>
      runStep({ 'api-key': KEY, 'base-url': emulator.baseUrl, 'job-summary': 'false', ...inputs })
    )
  )

describe(`${RUNS} processes of the bundle at once`, () => {
  it(`upsert-check, ${TRIALS} trials: exactly one check, every run outputs its id`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      emulator.reset()
      const runs = await together({
        operation: 'upsert-check',
        'check-name': 'shop',
        'check-url': 'https://shop.example.com/health'
      })
      for (const run of runs) expect({ code: run.code, out: run.stdout.slice(-400) }).toMatchObject({ code: 0 })
      expect(emulator.checks.size).toBe(1)
      const [kept] = emulator.checks.keys()
      expect(runs.map(r => r.outputs['check-id'])).toEqual(Array(RUNS).fill(kept))
      expect(emulator.count('POST')).toBeGreaterThan(1)
    }
  })

  it(`open-incident, ${TRIALS} trials: exactly one unresolved incident, every run outputs its id`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      emulator.reset()
      const runs = await together({ operation: 'open-incident', 'incident-title': 'Deploy failed' })
      for (const run of runs) expect({ code: run.code, out: run.stdout.slice(-400) }).toMatchObject({ code: 0 })
      const open = [...emulator.incidents.values()].filter(i => i.status !== 'resolved')
      expect(open).toHaveLength(1)
      expect(runs.map(r => r.outputs['incident-id'])).toEqual(Array(RUNS).fill(open[0].id))
    }
  })
})

describe('racing creates under faults (a proven miss converges to one)', () => {
  const race = (count: number, inputs: Record<string, string>) =>
    Promise.all(
      Array.from({ length: count }, () =>
        runStep({ 'api-key': KEY, 'base-url': bare.baseUrl, 'job-summary': 'false', ...inputs })
      )
    )

  it('3 processes of upsert-check; one create applied then answered 500, one applied then reset: one check, one id, exit 0', async () => {
    for (let trial = 0; trial < 2; trial++) {
      bare.reset()
      bare.inject({ method: 'POST', path: '/checks', after: true, status: 500, body: { error: 'internal' } })
      bare.inject({ method: 'POST', path: '/checks', after: true, drop: true })
      const runs = await race(3, {
        operation: 'upsert-check',
        'check-name': 'shop',
        'check-url': 'https://shop.example.com/health'
      })
      for (const run of runs) expect({ code: run.code, out: run.stdout.slice(-600) }).toMatchObject({ code: 0 })
      expect(bare.checks.size).toBe(1)
      const [kept] = bare.checks.keys()
      expect(runs.map(r => r.outputs['check-id'])).toEqual([kept, kept, kept])
      expect(bare.count('POST')).toBeGreaterThan(1)
    }
  })

  it('2 processes of open-incident, the first create applied then answered 500: one unresolved incident', async () => {
    bare.reset()
    bare.inject({ method: 'POST', path: '/incidents', after: true, status: 500 })
    const runs = await race(2, { operation: 'open-incident', 'incident-title': 'Deploy failed' })
    for (const run of runs) expect({ code: run.code, out: run.stdout.slice(-600) }).toMatchObject({ code: 0 })
    const open = [...bare.incidents.values()].filter(i => i.status !== 'resolved')
    expect(open).toHaveLength(1)
    expect(runs.map(r => r.outputs['incident-id'])).toEqual([open[0].id, open[0].id])
  })
})
