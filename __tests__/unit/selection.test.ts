import { describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import { parseConfig } from '../../src/inputs/read.js'
import { nearestNames } from '../../src/operations/names/nearest-names.js'
import {
  type Selection,
  narrowList,
  noMatch,
  selectFleet,
  selectionLines
} from '../../src/operations/names/selection.js'
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
