/**
 * docs/guides/error-budget.md, "What the error budget's read costs", states what the
 * gate does. Each cost in its tables is the formula the section states, and
 * the formula is what a real gate's history read took against the emulator
 * (the request count its summary says, and the emulator saw), at the page
 * size the table names: measured for every cell up to MEASURED_UP_TO
 * requests (both edges of the formula among them: a window that fills its
 * last page exactly, and one that does not), the larger cells by the formula
 * alone (thousands of requests each). The minutes are what the pacer gives;
 * the fleet's figures are the table's; the limits are the code's.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { ApiClient, RATE_LIMIT } from '../../src/api/client.js'
import { type Clock, Pacer } from '../../src/api/pacer.js'
import { BUDGET_MAX_PAGES, historyCost } from '../../src/operations/gate/past.js'
import { runAction, useEmulator } from '../helpers/harness.js'
import { ROOT } from '../helpers/runner.js'

const PAGE_SIZES = [50, 500, 100, 20]
/** One emulator per page size a table names; no rate limit at the server (the counts are the action's). */
const emulators = new Map(PAGE_SIZES.map(size => [size, useEmulator({ rateLimit: false, pageSize: size })]))
const dir = mkdtempSync(join(tmpdir(), 'budget-read-cost-'))
const START = Date.parse('2026-11-23T08:00:00Z')

const HEADING = "## What the error budget's read costs"
function section(): string {
  const doc = readFileSync(join(ROOT, 'docs/guides/error-budget.md'), 'utf8')
  const from = doc.indexOf(HEADING)
  expect(from).toBeGreaterThan(-1)
  const to = doc.indexOf('\n#', from + HEADING.length)
  return doc.slice(from, to === -1 ? undefined : to)
}

/** The section's tables: each a header and rows of cells, as written. */
function tables(text: string): Array<{ head: string[]; rows: string[][] }> {
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map(c => c.trim())
  const found: Array<{ head: string[]; rows: string[][] }> = []
  let lines: string[] = []
  for (const line of [...text.split('\n'), '']) {
    if (line.trim().startsWith('|')) lines.push(line)
    else if (lines.length > 0) {
      found.push({ head: cells(lines[0]), rows: lines.slice(2).map(cells) })
      lines = []
    }
  }
  return found
}
const tableWith = (text: string, column: string) => {
  const table = tables(text).find(t => t.head.includes(column))
  if (!table) throw new Error(`no table with the column "${column}" in the section`)
  return table
}

const UNIT_MS: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 }
/** `30 s`, `every 5 min`, `` `7d` ``: a duration in ms. */
function ms(text: string): number {
  const m = /(\d+)\s*(s|min|h|d)\b/.exec(text)
  if (!m) throw new Error(`not a duration: ${text}`)
  return Number(m[1]) * UNIT_MS[m[2]]
}
const number = (text: string) => Number(text.replace(/,/g, ''))

/** The section's formula: the pages that hold the window's `results`, and the one past it that ends the read. */
const FORMULA = '`⌈R / P⌉ + 1`'
const formula = (results: number, pageSize: number) => Math.ceil(results / pageSize) + 1
/** Cells up to this many requests are also measured; the rest (up to 5,185 each) only by the formula. */
const MEASURED_UP_TO = 1000

/**
 * What a real gate's history read takes for a check probed every `intervalMs`, with a history
 * reaching a page and more past `windowMs`, at the page size of `on`: the count its summary says,
 * held against the requests the emulator saw.
 */
async function measured(on: Emulator, windowMs: number, intervalMs: number): Promise<number> {
  const c = on.seedCheck({ name: 'costly', url: 'https://costly.example.com/' })
  const results = windowMs / intervalMs + 2 * on.options.pageSize
  on.history.set(
    c.id,
    Array.from({ length: results }, (_, i) => ({
      status: 'up',
      responseTime: 100,
      checkedAt: new Date(START - (i + 1) * intervalMs).toISOString()
    }))
  )
  // Up now: with require-fresh false, the first poll passes; the clock stands at START.
  const lastCheckedAt = new Date(START - 1000).toISOString()
  Object.assign(on.checks.get(c.id) as object, { status: 'up', responseTime: 100, lastCheckedAt })
  let now = START
  const clock: Clock = { now: () => now, sleep: async wait => void (now += wait) }
  const { core } = await runAction(
    on,
    {
      operation: 'wait-for-check',
      'check-id': c.id,
      slo: '99%',
      'slo-window': `${windowMs / 3_600_000}h`,
      'poll-interval': '1s',
      timeout: '5m',
      'require-fresh': 'false'
    },
    { clock, env: { GITHUB_WORKSPACE: dir } }
  )
  expect(core.outputs.outcome).toBe('passed')
  const said = /The result history took (\d+) requests? \(/.exec(core.summaryText)
  const seen = on.requests.filter(r => r.path.split('?')[0] === `/checks/${c.id}/history`).length
  expect(Number(said?.[1])).toBe(seen)
  on.reset()
  return seen
}

/** Minutes (whole) from the first of `n` requests to the start of the last, as the client's pacer spaces them. */
async function pacedMinutes(n: number): Promise<number> {
  let now = 0
  const pacer = new Pacer(RATE_LIMIT.limit, RATE_LIMIT.windowMs, {
    now: () => now,
    sleep: async wait => {
      now += wait
    }
  })
  for (let i = 0; i < n; i++) pacer.settle(await pacer.take()) // each request answered, as the client does
  return Math.floor(now / 60_000)
}

describe("docs/guides/error-budget.md: what the error budget's read costs", () => {
  it('each cost per check and window is the formula, and the formula is what the gate took', async () => {
    const text = section()
    expect(text).toContain(`its read takes ${FORMULA} requests`)
    expect(text).toContain(`page size; at ${PAGE_SIZES[0]} a page, the emulator's:`)
    const perCheck = tableWith(text, 'every 1 min')
    const stated: string[] = []
    const computed: string[] = []
    const edges = new Set<string>()
    for (const row of perCheck.rows) {
      for (const [i, cell] of row.entries()) {
        if (i === 0) continue
        const [windowMs, intervalMs] = [ms(row[0]), ms(perCheck.head[i])]
        const name = `${row[0]} ${perCheck.head[i]}`
        const cost = formula(windowMs / intervalMs, PAGE_SIZES[0])
        stated.push(`${name}: ${number(cell)}`)
        computed.push(`${name}: ${cost}`)
        if (cost > MEASURED_UP_TO) continue
        expect([name, await measured(emulators.get(PAGE_SIZES[0])!, windowMs, intervalMs)]).toEqual([name, cost])
        edges.add((windowMs / intervalMs) % PAGE_SIZES[0] === 0 ? 'fills its last page' : 'does not')
      }
    }
    expect(stated).toHaveLength(20)
    expect(stated).toEqual(computed)
    expect([...edges].sort()).toEqual(['does not', 'fills its last page'])
  })

  it('the cost of 30d of a one-minute check at each page size is the formula, and what the gate took', async () => {
    const text = section()
    expect(text).toContain('`30d` of a one-minute check:')
    const bySize = tableWith(text, 'results a page')
    expect(bySize.rows.map(([size]) => number(size)).sort()).toEqual([...PAGE_SIZES].sort())
    const results = ms('30d') / ms('1 min')
    for (const [size, cell] of bySize.rows) {
      const cost = formula(results, number(size))
      expect([size, number(cell)]).toEqual([size, cost])
      if (cost > MEASURED_UP_TO) continue
      expect([size, await measured(emulators.get(number(size))!, ms('30d'), ms('1 min'))]).toEqual([size, cost])
    }
  })

  it("the fleet's requests are N times the table's, and its minutes are the pacer's", async () => {
    const text = section()
    const perCheck = tableWith(text, 'every 1 min')
    const fleet = tableWith(text, "minutes of the key's budget")
    const checks = Number(/For (\d+) checks probed every minute:/.exec(text)?.[1])
    expect(checks).toBeGreaterThan(1)
    for (const [window, requests, minutes] of fleet.rows) {
      const m = /^(\d+) × ([\d,]+) = ([\d,]+)$/.exec(requests)
      expect([window, m?.[1]]).toEqual([window, String(checks)])
      const one = perCheck.rows.find(r => r[0] === window)?.[perCheck.head.indexOf('every 1 min')]
      expect([window, number(m?.[2] ?? ''), number(m?.[3] ?? '')]).toEqual([
        window,
        number(one ?? ''),
        checks * number(one ?? '')
      ])
      expect([window, Number(minutes)]).toEqual([window, await pacedMinutes(number(m?.[3] ?? ''))])
    }
    // The rule the minutes follow, as the section states it.
    expect(text).toContain('`n` requests take a little over `⌊(n - 1) / 100⌋` minutes')
    for (const n of [1, 100, 101, 865, 2593]) expect(await pacedMinutes(n)).toBe(Math.floor((n - 1) / 100))
  })

  it("the limits it names are the code's, and the summary's line is the gate's", () => {
    const text = section()
    expect(text).toContain(`at most ${BUDGET_MAX_PAGES.toLocaleString('en-US')} pages per check`)
    const others = new ApiClient({ baseUrl: 'http://127.0.0.1/v1', apiKey: 'k', maxRetries: 0, requestTimeoutMs: 1 })
    expect(text).toContain(`(other lists stop at ${others.maxPages}; more is an error)`)
    expect(text).toContain(`request against the key's ${RATE_LIMIT.limit} a minute`)
    expect(text).toContain(`starts at most ${RATE_LIMIT.limit} requests in any minute`)
    expect(RATE_LIMIT.windowMs).toBe(60_000)
    const quoted = /^> (The result history took .*)$/m.exec(text)?.[1]
    expect(quoted).toBe(historyCost(203))
  })
})
