/**
 * The simulation's rules over a key its runs share (shared-key-rules.ts) can
 * say no: each is fed a round outcome that breaks it (a process killed
 * rather than ended, a sync that gave up on the rate limit, more 429s than
 * the bound with and without the headers) and must name it; outcomes that
 * keep it pass, and what a round's faults or cancels explain is not judged.
 */
import { describe, expect, it } from '@jest/globals'
import type { Fault } from '../../emulator/faults.js'
import type { Executed } from '../../scripts/lib/simulate/invariants.js'
import {
  judgeSharedKey,
  sharedKeyRules,
  waitPastTimeLimit,
  windowEndsWithin
} from '../../scripts/lib/simulate/shared-key-rules.js'
import { limitedIn } from '../../scripts/lib/shared-key.js'
import type { StepResult } from '../../scripts/lib/runner.js'
import type { Round, Run, SharedKey } from '../../scripts/lib/simulate/world.js'

const WITH: SharedKey = { limit: 20, windowMs: 2_000, headers: true }
const WITHOUT: SharedKey = { ...WITH, headers: false }
const roundOf = (sharedKey: SharedKey | undefined, faults: Fault[] = []) => ({ sharedKey, faults }) as unknown as Round

const retry = (path: string) => `${path}: rate limited (HTTP 429); retry 1 of 2 in 2.0 s as the server asked`
const GAVE_UP =
  'POST /checks was rate limited (HTTP 429) after 3 attempts (max-retries 2); the service states no limit; the API document gives 100 requests a minute'

interface Played {
  kind?: Run['kind']
  inputs?: Record<string, string>
  cancelMs?: number
  code?: number | null
  signal?: NodeJS.Signals | null
  retries?: number
  error?: string
  ms?: number
}

/** One run of one main step that started at 0 and took `ms`, meeting `retries` 429s it retried. */
function played(p: Played): Executed {
  const run = {
    n: 1,
    kind: p.kind ?? 'sync',
    inputs: p.inputs ?? { operation: 'sync-checks' },
    env: {},
    startMs: 0,
    writes: true,
    ...(p.cancelMs !== undefined ? { cancelMs: p.cancelMs } : {})
  } as Run
  const stdout = Array.from({ length: p.retries ?? 0 }, (_, i) => retry(`GET /checks?page=${i + 1}`)).join('\n')
  const result: StepResult = {
    code: p.code === undefined ? (p.error ? 1 : 0) : p.code,
    signal: p.signal ?? null,
    stdout,
    stderr: '',
    outputs: p.error ? { error: p.error } : {},
    summary: '',
    state: {},
    ms: p.ms ?? 3_000,
    all: stdout
  }
  return { run, steps: [{ what: 'main', result, bound: 60_000, startedAt: 0, inputs: run.inputs }], secrets: [] }
}

const judge = (key: SharedKey | undefined, e: Executed, windowStarts: number[] = [], faults: Fault[] = []) =>
  judgeSharedKey(roundOf(key, faults), { windowStarts }, [e])

describe('sharedKeyRules: every process ends by itself', () => {
  it('a process the runner killed is named; a cancelled one ended by its signal is not', () => {
    expect(sharedKeyRules(roundOf(WITH), { windowStarts: [] }, [played({ code: null, signal: 'SIGKILL' })])).toEqual([
      expect.stringContaining('did not exit by itself: ended by SIGKILL after 3000 ms')
    ])
    expect(judge(WITH, played({ code: null, signal: 'SIGTERM', cancelMs: 500 })).violations).toEqual([])
  })

  it('a round without a shared key is not judged', () => {
    expect(judge(undefined, played({ code: null, signal: 'SIGKILL', retries: 9, error: GAVE_UP }))).toEqual({
      violations: [],
      notes: []
    })
  })
})

describe('sharedKeyRules: none fails because of the rate limit', () => {
  it('a sync that gave up on the rate limit is named; one that ended well is not', () => {
    expect(judge(WITH, played({ retries: 2, error: GAVE_UP }), [0]).violations).toEqual([
      expect.stringMatching(
        /run 1 \(sync\) main, on a key of 20 requests per 2 s with .* failed on the rate limit after 3 429\(s\)/
      )
    ])
    expect(judge(WITH, played({ retries: 1 }), [0]).violations).toEqual([])
    expect(judge(WITHOUT, played({ retries: 2 }), [0]).violations).toEqual([])
  })

  it('without the headers, a give-up after max-retries of 429s within the bound is the contract (a note); past it, or for another reason, named', () => {
    // The contract counts 429s toward max-retries; without the headers a request may meet one at each
    // window end (limitedBound), so a request that met max-retries + 1 of them gives up, saying so.
    const within = judge(WITHOUT, played({ retries: 2, error: GAVE_UP }), [0])
    expect(within.violations).toEqual([])
    expect(within.notes).toEqual([
      expect.stringContaining('gave up after its max-retries of 429s, as the contract asks, within the bound of 4')
    ])
    // Past the bound (4 + 2 x 0 with no window end lived through): both named.
    expect(judge(WITHOUT, played({ retries: 5, error: GAVE_UP }), [0]).violations).toEqual([
      expect.stringContaining('failed on the rate limit after 6 429(s)'),
      expect.stringContaining('met 6 429s, more than 4')
    ])
    // A rate-limit failure that is not a spent max-retries (the limit's waits too long in all) stays named.
    const tooLong =
      "GET /checks was rate limited (HTTP 429): the service's rate limit has already held this step 300 s in all"
    expect(judge(WITHOUT, played({ retries: 1, error: tooLong }), [0]).violations).toEqual([
      expect.stringContaining('failed on the rate limit')
    ])
  })

  it("the round's injected 429s may explain it; a 5xx or a cancel that fails a run is not the rate limit's", () => {
    const injected: Fault[] = [
      { path: '/checks', status: 429, times: 2 },
      { path: '/checks', status: 429, times: 1 }
    ]
    expect(judge(WITH, played({ retries: 2, error: GAVE_UP }), [0], injected).violations).toEqual([])
    expect(judge(WITH, played({ retries: 2, error: GAVE_UP }), [0], injected.slice(0, 1)).violations).toHaveLength(1)
    expect(judge(WITH, played({ error: 'GET /checks failed: HTTP 503 after 3 attempts' })).violations).toEqual([])
    const cut = 'GET /checks was not sent: the job is being cancelled (rate limited (HTTP 429) before)'
    expect(judge(WITH, played({ cancelMs: 300, error: cut })).violations).toEqual([])
  })

  it("a gate that stopped at its timeout short of a window's wait is a note; a longer wait, or no timeout of its own, is named", () => {
    const gate = { operation: 'wait-for-check', timeout: '2s' }
    const short = (s: number) =>
      `wait-for-check: 1 of 1 check(s) did not pass within 2 s: sim-shop: not polled before the time limit (polling stopped early: GET /checks/chk_1 was rate limited (HTTP 429); not retried, because the wait (${s} s) would pass the operation's time limit)`
    const noted = judge(WITH, played({ kind: 'gate', inputs: gate, error: short(2.8) }))
    expect(noted.violations).toEqual([])
    expect(noted.notes).toEqual([expect.stringContaining('stopped at its timeout (2s), short of a 2.8 s wait')])
    expect(judge(WITH, played({ kind: 'gate', inputs: gate, error: short(9) })).violations).toEqual([
      expect.stringContaining('failed on the rate limit')
    ])
    const slot =
      "GET /checks?page=2 was not sent: the next request slot is 2.9 s away (pacing to the rate limit) would pass the operation's time limit"
    expect(judge(WITH, played({ kind: 'gate', inputs: gate, retries: 1, error: slot })).notes).toHaveLength(1)
    expect(judge(WITH, played({ retries: 1, error: slot })).violations).toEqual([
      expect.stringContaining('failed on the rate limit after 1 429(s)')
    ])
    // No 429 met, and an injected one in the round: a stop short of the pacer's slot is still the rate limit's.
    const one: Fault[] = [{ path: '/checks', status: 429, times: 1 }]
    expect(judge(WITH, played({ error: slot }), [], one).violations).toEqual([
      expect.stringContaining('failed on the rate limit after 0 429(s) (the round injected 1)')
    ])
    expect(judge(WITH, played({ kind: 'gate', inputs: gate, error: slot })).notes).toHaveLength(1)
  })
})

describe('sharedKeyRules: the 429s each process meets', () => {
  it('with the headers, a process held up on a loaded machine: what it had in flight, then one at each window end it lives through', () => {
    // Seed 461 in CI: a gate of 6 s, on 26 per 2 s, met two 429s across two window ends: one joining a
    // window the others had spent, one after it was held up past the others' start. Within the bound.
    const starts = [-1_000, 1_000, 3_000]
    expect(judge(WITH, played({ kind: 'gate', retries: 2, ms: 4_000 }), starts).violations).toEqual([])
    // Two window ends lived through: the 4 a sync has in flight, then one at each end.
    expect(judge(WITH, played({ retries: 6, ms: 4_000 }), starts).violations).toEqual([])
    expect(judge(WITH, played({ retries: 7, ms: 4_000 }), starts).violations).toEqual([
      expect.stringContaining('met 7 429s, more than 6 (4 + 2: it lived through 2 window end(s))')
    ])
    // No window end lived through: what it had in flight, no more.
    expect(judge(WITH, played({ retries: 4, ms: 500 }), starts).violations).toEqual([])
    expect(judge(WITH, played({ retries: 5, ms: 500 }), starts).violations).toEqual([
      expect.stringContaining('met 5 429s, more than 4 (4 + 0: it lived through 0 window end(s))')
    ])
    // The round's injected 429s are allowed on top.
    const one: Fault[] = [{ path: '/checks', status: 429, times: 1 }]
    expect(judge(WITH, played({ retries: 5, ms: 500 }), starts, one).violations).toEqual([])
  })

  it('without them, 4 at the first window end it lives through and two at each later one', () => {
    // Windows of 2 s from -1 s: ends at 1, 3 and 5 s; a process from 0 to 4 s lives through two.
    const starts = [-1_000, 1_000, 3_000]
    expect(windowEndsWithin(starts, 2_000, 0, 4_000)).toBe(2)
    expect(judge(WITHOUT, played({ retries: 6, ms: 4_000 }), starts).violations).toEqual([])
    expect(judge(WITHOUT, played({ retries: 7, ms: 4_000 }), starts).violations).toEqual([
      expect.stringContaining('met 7 429s, more than 6 (4 + 2 x 1: it lived through 2 window end(s))')
    ])
    expect(judge(WITHOUT, played({ retries: 5, ms: 500 }), starts).violations).toEqual([
      expect.stringContaining('met 5 429s, more than 4 (4 + 2 x 0: it lived through 0 window end(s))')
    ])
  })
})

describe('what the rules read from a step', () => {
  it('a stop short of the next slot meets no 429; a give-up on one does', () => {
    const result = (error: string, stdout = '') => ({ code: 1, stdout, outputs: { error } }) as unknown as StepResult
    expect(
      limitedIn(
        result(
          "GET /x was not sent: the next request slot is 4.9 s away (pacing to the rate limit) would pass the operation's time limit"
        )
      )
    ).toBe(0)
    expect(limitedIn(result(GAVE_UP, `${retry('POST /checks')}\n${retry('POST /checks')}`))).toBe(3)
    expect(
      waitPastTimeLimit(
        "GET /x was rate limited (HTTP 429); not retried, because the wait (4.0 s) would pass the operation's time limit"
      )
    ).toBe(4_000)
    expect(
      waitPastTimeLimit(
        "GET /x failed: HTTP 503; not retried, because the wait (4.0 s) would pass the operation's time limit"
      )
    ).toBeUndefined()
  })
})
