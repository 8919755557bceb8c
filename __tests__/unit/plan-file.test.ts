/**
 * The plan file (plan-file.ts): the exact JSON a reviewer sees on a pull
 * request, written whole; an approved plan read back, and every way one is
 * refused; and how the plan computed now differs from the approved one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Mapping } from '../../src/values/values.js'
import { type PlanEntry, computePlan } from '../../src/operations/sync/plan.js'
import {
  PLAN_VERSION,
  PlanFileError,
  planDifferences,
  planDocument,
  readApprovedPlan,
  writePlanFile
} from '../../src/operations/sync/plan-file.js'
import { shownPlan } from '../../src/operations/sync/shown.js'
import { redactValue } from '../../src/secrets/secrets.js'

let dir = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plan-file-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const entry = (e: Partial<PlanEntry> & Pick<PlanEntry, 'action' | 'name'>): PlanEntry => ({
  fields: [],
  changes: {},
  ...e
})

const plan = (): PlanEntry[] =>
  computePlan(
    [
      { name: 'new', url: 'https://n.example.com/' },
      { name: 'upd', url: 'https://u.example.com/?token=NewTok3n' },
      { name: 'same', url: 'https://s.example.com/' }
    ],
    [
      { id: 'c1', name: 'upd', url: 'https://u.example.com/?token=OldTok3n', type: 'http' },
      { id: 'c2', name: 'same', url: 'https://s.example.com/', type: 'http' },
      { id: 'c3', name: 'gone', url: 'https://g.example.com/', interval: 30 }
    ],
    { prune: true }
  )

describe('the plan file written', () => {
  it('is exactly {"version": 1, "checks": [...]}: two-space JSON, a final newline, entries as shown, no body or outcome', async () => {
    const file = join(dir, 'out', 'plan.json')
    const entries = plan()
    entries[0].outcome = 'applied'
    await writePlanFile('out/plan.json', file, shownPlan(entries))
    const text = await readFile(file, 'utf8')
    expect(text).toBe(
      `${JSON.stringify(
        {
          version: 1,
          checks: [
            {
              action: 'create',
              name: 'new',
              id: null,
              fields: ['name', 'url', 'type'],
              changes: { name: { to: 'new' }, url: { to: 'https://n.example.com/' }, type: { to: 'http' } }
            },
            {
              action: 'update',
              name: 'upd',
              id: 'c1',
              fields: ['url'],
              changes: {
                url: {
                  from: 'https://u.example.com/?token=***',
                  to: 'https://u.example.com/?token=***',
                  secretChanged: true
                }
              }
            },
            { action: 'unchanged', name: 'same', id: 'c2', fields: [], changes: {} },
            {
              action: 'delete',
              name: 'gone',
              id: 'c3',
              fields: ['url', 'interval'],
              changes: { url: { from: 'https://g.example.com/' }, interval: { from: 30 } }
            }
          ]
        },
        null,
        2
      )}\n`
    )
    expect(PLAN_VERSION).toBe(1)
    // Written whole: nothing but the file is left in its folder.
    expect(await readdir(join(dir, 'out'))).toEqual(['plan.json'])
  })

  it("the step's own secrets are *** value by value, and the file stays JSON", async () => {
    const file = join(dir, 'redacted.json')
    const entries = [
      entry({ action: 'create', name: 'n', fields: ['notes'], changes: { notes: { to: 'say "Hush-Value-1"' } } })
    ]
    await writePlanFile('redacted.json', file, entries, v => redactValue(v, ['Hush-Value-1']))
    const doc = JSON.parse(await readFile(file, 'utf8'))
    expect(doc.checks[0].changes.notes).toEqual({ to: 'say "***"' })
  })

  it('a file that cannot be written: a PlanFileError naming the input and the reason', async () => {
    const blocker = join(dir, 'blocker')
    await writeFile(blocker, 'x')
    const attempt = writePlanFile('given/plan.json', join(blocker, 'plan.json'), plan())
    await expect(attempt).rejects.toThrow(PlanFileError)
    // A file where its folder should be: the code is the system's (EEXIST from the folder's mkdir).
    const message = await writePlanFile('given/plan.json', join(blocker, 'plan.json'), plan()).catch(
      (error: Error) => error.message
    )
    expect(message).toBe(`plan-file given/plan.json: cannot write ${join(blocker, 'plan.json')} (EEXIST)`)
  })

  it('planDocument leaves out each outcome, keeps notes and paused', () => {
    const doc = planDocument([
      entry({ action: 'create', name: 'a', note: 'n', outcome: 'failed' }),
      entry({ action: 'unchanged', name: 'b', id: 'c', paused: true, outcome: 'applied' })
    ])
    expect(doc).toEqual({
      version: 1,
      checks: [
        { action: 'create', name: 'a', id: null, fields: [], changes: {}, note: 'n' },
        { action: 'unchanged', name: 'b', id: 'c', fields: [], changes: {}, paused: true }
      ]
    })
  })
})

describe('an approved plan read back', () => {
  const write = async (name: string, text: string) => {
    const file = join(dir, name)
    await writeFile(file, text)
    return file
  }

  it('gives back the entries plan-file wrote', async () => {
    const file = join(dir, 'round.json')
    await writePlanFile('round.json', file, shownPlan(plan()))
    const approved = await readApprovedPlan('round.json', file)
    expect(approved.map(e => [e.action, e.name, e.id])).toEqual([
      ['create', 'new', null],
      ['update', 'upd', 'c1'],
      ['unchanged', 'same', 'c2'],
      ['delete', 'gone', 'c3']
    ])
    expect(planDifferences(approved, shownPlan(plan()))).toEqual([])
  })

  it('a missing file: says what it should be, with the code', async () => {
    await expect(readApprovedPlan('plan.json', join(dir, 'missing.json'))).rejects.toThrow(
      `approved-plan plan.json: cannot read ${join(dir, 'missing.json')} (ENOENT); it is the plan-file of the reviewed dry-run (download its artifact first)`
    )
  })

  it('a file larger than 20 MiB is refused before it is read', async () => {
    const file = join(dir, 'huge.json')
    await writeFile(file, '')
    await truncate(file, 20 * 1024 * 1024 + 1)
    await expect(readApprovedPlan('huge.json', file)).rejects.toThrow(
      `approved-plan huge.json: is ${20 * 1024 * 1024 + 1} bytes, more than the ${20 * 1024 * 1024} a plan file may have`
    )
    const at = await write('at-limit.json', '')
    await truncate(at, 20 * 1024 * 1024)
    // At the limit it is read (and refused only as no JSON: a file of NUL bytes).
    await expect(readApprovedPlan('at-limit.json', at)).rejects.toThrow(
      'approved-plan at-limit.json: is not JSON written by plan-file'
    )
  })

  it.each([
    ['not json', 'is not JSON written by plan-file'],
    ['[]', 'is not a plan file of version 1 ({"version": 1, "checks": [...]})'],
    ['{"version": 2, "checks": []}', 'is not a plan file of version 1'],
    ['{"version": "1", "checks": []}', 'is not a plan file of version 1'],
    ['{"version": 1, "checks": {}}', 'is not a plan file of version 1'],
    ['{"version": 1}', 'is not a plan file of version 1'],
    ['{"version": 1, "checks": [{"action": "create"}]}', 'has an entry without an action and a name'],
    ['{"version": 1, "checks": [{"name": "a"}]}', 'has an entry without an action and a name'],
    ['{"version": 1, "checks": [{"action": 1, "name": "a"}]}', 'has an entry without an action and a name'],
    ['{"version": 1, "checks": [{"action": "create", "name": 1}]}', 'has an entry without an action and a name'],
    ['{"version": 1, "checks": ["create a"]}', 'has an entry without an action and a name'],
    [
      '{"version": 1, "checks": [{"action": "update", "name": "a", "id": "c1"}, {"action": "update", "name": "a", "id": "c1"}]}',
      'has the entry update "a" (c1) twice: it was not written by plan-file'
    ],
    [
      '{"version": 1, "checks": [{"action": "create", "name": "a"}, {"action": "create", "name": "a", "id": null}]}',
      'has the entry create "a" twice: it was not written by plan-file'
    ]
  ])('%s: refused (%s)', async (text, why) => {
    const file = await write('bad.json', text)
    await expect(readApprovedPlan('bad.json', file)).rejects.toThrow(`approved-plan bad.json: ${why}`)
    await expect(readApprovedPlan('bad.json', file)).rejects.toThrow(PlanFileError)
  })

  it('entries that differ in action, name or id are not twins', async () => {
    const file = await write(
      'fine.json',
      JSON.stringify({
        version: 1,
        checks: [
          { action: 'update', name: 'a', id: 'c1' },
          { action: 'update', name: 'a', id: 'c2' },
          { action: 'delete', name: 'a', id: 'c1' },
          { action: 'update', name: 'b', id: 'c1' }
        ]
      })
    )
    expect(await readApprovedPlan('fine.json', file)).toHaveLength(4)
  })
})

describe('planDifferences: how the plan now differs from the approved one', () => {
  const approved = (): Mapping[] => JSON.parse(JSON.stringify(planDocument(shownPlan(plan())))).checks

  it('none for the same plan, whatever the order of entries and keys', () => {
    expect(planDifferences([...approved()].reverse(), shownPlan(plan()))).toEqual([])
  })

  it('an entry now and not approved: said with each change; one approved and gone: said; unchanged ones count', () => {
    const now = shownPlan(plan()).filter(e => e.name !== 'same')
    now.push(
      entry({
        action: 'update',
        name: 'extra',
        id: 'c9',
        fields: ['url', 'interval', 'owner'],
        changes: {
          url: { from: 'https://a/', to: 'https://b/' },
          interval: { to: 5 },
          owner: { from: 'x' }
        }
      })
    )
    expect(planDifferences(approved(), now)).toEqual([
      'now also update "extra" (c9) (url: "https://a/" → "https://b/", interval: 5, owner: "x" (deleted))',
      'no longer unchanged "same" (c2)'
    ])
    expect(planDifferences([], [entry({ action: 'create', name: 'bare' })])).toEqual(['now also create "bare"'])
  })

  it("an entry whose changes differ: each differing field, approved and now, a secret's change said", () => {
    const base = approved()
    const now = shownPlan(plan())
    now[1] = {
      ...now[1],
      changes: {
        url: { from: 'https://u.example.com/?token=***', to: 'https://v.example.com/?token=***', secretChanged: true },
        interval: { from: 60, to: 30 }
      }
    }
    expect(planDifferences(base, now)).toEqual([
      'update "upd" (c1) changes url (approved: "https://u.example.com/?token=***" → "https://u.example.com/?token=***" (secret changed); now: "https://u.example.com/?token=***" → "https://v.example.com/?token=***" (secret changed)), interval (approved: no change; now: 60 → 30)'
    ])
  })

  it('the same action and name under another id is another entry; an approved entry without changes reads as none', () => {
    const now = [entry({ action: 'delete', name: 'gone', id: 'c4', fields: [], changes: {} })]
    expect(planDifferences([{ action: 'delete', name: 'gone', id: 'c3' }], now)).toEqual([
      'now also delete "gone" (c4)',
      'no longer delete "gone" (c3)'
    ])
    const changed = [
      entry({ action: 'delete', name: 'gone', id: 'c3', fields: ['url'], changes: { url: { from: 'u' } } })
    ]
    expect(planDifferences([{ action: 'delete', name: 'gone', id: 'c3', changes: 'x' }], changed)).toEqual([
      'delete "gone" (c3) changes url (approved: no change; now: "u" (deleted))'
    ])
  })

  it('long values are cut to 40 characters in a difference', () => {
    const long = 'x'.repeat(60)
    expect(planDifferences([], [entry({ action: 'create', name: 'n', changes: { notes: { to: long } } })])).toEqual([
      `now also create "n" (notes: "${'x'.repeat(38)}…)`
    ])
  })

  it("compared as the file holds them: the step's own secrets *** on the side computed now", () => {
    const now = [entry({ action: 'create', name: 'n', changes: { notes: { to: 'Hush-Value-1' } } })]
    const approvedSide = [{ action: 'create', name: 'n', id: null, changes: { notes: { to: '***' } } }]
    expect(planDifferences(approvedSide, now, v => redactValue(v, ['Hush-Value-1']))).toEqual([])
    expect(planDifferences(approvedSide, now)).toEqual([
      'create "n" changes notes (approved: "***"; now: "Hush-Value-1")'
    ])
  })
})
