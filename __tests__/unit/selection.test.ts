import { describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import { parseConfig } from '../../src/inputs/read.js'
import { nearestNames } from '../../src/operations/names/nearest-names.js'
import {
  type Selection,
  chosenBy,
  namedChecks,
  narrowList,
  noMatch,
  selectFleet,
  selectionLines,
  selectionOf,
  selectionReported,
  withExcluded
} from '../../src/operations/names/selection.js'
import type { Config } from '../../src/run/config.js'
import { entryOf } from '../../src/operations/registry.js'

const checks = (...names: string[]): Check[] => names.map((name, i) => ({ id: `chk_${i}`, name }) as Check)
const byPrefix = (all: Check[], prefix: string) => selectFleet(all, { prefix, patterns: [], exclude: [] }).matches

describe('byPrefix', () => {
  it('selects every name that starts with the prefix, case counting, each id once, in list order', () => {
    const all = checks('pr-12-web', 'pr-123-web', 'PR-12-api', 'pr-12-api', 'blog')
    expect(byPrefix([...all, all[0]], 'pr-12-').map(c => c.name)).toEqual(['pr-12-web', 'pr-12-api'])
    // Without a separator at its end, a prefix also selects another pull request's checks.
    expect(byPrefix(all, 'pr-12').map(c => c.name)).toEqual(['pr-12-web', 'pr-123-web', 'pr-12-api'])
  })

  it('refuses a matching check whose id would address another path', () => {
    expect(() => byPrefix([{ id: '..', name: 'shop-a' } as Check], 'shop-')).toThrow(
      'the server gave a resource the id ".."'
    )
  })

  it('nothing matching is an error naming the prefix and the nearest names', () => {
    expect(() => byPrefix(checks('shop-home', 'blog'), 'shpo-')).toThrow(
      'no check name starts with name-prefix "shpo-" (looked through 2 checks; the nearest names: "shop-home", "blog"); nothing was changed'
    )
    expect(noMatch({ prefix: 'x-', patterns: [] }, [])).toBe(
      'no check name starts with name-prefix "x-" (looked through 0 checks); nothing was changed'
    )
  })

  it('a prefix and patterns that select nothing: the nearest of each in turn, each name once, three in all', () => {
    const all = checks('zza', 'zzb', 'zzc', 'qqa', 'qqb', 'qqc', 'mma')
    expect(noMatch({ prefix: 'zzz', patterns: ['qqq*'] }, all)).toBe(
      'no check name starts with name-prefix "zzz", and none matches name-pattern "qqq*" (looked through 7 checks; the nearest names: "zza", "qqa", "zzb"); nothing was changed'
    )
    expect(noMatch({ patterns: ['qqq*', 'mmm', 'zzz?'] }, all)).toBe(
      'no check name matches name-pattern "qqq*", "mmm", "zzz?" (looked through 7 checks; the nearest names: "qqa", "mma", "zza"); nothing was changed'
    )
    // The same nearest name for two patterns is named once; the next in turn takes its place.
    expect(noMatch({ patterns: ['qqa-x', 'qqa-y'] }, all)).toBe(
      'no check name matches name-pattern "qqa-x", "qqa-y" (looked through 7 checks; the nearest names: "qqa", "qqb", "qqc"); nothing was changed'
    )
    expect(noMatch({ patterns: ['qqa-x', 'qqa-y'] }, checks('qqa'))).toBe(
      'no check name matches name-pattern "qqa-x", "qqa-y" (looked through 1 checks; the nearest names: "qqa"); nothing was changed'
    )
  })
})

describe('nearestNames', () => {
  it('compares the prefix with the start of each name, case aside, nearest first, at most three', () => {
    expect(nearestNames('Shop-', ['blog', 'shop-b', 'shop-a', 'shap-x', 'zzzzz-q'])).toEqual([
      'shop-a',
      'shop-b',
      'shap-x'
    ])
    expect(nearestNames('pr-12-', ['pr-1-web', 'pr-13-api', 'staging'], 2)).toEqual(['pr-1-web', 'pr-13-api']) // one edit each: by name
  })

  it('handles names shorter than the prefix, empty names and a very long prefix', () => {
    expect(nearestNames('service-', ['svc', '', 'service'])).toEqual(['service', 'svc'])
    expect(nearestNames('a'.repeat(5000), ['a', 'b'])).toEqual(['a', 'b'])
  })
})

describe('the gate comment of a fleet', () => {
  const target = (inputs: Record<string, string>) => {
    const config = parseConfig({
      'api-key': 'k3y',
      'base-url': 'https://api.example.com/v1',
      operation: 'wait-for-check',
      ...inputs
    })
    return entryOf('wait-for-check').commentTarget?.(config)
  }

  it('is its own comment per prefix; without one, the target is as before', () => {
    expect(target({ 'check-name': 'a, b' })).toBe('a,b')
    expect(target({ 'name-prefix': 'shop-' })).toBe('prefix:shop-')
    expect(target({ 'name-prefix': 'shop-', 'check-name': 'a' })).toBe('a,prefix:shop-')
    expect(target({ 'name-prefix': 'blog-' })).not.toBe(target({ 'name-prefix': 'shop-' }))
    expect(target({ 'name-pattern': '*-web', exclude: 'us-*' })).toBe('pattern:*-web,exclude:us-*')
    expect(target({ 'name-pattern': '*-web' })).not.toBe(target({ 'name-pattern': '*-web', exclude: 'us-*' }))
  })
})

describe('selectFleet: patterns and exclude', () => {
  const select = (all: Check[], sel: Partial<Selection>) => selectFleet(all, { patterns: [], exclude: [], ...sel })
  const names = (list: Check[]) => list.map(c => c.name)

  it('the union of the prefix and the patterns, each id once, in list order; exclude leaves out, and says what', () => {
    const all = checks('shop-eu/web', 'blog', 'shop-us/web', 'api-1', 'shop-eu/web-old')
    const { matches, excluded } = select([...all, all[0]], {
      prefix: 'shop-',
      patterns: ['api-?', 'shop-*/web'],
      exclude: ['*-old', 'nothing-*']
    })
    expect(names(matches)).toEqual(['shop-eu/web', 'shop-us/web', 'api-1'])
    expect(names(excluded)).toEqual(['shop-eu/web-old'])
  })

  it('each pattern must match: those that do not are named with the prefix, and the nearest names of each', () => {
    const all = checks('shop-home', 'blog-post', 'api')
    expect(() => select(all, { patterns: ['shop-*', 'blgo-*'] })).toThrow(
      'no check name matches name-pattern "blgo-*" (looked through 3 checks; the nearest names: "blog-post", "shop-home", "api"); nothing was changed'
    )
    expect(() => select(all, { prefix: 'x-', patterns: ['y?', 'shop-*'] })).toThrow(
      /^no check name starts with name-prefix "x-", and none matches name-pattern "y\?" \(looked through 3 checks; the nearest names: /
    )
  })

  it('an unsafe id is refused among the targets only: an excluded one is never addressed', () => {
    const all = [
      { id: 'ok', name: 'shop-a' },
      { id: '..', name: 'shop-b' }
    ] as Check[]
    expect(() => select(all, { patterns: ['shop-*'] })).toThrow('the server gave a resource the id ".."')
    expect(names(select(all, { patterns: ['shop-*'], exclude: ['*-b'] }).matches)).toEqual(['shop-a'])
  })

  it('narrowList: a prefix alone narrows (none is an empty list); a pattern or exclude selects as a fleet does', () => {
    const all = checks('shop-a', 'shop-b')
    expect(narrowList(all, undefined).matches).toHaveLength(2)
    expect(narrowList(all, { prefix: 'blog-', patterns: [], exclude: [] }).matches).toEqual([])
    // A selection of nothing narrows nothing.
    expect(names(narrowList(all, { patterns: [], exclude: [] }).matches)).toEqual(['shop-a', 'shop-b'])
    expect(() => narrowList(all, { patterns: ['blog-*'], exclude: [] })).toThrow(/^no check name matches/)
    expect(() => narrowList(all, { prefix: 'shop-', patterns: [], exclude: ['*'] })).toThrow(
      /^exclude "\*" leaves out every check name-prefix "shop-" selects \(2: /
    )
  })
})

describe('selectionLines: what was selected, in a sentence', () => {
  const two = { matches: checks('a', 'b'), excluded: [] }
  it('one input selects (a prefix, or a list of patterns); a prefix and patterns together select', () => {
    const line = (sel: Partial<Selection>) => selectionLines({ patterns: [], exclude: [], ...sel }, two)[0]
    expect(line({ prefix: 'shop-' })).toBe('name-prefix "shop-" selects 2 check(s), from the list read at the start.')
    expect(line({ patterns: ['a', 'b*'] })).toBe(
      'name-pattern "a", "b*" selects 2 check(s), from the list read at the start.'
    )
    expect(line({ prefix: 'x', patterns: ['a'] })).toBe(
      'name-prefix "x" and name-pattern "a" select 2 check(s), from the list read at the start.'
    )
  })
})

describe('the selection the inputs make, and what it reports', () => {
  const config = (namePrefix: string | undefined, namePatterns: string[], exclude: string[] = []) =>
    ({ namePrefix, namePatterns, exclude }) as unknown as Config

  it('selectionOf: none without a prefix or a pattern; the prefix key only when there is one', () => {
    expect(selectionOf(config(undefined, []))).toBeUndefined()
    expect(selectionOf(config(undefined, [], ['x']))).toBeUndefined()
    expect(selectionOf(config('shop-', []))).toEqual({ prefix: 'shop-', patterns: [], exclude: [] })
    const patterned = selectionOf(config(undefined, ['a*'], ['b']))
    expect(patterned).toEqual({ patterns: ['a*'], exclude: ['b'] })
    expect(patterned !== undefined && 'prefix' in patterned).toBe(false)
    expect(selectionOf(config('', []))).toEqual({ prefix: '', patterns: [], exclude: [] })
  })

  it('narrowList: a prefix alone keeps the names that start with it (none is an empty list, not an error)', () => {
    const all = checks('shop-a', 'x-shop-', 'shop-b', 'Shop-c')
    expect(narrowList(all, { prefix: 'shop-', patterns: [], exclude: [] }).matches.map(c => c.name)).toEqual([
      'shop-a',
      'shop-b'
    ])
    expect(narrowList(all, { prefix: 'nothing', patterns: [], exclude: [] })).toEqual({ matches: [], excluded: [] })
    expect(narrowList(all, undefined)).toEqual({ matches: all, excluded: [] })
  })

  it('namedChecks: each name and id, then how many more past the limit', () => {
    const all = checks('a', 'b', 'c')
    expect(namedChecks(all)).toBe('"a" (chk_0), "b" (chk_1), "c" (chk_2)')
    expect(namedChecks(all, 2)).toBe('"a" (chk_0), "b" (chk_1) and 1 more')
    expect(namedChecks(all, 3)).toBe('"a" (chk_0), "b" (chk_1), "c" (chk_2)')
    expect(namedChecks([])).toBe('')
  })

  it('selectionLines says what exclude left out, or that it left out none', () => {
    const sel: Selection = { patterns: ['*'], exclude: ['*-old'] }
    const [a, b] = checks('shop', 'shop-old')
    expect(selectionLines(sel, { matches: [a], excluded: [b] })).toEqual([
      'name-pattern "*" selects 1 check(s), from the list read at the start.',
      'exclude "*-old" left out 1 check(s), never targets: "shop-old" (chk_1).'
    ])
    expect(selectionLines(sel, { matches: [a, b], excluded: [] })[1]).toBe('exclude "*-old" left out no check.')
    expect(selectionLines({ patterns: ['*'], exclude: [] }, { matches: [a], excluded: [] })).toHaveLength(1)
  })

  it('withExcluded and chosenBy: {targets, excluded} only with exclude; the words name it', () => {
    const [gone] = [{ id: 'chk_9', name: undefined } as unknown as Check]
    expect(withExcluded(['t'], undefined, [gone])).toEqual(['t'])
    expect(withExcluded(['t'], { patterns: ['*'], exclude: [] }, [])).toEqual(['t'])
    expect(withExcluded(['t'], { patterns: ['*'], exclude: ['x'] }, [gone])).toEqual({
      targets: ['t'],
      excluded: [{ id: 'chk_9', name: null }]
    })
    expect(chosenBy({ prefix: 'a', patterns: ['b'], exclude: [] })).toBe('name-prefix "a" and name-pattern "b"')
    expect(chosenBy({ patterns: ['b', 'c'], exclude: ['d', 'e'] })).toBe('name-pattern "b", "c" but exclude "d", "e"')
  })

  it('selectionReported puts the selection lines first and wraps result; without a selection, the report as it is', () => {
    const reported = { outputs: { result: ['r'] }, summary: { title: 'T', lines: ['l'], tables: [] } }
    expect(selectionReported(reported, { selectionLines: ['s'], excluded: [] })).toBe(reported)
    const [gone] = checks('old')
    const wrapped = selectionReported(reported, {
      selection: { patterns: ['*'], exclude: ['old'] },
      selectionLines: ['s1', 's2'],
      excluded: [gone]
    })
    expect(wrapped.summary.lines).toEqual(['s1', 's2', 'l'])
    expect(wrapped.outputs.result).toEqual({ targets: ['r'], excluded: [{ id: 'chk_0', name: 'old' }] })
  })
})
