/**
 * The gate's read of each check's past (src/operations/gate/past.ts), with a
 * plain fake API: one read in the widest window a rule needs, from which the
 * baseline and the error budget each take their own; what the log says;
 * what a read the deadline stopped comes to (a closed gate for the baseline,
 * an unknown budget for the error budget), and what it cost.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import type { HistoryEntry } from '../../src/api/schemas.js'
import type { RequestTally } from '../../src/api/types.js'
import { baselineText } from '../../src/operations/gate/baseline.js'
import { budgetText } from '../../src/operations/gate/budget.js'
import { burnText } from '../../src/operations/gate/burn.js'
import type { Track } from '../../src/operations/gate/judge.js'
import { openLedger } from '../../src/operations/gate/ledger.js'
import { BUDGET_MAX_PAGES, type PastRules, historyCost, isDeadline, readPast } from '../../src/operations/gate/past.js'
import type { OperationContext } from '../../src/operations/types.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
const row = (msBefore: number, status: string | null, responseTime: number | null): HistoryEntry => ({
  status,
  responseTime,
  checkedAt: new Date(START - msBefore).toISOString()
})
const TWENTY = { percent: 20 }
const NINETY = { percent: 90, scaled: 90, scale: 1 }

/** A history read of one check: its rows, or the error it ends with (after the pages it sent). */
type Answer = HistoryEntry[] | ApiError | Error

/** readPast over a fake API; each history read costs `pages` requests, counted in the tally as sent. */
function pastScene(histories: Record<string, Answer>, pages = 3) {
  const reads: Array<{ id: string; from: number; maxPages?: number; counted: boolean }> = []
  const lines: string[] = []
  const api = (maxPages?: number, tally?: RequestTally): unknown => ({
    withMaxPages: (n: number) => api(n, tally),
    counting: (t: RequestTally) => api(maxPages, t),
    checkHistory: async (id: string, from: number) => {
      reads.push({ id, from: from - START, ...(maxPages !== undefined ? { maxPages } : {}), counted: !!tally })
      if (tally) tally.sent += pages
      const answer = histories[id]
      if (answer instanceof Error) throw answer
      return answer
    }
  })
  const ctx = {
    api: api(),
    config: { timeoutMs: 600_000 },
    startedAt: START,
    log: {
      debug: () => {},
      info: (line: string) => lines.push(line),
      warning: (line: string) => lines.push(`warning: ${line}`),
      notice: () => {},
      group: async <T>(name: string, fn: () => Promise<T>) => {
        lines.push(`## ${name}`)
        return fn()
      }
    }
  } as unknown as OperationContext
  const tracks: Track[] = Object.keys(histories).map(id => {
    const check = id === 'c1' ? { id, name: 'shop' } : { id }
    return { check, streak: 0, ledger: openLedger(check, START, false), marks: [], times: [] }
  })
  const tally: RequestTally = { sent: 0 }
  return { ctx, tracks, reads, lines, tally, read: (rules: PastRules) => readPast(ctx, tracks, rules, tally) }
}

/** Ten results up in the last hour (200..290 ms); twenty fast ones and one down from 2 h to 2 d before. */
function twoDays(): HistoryEntry[] {
  return [
    row(0, 'up', 5), // at the start: after the window
    row(-MINUTE, 'up', 5),
    ...Array.from({ length: 10 }, (_, i) => row((i + 1) * 5 * MINUTE, 'up', 200 + 10 * i)),
    row(3 * HOUR, 'down', 30_000),
    ...Array.from({ length: 20 }, (_, i) => row(2 * HOUR + i * 2 * HOUR, 'up', 50)),
    row(3 * DAY, 'down', 30_000) // before both windows
  ]
}

const deadline = (detail: string) =>
  new ApiError({ kind: 'deadline', method: 'GET', path: '/checks/c1/history', detail })

describe('readPast: one read, each rule its own window', () => {
  it('reads the widest window once; the baseline counts its hour of it, the budget its two days', async () => {
    const s = pastScene({ c1: twoDays() })
    const rules: PastRules = {
      baseline: { windowMs: HOUR, increase: TWENTY },
      budget: { windowMs: 2 * DAY, slo: NINETY }
    }
    expect(await s.read(rules)).toEqual({ kind: 'read' })
    expect(s.reads).toEqual([{ id: 'c1', from: -2 * DAY, maxPages: BUDGET_MAX_PAGES, counted: true }])
    const [track] = s.tracks
    expect(track.baseline).toMatchObject({
      from: START - HOUR,
      to: START,
      results: 10,
      notUp: 0,
      p95: 290,
      limitMs: 348
    })
    expect(track.budget).toMatchObject({ from: START - 2 * DAY, to: START, results: 31, up: 30, spent: false })
    expect(s.lines).toEqual([
      "## Error budget and baseline: each check's history in the 2d before the step started",
      `shop (c1): reading its history back to ${new Date(START - 2 * DAY).toISOString()}`,
      `shop (c1): ${budgetText(track.budget!)}`,
      `shop (c1): ${baselineText(track.baseline!, TWENTY)}`,
      "The result history took 3 requests (3% of the key's 100 a minute)."
    ])
  })

  it('a baseline longer than the budget sets the window read; the budget still counts only its own', async () => {
    const s = pastScene({ c1: twoDays() })
    await s.read({ baseline: { windowMs: 2 * DAY, increase: TWENTY }, budget: { windowMs: HOUR, slo: NINETY } })
    expect(s.reads.map(r => r.from)).toEqual([-2 * DAY])
    expect(s.tracks[0].baseline).toMatchObject({ from: START - 2 * DAY, results: 30, notUp: 1 })
    // Ten results in the hour, all up.
    expect(s.tracks[0].budget).toMatchObject({ from: START - HOUR, results: 10, up: 10, remaining: 100 })
  })

  it('a baseline alone: the usual page cap, no cost line; a check with too few results is warned of, by its id', async () => {
    const s = pastScene({ c1: twoDays(), c2: [row(MINUTE, 'up', 100)] })
    expect(await s.read({ baseline: { windowMs: HOUR, increase: TWENTY } })).toEqual({ kind: 'read' })
    expect(s.reads).toEqual([
      { id: 'c1', from: -HOUR, counted: true },
      { id: 'c2', from: -HOUR, counted: true }
    ])
    const [c1, c2] = s.tracks
    expect(c1.budget).toBeUndefined()
    expect(c2.baseline?.skipped).toBeDefined()
    expect(s.lines).toEqual([
      "## Baseline: each check's history in the 1h before the step started",
      `shop (c1): ${baselineText(c1.baseline!, TWENTY)}`,
      `warning: c2 (c2): ${baselineText(c2.baseline!, TWENTY)}: its results are judged without it.`
    ])
  })

  it('an error budget alone: too few results is warned of, and the budget is not judged', async () => {
    const s = pastScene({ c1: [row(MINUTE, 'up', 100), row(2 * MINUTE, 'down', 100)] }, 1)
    expect(await s.read({ budget: { windowMs: 30 * DAY, slo: NINETY } })).toEqual({ kind: 'read' })
    expect(s.tracks[0].baseline).toBeUndefined()
    expect(s.tracks[0].budget).toMatchObject({ results: 2, spent: false })
    expect(s.lines).toEqual([
      "## Error budget: each check's history in the 30d before the step started",
      `shop (c1): reading its history back to ${new Date(START - 30 * DAY).toISOString()}`,
      `warning: shop (c1): ${budgetText(s.tracks[0].budget!)}.`,
      "The result history took 1 request (1% of the key's 100 a minute)."
    ])
  })
})

describe('readPast: the burn rate from the same read', () => {
  const RATE = { multiple: 1.5, scaled: 15, scale: 10 }
  it('each check: its rate in the log (a warning when not judged), from the one read the budget made', async () => {
    const s = pastScene({ c1: twoDays(), c2: [row(MINUTE, 'down', 100)] }, 1)
    const rules = { budget: { windowMs: 2 * DAY, slo: NINETY }, burn: { windowMs: HOUR, max: RATE } }
    expect(await s.read(rules)).toEqual({ kind: 'read' })
    // One read each, back over the budget's two days (the burn window lies within it).
    expect(s.reads.map(r => [r.id, r.from])).toEqual([
      ['c1', -2 * DAY],
      ['c2', -2 * DAY]
    ])
    expect(s.tracks[0].burn).toMatchObject({ burning: false, long: { results: 10, failed: 0, rate: 0 } })
    expect(s.tracks[1].burn?.skipped).toBeDefined()
    expect(s.lines).toContain(`shop (c1): ${burnText(s.tracks[0].burn!)}`)
    expect(s.lines).toContain(`warning: c2 (c2): ${burnText(s.tracks[1].burn!)}.`)
    expect(s.lines.filter(l => l.includes('burn rate'))).toHaveLength(2)
  })

  it('a burn window longer than the budget sets the window read', async () => {
    const s = pastScene({ c1: twoDays() }, 1)
    await s.read({ budget: { windowMs: HOUR, slo: NINETY }, burn: { windowMs: 3 * HOUR, max: RATE } })
    expect(s.reads.map(r => r.from)).toEqual([-3 * HOUR])
  })

  it('rows it cannot place: the error names the budget and the burn rate', async () => {
    const s = pastScene({ c1: [...twoDays(), { status: 'down', checkedAt: 7 } as unknown as HistoryEntry] }, 1)
    const read = await s.read({ budget: { windowMs: 2 * DAY, slo: NINETY }, burn: { windowMs: HOUR, max: RATE } })
    expect(read).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(
        /^the error budget and burn rate of 1 of 1 check\(s\) are unknown, so the gate cannot pass: shop \(c1\): 1 history row/
      )
    })
    expect(s.tracks[0].burn?.unplaced).toEqual({ rows: 1, example: '7' })
  })
})

describe('readPast: a read the deadline stopped', () => {
  it('the baseline: the gate closes (timed-out), saying whether a wait was refused or the time ran out', async () => {
    for (const [detail, why] of [
      ['would pass the deadline: a wait of 30 s refused', 'reading the baseline would have waited past the timeout'],
      ['was cut off at the deadline', 'the time ran out reading the baseline']
    ]) {
      const error = deadline(detail)
      const s = pastScene({ c1: error, c2: twoDays() })
      expect(await s.read({ baseline: { windowMs: HOUR, increase: TWENTY } })).toEqual({
        kind: 'timed-out',
        why: `${why}: ${error.message}`
      })
      // No read after it: the time is up.
      expect(s.reads.map(r => r.id)).toEqual(['c1'])
    }
  })

  it('the error budget: unknown, an error naming the window, the check and the timeout; the cost is still said', async () => {
    const error = deadline('was cut off at the deadline')
    const s = pastScene({ c2: twoDays(), c1: error }, 40)
    const read = await s.read({
      baseline: { windowMs: HOUR, increase: TWENTY },
      budget: { windowMs: 30 * DAY, slo: NINETY }
    })
    expect(read).toEqual({
      kind: 'error',
      message: `the error budget's window (30d) of shop (c1) could not be read within the timeout (600 s): ${error.message}. A long window of a frequent check takes many requests at the API's 100 a minute: raise timeout (see "What the error budget's read costs" in docs/guides/error-budget.md)`
    })
    expect(s.lines.at(-1)).toBe("The result history took 80 requests (80% of the key's 100 a minute).")
  })

  it("any other error is the API's: thrown, never a closed gate; the cost is still said", async () => {
    const error = new ApiError({ kind: 'http', status: 500, method: 'GET', path: '/checks/c1/history', detail: 'boom' })
    const s = pastScene({ c1: error }, 2)
    await expect(s.read({ budget: { windowMs: DAY, slo: NINETY } })).rejects.toBe(error)
    expect(s.lines.at(-1)).toBe("The result history took 2 requests (2% of the key's 100 a minute).")
    const t = pastScene({ c1: error })
    await expect(t.read({ baseline: { windowMs: HOUR, increase: TWENTY } })).rejects.toBe(error)
  })
})

describe('readPast: rows whose time cannot be placed', () => {
  it('make the budget unknown: an error naming each such check, after every check was read', async () => {
    const s = pastScene({
      c1: [...twoDays(), { status: 'up', responseTime: 100, checkedAt: 'yesterday' }, { status: 'down', checkedAt: 7 }],
      c2: twoDays()
    })
    const read = await s.read({ budget: { windowMs: 2 * DAY, slo: NINETY } })
    expect(s.reads.map(r => r.id)).toEqual(['c1', 'c2'])
    expect(read).toEqual({
      kind: 'error',
      message:
        'the error budget of 1 of 2 check(s) is unknown, so the gate cannot pass: shop (c1): 2 history row(s) with a time in a form the action cannot place (such as "yesterday"). Times are read as ISO 8601 / RFC 3339 (2026-11-24T10:00:00Z) or as an HTTP date (Tue, 24 Nov 2026 10:00:00 GMT)'
    })
  })

  it('name every check whose budget is unknown, one after another', async () => {
    const undated = { status: 'down', responseTime: 100 }
    const s = pastScene({ c1: [...twoDays(), undated], c2: twoDays(), c3: [undated, undated] })
    const read = await s.read({ budget: { windowMs: 2 * DAY, slo: NINETY } })
    expect(read.kind === 'error' && read.message).toMatch(
      /^the error budget of 2 of 3 check\(s\) is unknown, so the gate cannot pass: shop \(c1\): 1 history row\(s\) with a time in a form the action cannot place \(such as no checkedAt\) \| c3 \(c3\): 2 history row\(s\) with a time in a form the action cannot place \(such as no checkedAt\)\. Times are read as /
    )
  })

  it('leave a baseline known (they are only left out) when no budget is asked', async () => {
    const s = pastScene({ c1: [...twoDays(), { status: 'up', responseTime: 100, checkedAt: 'yesterday' }] })
    expect(await s.read({ baseline: { windowMs: HOUR, increase: TWENTY } })).toEqual({ kind: 'read' })
    expect(s.tracks[0].baseline).toMatchObject({ results: 10, p95: 290 })
  })
})

describe('historyCost and isDeadline', () => {
  it("says the requests and their share of the key's rate limit", () => {
    expect(historyCost(1)).toBe("The result history took 1 request (1% of the key's 100 a minute).")
    expect(historyCost(0)).toBe("The result history took 0 requests (0% of the key's 100 a minute).")
    expect(historyCost(14)).toBe("The result history took 14 requests (14% of the key's 100 a minute).")
    expect(historyCost(864)).toBe("The result history took 864 requests (864% of the key's 100 a minute).")
  })

  it('a deadline is an API error of kind deadline, nothing else', () => {
    expect(isDeadline(deadline('was not sent'))).toBe(true)
    const timeout = new ApiError({ kind: 'timeout', method: 'GET', path: '/x', detail: 'timed out' })
    expect(isDeadline(timeout)).toBe(false)
    expect(isDeadline(Object.assign(new Error('x'), { kind: 'deadline' }))).toBe(false)
    expect(isDeadline(undefined)).toBe(false)
  })
})
