/**
 * The simulation's rules over the shapes of rules with two readers
 * (two-readers-rules.ts) can say no: each is fed a round as the bundle
 * before the fixes played it (an export that refused a URL form, someone
 * else's incident resolved and rewritten, a malformed Retry-After read as a
 * wait of nothing, one duplicate of three synced) and must name it; the round
 * as the fixed bundle plays it passes. The generator draws what the rules
 * assume of it.
 */
import { describe, expect, it } from '@jest/globals'
import type { Stored } from '../../emulator/store.js'
import type { StepResult } from '../../scripts/lib/runner.js'
import type { After, Before, Executed } from '../../scripts/lib/simulate/invariants.js'
import {
  duplicatesRule,
  exportFormsRule,
  foreignIncidentRule,
  leastBackoffMs,
  retryAfterRule
} from '../../scripts/lib/simulate/two-readers-rules.js'
import { drawRound } from '../../scripts/lib/simulate/schedule.js'
import {
  FOREIGN_MESSAGE,
  FOREIGN_OURS,
  type Round,
  type Run,
  type TwoReaders
} from '../../scripts/lib/simulate/world.js'

const OLD = 'oldfleet-x1-Wk123'

const roundOf = (twoReaders: Partial<TwoReaders>, faults: Round['faults'] = []) =>
  ({ twoReaders: { drawn: true, forms: [], foreign: [], ...twoReaders }, faults, secrets: [OLD] }) as unknown as Round

/** One run whose steps ended as given (`what` main unless said). */
function played(
  kind: Run['kind'],
  inputs: Record<string, string>,
  steps: Array<Partial<StepResult> & { what?: string; files?: Record<string, string> }>
): Executed {
  const run = { n: 1, kind, inputs, env: {}, startMs: 0, writes: true } as Run
  return {
    run,
    secrets: [],
    steps: steps.map(({ what, files, ...step }) => ({
      what: what ?? 'main',
      bound: 60_000,
      startedAt: 0,
      inputs,
      ...(files ? { files } : {}),
      result: {
        code: 0,
        signal: null,
        stdout: '',
        stderr: '',
        outputs: {},
        summary: '',
        state: {},
        ms: 1,
        all: '',
        ...step
      }
    }))
  }
}

describe('exportFormsRule', () => {
  const round = roundOf({ forms: ['sim-form-slash', 'sim-form-bare'] })
  const inputs = { operation: 'export-checks', 'checks-file': 'export-1.yml', 'name-prefix': 'sim-form-' }

  it('an export that refused a form is named', () => {
    const error =
      'export-checks: the URL of check "sim-form-bare" holds a user name or password in a form export-checks cannot separate from the rest'
    expect(exportFormsRule(round, [played('export', inputs, [{ code: 1, outputs: { error } }])])).toEqual([
      expect.stringContaining('refused "sim-form-bare"')
    ])
  })

  it('an export that ended 0 with a form not lifted is named', () => {
    const file =
      '- name: sim-form-slash\n  url: "https:/${secret:CHECK_SIM_FORM_SLASH_USERINFO}@form-slash.example.com/health"\n' +
      '- name: sim-form-bare\n  url: "http:ops:***@form-bare.example.com/health"\n'
    expect(exportFormsRule(round, [played('export', inputs, [{ files: { 'export-1.yml': file } }])])).toEqual([
      expect.stringContaining(`its file does not hold "sim-form-bare"'s userinfo`)
    ])
  })

  it('an export that lifted each form passes, and one that failed on the service is not judged', () => {
    const file =
      '- name: sim-form-slash\n  url: "https:/${secret:CHECK_SIM_FORM_SLASH_USERINFO}@form-slash.example.com/health"\n' +
      '- name: sim-form-bare\n  url: "http:${secret:CHECK_SIM_FORM_BARE_USERINFO}@form-bare.example.com/health"\n'
    expect(exportFormsRule(round, [played('export', inputs, [{ files: { 'export-1.yml': file } }])])).toEqual([])
    const failed = played('export', inputs, [{ code: 1, outputs: { error: 'GET /checks failed: HTTP 503' } }])
    expect(exportFormsRule(round, [failed])).toEqual([])
  })
})

describe('foreignIncidentRule', () => {
  const theirs: Stored = {
    id: 'inc_theirs',
    title: 'Deploy failed: payments-api production',
    message: FOREIGN_MESSAGE,
    status: 'investigating'
  }
  const before = { unresolved: [theirs], foreign: ['inc_theirs'] } as unknown as Before
  const after = (...incidents: Stored[]) => ({ incidents: new Map(incidents.map(i => [i.id, i])) }) as unknown as After

  it("someone else's incident resolved and rewritten by a run is named", () => {
    const taken = { ...theirs, status: 'resolved', message: 'Resolved: workflow "Simulate" in acme/sim succeeded' }
    expect(foreignIncidentRule(before, after(taken))).toEqual([
      expect.stringContaining('was resolved by a run'),
      expect.stringContaining('had its message changed to "Resolved: workflow')
    ])
  })

  it("someone else's incident left as it was passes; an incident of ours resolved is not judged here", () => {
    const ours: Stored = { id: 'inc_ours', title: 'Deploy failed: payments-api production EU', status: 'resolved' }
    expect(foreignIncidentRule(before, after({ ...theirs }, ours))).toEqual([])
  })
})

describe('retryAfterRule', () => {
  const round = roundOf({ retryAfter: { value: '1.', status: 503, path: '/checks' } })
  const sync = (stdout: string) => played('sync', { operation: 'sync-checks' }, [{ stdout }])

  it('a retry made at once, without saying the value could not be read, is named twice', () => {
    const out = retryAfterRule(round, [sync('GET /checks: HTTP 503; retry 1 of 2 in 0.0 s')])
    expect(out).toEqual([
      expect.stringContaining('without saying it could not read it'),
      expect.stringContaining('0.0 s later, sooner than back-off waits after attempt 1 (250 ms)')
    ])
  })

  it('a 429 retried as the server asked is named when the malformed value is on 429s', () => {
    const on429 = roundOf({ retryAfter: { value: '-5', status: 429, path: '/checks' } })
    const line = 'GET /checks?page=2: rate limited (HTTP 429); retry 2 of 2 in 0.0 s as the server asked'
    expect(retryAfterRule(on429, [sync(line)])).toHaveLength(2)
  })

  it('a retry that says it and backs off passes; other statuses and rounds without the shape are not judged', () => {
    const backedOff = [
      'GET /checks: HTTP 503; retry 1 of 2 in 0.3 s (could not read Retry-After "1.": backing off)',
      'GET /checks: HTTP 503; retry 2 of 2 in 0.9 s (could not read Retry-After "1.": backing off)',
      'PUT /checks/chk_1: HTTP 500; retry 1 of 2 in 0.0 s'
    ].join('\n')
    expect(retryAfterRule(round, [sync(backedOff)])).toEqual([])
    expect(retryAfterRule(roundOf({}), [sync('GET /checks: HTTP 503; retry 1 of 2 in 0.0 s')])).toEqual([])
    expect([1, 2, 3, 8].map(leastBackoffMs)).toEqual([250, 500, 1000, 10_000])
  })
})

describe('duplicatesRule', () => {
  const round = roundOf({ duplicated: { name: 'sim-fleet-1', copies: 3 } })
  const check = (id: string, url: string): Stored => ({ id, name: 'sim-fleet-1', url, interval: 60, status: 'up' })
  const NEW = 'https://sim-fleet-1.example.com/health?token=new'
  const after = (...checks: Stored[]) => ({ checks: new Map(checks.map(c => [c.id, c])) }) as unknown as After
  const applied = played('sync', { operation: 'sync-checks', 'checks-file': 'fleet-a.yml' }, [{}])

  it('a sync that ended 0 having changed only the first duplicate is named', () => {
    const stale = `https://sim-fleet-1.example.com/health?token=${OLD}`
    const out = duplicatesRule(round, after(check('a', NEW), check('b', stale), check('c', stale)), [applied])
    expect(out).toEqual([
      expect.stringContaining('yet its 3 identical checks now differ in 2 ways (a, b, c)'),
      expect.stringContaining('yet b still holds a value from before the round'),
      expect.stringContaining('yet c still holds a value from before the round')
    ])
  })

  it('duplicates changed alike pass; a dry run, or a read of the list that shifted, is not judged', () => {
    const alike = after(check('a', NEW), { ...check('b', NEW), status: 'paused' }, check('c', NEW))
    expect(duplicatesRule(round, alike, [applied])).toEqual([])
    const differ = after(check('a', NEW), check('b', 'https://x.example.com'))
    const dry = played('drift', { operation: 'sync-checks', 'checks-file': 'fleet-a.yml', 'dry-run': 'true' }, [{}])
    expect(duplicatesRule(round, differ, [dry])).toEqual([])
    const shifted = { ...round, faults: [{ method: 'GET', path: '/checks', shift: 'skip' as const, times: 2 }] }
    expect(duplicatesRule(shifted, differ, [applied])).toEqual([])
  })
})

describe('drawTwoReaders (through drawRound)', () => {
  const rounds = Array.from({ length: 400 }, (_, i) => drawRound(i + 1))

  it('a malformed Retry-After is the only fault of its status, and never a 429 beside a shared key', () => {
    const drawn = rounds.filter(r => r.twoReaders.retryAfter !== undefined)
    expect(drawn.length).toBeGreaterThan(20)
    for (const r of drawn) {
      const { status, value } = r.twoReaders.retryAfter!
      expect(r.faults.filter(f => f.status === status)).toEqual([
        expect.objectContaining({ status, headers: { 'Retry-After': value } })
      ])
      if (r.sharedKey) expect(status).toBe(503)
    }
  })

  it("someone else's title is never ours exactly as the service stores it; duplicates are identical", () => {
    for (const r of rounds) {
      for (const f of r.twoReaders.foreign) expect(f.title).not.toBe(FOREIGN_OURS)
      const dup = r.twoReaders.duplicated
      if (!dup) continue
      const copies = r.world.more.filter(c => c.name === dup.name)
      expect(copies).toHaveLength(dup.copies)
      for (const c of copies) expect(c).toEqual(copies[0])
    }
  })

  it('the rounds the tests pin by seed draw none of these shapes', () => {
    for (const seed of [9259, 3020, 2456]) expect(drawRound(seed).twoReaders.drawn).toBe(false)
  })
})
