/**
 * The gate's polling (src/operations/gate/poll.ts) with plain fakes: a
 * clock that moves only when a sleep or a read moves it, an API whose checks
 * are probed on a schedule, and a history of those probes. When a poll
 * starts and when polling stops (every check passed, the timeout, a timer
 * that wakes late, a read cut off, a cancel), when an answer counts (at the
 * deadline: yes; after it: never), and what the history read between two
 * polls adds to the count.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import type { MonitoringApi } from '../../src/api/monitoring.js'
import type { Check, HistoryEntry } from '../../src/api/schemas.js'
import type { ListCost } from '../../src/operations/gate/fleet-read.js'
import type { GateRules, Track } from '../../src/operations/gate/judge.js'
import { openLedger } from '../../src/operations/gate/ledger.js'
import { type Polling, pollUntilDone } from '../../src/operations/gate/poll.js'
import type { OperationContext } from '../../src/operations/types.js'

const START = Date.parse('2026-11-23T08:00:00Z')
const iso = (msAfterStart: number) => new Date(START + msAfterStart).toISOString()
const UP: GateRules = { expectedStatus: 'up' }
/** Reading the list by id, as a round does once reading it failed. */
const BY_ID: ListCost = { pages: Number.POSITIVE_INFINITY, missed: new Set() }

/** A check probed every `everyMs`, `0.5 s` before each multiple of it; `statusAt` says how each probe went. */
function probed(id: string, statusAt: (probeMs: number) => string = () => 'up', everyMs = 10_000, rt = 100) {
  const probeBefore = (msAfterStart: number) => Math.floor((msAfterStart + 500) / everyMs) * everyMs - 500
  const checkAt = (msAfterStart: number): Check => {
    const at = probeBefore(msAfterStart)
    return { id, name: `site ${id}`, status: statusAt(at), responseTime: rt, lastCheckedAt: iso(at) }
  }
  /** Its history: every probe up to now, newest first, as the service lists it. */
  const historyAt = (msAfterStart: number): HistoryEntry[] => {
    const rows: HistoryEntry[] = []
    for (let at = probeBefore(msAfterStart); at >= -120_000; at -= everyMs)
      rows.push({ status: statusAt(at), responseTime: rt, checkedAt: iso(at) })
    return rows
  }
  return { checkAt, historyAt }
}

interface SceneOptions {
  needed?: number
  timeoutMs?: number
  intervalMs?: number
  rules?: GateRules
  /** How late each sleep wakes (a loaded runner). */
  wakeLateMs?: number
  /** How long a GET of a check takes, by check and the time it is sent. */
  readMs?: (id: string, msAfterStart: number) => number
  /** Each check's history, by check and the time it is read (ms after the start); none by default. */
  history?: (id: string, msAfterStart: number) => HistoryEntry[]
  /** How long a history read takes. */
  historyMs?: number
  /** The list's rows (one page), or an error reading it; without it, no list is read. */
  listRows?: () => Check[]
  list?: ListCost
}

/** One gate's polling over fakes: `answer` is each check as a GET by id shows it at a time (ms after the start). */
function scene(answer: (id: string, msAfterStart: number) => Check | null, o: SceneOptions = {}) {
  let now = START
  const gets: Array<[string, number]> = []
  const historyReads: Array<[string, number]> = []
  const slept: number[] = []
  const lines: string[] = []
  let listReads = 0
  const controller = new AbortController()
  const api = {
    client: { maxPages: 100 },
    getCheck: async (id: string) => {
      // A poll that never stops would read without end: fail fast instead.
      if (gets.length > 100) throw new Error('polled without end')
      const sent = now - START
      gets.push([id, sent])
      now += o.readMs?.(id, sent) ?? 0
      return answer(id, sent)
    },
    readChecks: async (enough: (page: Check[]) => boolean) => {
      listReads++
      const rows = o.listRows?.() ?? []
      enough(rows)
      return { items: rows, pages: 1 }
    }
  }
  const reads = {
    checkHistory: async (id: string, from: number) => {
      historyReads.push([id, from - START])
      const rows = o.history?.(id, now - START) ?? []
      now += o.historyMs ?? 0
      return rows
    }
  }
  const ctx = {
    api,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        slept.push(ms)
        now += ms + (o.wakeLateMs ?? 0)
      }
    },
    log: {
      debug: () => {},
      info: (line: string) => lines.push(line),
      warning: (line: string) => lines.push(`warning: ${line}`),
      notice: () => {},
      group: async <T>(name: string, fn: () => Promise<T>) => {
        lines.push(`## ${name}`)
        return fn()
      }
    },
    startedAt: START,
    signal: controller.signal
  } as unknown as OperationContext
  const polling: Polling = {
    ctx,
    reads: reads as unknown as MonitoringApi,
    rules: o.rules ?? UP,
    needed: o.needed ?? 1,
    deadline: START + (o.timeoutMs ?? 60_000),
    pollIntervalMs: o.intervalMs ?? 10_000,
    rounds: 0,
    list: o.list ?? BY_ID
  }
  /** The tracks of `ids`, each opened at the step's first read (the answer at the start). */
  const tracks = (...ids: string[]) =>
    new Map<string, Track>(
      ids.map(id => {
        const check = answer(id, 0) ?? { id }
        const ledger = openLedger(check, START, polling.rules.requireFresh === true)
        return [id, { check, streak: 0, ledger, marks: [], times: [] }]
      })
    )
  return {
    polling,
    tracks,
    gets,
    historyReads,
    slept,
    lines,
    controller,
    listReads: () => listReads,
    at: () => now - START,
    advance: (ms: number) => (now += ms)
  }
}

const up = (id: string, msAfterStart: number) => probed(id).checkAt(msAfterStart)
/** Down until `fromMs` after the start, up from then on. */
const upFrom = (fromMs: number) => (id: string, msAfterStart: number) =>
  probed(id, at => (at >= fromMs ? 'up' : 'down')).checkAt(msAfterStart)
const deadlineError = (detail = 'was not sent: the time ran out') =>
  new ApiError({ kind: 'deadline', method: 'GET', path: '/checks/c1', detail })

describe('when polling stops', () => {
  it('polls at once, then every poll-interval, and stops at the poll where every check has met the condition', async () => {
    const s = scene(up, { needed: 3 })
    const tracks = s.tracks('c1')
    const polled = await pollUntilDone(s.polling, tracks)
    expect(polled).toEqual({ pending: new Set(), cutShort: undefined })
    expect(s.polling.rounds).toBe(3)
    expect(s.gets).toEqual([
      ['c1', 0],
      ['c1', 10_000],
      ['c1', 20_000]
    ])
    expect(s.slept).toEqual([10_000, 10_000])
    expect(tracks.get('c1')).toMatchObject({ streak: 3, passedAfterMs: 20_000 })
    expect(s.lines.filter(l => l.startsWith('## '))).toEqual([
      '## Poll 1: 1 check(s) pending',
      '## Poll 2: 1 check(s) pending',
      '## Poll 3: 1 check(s) pending'
    ])
    expect(s.lines).toContain(`site c1 (c1): status up, response time 100 ms, checked ${iso(19_500)}: passed (3/3)`)
  })

  it('a check that passed is not read again; the others are polled until they pass, each with its own time', async () => {
    const s = scene((id, at) => (id === 'c1' ? up(id, at) : upFrom(15_000)(id, at)))
    const tracks = s.tracks('c1', 'c2')
    const polled = await pollUntilDone(s.polling, tracks)
    expect(polled.pending.size).toBe(0)
    expect(s.gets).toEqual([
      ['c1', 0],
      ['c2', 0],
      ['c2', 10_000],
      ['c2', 20_000]
    ])
    expect(tracks.get('c1')?.passedAfterMs).toBe(0)
    expect(tracks.get('c2')?.passedAfterMs).toBe(20_000)
    expect(s.lines.filter(l => l.startsWith('## '))).toEqual([
      '## Poll 1: 2 check(s) pending',
      '## Poll 2: 1 check(s) pending',
      '## Poll 3: 1 check(s) pending'
    ])
  })

  it('the time is up: the last poll is at the deadline itself (the last wait shortened to it), none after', async () => {
    const s = scene(upFrom(Infinity), { timeoutMs: 25_000 })
    const tracks = s.tracks('c1')
    const polled = await pollUntilDone(s.polling, tracks)
    expect(polled).toEqual({ pending: new Set(['c1']) })
    expect(s.gets.map(([, at]) => at)).toEqual([0, 10_000, 20_000, 25_000])
    expect(s.slept).toEqual([10_000, 10_000, 5_000])
    expect(s.polling.rounds).toBe(4)
    expect(tracks.get('c1')?.passedAfterMs).toBeUndefined()
  })

  it('a poll-interval longer than the timeout still polls at the start and at the timeout', async () => {
    const s = scene(upFrom(5_000), { timeoutMs: 10_000, intervalMs: 60_000 })
    const tracks = s.tracks('c1')
    expect((await pollUntilDone(s.polling, tracks)).pending.size).toBe(0)
    expect(s.gets.map(([, at]) => at)).toEqual([0, 10_000])
    expect(s.slept).toEqual([10_000])
    expect(tracks.get('c1')?.passedAfterMs).toBe(10_000)
  })

  it('a round that ends past the deadline is the last: no wait, no further round', async () => {
    // The first round's read takes 12 s of a 10 s timeout.
    const s = scene(upFrom(Infinity), { timeoutMs: 10_000, readMs: (_, at) => (at === 0 ? 12_000 : 0) })
    const polled = await pollUntilDone(s.polling, s.tracks('c1'))
    expect(polled).toEqual({ pending: new Set(['c1']) })
    expect(s.slept).toEqual([])
    expect(s.polling.rounds).toBe(1)
  })
})

describe('when an answer counts', () => {
  it('an answer at the deadline itself counts: the gate passes at its last poll', async () => {
    const s = scene(upFrom(5_000), { timeoutMs: 10_000 })
    const tracks = s.tracks('c1')
    expect((await pollUntilDone(s.polling, tracks)).pending.size).toBe(0)
    expect(tracks.get('c1')?.passedAfterMs).toBe(10_000)
  })

  it('an answer a millisecond after the deadline is reported, but never counts', async () => {
    // Each GET takes 1 ms: the poll timed to the deadline is answered at deadline + 1 ms.
    const s = scene(upFrom(5_000), { timeoutMs: 10_000, readMs: () => 1 })
    const tracks = s.tracks('c1')
    const polled = await pollUntilDone(s.polling, tracks)
    expect(polled).toEqual({ pending: new Set(['c1']) })
    expect(s.gets.map(([, at]) => at)).toEqual([0, 10_000])
    expect(tracks.get('c1')).toMatchObject({
      streak: 0,
      verdict: { passed: false, missed: ['the answer arrived after the timeout'] }
    })
  })

  it('a timer that wakes up to a second late still polls at the deadline (its answer too late to count)', async () => {
    const s = scene(upFrom(5_000), { timeoutMs: 10_000, wakeLateMs: 1_000 })
    const tracks = s.tracks('c1')
    const polled = await pollUntilDone(s.polling, tracks)
    expect(polled).toEqual({ pending: new Set(['c1']) })
    expect(s.gets.map(([, at]) => at)).toEqual([0, 11_000])
    expect(tracks.get('c1')?.verdict?.missed).toEqual(['the answer arrived after the timeout'])
  })

  it('a timer that wakes more than a second late sends no request: polling stops early, saying why', async () => {
    const s = scene(upFrom(5_000), { timeoutMs: 10_000, wakeLateMs: 1_001 })
    const tracks = s.tracks('c1')
    const polled = await pollUntilDone(s.polling, tracks)
    expect(polled).toEqual({ pending: new Set(['c1']), cutShort: 'the time ran out during the poll' })
    expect(s.gets.map(([, at]) => at)).toEqual([0])
    expect(s.polling.rounds).toBe(2)
  })

  it('a slow read past the grace: the checks after it in that round are not read, and polling stops', async () => {
    for (const [slowMs, read] of [
      [11_000, ['c1', 'c2']],
      [11_001, ['c1']]
    ] as const) {
      const s = scene(upFrom(Infinity), { timeoutMs: 10_000, readMs: () => slowMs })
      const tracks = s.tracks('c1', 'c2')
      const polled = await pollUntilDone(s.polling, tracks)
      expect(s.gets.map(([id]) => id)).toEqual(read)
      expect(polled.pending).toEqual(new Set(['c1', 'c2']))
      expect(polled.cutShort).toBe(read.length === 1 ? 'the time ran out during the poll' : undefined)
    }
  })
})

describe('what ends polling otherwise', () => {
  it('a read the deadline cut off ends polling with its message; the checks stay pending', async () => {
    const error = deadlineError()
    const s = scene(() => {
      throw error
    })
    const tracks = new Map<string, Track>([
      ['c1', { check: { id: 'c1' }, streak: 0, ledger: openLedger({ id: 'c1' }, START, false), marks: [], times: [] }]
    ])
    expect(await pollUntilDone(s.polling, tracks)).toEqual({ pending: new Set(['c1']), cutShort: error.message })
  })

  it('any other error of a read is thrown (the API, not the time)', async () => {
    const error = new ApiError({ kind: 'network', method: 'GET', path: '/checks/c1', detail: 'reset' })
    const s = scene((_, at) => {
      if (at > 0) throw error
      return up('c1', at)
    })
    s.polling.needed = 2
    await expect(pollUntilDone(s.polling, s.tracks('c1'))).rejects.toBe(error)
  })

  it('a check deleted while the gate waits (a GET answering 404) is an error naming it', async () => {
    const s = scene((id, at) => (at > 0 ? null : upFrom(Infinity)(id, at)))
    await expect(pollUntilDone(s.polling, s.tracks('c1'))).rejects.toThrow(
      'check c1 was deleted while waiting for it (GET answered 404)'
    )
  })

  it('cancelled during the wait between polls: an error, not a timeout, and no further poll', async () => {
    const s = scene(upFrom(Infinity))
    const sleep = s.polling.ctx.clock.sleep
    s.polling.ctx.clock.sleep = async (ms, signal) => {
      s.controller.abort()
      await sleep(ms, signal)
    }
    await expect(pollUntilDone(s.polling, s.tracks('c1'))).rejects.toThrow(
      'wait-for-check was cancelled before the checks passed'
    )
    expect(s.gets).toHaveLength(1)
  })
})

describe('where the log has a progress line (the command)', () => {
  it("a round is one line (checks passed, whole seconds left, rounded up); each check's line goes to debug, no group", async () => {
    const s = scene(upFrom(15_000), { timeoutMs: 25_500, readMs: () => 400 })
    const progress: string[] = []
    const debug: string[] = []
    const log = s.polling.ctx.log as unknown as Record<string, unknown>
    Object.assign(log, { progress: (line: string) => progress.push(line), debug: (line: string) => debug.push(line) })
    await pollUntilDone(s.polling, s.tracks('c1', 'c2'))
    expect(progress).toEqual([
      'Poll 1: 0 of 2 check(s) passed, 25 s left',
      'Poll 2: 0 of 2 check(s) passed, 14 s left',
      'Poll 3: 2 of 2 check(s) passed, 4 s left'
    ])
    expect(s.lines).toEqual([])
    expect(debug).toHaveLength(6)
    expect(debug[0]).toContain('site c1')
  })

  it('the time left is never below 0 s, even for a round that ends past the deadline', async () => {
    const s = scene(upFrom(60_000), { timeoutMs: 10_000, readMs: () => 10_800 })
    const progress: string[] = []
    Object.assign(s.polling.ctx.log, { progress: (line: string) => progress.push(line) })
    await pollUntilDone(s.polling, s.tracks('c1'))
    expect(progress).toEqual(['Poll 1: 0 of 1 check(s) passed, 0 s left'])
  })
})

describe('rounds that read the list', () => {
  /** c1 up throughout; c2 and c3 down until 15 s after the start. */
  const answer = (id: string, at: number) => (id === 'c1' ? up(id, at) : upFrom(15_000)(id, at))

  it("takes each check's reading from the list's rows, sends no GET for it, and keeps what the list cost", async () => {
    // The list is read once, in the first round, at the start.
    const s = scene(answer, { list: { missed: new Set() }, listRows: () => ['c1', 'c2'].map(id => answer(id, 0)) })
    const tracks = s.tracks('c1', 'c2')
    await pollUntilDone(s.polling, tracks)
    expect(s.listReads()).toBe(1)
    // The first round read both from one page; then only c2 was pending (one check: by id).
    expect(s.gets).toEqual([
      ['c2', 10_000],
      ['c2', 20_000]
    ])
    expect(tracks.get('c1')?.passedAfterMs).toBe(0)
    expect(s.polling.list).toEqual({ pages: 1, missed: new Set() })
    expect(s.lines).toContain('Read 2 of 2 check(s) from 1 page(s) of the list.')
  })

  it('a timer that wakes more than a second late reads no list either: polling stops early, saying why', async () => {
    const s = scene(answer, {
      timeoutMs: 10_000,
      wakeLateMs: 1_001,
      list: { missed: new Set() },
      listRows: () => ['c2', 'c3'].map(id => answer(id, 0))
    })
    const polled = await pollUntilDone(s.polling, s.tracks('c2', 'c3'))
    expect(polled).toEqual({ pending: new Set(['c2', 'c3']), cutShort: 'the time ran out during the poll' })
    expect(s.listReads()).toBe(1)
    expect(s.gets).toEqual([])
  })

  it('a list the key may not read: its checks are read by id, this round and every round after', async () => {
    const s = scene(answer, {
      list: { missed: new Set() },
      listRows: () => {
        throw new ApiError({ kind: 'http', status: 403, method: 'GET', path: '/checks', detail: 'forbidden' })
      }
    })
    await pollUntilDone(s.polling, s.tracks('c1', 'c2', 'c3'))
    expect(s.listReads()).toBe(1)
    expect(s.gets.map(([id, t]) => `${id}@${t}`)).toEqual([
      'c1@0',
      'c2@0',
      'c3@0',
      'c2@10000',
      'c3@10000',
      'c2@20000',
      'c3@20000'
    ])
    expect(s.polling.list.pages).toBe(Number.POSITIVE_INFINITY)
  })

  it('a list read the deadline cut off ends polling with its message; another failure is thrown', async () => {
    const cut = deadlineError('was cut off at the deadline')
    const s = scene(up, {
      list: { missed: new Set() },
      listRows: () => {
        throw cut
      }
    })
    expect(await pollUntilDone(s.polling, s.tracks('c1', 'c2'))).toEqual({
      pending: new Set(['c1', 'c2']),
      cutShort: cut.message
    })
    expect(s.gets).toEqual([])

    const reset = new ApiError({ kind: 'network', method: 'GET', path: '/checks', detail: 'reset' })
    const t = scene(up, {
      list: { missed: new Set() },
      listRows: () => {
        throw reset
      }
    })
    await expect(pollUntilDone(t.polling, t.tracks('c1', 'c2'))).rejects.toBe(reset)
  })
})

describe('the results between two polls', () => {
  /** A check probed every 5 s whose probe at `downAt` (ms after the start) was down. */
  const flipping = (downAt: number) => probed('c1', at => (at === downAt ? 'down' : 'up'), 5_000)

  it('a result down between two polls that were up restarts the count', async () => {
    const c = flipping(4_500)
    const s = scene((_, at) => c.checkAt(at), { needed: 2, history: (_, at) => c.historyAt(at) })
    const tracks = s.tracks('c1')
    await pollUntilDone(s.polling, tracks)
    // Up at -0.5 s, down at 4.5 s, up at 9.5 s: the second pass in a row is 19.5 s, read at 20 s.
    expect(tracks.get('c1')?.marks).toEqual(['✅', '❌', '✅', '✅'])
    expect(tracks.get('c1')?.passedAfterMs).toBe(20_000)
  })

  it('counts the results between polls oldest first, whatever order the history lists them in', async () => {
    const c = probed('c1', () => 'up', 5_000)
    const s = scene((_, at) => c.checkAt(at), {
      needed: 3,
      // Up, down, up between the first two polls, listed newest first.
      history: () => [
        { status: 'up', responseTime: 90, checkedAt: iso(7_000) },
        { status: 'down', responseTime: 30_000, checkedAt: iso(4_000) },
        { status: 'up', responseTime: 80, checkedAt: iso(2_000) }
      ]
    })
    const tracks = s.tracks('c1')
    await pollUntilDone(s.polling, tracks)
    const track = tracks.get('c1') as Track
    // -0.5 s up, 2 s up, 4 s down (a restart), 7 s up, 9.5 s up, 19.5 s up: three in a row at the third poll.
    expect(track.marks).toEqual(['✅', '✅', '❌', '✅', '✅', '✅'])
    expect(track.times).toEqual([100, 80, 30_000, 90, 100, 100])
    expect(track.passedAfterMs).toBe(20_000)
  })

  it('a row between polls is taken once: a down result seen again in a later read restarts the count once', async () => {
    const c = flipping(4_500)
    const s = scene((_, at) => c.checkAt(at), {
      needed: 3,
      rules: { ...UP, requireFresh: true },
      history: (_, at) => c.historyAt(at)
    })
    const tracks = s.tracks('c1')
    await pollUntilDone(s.polling, tracks)
    // 0 s: the first read's result (stale); 10 s: 9.5 s counts; 20 s: the read back to a minute before
    // 9.5 s finds 4.5 s down (a restart), then 19.5 s; 30 s and 40 s: 29.5 s and 39.5 s, the 4.5 s row
    // being read again each time but not taken again.
    expect(tracks.get('c1')?.marks).toEqual(['⏮', '✅', '❌', '✅', '✅', '✅'])
    expect(tracks.get('c1')?.passedAfterMs).toBe(40_000)
  })

  it('reads the history from a minute before the newest result counted, only once a newer result appeared', async () => {
    // Probed every 20 s: the poll at 10 s shows no new result, the one at 20 s does.
    const c = probed('c1', () => 'up', 20_000)
    const s = scene((_, at) => c.checkAt(at), { needed: 2, history: (_, at) => c.historyAt(at) })
    const tracks = s.tracks('c1')
    await pollUntilDone(s.polling, tracks)
    expect(s.historyReads).toEqual([['c1', -500 - 60_000]])
    expect(tracks.get('c1')?.marks).toEqual(['✅', '↺', '✅'])
    expect(tracks.get('c1')?.passedAfterMs).toBe(20_000)
  })

  it('a history read answered after the deadline: none of its rows counts, nor the reading after it', async () => {
    const c = probed('c1')
    const rows = () => [{ status: 'up', responseTime: 150, checkedAt: iso(5_000) }]
    // The poll at the deadline (10 s) reads the history; its answer comes 0.5 s later, within the grace.
    const s = scene((_, at) => c.checkAt(at), { needed: 2, timeoutMs: 10_000, history: rows, historyMs: 500 })
    const tracks = s.tracks('c1')
    expect(await pollUntilDone(s.polling, tracks)).toEqual({ pending: new Set(['c1']) })
    expect(tracks.get('c1')).toMatchObject({
      marks: ['✅', '❌', '❌'],
      verdict: { passed: false, missed: ['the answer arrived after the timeout'] }
    })
    // The same read answered at the deadline itself: both count, and the gate passes there.
    const t = scene((_, at) => c.checkAt(at), { needed: 3, timeoutMs: 10_000, history: rows })
    const passed = t.tracks('c1')
    expect((await pollUntilDone(t.polling, passed)).pending.size).toBe(0)
    expect(passed.get('c1')?.marks).toEqual(['✅', '✅', '✅'])
  })

  it('one pass needed: the history is never read; nor for a check whose time cannot be placed', async () => {
    const c = probed('c1', at => (at < 5_000 ? 'down' : 'up'))
    const s = scene((_, at) => c.checkAt(at), { needed: 1, history: (_, at) => c.historyAt(at) })
    const tracks = s.tracks('c1')
    await pollUntilDone(s.polling, tracks)
    expect(tracks.get('c1')?.marks).toEqual(['❌', '✅'])
    expect(s.historyReads).toEqual([])

    const t = scene((_, at) => ({ ...c.checkAt(at), lastCheckedAt: at < 10_000 ? iso(-500) : 'soon' }), {
      needed: 2,
      timeoutMs: 20_000,
      history: (_, at) => c.historyAt(at)
    })
    await pollUntilDone(t.polling, t.tracks('c1'))
    expect(t.polling.rounds).toBe(3)
    expect(t.historyReads).toEqual([])
  })

  it('a history row is judged as the check at that time: its status, its response time', async () => {
    const c = probed('c1')
    const s = scene((_, at) => c.checkAt(at), {
      needed: 2,
      rules: { ...UP, maxResponseTimeMs: 500 },
      history: () => [
        { status: 'up', responseTime: 120, checkedAt: iso(6_000) },
        { status: 'up', responseTime: 700, checkedAt: iso(3_000) }
      ]
    })
    const tracks = s.tracks('c1')
    await pollUntilDone(s.polling, tracks)
    const track = tracks.get('c1') as Track
    // -0.5 s, then 3 s (too slow: a restart), 6 s, 9.5 s: two in a row at the second poll.
    expect(track.marks).toEqual(['✅', '❌', '✅', '✅'])
    expect(track.times).toEqual([100, 700, 120, 100])
    expect(track.passedAfterMs).toBe(10_000)
    // The check keeps its reading at the last poll, not a history row's.
    expect(track.check).toEqual(c.checkAt(10_000))

    // A row without a status, or without a response time, misses.
    for (const row of [
      { status: null, responseTime: 120, checkedAt: iso(6_000) },
      { status: 'up', responseTime: null, checkedAt: iso(6_000) }
    ]) {
      const t = scene((_, at) => c.checkAt(at), {
        needed: 2,
        timeoutMs: 10_000,
        rules: { ...UP, maxResponseTimeMs: 500 },
        history: () => [row]
      })
      const tracks = t.tracks('c1')
      await pollUntilDone(t.polling, tracks)
      expect(tracks.get('c1')?.marks).toEqual(['✅', '❌', '✅'])
    }
  })
})
