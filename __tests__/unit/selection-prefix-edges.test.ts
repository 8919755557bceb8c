/**
 * A fleet by name prefix, at its edges (src/operations/names/selection.ts): which
 * checks a prefix selects, what the error of a prefix that selects none
 * names (the count looked through, the nearest names), and the list it is
 * chosen from: a whole list read twice over HTTP from the emulator, or an
 * error that acts on nothing when the list moves between pages.
 */
import { describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import { type Meter, nearestNames } from '../../src/operations/names/nearest-names.js'
import {
  type Selection,
  fleetList,
  noMatch,
  selectFleet,
  selectionLines
} from '../../src/operations/names/selection.js'
import { OperationError } from '../../src/operations/types.js'
import { useEmulator } from '../helpers/harness.js'
import { contextOn } from '../helpers/operation-context.js'

const checks = (...names: unknown[]): Check[] => names.map((name, i) => ({ id: `chk_${i}`, name }) as Check)
const names = (list: Check[]) => list.map(c => c.name)
const prefixed = (prefix: string): Selection => ({ prefix, patterns: [], exclude: [] })
/** The checks a prefix alone selects. */
const byPrefix = (all: Check[], prefix: string) => selectFleet(all, prefixed(prefix)).matches
const prefixLine = (prefix: string, matches: Check[]) => selectionLines(prefixed(prefix), { matches, excluded: [] })[0]

describe('byPrefix: which checks a prefix selects', () => {
  it('a prefix equal to a whole name selects it; one a character longer does not', () => {
    const all = checks('shop', 'shop-a', 'sho')
    expect(names(byPrefix(all, 'shop'))).toEqual(['shop', 'shop-a'])
    expect(names(byPrefix(all, 'shop-a'))).toEqual(['shop-a'])
    expect(() => byPrefix(all, 'shop-ab')).toThrow(OperationError)
  })

  it('the name must start with it: a prefix found inside or at the end of a name selects nothing', () => {
    expect(() => byPrefix(checks('eu-shop-a', 'my-shop-'), 'shop-')).toThrow(
      /^no check name starts with name-prefix "shop-" \(looked through 2 checks; /
    )
  })

  it('case counts: "Shop-" selects neither "shop-a" nor "SHOP-b"', () => {
    const all = checks('shop-a', 'SHOP-b', 'Shop-c')
    expect(names(byPrefix(all, 'Shop-'))).toEqual(['Shop-c'])
  })

  it('an empty prefix selects every check; a check without a name only by it', () => {
    const all = checks('b', undefined, 'a', null)
    expect(byPrefix(all, '').map(c => c.id)).toEqual(['chk_0', 'chk_1', 'chk_2', 'chk_3'])
    expect(names(byPrefix(all, 'a'))).toEqual(['a'])
  })

  it('a name the service gives as a number is read as its text', () => {
    expect(byPrefix(checks(1234, 'x'), '12').map(c => c.id)).toEqual(['chk_0'])
  })

  it('same-named checks are all selected; an id listed twice once, at its first place', () => {
    const all: Check[] = [
      { id: 'b', name: 'shop-x' },
      { id: 'a', name: 'shop-x' },
      { id: 'b', name: 'shop-x' },
      { id: 'c', name: 'blog' }
    ] as Check[]
    expect(byPrefix(all, 'shop-').map(c => c.id)).toEqual(['b', 'a'])
  })

  it('an unsafe id is refused only among the matches: "", "." and ".." selected throw, one not selected does not', () => {
    for (const id of ['', '.', '..']) {
      expect(() =>
        byPrefix(
          [
            { id: 'ok', name: 'shop-a' },
            { id, name: 'shop-b' }
          ] as Check[],
          'shop-'
        )
      ).toThrow(`the server gave a resource the id ${JSON.stringify(id)}`)
      expect(
        byPrefix(
          [
            { id: 'ok', name: 'shop-a' },
            { id, name: 'blog' }
          ] as Check[],
          'shop-'
        )
      ).toHaveLength(1)
    }
    // An unsafe id is not mistaken for "nothing matched": its own error is thrown.
    expect(() => byPrefix([{ id: '..', name: 'shop-a' }] as Check[], 'shop-')).not.toThrow(OperationError)
  })
})

describe('noMatch: what a prefix that selects nothing says', () => {
  it('counts each check once, however often the list showed it', () => {
    const all = checks('blog', 'docs')
    expect(noMatch({ prefix: 'shop-', patterns: [] }, [...all, all[0], all[1], all[0]])).toBe(
      'no check name starts with name-prefix "shop-" (looked through 2 checks; the nearest names: "blog", "docs"); nothing was changed'
    )
  })

  it('checks without names: says none has a name, rather than suggesting nothing in silence', () => {
    expect(noMatch({ prefix: 'shop-', patterns: [] }, checks(undefined, '', null))).toBe(
      'no check name starts with name-prefix "shop-" (looked through 3 checks; no check has a name); nothing was changed'
    )
  })

  it('names the three nearest, nearest first, quoted as JSON', () => {
    const all = checks('zzzzzzz', 'shop-web', 'blog', 'sohp-api', 'shp-db', 'a"b')
    expect(noMatch({ prefix: 'shop-', patterns: [] }, all)).toBe(
      'no check name starts with name-prefix "shop-" (looked through 6 checks; the nearest names: "shop-web", "shp-db", "sohp-api"); nothing was changed'
    )
    expect(noMatch({ prefix: 'a"', patterns: [] }, checks('a"b'))).toContain('the nearest names: "a\\"b"')
  })

  it('the prefix itself is quoted as JSON', () => {
    expect(noMatch({ prefix: 'say "hi"', patterns: [] }, [])).toBe(
      'no check name starts with name-prefix "say \\"hi\\"" (looked through 0 checks); nothing was changed'
    )
  })
})

describe('nearestNames at its edges', () => {
  it('a limit of 0 or less asks for none', () => {
    expect(nearestNames('shop-', ['shop-a'], 0)).toEqual([])
    expect(nearestNames('shop-', ['shop-a'], -1)).toEqual([])
  })

  it('a name listed twice is suggested once, and fewer names than the limit are all given', () => {
    expect(nearestNames('shop-', ['shop-a', 'blog', 'shop-a'], 3)).toEqual(['shop-a', 'blog'])
    expect(nearestNames('shop-', [], 3)).toEqual([])
    expect(nearestNames('shop-', ['', ''], 3)).toEqual([])
  })

  it('as near: by name, in code-unit order (capitals first), the name shown as the service wrote it', () => {
    expect(nearestNames('x', ['b-1', 'B-2', 'a-3'], 3)).toEqual(['B-2', 'a-3', 'b-1'])
    expect(nearestNames('x', ['b-1', 'B-2', 'a-3'], 1)).toEqual(['B-2'])
  })

  it('a nearer name found late displaces a farther one kept; a farther one found late does not enter', () => {
    expect(nearestNames('shop-', ['zzzzz', 'yyyyy', 'shop-a'], 2)).toEqual(['shop-a', 'yyyyy'])
    expect(nearestNames('shop-', ['shop-a', 'shop-b', 'zzzzz'], 2)).toEqual(['shop-a', 'shop-b'])
    // As near as the farthest kept and before it by name: it enters, the other leaves.
    expect(nearestNames('shop-', ['shop-a', 'shop-c', 'shop-b'], 2)).toEqual(['shop-a', 'shop-b'])
    // As near and after it by name: it stays out.
    expect(nearestNames('shop-', ['shop-a', 'shop-b', 'shop-c'], 2)).toEqual(['shop-a', 'shop-b'])
  })

  it('a neighbour swap is one edit: "sohp-" is as near to "shop-" as a name one letter off', () => {
    expect(nearestNames('shop-', ['sxop-a', 'sohp-a', 'sxxp-a'], 2)).toEqual(['sohp-a', 'sxop-a'])
  })

  it('a name one character shorter or longer than the prefix at its start is as near as the prefix read whole', () => {
    // "shop" lacks the "-": one edit; "shxp-" one replace; "sh" three edits.
    expect(nearestNames('shop-', ['sh', 'shop', 'shxp-x'], 2)).toEqual(['shop', 'shxp-x'])
    // "shopp-": one insert at the start, then the rest matches.
    expect(nearestNames('shop-', ['shopp-web', 'shxy-web'], 1)).toEqual(['shopp-web'])
  })

  it('a prefix longer than 200 characters is compared by its first 200', () => {
    const prefix = `${'a'.repeat(200)}${'b'.repeat(50)}`
    // Both start with the 200 compared: as near, so by name ("a" before "b").
    expect(nearestNames(prefix, [`${'a'.repeat(200)}${'b'.repeat(50)}`, 'a'.repeat(250)], 1)).toEqual(['a'.repeat(250)])
  })
})

describe('nearestNames: the work once a name as near as can be is kept', () => {
  // A 100-character prefix; a name that starts with it exactly (no edit), then 1,000 names far from it.
  const prefix = 'q'.repeat(100)
  const exact = 'q'.repeat(101)
  const stepsOf = (names: string[], limit: number) => {
    const meter: Meter = { steps: 0 }
    const near = nearestNames(prefix, names, limit, meter)
    return { near, steps: meter.steps }
  }
  /** The steps the exact name alone takes (its whole table: nothing is kept yet to bound it). */
  const alone = () => stepsOf([exact], 1).steps

  it('asking for none does no work at all', () => {
    expect(stepsOf([exact, 'a', 'b'], 0)).toEqual({ near: [], steps: 0 })
  })

  it('a far name as long as the prefix costs its first row and one diagonal, not its table', () => {
    // They sort before the exact name, so each could still enter as near: each is measured, to its second row.
    const far = Array.from({ length: 1000 }, (_, i) => `a${i}`.padEnd(101, 'b'))
    const { near, steps } = stepsOf([exact, ...far], 1)
    expect(near).toEqual([exact])
    // A whole table each would be 100 rows of 101 cells; the band alone (no stop) 100 cells a name.
    expect(steps - alone()).toBeLessThanOrEqual(far.length * (prefix.length + 20))
  })

  it('a name after the kept one by name cannot displace it even as near: refused before any table', () => {
    // "r…" names sort after "q…": only a nearer one could enter, and none is nearer than no edit.
    const after = Array.from({ length: 1000 }, (_, i) => `r${i}`.padEnd(101, 'q'))
    const { near, steps } = stepsOf([exact, ...after], 1)
    expect(near).toEqual([exact])
    expect(steps - alone()).toBeLessThanOrEqual(after.length * 3)
  })

  it('a name far shorter than the prefix is refused by its length alone', () => {
    const short = Array.from({ length: 1000 }, (_, i) => `a${i}`)
    const { near, steps } = stepsOf([exact, ...short], 1)
    expect(near).toEqual([exact])
    expect(steps - alone()).toBeLessThanOrEqual(short.length * 3)
  })
})

describe('prefixLine', () => {
  it('says how many checks the prefix selected, from which list', () => {
    expect(prefixLine('shop-', checks('shop-a', 'shop-b'))).toBe(
      'name-prefix "shop-" selects 2 check(s), from the list read at the start.'
    )
  })
})

describe('fleetList: the list a fleet is chosen from, over HTTP', () => {
  const emulator = useEmulator({ rateLimit: false, pageSize: 2 })
  const seed = (...list: string[]) => list.map(name => emulator.seedCheck({ name, url: 'https://shop.example.com' }))
  const listReads = () => emulator.requests.filter(r => r.method === 'GET' && /^\/checks(\?|$)/.test(r.path)).length

  it('a steady list: two whole reads that agree, every check of it, and the pages of the later read', async () => {
    const seeded = seed('shop-a', 'blog', 'shop-b', 'docs', 'shop-c')
    const { ctx } = contextOn(emulator)
    const read = await fleetList(ctx, prefixed('shop-'))
    expect(read.items.map(c => c.id)).toEqual(seeded.map(c => c.id))
    expect(read.pages).toBe(3)
    expect(listReads()).toBe(6)
  })

  it('an empty service: an empty list, read twice (then no prefix matches)', async () => {
    const { ctx } = contextOn(emulator)
    const read = await fleetList(ctx, prefixed('shop-'))
    expect(read.items).toEqual([])
    expect(() => byPrefix(read.items, 'shop-')).toThrow('(looked through 0 checks)')
  })

  it('a read that missed a member (a row at the head deleted while it was paged) is not the one taken: the later read, which shows every row of it and more, is', async () => {
    const seeded = seed('shop-a', 'blog', 'shop-b', 'docs', 'shop-c')
    // The first read's pages 2 and 3 start a row late: "shop-b" is never shown, and it ends a page early.
    emulator.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 2 })
    const { ctx } = contextOn(emulator)
    const read = await fleetList(ctx, prefixed('shop-'))
    expect(names(byPrefix(read.items, 'shop-'))).toEqual(['shop-a', 'shop-b', 'shop-c'])
    expect(read.items).toHaveLength(seeded.length)
    expect(read.pages).toBe(3)
    expect(listReads()).toBe(2 + 3)
  })

  it('a list that moves between its pages at every read: an error naming the prefix, the doubt, and that nothing was acted on', async () => {
    seed('shop-a', 'blog', 'shop-b', 'docs', 'shop-c')
    emulator.inject({ method: 'GET', path: '/checks', shift: 'repeat', times: Infinity })
    const { ctx } = contextOn(emulator)
    const failure = fleetList(ctx, prefixed('shop-'))
    await expect(failure).rejects.toThrow(OperationError)
    await expect(failure).rejects.toThrow(
      /^name-prefix "shop-": the list could not be read whole in 4 reads \(.+\), so a member may be missing from it; nothing was acted on\. Run the step again when the service's list is steady\.$/
    )
  })

  it('in a dry run, the same doubt says nothing was planned', async () => {
    seed('shop-a', 'blog', 'shop-b', 'docs', 'shop-c')
    emulator.inject({ method: 'GET', path: '/checks', shift: 'reorder', times: Infinity })
    const { ctx } = contextOn(emulator, { dryRun: true })
    await expect(fleetList(ctx, prefixed('say "x"'))).rejects.toThrow(
      /^name-prefix "say \\"x\\"": the list could not be read whole .*; nothing was planned\./
    )
  })
})
