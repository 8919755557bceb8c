/**
 * The nearest names to a prefix that matches nothing (the suggestion of a
 * name-prefix that selects no check): the same suggestions as comparing every
 * name in full. That they are found with work linear in the names is
 * nearest-names-scale.test.ts.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { Meter, nearestNames } from '../../src/operations/names/nearest-names.js'
import { editDistance } from '../../src/values/values.js'

/** Every name scored in full (three tables each), then all of them sorted: the suggestions as they are defined. */
function reference(prefix: string, names: string[], limit = 3): string[] {
  const p = prefix.toLowerCase().slice(0, 200)
  const scored: Array<[string, number]> = []
  for (const name of new Set(names.filter(n => n !== ''))) {
    const n = name.toLowerCase()
    let best = Number.POSITIVE_INFINITY
    for (const length of [p.length - 1, p.length, p.length + 1]) {
      if (length >= 0) best = Math.min(best, editDistance(p, n.slice(0, length)))
    }
    scored.push([name, best])
  }
  return scored
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, limit)
    .map(([name]) => name)
}

/** `n` check names of 8 to 40 characters, as fleets name them. */
const fleetNames = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    `${['shop', 'api', 'blog', 'pr-1234', 'eu-west-checkout'][i % 5]}-${(i * 7919) % 100_003}-${'health'.slice(0, i % 7)}`.slice(
      0,
      8 + (i % 33)
    )
  )

describe('nearestNames: the suggestions of comparing every name in full', () => {
  it('for any prefix, names (repeated, empty, in any case) and limit', () => {
    const word = (max: number) => fc.string({ unit: fc.constantFrom('a', 'b', 'A', '-', 'ab', 'ba'), maxLength: max })
    fc.assert(
      fc.property(
        word(8),
        fc.array(word(10), { maxLength: 30 }),
        fc.integer({ min: 0, max: 4 }),
        (prefix, names, limit) => {
          expect(nearestNames(prefix, names, limit)).toEqual(reference(prefix, names, limit))
        }
      ),
      { numRuns: 2000 }
    )
  })

  it('for a 200-character prefix and a longer one, against names shorter and longer than it', () => {
    const names = [...fleetNames(100), 'x'.repeat(199), `${'x'.repeat(150)}-shop`, 'y'.repeat(260), 'X'.repeat(201)]
    for (const prefix of ['x'.repeat(200), `${'x'.repeat(120)}shop${'x'.repeat(200)}`, 'shop-1-heal'.repeat(20)]) {
      expect(nearestNames(prefix, names)).toEqual(reference(prefix, names))
    }
  })
})

describe('nearestNames: the work it counts', () => {
  const steps = (prefix: string, names: string[], limit: number) => {
    const meter: Meter = { steps: 0 }
    const found = nearestNames(prefix, names, limit, meter)
    return { found, steps: meter.steps }
  }

  it('a name with no bound yet: a step for the name, one for its table, its first row and every cell', () => {
    // "abcd" against "abc": 1 + 1, a first row of 5 cells (columns 0 to 4), then 3 rows of 4 cells.
    expect(steps('abc', ['abcd'], 3)).toEqual({ found: ['abcd'], steps: 1 + 1 + 5 + 3 * 4 })
  })

  it('a place compared is a step: "a" moves before "b", one place', () => {
    // Each name: 1 + 1 + 2 (first row) + 1 (one cell); then "a" (0 edits) passes "b" (1 edit).
    expect(steps('a', ['b', 'a'], 3)).toEqual({ found: ['a', 'b'], steps: 5 + 5 + 1 })
  })

  it('a name longer than the prefix is compared by its first prefix-length + 1 characters', () => {
    // cols = 3 for "xyzzzz" against "ab": 1 + 1 + 4 + 2 rows of 3.
    expect(steps('ab', ['xyzzzz'], 3)).toEqual({ found: ['xyzzzz'], steps: 1 + 1 + 4 + 2 * 3 })
  })

  it('past the limit, a table whose row is all beyond the farthest kept stops at that row', () => {
    // "aaab" is 1 edit from "aaaa" (23 steps, a whole table). "zzzz" may only be nearer (bound 0):
    // 1 + 1, the first row (5), then row 1's one cell in the band (1 edit, beyond 0), and it stops.
    expect(steps('aaaa', ['aaab', 'zzzz'], 1)).toEqual({ found: ['aaab'], steps: 23 + 1 + 1 + 5 + 1 })
  })

  it('past the limit, a name whose length alone puts it beyond the bound costs two steps', () => {
    // "aaab" kept (0 places compared); "zz" is 2 edits short of 4 characters before any cell, against a bound of 0.
    expect(steps('aaaa', ['aaab', 'zz'], 1)).toEqual({ found: ['aaab'], steps: 23 + 2 })
  })
})
