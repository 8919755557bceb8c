/**
 * Convergence and the list snapshot at their edges (src/operations/names/converge.ts,
 * src/operations/names/snapshot.ts; contract: "Convergence removes only what is
 * provably new", "A read that shows a row twice proves nothing"): the settle
 * wait, the survival order without a readable createdAt, the rounds of
 * look-and-remove, same-named resources of another kind or without a name,
 * several creates at once, and the words each outcome is said in.
 */
import { describe, expect, it } from '@jest/globals'
import type { ListRead } from '../../src/api/pagination.js'
import {
  type Ranked,
  bySurvival,
  convergeCreated,
  keptLine,
  settleMs,
  survivorOf,
  uniqueById,
  unprovenLine
} from '../../src/operations/names/converge.js'
import { lookUp, snapshot, unprovenAbsence, wholeRead } from '../../src/operations/names/snapshot.js'

interface Item extends Ranked {
  name?: string
  url: string
}

describe('the settle wait', () => {
  it('as long as the create took and half as much again, plus 250 ms, rounded; never past the cap', () => {
    expect(settleMs(0, 10_000)).toBe(250)
    expect(settleMs(100, 10_000)).toBe(400)
    expect(settleMs(1001, 10_000)).toBe(1752)
    expect(settleMs(1000, 1750)).toBe(1750)
    expect(settleMs(1000, 1749)).toBe(1749)
  })
})

describe('the survival order', () => {
  it('a createdAt that is missing or unreadable comes last; among those, the smallest id', () => {
    const dated = { id: 'z', createdAt: '2026-11-25T10:00:00Z' }
    expect(survivorOf([{ id: 'a' }, dated])).toBe(dated)
    expect(survivorOf([{ id: 'a', createdAt: 'soon' }, dated])).toBe(dated)
    expect(survivorOf([{ id: 'b' }, { id: 'a', createdAt: 'soon' }]).id).toBe('a')
    expect(bySurvival({ id: 'a' }, { id: 'a' })).toBe(0)
    expect(bySurvival({ id: 'b' }, { id: 'a' })).toBeGreaterThan(0)
    expect(bySurvival({ id: 'a' }, { id: 'b' })).toBeLessThan(0)
  })

  it('the same id listed twice is one resource: its first place is kept', () => {
    const first = { id: 'a', createdAt: 'x' }
    expect(uniqueById([first, { id: 'b' }, { id: 'a' }])).toEqual([first, { id: 'b' }])
  })
})

/**
 * Converge the creates `mine` against scripted looks (the last one again when they run out); a
 * removed item is gone from later looks unless `lagging` (a list that still shows it).
 */
async function converge(mine: Item[], looks: Array<ListRead<Item>>, before: string[] | undefined, lagging = false) {
  const removed: string[] = []
  const slept: number[] = []
  const said: string[] = []
  let reads = 0
  const result = await convergeCreated<Item>(mine, {
    read: async () => {
      const look = looks[Math.min(reads++, looks.length - 1)]
      return lagging ? look : { ...look, items: look.items.filter(i => !removed.includes(i.id)) }
    },
    nameOf: i => i.name,
    kindOf: i => i.url,
    remove: async duplicate => void removed.push(duplicate.id),
    sleep: async ms => void slept.push(ms),
    settleMs: 500,
    log: { debug: () => {}, info: line => void said.push(line), warning: line => void said.push(line) },
    what: 'check',
    before: before === undefined ? undefined : new Set(before)
  })
  return { result, removed, slept, said, reads }
}

const item = (id: string, name = 'shop', url = 'https://shop'): Item => ({ id, name, url })

describe('convergeCreated: the rounds of look and remove', () => {
  it('nothing created: no wait, no look', async () => {
    const r = await converge([], [{ items: [item('a')] }], [])
    expect([r.result, r.reads, r.slept]).toEqual([[], 0, []])
  })

  it('waits the settle time, removes the new duplicates, says so once, and looks once more to confirm', async () => {
    const r = await converge([item('b')], [{ items: [item('a'), item('b'), item('c')] }], [])
    expect(r.slept).toEqual([500])
    expect(r.removed.sort()).toEqual(['b', 'c'])
    expect(r.result[0]).toEqual({ survivor: item('a'), removed: ['b', 'c'], kept: [], others: [] })
    expect(r.reads).toBe(2)
    expect(r.said).toEqual([
      'Concurrent runs created the same check: removed 2 duplicate(s) made by them; looking once more to confirm.'
    ])
  })

  it('a duplicate that appears only at the look to confirm is removed then too; the removal is said once', async () => {
    const looks = [{ items: [item('a'), item('b')] }, { items: [item('a'), item('c')] }, { items: [item('a')] }]
    const r = await converge([item('b')], looks, [])
    expect(r.removed).toEqual(['b', 'c'])
    expect(r.reads).toBe(3)
    expect(r.said).toHaveLength(1)
  })

  it('one create whose name is gone from a look does not stop the others being converged', async () => {
    // The second look (after a removal) shows no "shop" (removed by hand), and a new "cart" racing ours.
    const looks = [
      { items: [item('a'), item('b'), item('d', 'cart')] },
      { items: [item('c', 'cart'), item('d', 'cart')] }
    ]
    const r = await converge([item('b'), item('d', 'cart')], looks, [])
    expect(r.result.map(x => x.survivor.id)).toEqual(['a', 'c'])
    expect(r.removed).toEqual(['b', 'd'])
  })

  it('one it cannot prove new is kept and looked at again after a settle wait, three looks at most', async () => {
    const r = await converge([item('b')], [{ items: [item('a'), item('b')] }], ['a'])
    expect(r.removed).toEqual([])
    expect(r.result[0].survivor).toEqual(item('b'))
    expect(r.result[0].kept).toEqual([item('a')])
    expect(r.reads).toBe(3)
    expect(r.slept).toEqual([500, 500, 500])
    expect(r.said).toEqual([]) // nothing removed: nothing to say
  })

  it('a racing run may remove it between looks: then the one left stays, until it too is gone', async () => {
    const r = await converge([item('b')], [{ items: [item('a'), item('b')] }, { items: [item('c')] }], ['a'])
    expect(r.result[0].survivor).toEqual(item('c'))
    expect(r.result[0].kept).toEqual([])
    const gone = await converge([item('b')], [{ items: [item('a'), item('b')] }, { items: [] }], ['a'])
    // Everything of that name removed by hand: what it knew is kept.
    expect(gone.result[0].survivor).toEqual(item('b'))
    expect(gone.result[0].kept).toEqual([item('a')])
  })

  it('the first look may come before the list shows the create: it counts all the same', async () => {
    const r = await converge([item('b')], [{ items: [item('a')] }], [])
    expect(r.removed).toEqual(['b'])
    expect(r.result[0].survivor).toEqual(item('a'))
  })

  it('same-named ones of another kind are named, never removed; one without a name takes no part', async () => {
    const other = item('a', 'shop', 'https://elsewhere')
    const unnamed = { id: 'c', url: 'https://shop' }
    const r = await converge([item('b')], [{ items: [other, item('b'), unnamed] }], [])
    expect(r.removed).toEqual([])
    expect(r.result[0]).toEqual({ survivor: item('b'), removed: [], kept: [], others: [other] })
    expect(r.reads).toBe(1)
  })

  it('several creates at once: each has its own survivor, and a duplicate is removed once', async () => {
    const listed = [item('a'), item('b'), item('c', 'cart'), item('d', 'cart'), item('b')]
    const r = await converge([item('b'), item('d', 'cart')], [{ items: listed }], [])
    expect(r.result.map(x => x.survivor.id)).toEqual(['a', 'c'])
    expect(r.removed).toEqual(['b', 'd'])
    expect(r.said).toEqual([
      'Concurrent runs created the same check: removed 2 duplicate(s) made by them; looking once more to confirm.'
    ])
  })

  it('a removed duplicate a later look still shows is not removed again', async () => {
    const r = await converge([item('b')], [{ items: [item('a'), item('b')] }], [], true)
    expect(r.removed).toEqual(['b'])
    expect(r.reads).toBe(2)
  })

  it('with a proven read before: a look that shifted is read again, and the steady one decides', async () => {
    const looks = [
      { items: [item('a'), item('b'), item('b')], shift: 'a row twice' },
      { items: [item('a'), item('b')] }
    ]
    const r = await converge([item('b')], looks, [])
    expect(r.removed).toEqual(['b'])
    expect(r.said).toHaveLength(1) // removed at the first look (its second read)
  })

  it('a create without a name (as the view sees it) takes no part, even beside one named ""', async () => {
    const unnamed = { id: 'b', url: 'https://shop' }
    const another = { id: 'c', url: 'https://shop' }
    const r = await converge([unnamed], [{ items: [item('a', ''), unnamed, another] }], [])
    expect(r.result[0]).toEqual({ survivor: unnamed, removed: [], kept: [], others: [] })
    expect(r.removed).toEqual([])
  })

  it('reads that proved nothing: one look, which is used even when it shifted', async () => {
    const r = await converge([item('b')], [{ items: [item('a'), item('b')], shift: 'a row twice' }], undefined)
    expect(r.reads).toBe(1)
    expect(r.result[0].kept).toEqual([item('a')])
  })
})

describe('what is said', () => {
  it('kept ones: how many, their ids, why they stay and which is used; nothing when none', () => {
    expect(keptLine('check', { id: 'a' }, [])).toBe('')
    expect(keptLine('check', { id: 'a' }, [{ id: 'b' }, { id: 'c' }])).toBe(
      'Also found 2 other identical check(s) of this name (b, c) that this run cannot prove were made during the step (the reads before the create never proved the name absent, so it may have existed all along): kept, not removed. a is used; remove the one you do not want yourself (by id).'
    )
  })

  it('reads that proved nothing: the reads, the doubt (or that they did not agree), and that nothing is removed', () => {
    expect(unprovenLine('incident', 4, 'a row twice')).toBe(
      'The 4 full reads of the incidents proved nothing about what is there (a row twice): the create goes ahead, and a incident of the same name found afterwards is named and kept, never removed.'
    )
    expect(unprovenLine('check', 2, undefined)).toContain('(they did not agree)')
  })

  it('an unproven absence: the step, what was sought, the reads and their doubt, and what that means', () => {
    const look = { items: [], reads: 4, doubt: 'a row twice' }
    expect(unprovenAbsence(look, 'check "shop"', 'nothing was deleted', 'delete-check').message).toBe(
      'delete-check: no read showed check "shop", but the 4 reads proved nothing (a row twice): nothing was deleted'
    )
    const error = unprovenAbsence(look, 'an open incident', 'none was resolved')
    expect(error.message).toBe(
      'no read showed an open incident, but the 4 reads proved nothing (a row twice): none was resolved'
    )
    expect(error.outputs).toEqual({ changed: false }) // the step's `changed` output: nothing was changed
  })
})

describe('the snapshot, at its edges', () => {
  const reads = (...list: Array<ListRead<{ id: string }>>) => {
    let made = 0
    return async () => list[Math.min(made++, list.length - 1)]
  }

  it('what is sought, found by the later of two reads that would prove: found, not proven', async () => {
    const snap = await snapshot(reads({ items: [{ id: 'a' }] }, { items: [{ id: 'a' }, { id: 'b' }], pages: 2 }), {
      enough: items => items.some(i => i.id === 'b')
    })
    expect(snap).toEqual({ items: [{ id: 'a' }, { id: 'b' }], reads: 2, pages: 2 })
  })

  it('the pages of the read used are kept: found at once, proven, and a whole read', async () => {
    const found = await lookUp(reads({ items: [{ id: 'a' }], pages: 3 }), items => items.length > 0)
    expect(found).toEqual({ items: [{ id: 'a' }], reads: 1, pages: 3 })
    const whole = await wholeRead(
      reads({ items: [{ id: 'a' }], pages: 1 }, { items: [{ id: 'a' }], pages: 2 }),
      'x',
      'y'
    )
    expect(whole).toEqual({ items: [{ id: 'a' }], pages: 2 })
  })

  it('a doubt is the newest shift named, kept through clean reads that still disagree', async () => {
    const snap = await snapshot(
      reads(
        { items: [{ id: 'a' }], shift: 'first' },
        { items: [{ id: 'b' }], shift: 'second' },
        { items: [{ id: 'c' }] },
        { items: [{ id: 'd' }] }
      )
    )
    expect(snap.proven).toBeUndefined()
    expect(snap.doubt).toBe('second')
    const shifting = await snapshot(
      reads(
        { items: [{ id: 'a' }] },
        { items: [{ id: 'b' }], shift: 'first' },
        { items: [{ id: 'c' }], shift: 'second' },
        { items: [{ id: 'd' }], shift: 'third' }
      )
    )
    expect(shifting.doubt).toBe('third')
  })
})
