/**
 * What a sync says about its plan (outcome.ts): the outputs before and after
 * applying, the summary's table, a dry run's drift, a refusal before anything
 * is written, and what a user is told after a failure half-way.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiError, type ApiErrorKind } from '../../src/api/errors.js'
import {
  driftMessage,
  halfWayMessage,
  isTransient,
  planOutputs,
  planSummary,
  refusal
} from '../../src/operations/sync/outcome.js'
import { PAUSED_NOTE, type PlanEntry, computePlan } from '../../src/operations/sync/plan.js'
import { planDocument } from '../../src/operations/sync/plan-file.js'
import type { OperationContext } from '../../src/operations/types.js'
import { redactValue } from '../../src/secrets/secrets.js'

/** What outcome.ts reads of the context: the config's file names and limit, and redaction of the step's secrets. */
const contextWith = (config: Record<string, unknown> = {}, secrets: string[] = []): OperationContext =>
  ({
    config: { checksFile: 'checks.yml', maxDeletions: 5, approvedPlan: 'plan.json', ...config },
    redactValue: <T>(value: T) => redactValue(value, secrets)
  }) as unknown as OperationContext

const entry = (e: Partial<PlanEntry> & Pick<PlanEntry, 'action' | 'name'>): PlanEntry => ({
  fields: [],
  changes: {},
  ...e
})

const apiError = (kind: ApiErrorKind, status?: number) =>
  new ApiError({ kind, method: 'PUT', path: '/checks/c2', status, detail: status ? `HTTP ${status}: no` : 'failed' })

describe('isTransient: would the same request succeed later?', () => {
  it.each([
    ['network', undefined, true],
    ['timeout', undefined, true],
    ['rate-limit', 429, true],
    ['deadline', undefined, true],
    ['cancelled', undefined, true],
    ['http', 500, true],
    ['http', 503, true],
    ['http', 429, true],
    ['http', 408, true],
    ['http', 422, false],
    ['http', 404, false],
    ['http', undefined, false],
    ['unknown-host', undefined, false],
    ['invalid-response', undefined, false],
    ['tls', undefined, false],
    ['redirect', undefined, false]
  ] as Array<[ApiErrorKind, number | undefined, boolean]>)('%s %s: %s', (kind, status, expected) => {
    expect(isTransient(apiError(kind, status))).toBe(expected)
  })

  it('an error that is no API error is not transient', () => {
    expect(isTransient(new Error('network'))).toBe(false)
    expect(isTransient('timeout')).toBe(false)
  })
})

describe('halfWayMessage: after a failure half-way, which entry, what was applied, whether a re-run helps', () => {
  const changes = [
    entry({ action: 'create', name: 'a', outcome: 'applied' }),
    entry({ action: 'delete', name: 'z', id: 'c9', outcome: 'applied' }),
    entry({ action: 'update', name: 'b', id: 'c2', outcome: 'failed' }),
    entry({ action: 'update', name: 'c', id: 'c3', outcome: 'not applied' }),
    entry({ action: 'create', name: 'd', outcome: 'not applied' })
  ]

  it('a refusal: the counts, the applied ones by name, and that a re-run fails the same way', () => {
    expect(halfWayMessage(changes, changes[2], apiError('http', 422))).toBe(
      'sync-checks stopped at update "b": PUT /checks/c2 HTTP 422: no. 2 of 5 change(s) were applied before it stopped (create "a", delete "z"); 1 failed, 2 not attempted. Running the step again will fail the same way until the cause is fixed (the service refused this change).'
    )
  })

  it('a transient failure with nothing applied: none applied, and a re-run finishes the job', () => {
    const none = changes.map(e => ({ ...e, outcome: e.outcome === 'applied' ? ('failed' as const) : e.outcome }))
    expect(halfWayMessage(none, none[2], apiError('http', 503))).toBe(
      'sync-checks stopped at update "b": PUT /checks/c2 HTTP 503: no. none of the 5 change(s) was applied; 3 failed, 2 not attempted. The failure looks transient: running the step again finishes the job.'
    )
  })

  it('a thrown value that is no Error is said as it is', () => {
    expect(halfWayMessage([changes[2]], changes[2], 'socket closed')).toBe(
      'sync-checks stopped at update "b": socket closed. none of the 1 change(s) was applied; 1 failed, 0 not attempted. Running the step again will fail the same way until the cause is fixed (the service refused this change).'
    )
  })
})

describe('planOutputs: the counts and the plan, before applying and after', () => {
  const plan = (): PlanEntry[] =>
    computePlan(
      [
        { name: 'new', url: 'https://n.example.com/?token=Tok3n-New' },
        { name: 'upd', url: 'https://u.example.com/2' },
        { name: 'same', url: 'https://s.example.com/' }
      ],
      [
        { id: 'c1', name: 'upd', url: 'https://u.example.com/1', type: 'http' },
        { id: 'c2', name: 'same', url: 'https://s.example.com/', type: 'http', status: 'paused' },
        { id: 'c3', name: 'gone', url: 'https://g.example.com/?token=Old-Tok3n' }
      ],
      { prune: true }
    )

  it('before applying: what the plan would do, changed and drift when it changes anything', () => {
    const outputs = planOutputs(plan(), 3, false)
    expect(outputs).toMatchObject({
      created: 1,
      updated: 1,
      deleted: 1,
      unchanged: 1,
      count: 3,
      changed: true,
      drift: true
    })
  })

  it('result: every entry as shown, a secret by position *** (the new value and a deleted one), no body', () => {
    const { result } = planOutputs(plan(), 3, false)
    expect(result).toEqual([
      {
        action: 'create',
        name: 'new',
        id: null,
        fields: ['name', 'url', 'type'],
        changes: {
          name: { to: 'new' },
          url: { to: 'https://n.example.com/?token=***' },
          type: { to: 'http' }
        }
      },
      {
        action: 'update',
        name: 'upd',
        id: 'c1',
        fields: ['url'],
        changes: { url: { from: 'https://u.example.com/1', to: 'https://u.example.com/2' } }
      },
      { action: 'unchanged', name: 'same', id: 'c2', fields: [], changes: {}, paused: true },
      {
        action: 'delete',
        name: 'gone',
        id: 'c3',
        fields: ['url'],
        changes: { url: { from: 'https://g.example.com/?token=***' } }
      }
    ])
  })

  it('after a partial failure: only what was applied counts, changed if anything was, drift still as planned', () => {
    const p = plan()
    p[0].outcome = 'applied'
    p[1].outcome = 'failed'
    p[3].outcome = 'not applied'
    expect(planOutputs(p, 3, true)).toMatchObject({
      created: 1,
      updated: 0,
      deleted: 0,
      unchanged: 1,
      changed: true,
      drift: true
    })
    expect((planOutputs(p, 3, true).result as Array<{ outcome?: string }>).map(e => e.outcome)).toEqual([
      'applied',
      'failed',
      undefined,
      'not applied'
    ])
  })

  it('after a refusal or a failure of the first change: nothing counted, nothing changed', () => {
    const p = plan()
    for (const e of p) if (e.action !== 'unchanged') e.outcome = 'not applied'
    expect(planOutputs(p, 3, true)).toMatchObject({ created: 0, updated: 0, deleted: 0, unchanged: 1, changed: false })
  })

  it('a plan of unchanged checks: nothing changed, no drift; one paused outside the file is drift alone', () => {
    const same = computePlan([{ name: 's', url: 'u' }], [{ id: 'c', name: 's', url: 'u', type: 'http' }], {
      prune: false
    })
    expect(planOutputs(same, 1, false)).toMatchObject({ changed: false, drift: false, unchanged: 1 })
    expect(planOutputs(same, 1, true)).toMatchObject({ changed: false, drift: false, unchanged: 1 })
    const paused = computePlan([{ name: 's', url: 'u' }], [{ id: 'c', name: 's', url: 'u', status: 'paused' }], {
      prune: false
    })
    expect(planOutputs(paused, 1, false)).toMatchObject({ changed: false, drift: true })
  })
})

describe('planSummary: the plan as people read it', () => {
  it('a table in the shown order (what changes first), secrets ***, the outcome; no details when nothing is cut', () => {
    const plan = [
      entry({ action: 'unchanged', name: 'same', id: 'c1' }),
      entry({
        action: 'update',
        name: 'upd',
        id: 'c2',
        fields: ['url'],
        changes: { url: { from: 'https://u/?token=OldTok3n', to: 'https://u/?token=NewTok3n' } },
        outcome: 'applied'
      }),
      entry({ action: 'unchanged', name: 'held', id: 'c3', paused: true }),
      entry({ action: 'create', name: 'new', fields: ['interval'], changes: { interval: { to: 30 } }, note: 'why' })
    ]
    const summary = planSummary(contextWith(), 'Sync plan', plan, ['line one'])
    expect(summary).toEqual({
      title: 'Sync plan',
      lines: ['line one'],
      tables: [
        {
          head: ['Action', 'Check', 'ID', 'Changes', 'Outcome'],
          rows: [
            ['create', 'new', undefined, 'why', undefined],
            ['update', 'upd', 'c2', 'url: "https://u/?token=***" (secret changed)', 'applied'],
            ['paused', 'held', 'c3', PAUSED_NOTE, undefined],
            ['unchanged', 'same', 'c1', '', undefined]
          ]
        }
      ],
      details: []
    })
  })

  it("a cut value is marked in its cell and shown whole below; the step's own secrets *** before any cut", () => {
    const long = `https://u.example.com/${'p'.repeat(100)}?sig=MyStepSecret`
    const plan = [
      entry({ action: 'create', name: 'long', fields: ['url'], changes: { url: { to: long } } }),
      entry({ action: 'create', name: 'noted', fields: ['url'], changes: { url: { to: long } }, note: 'a note' })
    ]
    const summary = planSummary(contextWith({}, ['MyStepSecret']), 'Sync plan', plan, [])
    const [cell, noted] = summary.tables[0].rows.map(row => row[3] as string)
    expect(cell).toBe(
      `${`url: "https://u.example.com/${'p'.repeat(100)}`.slice(0, 'url: '.length + 79)}… (whole values below)`
    )
    expect(noted).toBe('a note')
    const whole = `"https://u.example.com/${'p'.repeat(100)}?sig=***"`
    expect(summary.details).toEqual([
      { title: 'Whole values (2)', lines: [`create "long" url: ${whole}`, `create "noted" url: ${whole}`] }
    ])
    expect(JSON.stringify(summary)).not.toContain('MyStepSecret')
  })
})

describe('driftMessage: fail-on-drift says each entry that drifted, whole and redacted', () => {
  it('names the file, the count, each entry in the shown order with its changes, and what to do', () => {
    const drift = [
      entry({ action: 'unchanged', name: 'held', id: 'c3', paused: true }),
      entry({
        action: 'update',
        name: 'upd',
        id: 'c2',
        fields: ['url'],
        changes: { url: { from: `https://u/${'a'.repeat(90)}`, to: `https://u/${'a'.repeat(90)}?token=SecretTok3n` } }
      }),
      entry({ action: 'create', name: 'new', fields: ['interval'], changes: { interval: { to: 30 } } })
    ]
    expect(driftMessage(contextWith({ checksFile: 'fleet.yml' }), drift)).toBe(
      `sync-checks: drift: 3 check(s) differ from checks-file fleet.yml: create "new": interval: 30; update "upd" (c2): url: "https://u/${'a'.repeat(90)}" → "https://u/${'a'.repeat(90)}?token=***" (secret changed); paused "held" (c3): ${PAUSED_NOTE}. Nothing was sent (dry run). Run the sync to put the file's values back, or change the file to keep the service's.`
    )
  })

  it('lists 20 entries at most, then how many more', () => {
    const drift = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        entry({ action: 'create', name: `c${i}`, fields: ['interval'], changes: { interval: { to: i } } })
      )
    const twenty = driftMessage(contextWith(), drift(20))
    expect(twenty).toContain('create "c19": interval: 19. Nothing was sent')
    expect(twenty).not.toContain('more')
    const more = driftMessage(contextWith(), drift(23))
    expect(more).toMatch(/^sync-checks: drift: 23 check\(s\) differ/)
    expect(more).toContain('create "c19": interval: 19; and 3 more (see the summary). Nothing was sent')
    expect(more).not.toContain('"c20"')
  })
})

describe('refusal: what stops a plan before anything is written', () => {
  const deletes = (n: number) =>
    Array.from({ length: n }, (_, i) => entry({ action: 'delete', name: `d${i}`, id: `c${i}` }))

  it('more deletes than max-deletions; as many is allowed', () => {
    expect(refusal(contextWith({ maxDeletions: 2 }), deletes(2), undefined)).toBeUndefined()
    expect(refusal(contextWith({ maxDeletions: 2 }), deletes(3), undefined)).toBe(
      'sync-checks refused: the plan deletes 3 checks, more than max-deletions (2). Nothing was written. If these deletes are meant, raise max-deletions for this run; else fix the checks file or prune-prefix.'
    )
    expect(refusal(contextWith({ maxDeletions: 0 }), deletes(1), [])).toMatch(
      /deletes 1 checks, more than max-deletions \(0\)/
    )
  })

  it('the approved plan: the same passes; compared as the plan file holds it, secrets *** on both sides', () => {
    const plan = [
      entry({
        action: 'update',
        name: 'u',
        id: 'c1',
        fields: ['url'],
        changes: { url: { from: 'https://u/?token=Old1', to: 'https://u/?token=New22' } }
      })
    ]
    const approved = JSON.parse(
      JSON.stringify(
        planDocument(
          plan.map(e => ({
            ...e,
            changes: { url: { from: 'https://u/?token=***', to: 'https://u/?token=***', secretChanged: true as const } }
          }))
        )
      )
    ).checks
    expect(refusal(contextWith(), plan, approved)).toBeUndefined()
  })

  it('a plan that is not the approved one: each difference (10 at most), nothing written, what to do', () => {
    const plan = deletes(2)
    expect(refusal(contextWith({ approvedPlan: 'reviewed.json' }), plan, [])).toBe(
      'sync-checks refused: the plan differs from approved-plan reviewed.json in 2 place(s): now also delete "d0" (c0); now also delete "d1" (c1). Nothing was written. Review the new plan (run the dry-run again) and approve it.'
    )
    const many = refusal(contextWith({ maxDeletions: 20 }), deletes(12), [])
    expect(many).toContain('in 12 place(s): now also delete "d0" (c0);')
    expect(many).toContain('now also delete "d9" (c9); and 2 more. Nothing was written.')
    expect(many).not.toContain('"d10"')
    const ten = refusal(contextWith({ maxDeletions: 20 }), deletes(10), [])
    expect(ten).toContain('now also delete "d9" (c9). Nothing was written.')
  })
})
