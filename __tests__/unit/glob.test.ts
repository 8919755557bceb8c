/**
 * Whole-name glob patterns (src/values/glob.ts) at their edges: `*` across
 * `/`, `?`, classes, ranges, `[!a]`, escapes, case, a trailing `\`, the empty
 * pattern, malformed patterns; a pattern that would make a backtracking
 * matcher take exponential time; and, against picomatch as the oracle, random
 * patterns and names agree.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { createRequire } from 'node:module'
import { compileGlob, parsePatterns } from '../../src/values/glob.js'

const matches = (pattern: string, name: string) => compileGlob(pattern).matches(name)
const problem = (pattern: string) => {
  try {
    compileGlob(pattern)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

describe('a pattern matches the whole name', () => {
  it('`*` is any run of characters, `/` included, and none', () => {
    expect(matches('shop-*', 'shop-eu/web')).toBe(true)
    expect(matches('*/web', 'shop/eu/web')).toBe(true)
    expect(matches('shop-*', 'shop-')).toBe(true)
    expect(matches('*', '')).toBe(true)
    expect(matches('a*b*c', 'abc')).toBe(true)
    expect(matches('a*b*c', 'ac')).toBe(false)
    expect(matches('a*a', 'a')).toBe(false)
    expect(matches('*-web', 'shop-web-old')).toBe(false)
    expect(matches('**', 'x/y')).toBe(true)
    // Each run between stars is found after the one before it, never overlapping it.
    expect(matches('*ab*ab*', 'ab')).toBe(false)
    expect(matches('*ab*ab*', 'aba')).toBe(false)
    expect(matches('*ab*ab*', 'abab')).toBe(true)
    expect(matches('x*ab*ab*y', 'xaby')).toBe(false)
  })

  it('a pattern without a star matches only the whole name: not a prefix, not inside', () => {
    expect(matches('shop', 'shop')).toBe(true)
    expect(matches('shop', 'shop-a')).toBe(false)
    expect(matches('shop', 'my-shop')).toBe(false)
  })

  it('the empty pattern matches only the empty name', () => {
    expect(matches('', '')).toBe(true)
    expect(matches('', 'a')).toBe(false)
  })

  it('`?` is exactly one character, `/` and an emoji included', () => {
    expect(matches('a?c', 'a/c')).toBe(true)
    expect(matches('a?c', 'ac')).toBe(false)
    expect(matches('a?c', 'abbc')).toBe(false)
    expect(matches('?', '😀')).toBe(true)
    expect(matches('??', '😀')).toBe(false)
  })

  it('classes: a set, a range, negated with ! or ^, ] first and - at an end as themselves', () => {
    expect(matches('shop-[ue][us]-web', 'shop-eu-web')).toBe(true)
    expect(matches('shop-[ue][us]-web', 'shop-ap-web')).toBe(false)
    expect(matches('v[0-9]', 'v7')).toBe(true)
    expect(matches('v[0-9]', 'vx')).toBe(false)
    expect(matches('[!a]x', 'bx')).toBe(true)
    expect(matches('[!a]x', 'ax')).toBe(false)
    expect(matches('[^a]x', 'ax')).toBe(false)
    expect(matches('[!a]', '/')).toBe(true)
    expect(matches('[]a]', ']')).toBe(true)
    expect(matches('[!]]', ']')).toBe(false)
    expect(matches('[a-]', '-')).toBe(true)
    expect(matches('[-a]', '-')).toBe(true)
    expect(matches('[a-c-e]', '-')).toBe(true)
    expect(matches('[a-c-e]', 'd')).toBe(false)
    expect(matches('[\\]]', ']')).toBe(true)
    expect(matches('[a\\-z]', 'b')).toBe(false)
  })

  it('`\\` makes the next character itself', () => {
    expect(matches('\\*', '*')).toBe(true)
    expect(matches('\\*', 'a')).toBe(false)
    expect(matches('a\\?', 'a?')).toBe(true)
    expect(matches('a\\?', 'ab')).toBe(false)
    expect(matches('\\[x]', '[x]')).toBe(true)
    expect(matches('\\\\', '\\')).toBe(true)
  })

  it('case counts', () => {
    expect(matches('Shop-*', 'shop-a')).toBe(false)
    expect(matches('shop-*', 'SHOP-a')).toBe(false)
    expect(matches('[A-Z]*', 'shop')).toBe(false)
    expect(matches('[a-z]*', 'shop')).toBe(true)
  })

  it('a run between stars may end exactly where the last one starts, not past it', () => {
    expect(matches('*b*c', 'bc')).toBe(true)
    expect(matches('a*b*c', 'abc')).toBe(true)
    expect(matches('a*bc*c', 'abcc')).toBe(true)
    expect(matches('a*bc*c', 'abc')).toBe(false)
    expect(matches('a*?*c', 'ac')).toBe(false)
    expect(matches('a*?*c', 'axc')).toBe(true)
    expect(matches('a***b', 'ab')).toBe(true)
    expect(matches('a**?**b', 'ab')).toBe(false)
  })

  it('hostile names are matched as text', () => {
    expect(matches('*::error::*', 'x\n::error::boom')).toBe(true)
    expect(matches('a|b', 'a|b')).toBe(true)
    expect(matches('<img*>', '<img src=x onerror=alert(1)>')).toBe(true)
  })
})

describe('a malformed pattern is a problem named before any request', () => {
  it('an unclosed [, a lone \\ at the end, an empty range', () => {
    expect(problem('shop-[eu')).toBe('has a [ (character 6) that is never closed by a ] (write \\[ for a [ itself)')
    expect(problem('[]')).toMatch(/never closed/)
    expect(problem('[!]')).toMatch(/never closed/)
    expect(problem('[a\\]')).toMatch(/never closed/)
    expect(problem('shop\\')).toBe('ends with a lone \\ (write \\\\ for a backslash)')
    expect(problem('[z-a]')).toBe('has an empty range, "z" to "a" (write a range low to high)')
    expect(problem('a]')).toBeUndefined()
  })

  it('parsePatterns reads a list and names the pattern that is malformed', () => {
    expect(parsePatterns('shop-*, blog-?')).toEqual(['shop-*', 'blog-?'])
    expect(parsePatterns('shop-[a,b]\nblog')).toEqual(['shop-[a,b]', 'blog'])
    expect(() => parsePatterns(' , ,')).toThrow('holds no pattern (one per line, or separated by commas)')
    expect(() => parsePatterns('ok\nshop-[eu')).toThrow(/^holds "shop-\[eu", which has a \[ \(character 6\)/)
    // On one line the list is cut at its commas: a class that held one is said to be cut.
    expect(() => parsePatterns('shop-[a,b]')).toThrow(/the list was cut at its commas/)
    // One pattern, or a list one per line: nothing was cut, and the message does not say it was.
    expect(() => parsePatterns('shop-[eu')).toThrow(
      'holds "shop-[eu", which has a [ (character 6) that is never closed by a ] (write \\[ for a [ itself)'
    )
    expect(() => parsePatterns('ok\nshop-[eu')).toThrow(
      'holds "shop-[eu", which has a [ (character 6) that is never closed by a ] (write \\[ for a [ itself)'
    )
    expect(() => parsePatterns('ok\r\nshop-[a,b')).not.toThrow(/cut at its commas/)
  })

  it('the whole message: the commas note only when one line was cut into several patterns', () => {
    const thrown = (value: string) => {
      try {
        parsePatterns(value)
      } catch (error) {
        return (error as Error).message
      }
      return undefined
    }
    const unclosed = 'has a [ (character 6) that is never closed by a ] (write \\[ for a [ itself)'
    expect(thrown('shop-[a,b]')).toBe(
      `holds "shop-[a", which ${unclosed}; the list was cut at its commas: to keep a comma in a pattern, write one per line`
    )
    expect(thrown('shop-[eu')).toBe(`holds "shop-[eu", which ${unclosed}`)
    expect(thrown('shop-[eu,')).toBe(`holds "shop-[eu", which ${unclosed}`)
    expect(thrown('ok\nshop-[a,b')).toBe(`holds "shop-[a,b", which ${unclosed}`)
  })

  it('a class that runs to the end of the pattern is unclosed, however it ends', () => {
    for (const pattern of ['[', '[a', '[a-', '[a\\', '[a-\\', '[\\', '[!', '[a-z', '[\\]', '[!\\]'])
      expect(problem(pattern)).toBe('has a [ (character 1) that is never closed by a ] (write \\[ for a [ itself)')
    // A `-` first or last in a class is itself; an escaped `]` closes nothing; `]` first is a member.
    expect(matches('[a-]', '-')).toBe(true)
    expect(matches('[-a]', '-')).toBe(true)
    expect(matches('[a\\-c]', 'b')).toBe(false)
    expect(matches('[]a]', ']')).toBe(true)
    expect(matches('[\\]-a]', '^')).toBe(true)
    expect(problem('[a-\\]]')).toBe('has an empty range, "a" to "]" (write a range low to high)')
  })
})

describe('a match never backtracks', () => {
  it('`*****a`, `*a*a*a*a*b` against a long name: far under a second', () => {
    const long = 'a'.repeat(200_000)
    const started = Date.now()
    expect(matches('*****a', long)).toBe(true)
    expect(matches('*****b', long)).toBe(false)
    expect(matches('*a*a*a*a*a*a*b', long)).toBe(false)
    expect(matches('*a?a*[ab]a*a*c*', `${long}c`)).toBe(true)
    expect(Date.now() - started).toBeLessThan(1000)
  })
})

/** picomatch, the oracle: whole names, `*` within one path segment (names here have no `/`). */
type Matcher = (name: string) => boolean
const picomatch = createRequire(import.meta.url)('picomatch') as (glob: string, options: object) => Matcher
const oracle = (pattern: string): Matcher =>
  picomatch(pattern, { dot: true, nobrace: true, noextglob: true, nonegate: true, noglobstar: true, posix: true })

/**
 * Names over a small alphabet, so that patterns match often; `/` stands in as `~` for the oracle. Not
 * empty, and no `.`: to picomatch, a path, `*` never matches "", "." or ".." (here it does).
 */
const ALPHABET = ['a', 'b', 'c', '-', '_', '/']
const name = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 10 }).map(cs => cs.join(''))
const letter = fc.constantFrom('a', 'b', 'c')
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ALPHABET) },
  { weight: 2, arbitrary: fc.constant('*') },
  { weight: 2, arbitrary: fc.constant('?') },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.boolean(), fc.array(fc.oneof(letter, fc.tuple(letter, letter)), { minLength: 1, maxLength: 3 }))
      .map(
        ([negated, items]) =>
          `[${negated ? '!' : ''}${items.map(i => (typeof i === 'string' ? i : [...i].sort().join('-'))).join('')}]`
      )
  },
  { weight: 1, arbitrary: fc.constantFrom('\\*', '\\?', '\\[', '\\a') }
)
const pattern = fc.array(piece, { minLength: 1, maxLength: 8 }).map(ps => ps.join(''))
const forOracle = (text: string) => text.replaceAll('/', '~')

describe('against picomatch', () => {
  it('random patterns and names agree (`/` read as an ordinary character)', () => {
    fc.assert(
      fc.property(pattern, fc.array(name, { minLength: 1, maxLength: 8 }), (p, names) => {
        const ours = compileGlob(p)
        const theirs = oracle(forOracle(p))
        for (const n of names) expect([p, n, ours.matches(n)]).toEqual([p, n, theirs(forOracle(n))])
      }),
      { numRuns: 2000 }
    )
  })

  it('a name a pattern matches, built from it, is matched', () => {
    // Each piece turned into a character it matches (a star into a run), so that matches are common too.
    fc.assert(
      fc.property(pattern, fc.array(fc.constantFrom(...ALPHABET), { maxLength: 3 }), (p, run) => {
        const n = p
          .replace(/\\(.)/g, '$1')
          .replace(/\[!?([^\]]*)\]/g, (_, items: string) => items[0])
          .replaceAll('?', 'a')
          .replaceAll('*', run.join(''))
        if (/\[!|\\/.test(p) || n === '') return
        expect([p, n, compileGlob(p).matches(n), oracle(forOracle(p))(forOracle(n))]).toEqual([p, n, true, true])
      }),
      { numRuns: 1000 }
    )
  })
})
