import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { parseChecksFile } from '../../src/operations/sync/checks-file.js'
import {
  computePlan,
  describeChanges,
  drifting,
  entryResult,
  sameEntry,
  shownAction
} from '../../src/operations/sync/plan.js'
import { shownEntry } from '../../src/operations/sync/shown.js'

// The YAML parser is loaded before parsing, as main does (src/lazy/modules.cjs).
beforeAll(() => load('yaml'))

const server = [
  {
    id: 'chk_1',
    name: 'app-home',
    url: 'https://a/',
    type: 'http',
    interval: 60,
    alertChannels: ['email', 'slack'],
    owner: 'x'
  },
  { id: 'chk_2', name: 'app-api', url: 'https://a/api', interval: 60 },
  { id: 'chk_3', name: 'legacy', url: 'https://old/' },
  { id: 'chk_4', name: 'app-old', url: 'https://a/old' }
]

describe('the plan a person reviews: each field old and new', () => {
  const plan = computePlan(
    [
      { name: 'app-api', url: 'https://a/v2', interval: 30 },
      { name: 'app-new', url: 'https://a/new', interval: 120 }
    ],
    server,
    { prune: true, prunePrefix: 'app-' }
  )
  const byName = (name: string) => plan.find(e => e.name === name)!

  it('an update has from and to for each differing field, null where the server had none', () => {
    expect(byName('app-api').changes).toEqual({
      url: { from: 'https://a/api', to: 'https://a/v2' },
      interval: { from: 60, to: 30 }
    })
    const typed = computePlan([{ name: 'legacy', url: 'https://old/', interval: 5 }], server, { prune: false })
    expect(typed[0].changes).toEqual({ interval: { from: null, to: 5 } })
  })

  it('a create has only `to` (the full spec), a delete only `from` (what goes)', () => {
    expect(byName('app-new')).toMatchObject({
      action: 'create',
      changes: { name: { to: 'app-new' }, url: { to: 'https://a/new' }, interval: { to: 120 }, type: { to: 'http' } }
    })
    const gone = byName('app-old')
    expect(gone).toMatchObject({
      action: 'delete',
      id: 'chk_4',
      fields: ['url'],
      changes: { url: { from: 'https://a/old' } }
    })
    expect(gone.changes.url).not.toHaveProperty('to')
  })

  it('describes changes on one line, values as JSON, long ones cut', () => {
    expect(describeChanges(byName('app-api'))).toBe('url: "https://a/api" → "https://a/v2"; interval: 60 → 30')
    expect(describeChanges(byName('app-old'))).toBe('url: "https://a/old"')
    const long = computePlan([{ name: 'x', url: `https://a/${'p'.repeat(200)}` }], [], { prune: false })
    expect(describeChanges(long[0])).toMatch(/url: "https:\/\/a\/p+…; type: "http"$/)
  })

  it('result entries carry changes and no request body; equal entries compare equal whatever the key order', () => {
    const result = entryResult(byName('app-api'))
    expect(result).toEqual({
      action: 'update',
      name: 'app-api',
      id: 'chk_2',
      fields: ['url', 'interval'],
      changes: byName('app-api').changes
    })
    const reordered = {
      ...result,
      changes: { interval: { to: 30, from: 60 }, url: { to: 'https://a/v2', from: 'https://a/api' } }
    }
    expect(sameEntry(result, reordered)).toBe(true)
    expect(sameEntry(result, { ...result, changes: { interval: { from: 60, to: 31 } } })).toBe(false)
  })

  it('an entry with nothing beyond its result (unchanged, paused, delete) is its own result, with the JSON of a copy', () => {
    const entries = computePlan(
      [
        { name: 'app-home', url: 'https://a/' },
        { name: 'legacy', url: 'https://old/' }
      ],
      [...server.filter(c => c.name !== 'legacy'), { ...server[2], status: 'paused' }],
      { prune: true }
    )
    expect(entries.map(shownAction)).toEqual(['unchanged', 'paused', 'delete', 'delete'])
    for (const entry of entries) {
      const copy = { ...entryResult({ ...entry, note: 'x' }), note: undefined }
      expect(entryResult(entry)).toBe(entry)
      expect(JSON.stringify(entryResult(entry))).toBe(JSON.stringify(copy))
    }
    // Nothing of an unchanged entry stands where a secret may: it is shown as it is.
    expect(shownEntry(entries[0])).toBe(entries[0])
    expect(shownEntry(entries[1])).toBe(entries[1])
    // Unchanged entries share one empty pair of fields and changes, which nothing can add to.
    expect(entries[0].fields).toBe(entries[1].fields)
    expect(() => (entries[0].fields as string[]).push('url')).toThrow()
  })
})

describe('computePlan', () => {
  it('creates, updates, leaves unchanged; compares only stated fields, type defaulting to http, channels as sets', () => {
    const plan = computePlan(
      [
        { name: 'app-home', url: 'https://a/', alertChannels: ['slack', 'email'] },
        { name: 'app-api', url: 'https://a/api', interval: 30 },
        { name: 'app-new', url: 'https://a/new' }
      ],
      server,
      { prune: false }
    )
    expect(plan.map(e => [e.action, e.name, e.id, e.fields])).toEqual([
      ['unchanged', 'app-home', 'chk_1', []],
      ['update', 'app-api', 'chk_2', ['interval']],
      ['create', 'app-new', undefined, ['name', 'url', 'type']]
    ])
    // the update sends the whole check, server fields kept
    expect(plan[1].body).toEqual({ name: 'app-api', url: 'https://a/api', interval: 30, type: 'http' })
  })

  it('keeps server fields the file does not state', () => {
    const plan = computePlan([{ name: 'app-home', url: 'https://a/changed' }], server, { prune: false })
    expect(plan[0].body).toMatchObject({ owner: 'x', alertChannels: ['email', 'slack'], url: 'https://a/changed' })
  })

  it('prunes what the file does not list, within the prefix', () => {
    const wanted = [{ name: 'app-home', url: 'https://a/' }]
    expect(computePlan(wanted, server, { prune: false }).filter(e => e.action === 'delete')).toEqual([])
    expect(
      computePlan(wanted, server, { prune: true })
        .filter(e => e.action === 'delete')
        .map(e => e.name)
    ).toEqual(['app-api', 'legacy', 'app-old'])
    expect(
      computePlan(wanted, server, { prune: true, prunePrefix: 'app-' })
        .filter(e => e.action === 'delete')
        .map(e => e.name)
    ).toEqual(['app-api', 'app-old'])
  })

  it('two server checks matching one entry that differ are an error naming them and what differs', () => {
    expect(() =>
      computePlan(
        [{ name: 'dup', url: 'u' }],
        [
          { id: 'a', name: 'dup', url: 'u' },
          { id: 'b', name: 'dup', url: 'v' }
        ],
        { prune: false }
      )
    ).toThrow('2 checks on the service are named "dup" (a, b) and they differ (url)')
  })

  it('identical server checks matching one entry: an entry per id, each changed alike, the first in order first; none deleted', () => {
    const plan = computePlan(
      [{ name: 'dup', url: 'u', interval: 30 }],
      [
        { id: 'b', name: 'dup', url: 'u', type: 'http', status: 'up', createdAt: '2026-01-02T00:00:00Z' },
        { id: 'c', name: 'dup', url: 'u', status: 'down', createdAt: '2026-01-03T00:00:00Z' },
        { id: 'a', name: 'dup', url: 'u', type: 'http', status: 'up', createdAt: '2026-01-01T00:00:00Z' }
      ],
      { prune: true }
    )
    expect(plan.map(e => [e.action, e.id, e.fields, e.body?.interval])).toEqual([
      ['update', 'a', ['interval'], 30],
      ['update', 'b', ['interval'], 30],
      ['update', 'c', ['interval'], 30]
    ])
    expect(plan.map(e => e.body?.status)).toEqual(['up', 'up', 'down'])
  })

  it('identical server checks that already match the entry: an unchanged entry per id, paused ones marked alike', () => {
    const twin = { name: 'dup', url: 'u', interval: 30, status: 'paused' }
    const plan = computePlan(
      [{ name: 'dup', url: 'u', interval: 30 }],
      [
        { id: 'a', ...twin },
        { id: 'b', ...twin }
      ],
      { prune: false }
    )
    expect(plan.map(e => [e.action, e.id, e.paused])).toEqual([
      ['unchanged', 'a', true],
      ['unchanged', 'b', true]
    ])
  })

  it('the same id listed twice (a list that shifted between pages) is one check: no error, no delete, even with prune', () => {
    const row = { id: 'a', name: 'one', url: 'u', type: 'http', interval: 60 }
    const plan = computePlan([{ name: 'one', url: 'u', interval: 60 }], [row, { ...row }], { prune: true })
    expect(plan.map(e => [e.action, e.id])).toEqual([['unchanged', 'a']])
  })

  it('a paused copy is not identical to a running one: that is an error, not a deletion', () => {
    expect(() =>
      computePlan(
        [{ name: 'dup', url: 'u' }],
        [
          { id: 'a', name: 'dup', url: 'u', status: 'up' },
          { id: 'b', name: 'dup', url: 'u', status: 'paused' }
        ],
        { prune: false }
      )
    ).toThrow('they differ (status)')
  })
})

describe('parseChecksFile', () => {
  it('reads a list or a mapping with a checks list, YAML or JSON', () => {
    expect(parseChecksFile('- name: a\n  url: https://a/\n', 'f.yml')).toEqual([{ name: 'a', url: 'https://a/' }])
    expect(parseChecksFile('checks:\n  - name: a\n    url: https://a/\n', 'f.yml')).toHaveLength(1)
    expect(parseChecksFile('{"checks": [{"name": "a", "url": "https://a/", "interval": 5}]}', 'f.json')).toEqual([
      { name: 'a', url: 'https://a/', interval: 5 }
    ])
  })

  it.each([
    // Contract, version 5 continued: a top-level key other than checks (or an anchors' holder) is named.
    [
      'name: a',
      'checks-file f.yml: line 1: the top-level key "name" is not one a checks file has (did you mean "checks"?)'
    ],
    ['- name: a\n  url: https://a/\n- name: b\n', 'checks-file f.yml: entry 2 (line 3) ("b") needs a url'],
    ['- url: https://a/\n', 'checks-file f.yml: entry 1 (line 1) needs a name'],
    [
      '- name: a\n  url: https://a/\n- name: a\n  url: https://b/\n',
      'checks-file f.yml: entry 2 (line 3): the name "a" is also used by entry 1'
    ],
    [
      '- name: a\n  url: https://a/\n  interval: often\n',
      'checks-file f.yml: entry 1 (line 1) ("a"): interval must be a whole number above 0'
    ],
    ['- name: a\n  url: nope\n', 'checks-file f.yml: entry 1 (line 1) ("a"): url must be an absolute URL'],
    ['- just a string\n', 'checks-file f.yml: entry 1 (line 1) must be a mapping'],
    [
      '- name: a\n  url: https://a/\n  name: b\n',
      'checks-file f.yml: not valid YAML or JSON (line 3): Map keys must be unique'
    ],
    ['- name: a\n  url: [unclosed\n', 'checks-file f.yml: not valid YAML or JSON (line 3)']
  ])('%j is an error naming the file, entry and field', (text, message) => {
    expect(() => parseChecksFile(text, 'f.yml')).toThrow(message)
  })
})

describe('a long change is cut around where it differs', () => {
  it('never shows two equal sides for values that differ', async () => {
    const { shownChange } = await import('../../src/operations/sync/plan.js')
    const base = `https://status.example.com/${'segment/'.repeat(12)}service?region=`
    const text = shownChange(`${base}eu-west&mode=full`, `${base}attacker.example&mode=full`)
    const [from, to] = text.split(' → ')
    expect(from).not.toBe(to)
    expect(from).toContain('eu-west')
    expect(to).toContain('attacker.example')
    expect(from.startsWith('…')).toBe(true)
    // objects compare as canonical JSON, and the differing key shows
    const obj = shownChange({ headers: { a: 'x'.repeat(90), b: 1 } }, { headers: { a: 'x'.repeat(90), b: 2 } })
    expect(obj).toMatch(/"b":1.* → .*"b":2/)
    expect(shownChange(60, 30)).toBe('60 → 30')
  })
})

describe('a check paused in the service whose entry does not state status', () => {
  const paused = [{ id: 'chk_p', name: 'web', url: 'https://w/', type: 'http', status: 'paused', interval: 60 }]

  it('is kept paused (unchanged, nothing sent) and is drift, shown as paused with what it means', () => {
    const [entry] = computePlan([{ name: 'web', url: 'https://w/', interval: 60 }], paused, { prune: false })
    expect(entry).toMatchObject({ action: 'unchanged', paused: true })
    expect(entry.body).toBeUndefined()
    expect(shownAction(entry)).toBe('paused')
    expect(drifting([entry])).toEqual([entry])
    expect(describeChanges(entry)).toMatch(/^status: paused in the service, not stated in the file/)
    expect(entryResult(entry)).toMatchObject({ action: 'unchanged', paused: true })
  })

  it('an update of another field keeps the status it has, and says it is paused', () => {
    const [entry] = computePlan([{ name: 'web', url: 'https://w/', interval: 30 }], paused, { prune: false })
    expect(entry).toMatchObject({ action: 'update', fields: ['interval'], paused: true })
    expect(entry.body?.status).toBe('paused')
  })

  it('an entry that states status is no such drift: paused stays unchanged, up resumes it', () => {
    const [kept] = computePlan([{ name: 'web', url: 'https://w/', status: 'paused' }], paused, { prune: false })
    expect(kept.paused).toBeUndefined()
    expect(drifting([kept])).toEqual([])
    const [up] = computePlan([{ name: 'web', url: 'https://w/', status: 'up' }], paused, { prune: false })
    expect(up).toMatchObject({ action: 'update', fields: ['status'] })
    expect(up.paused).toBeUndefined()
  })
})
