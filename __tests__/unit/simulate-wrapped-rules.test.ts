/**
 * The simulation's rules over monitoring-ci's pause around a command
 * (wrapped-rules.ts) can say no: each is fed a wrapper's end as a broken
 * build would leave it (a check left paused without a word, a status that is
 * not the command's, or not 130/143 after a signal, no JSON last, the key
 * shown) and must name it; the end a correct wrapper leaves passes, also when
 * its resume failed and it said so. The generator draws what the rules and
 * the player assume of it.
 */
import { describe, expect, it } from '@jest/globals'
import type { Stored } from '../../emulator/store.js'
import type { Before } from '../../scripts/lib/simulate/invariants.js'
import { drawRound } from '../../scripts/lib/simulate/schedule.js'
import { WORKING, type WrappedEnd, commandScript } from '../../scripts/lib/simulate/wrapped.js'
import {
  keyRule,
  outputRule,
  resumedRule,
  statusRule,
  toldPaused,
  wrappedRules
} from '../../scripts/lib/simulate/wrapped-rules.js'
import { WRAP_PREFIX, type WrappedRun } from '../../scripts/lib/simulate/world.js'

const KEY = 'sim-key-0123456789abcdef'
const [RUNNING, HELD] = ['chk_run', 'chk_held']
const check = (id: string, name: string, status: string) => ({ id, name, status }) as Stored
const before = {
  checks: new Map([
    [RUNNING, check(RUNNING, 'sim-wrap-1-a', 'up')],
    [HELD, check(HELD, 'sim-wrap-1-b', 'paused')]
  ]),
  unresolved: [],
  history: new Map()
} as Before

const RUN: WrappedRun = {
  n: 1,
  checks: ['sim-wrap-1-a', 'sim-wrap-1-b'],
  byName: false,
  keyByFlag: false,
  inputs: { 'request-timeout': '2s', 'max-retries': '2' },
  sleepMs: 300,
  status: 3,
  startMs: 0,
  faults: []
}

const LEFT = `error: auto-resume could not resume 1 of 1 check(s) this job paused; they stay paused until resumed by hand: ${RUNNING}: PUT /checks/${RUNNING} failed: HTTP 502 Bad Gateway`
const UNANSWERED = `warning: the pause of ${RUNNING} ("sim-wrap-1-a") sent at 2026-01-01T00:00:00.000Z was never answered, and ${RUNNING} was not paused when the request timeout (2 s) had passed since: a service may still apply it later. Check ${RUNNING}'s status, and resume it if it is paused.`

/** A wrapper's end: by default what a correct one leaves after its command ended 3 (nothing went wrong). */
function ended(
  over: Partial<Omit<WrappedEnd, 'result'>> & {
    code?: number | null
    signal?: NodeJS.Signals | null
    stdout?: string
    stderr?: string
    ms?: number
  } = {}
): WrappedEnd {
  const { code = 3, signal = null, stdout, stderr, ms = 1_000, ...end } = over
  return {
    run: RUN,
    ids: { 'sim-wrap-1-a': RUNNING, 'sim-wrap-1-b': HELD },
    atExit: { [RUNNING]: 'up', [HELD]: 'paused' },
    commandRan: true,
    bound: 60_300,
    ...end,
    result: {
      code,
      signal,
      stdout: stdout ?? `${WORKING}\n{"check-id":"${RUNNING}","changed":"true"}\n`,
      stderr: stderr ?? 'Running node -e … while the checks are paused.\n',
      json: {},
      ms
    }
  }
}
const paused = { [RUNNING]: 'paused', [HELD]: 'paused' }

describe('wrappedRules', () => {
  it('what a correct wrapper leaves passes: its command’s status, its check running again, one JSON last', () => {
    expect(wrappedRules(before, [ended()], KEY)).toEqual({ violations: [], notes: [] })
    const term = ended({ code: 143, sent: { signal: 'SIGTERM', during: 'command' } })
    expect(wrappedRules(before, [term], KEY)).toEqual({ violations: [], notes: [] })
  })

  it('names the run, the check and the breach; a wrapper that outlived its bound too', () => {
    const { violations } = wrappedRules(before, [ended({ atExit: paused, ms: 61_000 })], KEY)
    expect(violations).toEqual([
      expect.stringMatching(
        /^wrapped run w1 \(pause-check chk_run,chk_held -- a command ending 3\) ended 3 with chk_run \("sim-wrap-1-a"\) paused, which was running before, .*left paused without a word$/
      ),
      'wrapped run w1 (pause-check chk_run,chk_held -- a command ending 3) took 61000 ms, more than its bound of 60300 ms'
    ])
  })
})

describe('resumedRule', () => {
  it('a check running before and paused when the wrapper exited, without an error naming it, is a breach', () => {
    const notes: string[] = []
    // The planted bug: SIGTERM ends the wrapper before its post stage.
    const skipped = ended({ code: 143, atExit: paused, sent: { signal: 'SIGTERM', during: 'command' } })
    expect(resumedRule(before, skipped, notes)).toEqual([
      expect.stringMatching(/ended 143 with chk_run .* and no error line naming it/)
    ])
    expect(resumedRule(before, ended({ code: 0, atExit: paused }), notes)).toEqual([
      expect.stringMatching(/ended 0 with chk_run .* and a status of 0/)
    ])
    expect(notes).toEqual([])
  })

  it('a failed resume that says the check stays paused, with a status that is not 0, is what the contract asks', () => {
    expect(resumedRule(before, ended({ code: 1, atExit: paused, stderr: `${LEFT}\n` }), [])).toEqual([])
  })

  it('an error that names the check but not as left paused, or a status of 0 beside the words, is no excuse', () => {
    const cancelled = `error: GET /checks/chk_other was not sent: the job is being cancelled (already set to paused: ${RUNNING})`
    expect(resumedRule(before, ended({ code: 1, atExit: paused, stderr: `${cancelled}\n` }), [])).toHaveLength(1)
    expect(resumedRule(before, ended({ code: 0, atExit: paused, stderr: `${LEFT}\n` }), [])).toHaveLength(1)
  })

  it('a pause without an answer that landed after the watch is a note when a warning named it', () => {
    const notes: string[] = []
    expect(resumedRule(before, ended({ code: 0, atExit: paused, stderr: `${UNANSWERED}\n` }), notes)).toEqual([])
    expect(notes).toEqual([expect.stringMatching(/chk_run .*landed after the wrapper had watched it/)])
  })

  it('a check someone else had paused before stays paused', () => {
    expect(resumedRule(before, ended({ atExit: { [RUNNING]: 'up', [HELD]: 'up' } }), [])).toEqual([
      expect.stringMatching(/ended with chk_held \("sim-wrap-1-b"\) up, which someone else had paused before/)
    ])
  })
})

describe('statusRule', () => {
  it('after a signal: 130 for SIGINT, 143 for SIGTERM, and never an end by the signal itself', () => {
    const int = { sent: { signal: 'SIGINT' as const, during: 'pause' as const } }
    expect(statusRule(ended({ ...int, code: 130, commandRan: false }))).toEqual([])
    expect(statusRule(ended({ ...int, code: 143 }))).toEqual(['got SIGINT during the pause and ended 143, not 130'])
    expect(statusRule(ended({ ...int, code: null, signal: 'SIGINT' }))).toEqual([
      'got SIGINT during the pause and ended by SIGINT, not 130'
    ])
    expect(statusRule(ended({ code: 3, sent: { signal: 'SIGTERM', during: 'command' } }))).toHaveLength(1)
  })

  it("without a signal: the command's status when it ran and no error was told", () => {
    expect(statusRule(ended({ code: 0 }))).toEqual([
      "ran the command (status 3), told no error, and ended 0: not the command's status"
    ])
    expect(statusRule(ended({ code: null, signal: 'SIGKILL' }))).toEqual([
      'was ended by SIGKILL (no signal was sent to it)'
    ])
  })

  it('a failed pause or resume ends 1 and says why; an error with the command’s status or 0 is a breach', () => {
    const failed = `error: PUT /checks/${RUNNING} failed: HTTP 503\n`
    expect(statusRule(ended({ code: 1, commandRan: false, stderr: failed }))).toEqual([])
    expect(statusRule(ended({ code: 1, stderr: `${LEFT}\n` }))).toEqual([])
    expect(statusRule(ended({ code: 3, stderr: `${LEFT}\n` }))).toEqual([
      expect.stringMatching(/^told an error \(.*\) and ended 3, where a failed pause or resume ends 1/)
    ])
    expect(statusRule(ended({ code: 0, commandRan: false }))).toEqual([
      expect.stringMatching(/^did not run the command and ended 0 without an error line/)
    ])
    expect(statusRule(ended({ code: 1, commandRan: false }))).toHaveLength(1)
  })
})

describe('outputRule and keyRule', () => {
  it('standard output ends with one JSON object, after the command’s own line', () => {
    expect(outputRule(ended({ stdout: `${WORKING}\n` }))).toEqual([
      `ended its standard output with "${WORKING}", not one JSON object`
    ])
    expect(outputRule(ended({ stdout: `${WORKING}\n[1]\n` }))).toHaveLength(1)
    expect(outputRule(ended({ stdout: '{"check-id":"chk_run"}\n' }))).toEqual([
      "ran the command, whose line on standard output is not on the wrapper's"
    ])
    expect(outputRule(ended({ commandRan: false, stdout: '{"error":"x"}\n' }))).toEqual([])
  })

  it('the key in any form on either stream', () => {
    const key = 'k&y/with space'
    expect(keyRule(ended({ stderr: 'debug: Authorization: Bearer k%26y%2Fwith%20space\n' }), key)).toEqual([
      expect.stringMatching(/^wrote the key \(.*\) on standard error$/)
    ])
    expect(keyRule(ended({ stdout: `{"error":"k&y/with space"}\n` }), key)).toEqual([
      expect.stringMatching(/on standard output$/)
    ])
    expect(keyRule(ended(), key)).toEqual([])
  })
})

describe('toldPaused (the round-end excuse)', () => {
  it('the checks a failed wrapper said it left paused, and those whose pause it said was never answered', () => {
    expect(toldPaused([ended({ code: 1, stderr: `${LEFT}\n` })])).toEqual([RUNNING])
    expect(toldPaused([ended({ code: 0, stderr: `${UNANSWERED}\n` })])).toEqual([RUNNING])
    expect(toldPaused([ended({ code: 0, stderr: `${LEFT}\n` }), ended()])).toEqual([])
  })
})

describe('drawWrapped (through drawRound)', () => {
  const rounds = Array.from({ length: 400 }, (_, i) => drawRound(i + 1))
  const drawn = rounds.filter(r => r.wrapped.drawn)

  it('some rounds, each run over checks of its own that no other run names', () => {
    expect(drawn.length).toBeGreaterThan(100)
    expect(drawn.length).toBeLessThan(180)
    for (const r of rounds.filter(r => !r.wrapped.drawn)) expect(r.wrapped.runs).toEqual([])
    for (const r of drawn) {
      expect(r.wrapped.runs.length).toBeGreaterThanOrEqual(1)
      const names = r.wrapped.runs.flatMap(w => w.checks)
      expect(new Set(names).size).toBe(names.length)
      for (const w of r.wrapped.runs) {
        for (const name of w.checks) {
          expect(name.startsWith(`${WRAP_PREFIX}${w.n}-`)).toBe(true)
          expect(r.world.more.filter(c => c.name === name)).toHaveLength(1)
        }
        for (const f of w.faults) expect(w.checks).toContain(f.check)
      }
      const inputs = r.runs.flatMap(run => Object.values(run.inputs))
      expect(inputs.some(value => value.includes('sim-wrap'))).toBe(false)
    }
  })

  it('cancels of both signals at both moments; one during the pause holds the first PUT of a running check', () => {
    const cancels = drawn.flatMap(r => r.wrapped.runs.flatMap(w => (w.cancel ? [{ r, w, cancel: w.cancel }] : [])))
    for (const signal of ['SIGINT', 'SIGTERM'])
      for (const during of ['pause', 'command'])
        expect(cancels.some(c => c.cancel.signal === signal && c.cancel.during === during)).toBe(true)
    for (const { r, w, cancel } of cancels) {
      if (cancel.during === 'command') expect(cancel.afterMs).toBeLessThanOrEqual(Math.max(0, w.sleepMs - 150))
      const running = r.world.more.find(c => w.checks.includes(c.name) && !c.paused)
      if (cancel.during !== 'pause' || !running) continue
      expect(w.faults[0]).toEqual({ check: running.name, from: 'start', fault: expect.objectContaining({ times: 1 }) })
      expect(w.faults[0].fault.delayMs).toBeGreaterThanOrEqual(400)
    }
  })

  it('faults on the PUT of its checks meet the pause and the resume', () => {
    const faults = drawn.flatMap(r => r.wrapped.runs.flatMap(w => w.faults))
    for (const from of ['start', 'command']) {
      expect(faults.some(f => f.from === from && f.fault.status !== undefined && !f.fault.after)).toBe(true)
      expect(faults.some(f => f.from === from && f.fault.drop)).toBe(true)
      expect(faults.some(f => f.from === from && f.fault.late)).toBe(true)
    }
  })

  it("the command prints its lines and exits with the drawn status (its start line never in the wrapper's echo)", () => {
    const script = commandScript(250, 42)
    expect(script).toContain('process.exit(42)')
    expect(script).toContain(',250)')
    expect(script).not.toContain('sim-wrapped: started')
  })

  it('the rounds the tests pin by seed draw none', () => {
    for (const seed of [9259, 3020, 2456, 1628, 866, 65, 3, 243, 4936, 1903])
      expect(drawRound(seed).wrapped.drawn).toBe(false)
  })
})
