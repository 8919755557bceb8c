/** check-api's tests: an account with something to read on each list, and the points of a run by name. */
import type { Emulator } from '../../emulator/server.js'
import type { FakeCore } from './fake-core.js'
import { resultOf } from './harness.js'

export const SITE = 'https://shop.example.com/'

/**
 * Three checks (two pages at a page size of 2), the first with three results a minute apart
 * (newest first, as stored) and a status page; an incident. Returns the first check's id.
 */
export function seedAccount(emulator: Emulator): string {
  const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()
  const first = emulator.seedCheck({ name: 'shop', url: SITE, status: 'up', lastCheckedAt: at(1), responseTime: 120 })
  emulator.seedCheck({ name: 'api', url: `${SITE}api`, status: 'down' })
  emulator.seedCheck({ name: 'docs', url: `${SITE}docs`, status: 'paused' })
  emulator.history.set(first.id, [
    { checkedAt: at(1), status: 'up', responseTime: 120 },
    { checkedAt: at(2), status: 'down', responseTime: 30_000 },
    { checkedAt: at(3), status: 'up', responseTime: 110 }
  ])
  emulator.seedIncident({ title: 'Shop is slow', status: 'investigating' })
  return first.id
}

export interface PointShown {
  point: string
  found: string
  consequence: string
  advice: string
  why?: string
}

/** The run's points, by name. */
export function pointsOf(core: FakeCore): Record<string, PointShown> {
  const points = resultOf(core) as PointShown[]
  return Object.fromEntries(points.map(p => [p.point, p]))
}
