/**
 * The nearest names to a prefix that matches nothing are found with work
 * linear in the names (counted, not timed): tens of thousands of names, each
 * against a 200-character prefix. What they are is nearest-names.test.ts.
 * Apart from it because of its size: the mutation group `fleet` runs the
 * suggestions' tests against every change it plants in names/selection.ts, and
 * this file's 60,000 names cost minutes there for each one.
 */
import { describe, expect, it } from '@jest/globals'
import { Meter, nearestNames } from '../../src/operations/names/nearest-names.js'

/** `n` check names of 8 to 40 characters, as fleets name them. */
const fleetNames = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    `${['shop', 'api', 'blog', 'pr-1234', 'eu-west-checkout'][i % 5]}-${(i * 7919) % 100_003}-${'health'.slice(0, i % 7)}`.slice(
      0,
      8 + (i % 33)
    )
  )

describe('nearestNames: work linear in the names', () => {
  const prefix = `zz-${'q'.repeat(197)}`
  const count = (names: string[]) => {
    const meter: Meter = { steps: 0 }
    nearestNames(prefix, names, 3, meter)
    return meter.steps
  }

  it('a 200-character prefix over 50,000 names takes 5 times the steps of 10,000 (within 10%)', () => {
    const ratio = count(fleetNames(50_000)) / count(fleetNames(10_000))
    expect(ratio).toBeGreaterThan(4.5)
    expect(ratio).toBeLessThan(5.5)
  })

  it('each name costs at most one table of the prefix against its start, and a few places compared', () => {
    const names = fleetNames(10_000)
    const table = names.reduce(
      (sum, name) => sum + (prefix.length + 1) * (Math.min(name.length, prefix.length + 1) + 1),
      0
    )
    expect(count(names)).toBeLessThanOrEqual(table + names.length * (3 + 2))
  })
})
