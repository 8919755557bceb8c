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
import { valueProblem, yamlDocument, yamlValue } from '../../src/values/parse-yaml.js'
import { gc } from '../helpers/heap.js'

beforeAll(() => load('yaml'))

/** A checks file of `n` entries, each merging the `defaults` anchor. */
const merging = (n: number) =>
  'defaults: &defaults\n  interval: 30\n  alertChannels: [email, pagerduty]\nchecks:\n' +
  Array.from(
    { length: n },
    (_, i) => `  - <<: *defaults\n    name: app-${i}\n    url: https://app.example.com/${i}\n`
  ).join('')

/**
 * The shape teams write for a fleet: a base anchor of several fields (a nested
 * mapping of headers, a list of channels), a region anchor that itself merges
 * the base, and entries that merge both (`<<: [*eu, *base]`) and override a field.
 */
const BASE = {
  type: 'http',
  interval: 60,
  timeout: 10,
  alertChannels: ['email', 'pagerduty', 'slack'],
  headers: { 'User-Agent': 'monitoring-ci', Accept: 'text/html' },
  expectedStatus: 200
}
const fleet = (n: number) =>
  [
    'base: &base',
    '  type: http',
    '  interval: 60',
    '  timeout: 10',
    '  alertChannels: [email, pagerduty, slack]',
    '  headers:',
    '    User-Agent: monitoring-ci',
    '    Accept: text/html',
    '  expectedStatus: 200',
    'eu: &eu',
    '  <<: *base',
    '  region: eu-west',
    '  interval: 30',
    'checks:',
    ...Array.from({ length: n }, (_, i) =>
      [
        `  - <<: [*eu, *base]`,
        `    name: "shop-eu-${i}"`,
        `    url: https://eu.shop.example.com/${i}`,
        ...(i % 2 === 0 ? ['    timeout: 5'] : [])
      ].join('\n')
    ),
    ''
  ].join('\n')

/** The best of `runs` timings (ms) of a document's value built, its aliases merged (each from a fresh parse). */
function bestTime(n: number, runs: number, shape = merging, last = lastMerging): number {
  const text = shape(n)
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
    expect(value.checks[n - 1]).toEqual(last(n - 1))
  }
  return best
}

function lastMerging(i: number): unknown {
  return { interval: 30, alertChannels: ['email', 'pagerduty'], name: `app-${i}`, url: `https://app.example.com/${i}` }
}

/** An entry of `fleet`: the region's interval wins over the base's (the earlier of the list), the entry's own timeout over both. */
function lastOfFleet(i: number): unknown {
  return {
    ...BASE,
    region: 'eu-west',
    interval: 30,
    name: `shop-eu-${i}`,
    url: `https://eu.shop.example.com/${i}`,
    ...(i % 2 === 0 ? { timeout: 5 } : {})
  }
}

describe('entries merging one anchor', () => {
  it('are read in time linear in the entries: 20,000 take well under the quadratic 16 times what 5,000 take', () => {
    bestTime(5000, 1)
    const small = bestTime(5000, 3)
    const large = bestTime(20_000, 3)
    expect(large / small).toBeLessThan(8)
  }, 180_000)

  it('are read in time linear in the shape teams write (two anchors, one merging the other, nested values, overrides): 10,000 take well under 16 times what 2,500 take', () => {
    expect(lastOfFleet(0)).toMatchObject({ timeout: 5, interval: 30 })
    bestTime(2500, 1, fleet, lastOfFleet)
    const small = bestTime(2500, 3, fleet, lastOfFleet)
    const large = bestTime(10_000, 3, fleet, lastOfFleet)
    expect(large / small).toBeLessThan(8)
  }, 180_000)
})
