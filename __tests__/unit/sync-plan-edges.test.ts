/**
 * The sync plan at its edges, as a reviewer reads it: what counts as a
 * change, the order and counts, prune and its prefix, and each value as
 * shown (cut, whole, a secret's change).
 */
import { describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import {
  PAUSED_NOTE,
  type PlanEntry,
  computePlan,
  countOf,
  describeChanges,
  drifting,
  entryResult,
  sameEntry,
  shown,
  shownAction,
  shownChange,
  sortedForShow,
  wholeValues
} from '../../src/operations/sync/plan.js'

const entry = (e: Partial<PlanEntry> & Pick<PlanEntry, 'action' | 'name'>): PlanEntry => ({
  fields: [],
  changes: {},
  ...e
})

describe('what counts as a change', () => {
  const server: Check[] = [
    { id: 'c1', name: 'web', url: 'https://w/', type: 'http', interval: 60, alertChannels: ['a', 'b'], owner: 'x' }
  ]
  const plan = (spec: Record<string, unknown>) => computePlan([{ name: 'web', ...spec }], server, { prune: false })[0]

  it('only the fields the file states: a field the service has and the file leaves out is no change', () => {
    expect(plan({ url: 'https://w/' })).toMatchObject({ action: 'unchanged', id: 'c1', fields: [], changes: {} })
  })

  it('channels compare as a set, type as http when absent on either side', () => {
    expect(plan({ url: 'https://w/', alertChannels: ['b', 'a', 'a'] }).action).toBe('unchanged')
    expect(plan({ url: 'https://w/', type: 'http' }).action).toBe('unchanged')
    const untyped = computePlan([{ name: 'n', url: 'u', type: 'http' }], [{ id: 'c', name: 'n', url: 'u' }], {
      prune: false
    })
    expect(untyped[0].action).toBe('unchanged')
    expect(plan({ url: 'https://w/', type: 'tcp' })).toMatchObject({
      action: 'update',
      fields: ['type'],
      changes: { type: { from: 'http', to: 'tcp' } }
    })
  })

  it('a value of another type is a change (60 and "60"); a field the service lacks is from null', () => {
    expect(plan({ url: 'https://w/', interval: '60' })).toMatchObject({
      action: 'update',
      changes: { interval: { from: 60, to: '60' } }
    })
    expect(plan({ url: 'https://w/', notes: 'n' }).changes).toEqual({ notes: { from: null, to: 'n' } })
  })

  it("an update sends the whole check: the service's writable fields, the file's over them, no read-only field", () => {
    const [e] = computePlan(
      [{ name: 'web', url: 'https://w/2' }],
      [{ id: 'c1', name: 'web', url: 'https://w/', owner: 'x', lastCheckedAt: 't', responseTime: 5 }],
      { prune: false }
    )
    expect(e.body).toEqual({ name: 'web', url: 'https://w/2', owner: 'x', type: 'http' })
    expect(e.id).toBe('c1')
  })

  it('a create sends the spec with type http unless stated, each field from nothing', () => {
    const [e, typed] = computePlan(
      [
        { name: 'new', url: 'https://n/' },
        { name: 'tcp', url: 'https://t/', type: 'tcp' }
      ],
      [],
      { prune: true }
    )
    expect(e).toEqual({
      action: 'create',
      name: 'new',
      fields: ['name', 'url', 'type'],
      changes: { name: { to: 'new' }, url: { to: 'https://n/' }, type: { to: 'http' } },
      body: { name: 'new', url: 'https://n/', type: 'http' }
    })
    expect(typed.body).toEqual({ name: 'tcp', url: 'https://t/', type: 'tcp' })
  })

  it('a paused check whose entry states status, even as undefined, is not marked paused', () => {
    const paused = [{ id: 'p', name: 'p', url: 'u', type: 'http', status: 'PAUSED' }]
    expect(computePlan([{ name: 'p', url: 'u' }], paused, { prune: false })[0].paused).toBe(true)
    expect(computePlan([{ name: 'p', url: 'u', status: undefined }], paused, { prune: false })[0].paused).toBe(
      undefined
    )
    const running = [{ id: 'r', name: 'r', url: 'u', type: 'http', status: 'up' }]
    expect(computePlan([{ name: 'r', url: 'u' }], running, { prune: false })[0]).not.toHaveProperty('paused')
  })
})

describe('prune', () => {
  const server: Check[] = [
    { id: 'd1', name: 'app-a', url: 'https://a/', interval: 30, type: null, createdAt: 't', owner: undefined },
    { id: 'd2', name: 'other', url: 'https://o/' },
    { id: 'd3', name: 'app-b', url: 'https://b/', alertChannels: ['x'] },
    { id: 'd1', name: 'app-a', url: 'https://a/', interval: 30, type: null, createdAt: 't' }
  ]

  it("deletes, after the file's entries and in the service's order, each check the file does not name, once per id", () => {
    const plan = computePlan([{ name: 'keep', url: 'https://k/' }], server, { prune: true })
    expect(plan.map(e => [e.action, e.name, e.id])).toEqual([
      ['create', 'keep', undefined],
      ['delete', 'app-a', 'd1'],
      ['delete', 'other', 'd2'],
      ['delete', 'app-b', 'd3']
    ])
  })

  it('a delete lists what goes: its writable fields but the name, none null or read-only', () => {
    const [, gone] = computePlan([{ name: 'keep', url: 'https://k/' }], server, { prune: true })
    expect(gone).toEqual({
      action: 'delete',
      name: 'app-a',
      id: 'd1',
      fields: ['url', 'interval'],
      changes: { url: { from: 'https://a/' }, interval: { from: 30 } }
    })
  })

  it('prune-prefix keeps every check outside it; an empty prefix keeps none; no prune deletes nothing', () => {
    const names = (options: { prune: boolean; prunePrefix?: string }) =>
      computePlan([{ name: 'app-b', url: 'https://b/' }], server, options)
        .filter(e => e.action === 'delete')
        .map(e => e.name)
    expect(names({ prune: true, prunePrefix: 'app-' })).toEqual(['app-a'])
    expect(names({ prune: true, prunePrefix: 'APP-' })).toEqual([])
    expect(names({ prune: true, prunePrefix: '' })).toEqual(['app-a', 'other'])
    expect(names({ prune: false, prunePrefix: 'app-' })).toEqual([])
  })
})

describe('counts and order', () => {
  const plan: PlanEntry[] = [
    entry({ action: 'unchanged', name: 'u1', id: '1' }),
    entry({ action: 'delete', name: 'd1', id: '2', outcome: 'applied' }),
    entry({ action: 'unchanged', name: 'p1', id: '3', paused: true }),
    entry({ action: 'update', name: 'up1', id: '4', outcome: 'failed' }),
    entry({ action: 'create', name: 'c1', outcome: 'applied' }),
    entry({ action: 'update', name: 'up2', id: '5', outcome: 'applied' }),
    entry({ action: 'create', name: 'c2', outcome: 'not applied' }),
    entry({ action: 'update', name: 'up3', id: '6', paused: true })
  ]

  it('countOf: planned, or only those applied; unchanged always counts', () => {
    expect(['create', 'update', 'delete', 'unchanged'].map(a => countOf(plan, a as PlanEntry['action']))).toEqual([
      2, 3, 1, 2
    ])
    expect(['create', 'update', 'delete', 'unchanged'].map(a => countOf(plan, a as PlanEntry['action'], true))).toEqual(
      [1, 1, 1, 2]
    )
  })

  it("shown creates first, then updates, deletes, paused, unchanged; the file's order kept within each", () => {
    expect(sortedForShow(plan).map(e => e.name)).toEqual(['c1', 'c2', 'up1', 'up2', 'up3', 'd1', 'p1', 'u1'])
    expect(plan[0].name).toBe('u1')
  })

  it('drift: every create, update and delete, and an unchanged check paused outside the file', () => {
    expect(drifting(plan).map(e => e.name)).toEqual(['d1', 'p1', 'up1', 'c1', 'up2', 'c2', 'up3'])
    expect(plan.map(shownAction)).toEqual([
      'unchanged',
      'delete',
      'paused',
      'update',
      'create',
      'update',
      'create',
      'update'
    ])
  })
})

describe('values as shown', () => {
  it('shown: JSON, absent for undefined, cut to max with an ellipsis counted in it', () => {
    expect(shown(undefined)).toBe('absent')
    expect(shown(null)).toBe('null')
    expect(shown('x'.repeat(78))).toBe(`"${'x'.repeat(78)}"`)
    expect(shown('x'.repeat(79))).toBe(`"${'x'.repeat(78)}…`)
    expect(shown('abcdef', 4)).toBe('"ab…')
    expect(shown({ b: 1, a: 2 })).toBe('{"b":1,"a":2}')
  })

  it('shownChange: short values whole; absent sides; keys in one order', () => {
    expect(shownChange(undefined, 5)).toBe('absent → 5')
    expect(shownChange('a', undefined)).toBe('"a" → absent')
    expect(shownChange({ b: 1, a: 2 }, { a: 2, b: 1 })).toBe('{"a":2,"b":1} → {"a":2,"b":1}')
    const at80 = 'x'.repeat(78)
    expect(shownChange(at80, at80.replace(/x$/, 'y'))).toBe(`"${at80}" → "${at80.slice(0, 77)}y"`)
  })

  it('shownChange: a long change cut 12 characters around where it differs, marked where cut', () => {
    const head = 'h'.repeat(100)
    const tail = 't'.repeat(100)
    expect(shownChange(`${head}A${tail}`, `${head}BB${tail}`)).toBe(
      `…${'h'.repeat(12)}A${'t'.repeat(12)}… → …${'h'.repeat(12)}BB${'t'.repeat(12)}…`
    )
    // Differing at the start: nothing cut before; at the end: nothing cut after.
    expect(shownChange(`A${tail}`, `B${tail}`)).toBe(`"A${'t'.repeat(12)}… → "B${'t'.repeat(12)}…`)
    expect(shownChange(`${head}A`, `${head}B`)).toBe(`…${'h'.repeat(12)}A" → …${'h'.repeat(12)}B"`)
  })

  it('shownChange: one side short, the other long: both cut alike around where they part', () => {
    expect(shownChange('x', 'x'.repeat(100))).toBe(`"x" → "${'x'.repeat(78)}…`)
    expect(shownChange('x'.repeat(100), 'x')).toBe(`"${'x'.repeat(78)}… → "x"`)
  })

  it('shownChange: a long value that only grows shows where the shorter one ends, not a match found across it', () => {
    const [hundred, more] = ['x'.repeat(100), 'x'.repeat(150)]
    expect(shownChange(hundred, more)).toBe(`…${'x'.repeat(12)}" → …${'x'.repeat(62)}"`)
    expect(shownChange(more, hundred)).toBe(`…${'x'.repeat(62)}" → …${'x'.repeat(12)}"`)
  })

  it('shownChange: two equal long values show their last 12 characters each', () => {
    const long = 'x'.repeat(100)
    expect(shownChange(long, long)).toBe(`…${'x'.repeat(11)}" → …${'x'.repeat(11)}"`)
  })

  it('shownChange: a differing middle of exactly max characters is shown whole', () => {
    const [h, t] = ['h'.repeat(100), 't'.repeat(100)]
    const [a, b] = ['A'.repeat(56), 'B'.repeat(56)]
    const [h12, t12] = ['h'.repeat(12), 't'.repeat(12)]
    expect(shownChange(`${h}${a}${t}`, `${h}${b}${t}`)).toBe(`…${h12}${a}${t12}… → …${h12}${b}${t12}…`)
  })

  it('shownChange: a differing middle longer than max is itself cut to max', () => {
    const a = 'a'.repeat(200)
    const b = 'b'.repeat(200)
    expect(shownChange(a, b, 20)).toBe(`"${'a'.repeat(18)}… → "${'b'.repeat(18)}…`)
  })

  it('describeChanges: a create its values, a delete what goes, an update old → new; a paused note last', () => {
    const create = entry({ action: 'create', name: 'n', fields: ['url'], changes: { url: { to: 'u' } } })
    const del = entry({ action: 'delete', name: 'n', id: 'i', fields: ['url'], changes: { url: { from: 'u' } } })
    const update = entry({
      action: 'update',
      name: 'n',
      id: 'i',
      fields: ['url', 'interval'],
      changes: { url: { from: 'a', to: 'b' }, interval: { from: 60, to: 30 } },
      paused: true
    })
    expect(describeChanges(create)).toBe('url: "u"')
    expect(describeChanges(del)).toBe('url: "u"')
    expect(describeChanges(update)).toBe(`url: "a" → "b"; interval: 60 → 30; ${PAUSED_NOTE}`)
    expect(describeChanges(entry({ action: 'unchanged', name: 'n', id: 'i' }))).toBe('')
    // A field listed without its change (a hand-made entry) reads as absent on both sides.
    expect(describeChanges(entry({ action: 'update', name: 'n', id: 'i', fields: ['url'] }))).toBe(
      'url: absent → absent'
    )
  })

  it("describeChanges: a secret's change is said, once as the value when both sides read alike", () => {
    const same = entry({
      action: 'update',
      name: 'n',
      id: 'i',
      fields: ['url'],
      changes: { url: { from: 'https://h/?token=***', to: 'https://h/?token=***', secretChanged: true } }
    })
    expect(describeChanges(same)).toBe('url: "https://h/?token=***" (secret changed)')
    const both = entry({
      action: 'update',
      name: 'n',
      id: 'i',
      fields: ['url'],
      changes: { url: { from: 'https://a/?token=***', to: 'https://b/?token=***', secretChanged: true } }
    })
    expect(describeChanges(both)).toBe('url: "https://a/?token=***" → "https://b/?token=***" (secret changed)')
  })

  it('wholeValues: each cut field whole, naming the action, the check and its id; nothing when none is cut', () => {
    const long = 'x'.repeat(100)
    const plan = [
      entry({
        action: 'create',
        name: 'new',
        fields: ['url', 'interval'],
        changes: { url: { to: long }, interval: { to: 5 } }
      }),
      entry({ action: 'update', name: 'old', id: 'c9', fields: ['url'], changes: { url: { from: 'a', to: long } } }),
      entry({ action: 'delete', name: 'gone', id: 'c8', fields: ['url'], changes: { url: { from: 'short' } } })
    ]
    expect(wholeValues(plan)).toEqual([`create "new" url: "${long}"`, `update "old" (c9) url: "a" → "${long}"`])
    expect(wholeValues(plan, 200)).toEqual([])
    expect(wholeValues([plan[0]], 102)).toEqual([])
    expect(wholeValues([plan[0]], 101)).toHaveLength(1)
  })
})

describe('an entry as result and the plan file have it', () => {
  it('no body; id null when none; note, paused and outcome only when set', () => {
    const create = entry({
      action: 'create',
      name: 'n',
      fields: ['url'],
      changes: { url: { to: 'u' } },
      body: { name: 'n', url: 'u' }
    })
    expect(entryResult(create)).toEqual({
      action: 'create',
      name: 'n',
      id: null,
      fields: ['url'],
      changes: { url: { to: 'u' } }
    })
    expect(Object.keys(entryResult(create))).toEqual(['action', 'name', 'id', 'fields', 'changes'])
    expect(entryResult({ ...create, id: 'c1', note: 'why', paused: true, outcome: 'applied' })).toEqual({
      action: 'create',
      name: 'n',
      id: 'c1',
      fields: ['url'],
      changes: { url: { to: 'u' } },
      note: 'why',
      paused: true,
      outcome: 'applied'
    })
    // An unchanged entry with an outcome or a note is written in the result's order of keys; one without an id has id null.
    const unchanged = entry({ action: 'unchanged', name: 'u', id: 'c2' })
    const keys = ['action', 'name', 'id', 'fields', 'changes']
    expect(Object.entries(entryResult({ ...unchanged, outcome: 'applied' }))).toEqual([
      ...keys.map(k => [k, (unchanged as unknown as Record<string, unknown>)[k]]),
      ['outcome', 'applied']
    ])
    expect(Object.keys(entryResult({ ...unchanged, note: 'n' }))).toEqual([...keys, 'note'])
    expect(Object.entries(entryResult({ ...unchanged, id: undefined }))).toEqual([
      ['action', 'unchanged'],
      ['name', 'u'],
      ['id', null],
      ['fields', []],
      ['changes', {}]
    ])
    expect(entryResult(unchanged)).toBe(unchanged)
  })

  it('sameEntry: the action, the name, the id (absent as null) and the changes decide; fields and notes do not', () => {
    const a = { action: 'update', name: 'n', id: 'c', changes: { url: { from: 'a', to: 'b' } } }
    expect(sameEntry(a, { ...a, fields: ['url'], note: 'x' })).toBe(true)
    expect(sameEntry(a, { ...a, action: 'create' })).toBe(false)
    expect(sameEntry(a, { ...a, name: 'm' })).toBe(false)
    expect(sameEntry(a, { ...a, id: 'd' })).toBe(false)
    expect(sameEntry({ action: 'create', name: 'n' }, { action: 'create', name: 'n', id: null, changes: {} })).toBe(
      true
    )
    expect(sameEntry({ ...a, changes: undefined }, { ...a, changes: {} })).toBe(true)
  })
})
