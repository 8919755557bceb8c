/**
 * A checks file of many entries each merging one anchor (`<<: *defaults`) is
 * read in time linear in its entries: the aliases' anchors are found and
 * merged once each, never by a scan of the document per alias. Timed within
 * one run, as a ratio: the value built after the parse for 20,000 entries against
 * that for 5,000 (linear: 4; quadratic: 16), each the best of a few runs
 * after a settled heap, with room for a loaded machine.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import yaml from '../../src/lazy/yaml.cjs'
import { valueProblem, yamlDocument, yamlValue } from '../../src/parse-yaml.js'
import { gc } from '../helpers/heap.js'

beforeAll(() => load('yaml'))

/** A checks file of `n` entries, each merging the `defaults` anchor. */
const merging = (n: number) =>
  'defaults: &defaults\n  interval: 30\n  alertChannels: [email, pagerduty]\nchecks:\n' +
  Array.from(
    { length: n },
    (_, i) => `  - <<: *defaults\n    name: app-${i}\n    url: https://app.example.com/${i}\n`
  ).join('')

/** The best of `runs` timings (ms) of a document's value built, its aliases merged (each from a fresh parse). */
function bestTime(n: number, runs: number): number {
  const text = merging(n)
  let best = Infinity
  for (let run = 0; run < runs; run++) {
    const lines = new yaml.LineCounter()
    const doc = yamlDocument(text, lines)
    expect(valueProblem(doc, lines)).toBeUndefined()
    gc()
    const started = performance.now()
    const value = yamlValue(doc) as { checks: unknown[] }
    best = Math.min(best, performance.now() - started)
    expect(value.checks).toHaveLength(n)
    expect(value.checks[n - 1]).toEqual({
      interval: 30,
      alertChannels: ['email', 'pagerduty'],
      name: `app-${n - 1}`,
      url: `https://app.example.com/${n - 1}`
    })
  }
  return best
}

describe('entries merging one anchor', () => {
  it('are read in time linear in the entries: 20,000 take well under the quadratic 16 times what 5,000 take', () => {
    bestTime(5000, 1)
    const small = bestTime(5000, 3)
    const large = bestTime(20_000, 3)
    expect(large / small).toBeLessThan(8)
  }, 180_000)
})
