/**
 * A fleet's checks file, in the shapes export-checks writes (YAML and JSON),
 * is read in work linear in the fleet. Counted, not timed: the YAML parser is
 * never called, each variable is read once, JSON.parse reads the JSON file
 * once, and the bytes allocated while reading (V8's own count: what each
 * garbage collection freed, and what is left) grow with the entries, at a
 * bounded number per entry. The same count on the YAML parser's reading of
 * the same file shows the bound can fail.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import { load } from '../../src/lazy/modules.cjs'
import { parseChecksFile } from '../../src/operations/sync/checks-file.js'
import { FleetShape, fleetText } from '../../scripts/lib/fleet-files.js'
import { allocatedBy } from '../helpers/heap.js'

let yaml: { parseDocument: (text: string, options?: unknown) => unknown }
beforeAll(async () => {
  await load('yaml')
  yaml = (await import('yaml')).default as typeof yaml
})

/** A fleet of n as the service holds it, one check in ten with a token in its URL (lifted into a variable). */
async function exported(shape: FleetShape, n: number) {
  const checks = Array.from({ length: n }, (_, i) => ({
    id: `chk_${i}`,
    name: `fleet-${i}`,
    url: `https://fleet.example.com/${i}${i % 10 === 0 ? `?token=tok${i}-0a1b2c3d` : ''}`,
    type: 'http',
    interval: 60,
    alertChannels: ['email']
  })) as Check[]
  const text = await fleetText(shape, checks, 'https://api.example.com/v1')
  const values = Object.fromEntries(checks.map((_, i) => [`CHECK_FLEET_${i}_TOKEN`, `tok${i}-0a1b2c3d`]))
  return { text, values, lifted: n / 10 }
}

/** A file read, counting: the YAML parser's calls, each variable's reads, JSON.parse's calls, the bytes allocated. */
function counted(text: string, values: Record<string, string>) {
  const reads = new Map<string, number>()
  const env = new Proxy(values, {
    get: (target, name: string) => (reads.set(name, (reads.get(name) ?? 0) + 1), target[name])
  })
  let parser = 0
  let json = 0
  const [parseDocument, parse] = [yaml.parseDocument, JSON.parse]
  yaml.parseDocument = (t: string, o?: unknown) => (parser++, parseDocument(t, o))
  JSON.parse = (t: string, r?: Parameters<typeof JSON.parse>[1]) => (json++, parse(t, r) as unknown)
  let entries = 0
  try {
    const bytes = allocatedBy(() => void (entries = parseChecksFile(text, 'checks.yml', { env }).length))
    return { entries, parser, json, reads, bytes }
  } finally {
    yaml.parseDocument = parseDocument
    JSON.parse = parse
  }
}

/** At most this many bytes allocated per entry (the readers without the parser: some 3.5 to 6.5 KB; the parser: 80). */
const BYTES_PER_ENTRY = 24 * 1024

describe("a fleet's checks file is read in work linear in the fleet", () => {
  it('refuses the known-bad control: the YAML parser reading the whole file allocates past the bound', async () => {
    const { text, values } = await exported('export', 2000)
    const whole = counted(`---\n${text}`, values)
    expect(whole.parser).toBe(1)
    expect(whole.bytes / 2000).toBeGreaterThan(BYTES_PER_ENTRY)
  })

  it.each(['export', 'json'] as FleetShape[])(
    'the %s shape: no YAML parser, each variable read once, bytes per entry bounded and the same at 5x the fleet',
    async shape => {
      const perEntry: number[] = []
      for (const n of [2000, 10_000]) {
        const { text, values, lifted } = await exported(shape, n)
        const read = counted(text, values)
        expect(read.entries).toBe(n)
        expect(read.parser).toBe(0)
        expect(read.reads.size).toBe(lifted)
        expect([...read.reads.values()].every(r => r === 1)).toBe(true)
        // The JSON file is parsed once, whole; the YAML one's strings need no JSON.parse (no escapes).
        expect(read.json).toBe(shape === 'json' ? 1 : 0)
        perEntry.push(read.bytes / n)
      }
      expect(perEntry[1]).toBeLessThan(BYTES_PER_ENTRY)
      expect(perEntry[1]).toBeLessThan(perEntry[0] * 1.5)
    }
  )
})
