/**
 * The list snapshot (src/operations/names/snapshot.ts) at the lowest level: a read
 * that shows a row twice, or fewer rows than the service states, proves
 * nothing; absence and a fleet's members come only from two full reads in a
 * row that did not shift and agree; convergence removes only what such a read
 * before the create did not hold.
 */
import { describe, expect, it } from '@jest/globals'
import { RowsById, statedTotal, type ListRead } from '../../src/api/pagination.js'
import { silentLogger } from '../../src/api/types.js'
import { type Ranked, convergeCreated } from '../../src/operations/names/converge.js'
import { MAX_READS, lookUp, readsAgree, snapshot, steadyRead, wholeList } from '../../src/operations/names/snapshot.js'

const rows = (...ids: string[]): Ranked[] => ids.map(id => ({ id }))
type Named = Ranked & { name: string }
const clean = (...ids: string[]): ListRead<Ranked> => ({ items: rows(...ids) })
const shifted = (...ids: string[]): ListRead<Ranked> => ({ items: rows(...ids), shift: 'a row twice' })

/** A read that answers the scripted reads in turn (the last one again when they run out). */
const scripted = (...reads: Array<ListRead<Ranked>>) => {
  let made = 0
  return { read: async () => reads[Math.min(made++, reads.length - 1)], made: () => made }
}

describe('a read knows when it shifted while it was paged', () => {
  it('an id shown twice is a shifted read, each id still once in its items', () => {
    const read = new RowsById<Ranked>()
    for (const id of ['a', 'b', 'c', 'c', 'd']) read.add({ id })
    const result = read.read('check')
    expect(result.items.map(r => r.id)).toEqual(['a', 'b', 'c', 'd'])
    expect(result.shift).toMatch(/showed 1 check\(s\) twice \("c"\)/)
  })

  it('each id once at its first place with its last read, the repeated ids in the order of their second reads', () => {
    // The rule as a map of places would keep it, against reads of ids drawn from a few, some without an id.
    const byMap = (ids: Array<string | number>) => {
      const items: Array<{ id: string | number; n: number }> = []
      const placeOf = new Map<string, number>()
      const repeated = new Set<string>()
      ids.forEach((id, n) => {
        const place = typeof id === 'string' ? placeOf.get(id) : undefined
        if (typeof id !== 'string' || place === undefined) {
          if (typeof id === 'string') placeOf.set(id, items.length)
          items.push({ id, n })
        } else {
          items[place] = { id, n }
          repeated.add(id)
        }
      })
      return { items, repeated: [...repeated] }
    }
    let seed = 7
    const random = (k: number) => (seed = (seed * 48271) % 2147483647) % k
    for (let round = 0; round < 200; round++) {
      const ids = Array.from({ length: random(30) }, () => (random(5) === 0 ? random(3) : `c${random(12)}`))
      const read = new RowsById<{ id: string | number; n: number }>()
      ids.forEach((id, n) => read.add({ id, n }))
      const expected = byMap(ids)
      const got = read.read('check')
      expect(got.items).toEqual(expected.items)
      const named = expected.repeated.slice(0, 3).map(id => JSON.stringify(id))
      if (expected.repeated.length === 0) expect(got.shift).toBeUndefined()
      else expect(got.shift).toContain(`showed ${expected.repeated.length} check(s) twice (${named.join(', ')}`)
    }
  })

  it('fewer distinct rows than the stated total is a shifted read; as many (or more) is not', () => {
    const read = new RowsById<Ranked>()
    for (const id of ['a', 'b']) read.add({ id })
    read.total = 3
    expect(read.read('check').shift).toMatch(/held 2 distinct check\(s\) where the service stated 3/)
    read.total = 2
    expect(read.read('check').shift).toBeUndefined()
    read.total = 1
    expect(read.read('check').shift).toBeUndefined()
  })

  it('the total is read from X-Total-Count or total / totalCount / total_count in the body, meta or pagination', () => {
    expect(statedTotal('12', [])).toBe(12)
    expect(statedTotal(undefined, { data: [], total: 3 })).toBe(3)
    expect(statedTotal(undefined, { data: [], meta: { totalCount: 4 } })).toBe(4)
    expect(statedTotal(undefined, { data: [], pagination: { total_count: '5' } })).toBe(5)
    expect(statedTotal(undefined, { data: [], meta: { total: 0 } })).toBe(0)
    expect(statedTotal('many', { total: -1 })).toBeUndefined()
    expect(statedTotal(undefined, { total: 1.5 })).toBeUndefined()
  })
})

describe('two full reads agree when no id the earlier one showed is missing from the later one', () => {
  it('the same ids, or only new ones (creates): they agree', () => {
    expect(readsAgree(rows('a', 'b'), rows('b', 'a'))).toBe(true)
    expect(readsAgree(rows('a', 'b'), rows('a', 'b', 'c'))).toBe(true)
  })

  it('an id that vanished (deleted while reading: what makes an offset page skip a row): they do not', () => {
    expect(readsAgree(rows('a', 'b', 'c'), rows('a', 'c'))).toBe(false)
  })
})

describe('a snapshot is proven by two reads in a row that did not shift and agree', () => {
  it('two clean reads that agree: proven, with the later read and its ids', async () => {
    const s = scripted(clean('a', 'b'), clean('a', 'b', 'c'))
    const snap = await snapshot(s.read)
    expect(snap.items).toEqual(rows('a', 'b', 'c'))
    expect([...(snap.proven ?? [])].sort()).toEqual(['a', 'b', 'c'])
    expect(snap.reads).toBe(2)
  })

  it('reads that each show a row twice and agree with each other prove nothing, however many', async () => {
    const s = scripted(shifted('a', 'b'))
    const snap = await snapshot(s.read)
    expect(snap.proven).toBeUndefined()
    expect(snap.reads).toBe(MAX_READS)
    expect(s.made()).toBe(MAX_READS)
    expect(snap.doubt).toBe('a row twice')
  })

  it('one shifted read between clean ones: the clean pair after it proves', async () => {
    const s = scripted(clean('a', 'b'), shifted('a'), clean('a', 'b'), clean('a', 'b'))
    const snap = await snapshot(s.read)
    expect(snap.proven).toBeDefined()
    expect(snap.reads).toBe(4)
  })

  it('clean reads that keep losing ids never agree: unproven after MAX_READS, the doubt named', async () => {
    const s = scripted(clean('a', 'b', 'c', 'd'), clean('b', 'c', 'd'), clean('c', 'd'), clean('d'))
    const snap = await snapshot(s.read)
    expect(snap.proven).toBeUndefined()
    expect(snap.items).toEqual(rows('d'))
    expect(snap.doubt).toMatch(/rows vanished between every two of the 4 reads/)
  })
})

describe('lookUp: what is sought found needs no proof; a miss needs the proof of absence', () => {
  const hasShop = (items: Ranked[]) => items.some(r => r.id === 'shop')

  it('found in the first read: one read, no proof of absence', async () => {
    const s = scripted(shifted('a', 'shop'))
    const look = await lookUp(s.read, hasShop)
    expect(look.reads).toBe(1)
    expect(look.proven).toBeUndefined()
    expect(look.items).toEqual(rows('a', 'shop'))
  })

  it('found by a later read, shifted or not: that read is used (a shifted read repeats rows, it never invents one)', async () => {
    const s = scripted(shifted('a', 'a'), shifted('a', 'shop'))
    const look = await lookUp(s.read, hasShop)
    expect(look.reads).toBe(2)
    expect(hasShop(look.items)).toBe(true)
  })

  it('missed by two clean reads that agree: absent, proven', async () => {
    const look = await lookUp(scripted(clean('a'), clean('a', 'b')).read, hasShop)
    expect(look.proven).toBeDefined()
    expect(look.reads).toBe(2)
  })

  it('missed by reads that each showed a row twice (a list sorted by recent activity): not proven', async () => {
    const look = await lookUp(scripted(shifted('a', 'b')).read, hasShop)
    expect(look.proven).toBeUndefined()
    expect(look.doubt).toBe('a row twice')
  })
})

describe('wholeList: a fleet acts on a proven list or on nothing', () => {
  it('a proven list is returned', async () => {
    expect(await wholeList(scripted(clean('a'), clean('a')).read, 'name-prefix "x"', 'nothing was paused')).toEqual(
      rows('a')
    )
  })

  it('a list that shifted in every read is an error naming the prefix, the doubt and what was not done', async () => {
    await expect(wholeList(scripted(shifted('a')).read, 'name-prefix "shop-"', 'nothing was paused')).rejects.toThrow(
      /^name-prefix "shop-": the list could not be read whole in 4 reads \(a row twice\), so a member may be missing from it; nothing was paused/
    )
  })
})

describe('steadyRead: the first read that did not shift', () => {
  it('re-reads a shifted read, at most MAX_READS in all', async () => {
    const s = scripted(shifted('a'), clean('a', 'b'))
    expect(await steadyRead(s.read)).toEqual(clean('a', 'b'))
    const always = scripted(shifted('a'))
    expect((await steadyRead(always.read)).shift).toBe('a row twice')
    expect(always.made()).toBe(MAX_READS)
  })
})

describe('convergence removes only what a proven read before the create did not hold', () => {
  const converge = async (
    mine: Ranked,
    listed: Ranked[],
    before: string[] | undefined,
    look: (items: Named[]) => ListRead<Named> = items => ({ items })
  ) => {
    const removed: string[] = []
    const [result] = await convergeCreated<Named>([{ ...mine, name: 'x' }], {
      read: async () => look(listed.filter(i => !removed.includes(i.id)).map(i => ({ ...i, name: 'x' }))),
      nameOf: i => i.name,
      kindOf: () => 'k',
      remove: async duplicate => void removed.push(duplicate.id),
      sleep: async () => {},
      settleMs: 0,
      log: silentLogger,
      what: 'check',
      before: before === undefined ? undefined : new Set(before)
    })
    return { ...result, removedIds: removed }
  }

  it('every same-named one absent from the proven read was made during the step: the first in order stays', async () => {
    const mine = await converge({ id: 'chk_a' }, rows('chk_a', 'chk_z', 'chk_m'), ['chk_other'])
    expect(mine.survivor.id).toBe('chk_a')
    expect(mine.removedIds.sort()).toEqual(['chk_m', 'chk_z'])
    const theirs = await converge({ id: 'chk_z' }, rows('chk_a', 'chk_z'), [])
    expect(theirs.survivor.id).toBe('chk_a')
    expect(theirs.removedIds).toEqual(['chk_z'])
  })

  it('with createdAt the earliest of the new ones survives, whatever its id', async () => {
    const early = { id: 'chk_z', createdAt: '2026-11-25T10:00:00Z' }
    const mine = { id: 'chk_a', createdAt: '2026-11-25T10:00:01Z' }
    const r = await converge(mine, [early, mine], [])
    expect(r.survivor.id).toBe('chk_z')
    expect(r.removedIds).toEqual(['chk_a'])
  })

  it('the same whole-second createdAt proves neither older: the smallest id survives, whatever the list order', async () => {
    const at = '2026-11-25T10:00:00Z'
    // Two racing runs, each seeing both new ones (in either order): both keep chk_a, so one is left, not none.
    for (const listed of [
      [
        { id: 'chk_b', createdAt: at },
        { id: 'chk_a', createdAt: at }
      ],
      [
        { id: 'chk_a', createdAt: at },
        { id: 'chk_b', createdAt: at }
      ]
    ]) {
      for (const mine of listed) {
        const r = await converge(mine, listed, [])
        expect(r.survivor.id).toBe('chk_a')
        expect(r.removedIds).toEqual(['chk_b'])
      }
    }
  })

  it('one the proven read held is never removed, whatever its id or createdAt', async () => {
    const old = { id: 'chk_0', createdAt: '2026-11-25T10:00:05Z' }
    const r = await converge({ id: 'chk_a', createdAt: '2026-11-25T10:00:01Z' }, [old, { id: 'chk_a' }], ['chk_0'])
    expect(r.removedIds).toEqual([])
    expect(r.kept.map(k => k.id)).toEqual(['chk_0'])
  })

  it('reads that proved nothing before the create: nothing is removed, the others named, ours used', async () => {
    const r = await converge({ id: 'chk_b' }, rows('chk_a', 'chk_b'), undefined)
    expect(r.removedIds).toEqual([])
    expect(r.survivor.id).toBe('chk_b')
    expect(r.kept.map(k => k.id)).toEqual(['chk_a'])
  })

  it('a look after the create that shifted decides nothing: nothing is removed on it', async () => {
    const r = await converge({ id: 'chk_b' }, rows('chk_a', 'chk_b'), [], items => ({ items, shift: 'twice' }))
    expect(r.removedIds).toEqual([])
    expect(r.survivor.id).toBe('chk_b')
  })
})
