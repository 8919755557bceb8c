/**
 * What a dry-run sync of a fleet holds and builds beyond its list, measured
 * in bytes, not time: V8's own count of the heap after a full collection, and
 * of what each collection freed (as fleet-file-scale.test.ts counts the
 * checks file's reading). Checking the file's entries keeps nothing through
 * young-generation collections; the plan of unchanged checks holds one small
 * entry each; a fleet's listed checks and the file's entries, kept packed,
 * hold little more than their ids and names in V8's heap; its `result`
 * output and job summary hold no copy of it; and a
 * list output too large for the 512 KiB an output holds is measured item by
 * item, never serialised whole only to be replaced by the note.
 */
import { describe, expect, it } from '@jest/globals'
import { GCProfiler } from 'node:v8'
import { Writable } from 'node:stream'
import { packer } from '../../src/api/packed.js'
import { readPages } from '../../src/api/pagination.js'
import { type Check, CheckSchema } from '../../src/api/schemas.js'
import { planOutputs, planSummary } from '../../src/operations/sync/outcome.js'
import { PackedSpecs, computePlan } from '../../src/operations/sync/plan.js'
import { MAX_TABLE_ROWS, type OperationContext } from '../../src/operations/types.js'
import { MAX_RESULT_BYTES, writeOutputs } from '../../src/report/outputs.js'
import { redactValue } from '../../src/secrets/secrets.js'
import { CheckEntrySchema, specProblem } from '../../src/run/specs.js'
import { stdoutDrained } from '../../src/core/dependencies.js'
import { allocatedBy, gc } from '../helpers/heap.js'

const N = 10_000
const SECRETS = ['s3cr3t-api-key-0a1b']

/** A fleet of n unchanged checks: the service's list, and the file's entries that state them. */
function fleet(n: number) {
  const server = Array.from({ length: n }, (_, i) => ({
    id: `chk_${i.toString(16).padStart(12, '0')}`,
    name: `fleet-${i}`,
    url: `https://fleet.example.com/${i}`,
    type: 'http',
    interval: 60,
    alertChannels: ['email'],
    status: 'up',
    createdAt: '2026-11-24T10:00:00.000Z'
  })) as Check[]
  const wanted = server.map(({ name, url, interval }) => ({ name, url, interval }))
  return { server, wanted }
}

/** The heap `build` leaves held (after a full collection), and what it holds. */
function heldBy<T>(build: () => T): { bytes: number; value: T } {
  gc()
  const before = process.memoryUsage().heapUsed
  const value = build()
  gc()
  return { bytes: process.memoryUsage().heapUsed - before, value }
}

/** `heldBy` for a build that awaits. */
async function heldAfter<T>(build: () => Promise<T>): Promise<{ bytes: number; value: T }> {
  gc()
  const before = process.memoryUsage().heapUsed
  const value = await build()
  gc()
  return { bytes: process.memoryUsage().heapUsed - before, value }
}

/** The bytes V8's young-generation collections kept (copied or promoted) while `fn` ran. */
function survivedBy(fn: () => void): number {
  gc()
  const profiler = new GCProfiler()
  profiler.start()
  fn()
  const used = (s: { heapSpaceStatistics: Array<{ spaceName: string; spaceUsedSize: number }> }, space: string) =>
    s.heapSpaceStatistics.find(x => x.spaceName === space)?.spaceUsedSize ?? 0
  return (profiler.stop()?.statistics ?? [])
    .filter(s => s.gcType === 'Scavenge')
    .reduce(
      (sum, s) => sum + used(s.afterGC, 'old_space') - used(s.beforeGC, 'old_space') + used(s.afterGC, 'new_space'),
      0
    )
}

const ctx = { redactValue: <T>(value: T) => redactValue(value, SECRETS) } as unknown as OperationContext

describe('a dry-run sync of a fleet of unchanged checks, in bytes', () => {
  it("checking a fleet's entries keeps nothing of them through young-generation collections", () => {
    // What the young generation keeps decides its size: V8 doubles it when what survives its collections
    // since it last grew passes its size. A superRefine (zod gives each value it checks a closure of its
    // own) kept some 0.5 MiB of 30,000 checks; a refine keeps next to nothing.
    const { wanted } = fleet(N)
    let problems = 0
    const kept = survivedBy(() => {
      for (let round = 0; round < 3; round++)
        for (const entry of wanted) if (specProblem(CheckEntrySchema, entry)) problems++
    })
    expect(problems).toBe(0)
    expect(kept).toBeLessThan(256 * 1024)
  })

  it('the plan holds one small entry per check (no fields or changes of its own), outputs and summary no copy', () => {
    const { server, wanted } = fleet(N)
    const plan = heldBy(() => computePlan(wanted, server, { prune: false }))
    expect(plan.value.every(e => e.action === 'unchanged')).toBe(true)
    // An entry of five fields written out, its place in the list and the list's index by name: some 80 bytes
    // (some 140 with its fields spread from one shared pair, which left them in an array beside it; some 335
    // with an empty list and mapping of its own each, a map by id, a list for every name).
    expect(plan.bytes / N).toBeLessThan(120)
    const shown = heldBy(() => ({
      outputs: planOutputs(plan.value, N, false),
      summary: planSummary(ctx, 'Sync plan', plan.value, [])
    }))
    // `result` lists the entries themselves; the table lists the first rows only.
    expect(shown.value.summary.tables[0]).toMatchObject({ total: N })
    expect(shown.value.summary.tables[0].rows).toHaveLength(MAX_TABLE_ROWS)
    // Some 22 bytes an entry (they were some 260: a copy in `result`, a row of the table each).
    expect(shown.bytes / N).toBeLessThan(48)
    expect((shown.value.outputs.result as unknown[])[7]).toBe(plan.value[7])
  })

  it("a fleet's read kept packed holds a handle, an id and a name a check in V8's heap, not the schema's copy", async () => {
    // The service's pages as JSON, read as the client reads them: each row checked by the schema, then kept.
    const PAGE = 500
    const pages = Array.from({ length: N / PAGE }, (_, p) =>
      JSON.stringify(fleet(N).server.slice(p * PAGE, (p + 1) * PAGE))
    )
    const read = <K>(keep?: (row: Check) => K) =>
      readPages<Check, K>({
        first: new URL('http://api.example.com/checks?page=0'),
        base: new URL('http://api.example.com/'),
        maxPages: 100,
        what: 'check',
        pathOf: url => url.pathname,
        fetch: async url => {
          const page = Number(url.searchParams.get('page'))
          const next = page + 1 < pages.length ? { link: `</checks?page=${page + 1}>; rel="next"` } : {}
          return { status: 200, headers: next, body: JSON.parse(pages[page]) as unknown }
        },
        parse: row => CheckSchema.parse(row),
        keep
      })
    const whole = await heldAfter(() => read())
    const packed = await heldAfter(() => read(packer<Check>()))
    expect(packed.value.items).toHaveLength(N)
    // Some 100 bytes a check (the handle, its id and name; the row's text is outside the heap), against some 300
    // for the schema's copy of each row with its strings: what kept V8's young generation doubling at 10,000.
    expect(packed.bytes / N).toBeLessThan(150)
    expect(whole.bytes / N).toBeGreaterThan(2 * (packed.bytes / N))
    // The file's entries kept packed hold their names in the heap, and little else.
    const specs = heldBy(() => {
      const kept = new PackedSpecs()
      for (const spec of fleet(N).wanted) kept.push(spec)
      return kept
    })
    expect(specs.value.length).toBe(N)
    expect(specs.bytes / N).toBeLessThan(64)
  })

  it('a `result` too large for an output is measured item by item: no string of the whole, the note its exact size', () => {
    const { server, wanted } = fleet(N)
    const plan = computePlan(wanted, server, { prune: false })
    const { result } = planOutputs(plan, N, false)
    const whole = Buffer.byteLength(JSON.stringify(result))
    expect(whole).toBeGreaterThan(MAX_RESULT_BYTES)
    const stringify = JSON.stringify
    let longest = 0
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      const json = stringify(...args)
      longest = Math.max(longest, json?.length ?? 0)
      return json
    }) as typeof stringify
    const set: Record<string, string> = {}
    let bytes: number
    try {
      bytes = allocatedBy(() => writeOutputs((name, value) => (set[name] = value), { result }, SECRETS))
    } finally {
      JSON.stringify = stringify
    }
    expect(JSON.parse(set.result)).toEqual({
      truncated: true,
      note: `result (${N} items) is ${whole} bytes, more than the ${MAX_RESULT_BYTES} bytes an output holds here; see the job summary or use a list operation with fewer items`
    })
    // The longest text built is an item's (or the note), never the list's (it was the list's, 900 KB).
    expect(longest).toBeLessThan(1024)
    // Masking each item (by value and by position) and measuring it: some 3.7 KB an item (it was some 10.4).
    expect(bytes / N).toBeLessThan(6 * 1024)
  })

  it('the log waits for a reader that lags: at once while the stream is under its mark, else at its next drain', async () => {
    // A pipe whose reader has not taken anything yet: each write waits until `take` is called.
    const waiting: Array<() => void> = []
    const pipe = new Writable({ highWaterMark: 16, write: (_chunk, _encoding, done) => void waiting.push(done) })
    const stdout = pipe as unknown as NodeJS.WriteStream
    let settled = false
    const wait = stdoutDrained(stdout)
    await wait()
    pipe.write('a line past the mark of 16 bytes\n')
    const drained = wait().then(() => (settled = true))
    await new Promise(tick => setImmediate(tick))
    expect(settled).toBe(false)
    waiting.shift()?.()
    await drained
    expect(settled).toBe(true)
  })

  it('a reader that takes nothing is waited for once, for the patience, then never again: the step does not hang on its log', async () => {
    const pipe = new Writable({ highWaterMark: 16, write: () => undefined })
    const stdout = pipe as unknown as NodeJS.WriteStream
    const wait = stdoutDrained(stdout, 50)
    pipe.write('a line past the mark of 16 bytes\n')
    const started = Date.now()
    await wait()
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
    expect(pipe.listenerCount('drain')).toBe(0)
    pipe.write('another line\n')
    const again = Date.now()
    await wait()
    expect(Date.now() - again).toBeLessThan(45)
  })
})
