/**
 * The version 4 rule "a miss is confirmed before anything is created", at
 * the lowest level: when two full reads agree, how many reads are made, and
 * what convergence does after a confirmed miss (exactly one, the smallest id)
 * and after reads that never agreed (the v3 rule: keep what is not proven).
 */
import { describe, expect, it } from '@jest/globals'
import { silentLogger } from '../../src/api/types.js'
import { Ranked, confirmMiss, convergeCreated, readsAgree } from '../../src/operations/converge.js'

const rows = (...ids: string[]): Ranked[] => ids.map(id => ({ id }))

describe('two full reads agree when no id the earlier one showed is missing from the later one', () => {
  it('the same ids, or only new ones (creates, a row the earlier read skipped): they agree', () => {
    expect(readsAgree(rows('a', 'b'), rows('b', 'a'))).toBe(true)
    expect(readsAgree(rows('a', 'b'), rows('a', 'b', 'c'))).toBe(true)
  })

  it('an id that vanished (deleted while reading: what makes an offset page skip a row): they do not', () => {
    expect(readsAgree(rows('a', 'b', 'c'), rows('a', 'c'))).toBe(false)
  })
})

describe('confirmMiss reads the whole collection again, at most three reads in all', () => {
  const scripted = (...reads: Ranked[][]) => {
    let made = 0
    return { read: async () => reads[made++] ?? [], made: () => made }
  }
  const none = () => false

  it('a second read that agrees confirms the miss (two reads)', async () => {
    const s = scripted(rows('a', 'b'))
    expect(await confirmMiss(rows('a', 'b'), s.read, none)).toEqual({ list: rows('a', 'b'), agreed: true, reads: 2 })
    expect(s.made()).toBe(1)
  })

  it('a second read that finds the name stops there: it is used, nothing is created', async () => {
    const s = scripted(rows('b', 'shop'))
    const read = await confirmMiss(rows('a', 'b'), s.read, list => list.some(r => r.id === 'shop'))
    expect(read.list).toEqual(rows('b', 'shop'))
    expect(s.made()).toBe(1)
  })

  it('a second read that lost an id is checked by a third; agreeing, the miss is confirmed', async () => {
    const s = scripted(rows('a', 'c'), rows('a', 'c', 'd'))
    expect(await confirmMiss(rows('a', 'b', 'c'), s.read, none)).toEqual({
      list: rows('a', 'c', 'd'),
      agreed: true,
      reads: 3
    })
  })

  it('reads that keep losing ids never agree: after three, the miss is not confirmed', async () => {
    const s = scripted(rows('b', 'c'), rows('c'), rows())
    const read = await confirmMiss(rows('a', 'b', 'c'), s.read, none)
    expect(read).toEqual({ list: rows('c'), agreed: false, reads: 3 })
    expect(s.made()).toBe(2)
  })
})

describe('convergence after a confirmed miss keeps exactly one, the smallest id', () => {
  const converge = async (mine: Ranked, listed: Ranked[], options: { confirmed: boolean; recovered?: string[] }) => {
    const removed: string[] = []
    const [result] = await convergeCreated([{ ...mine, name: 'x' }], {
      list: async () => listed.filter(i => !removed.includes(i.id)).map(i => ({ ...i, name: 'x' })),
      nameOf: i => (i as Ranked & { name: string }).name,
      kindOf: () => 'k',
      remove: async duplicate => void removed.push(duplicate.id),
      sleep: async () => {},
      settleMs: 0,
      log: silentLogger,
      what: 'check',
      confirmed: options.confirmed,
      recovered: new Set(options.recovered ?? [])
    })
    return { ...result, removedIds: removed }
  }

  it('without createdAt: the smallest id stays, every other is removed (each was made during the step)', async () => {
    const mine = await converge({ id: 'chk_a' }, rows('chk_a', 'chk_z', 'chk_m'), { confirmed: true })
    expect(mine.survivor.id).toBe('chk_a')
    expect(mine.removedIds.sort()).toEqual(['chk_m', 'chk_z'])
    expect(mine.kept).toEqual([])
    const theirs = await converge({ id: 'chk_z' }, rows('chk_a', 'chk_z'), { confirmed: true })
    expect(theirs.survivor.id).toBe('chk_a')
    expect(theirs.removedIds).toEqual(['chk_z'])
  })

  it('with createdAt the earliest survives, whatever its id: a check made before the step (hidden from both reads) is never removed', async () => {
    const early = { id: 'chk_z', createdAt: '2025-01-01T00:00:00Z' }
    const mine = { id: 'chk_a', createdAt: '2026-11-25T10:00:01Z' }
    const r = await converge(mine, [early, mine], { confirmed: true })
    expect(r.survivor.id).toBe('chk_z')
    expect(r.removedIds).toEqual(['chk_a'])
    // every run computes the same: one whose own create was the early one keeps it too
    const other = await converge(early, [early, mine], { confirmed: true })
    expect(other.survivor.id).toBe('chk_z')
  })

  it('a create found only by looking after an ambiguous failure converges too', async () => {
    const r = await converge({ id: 'chk_b' }, rows('chk_a', 'chk_b'), { confirmed: true, recovered: ['chk_b'] })
    expect(r.survivor.id).toBe('chk_a')
    expect(r.removedIds).toEqual(['chk_b'])
  })

  it('reads that never agreed: the v3 rule, an unprovable one is kept and named, never removed', async () => {
    const r = await converge({ id: 'chk_a' }, rows('chk_a', 'chk_z'), { confirmed: false })
    expect(r.removedIds).toEqual([])
    expect(r.kept.map(k => k.id)).toEqual(['chk_z'])
  })
})
