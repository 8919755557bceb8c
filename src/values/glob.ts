/**
 * Whole-name glob patterns (`name-pattern`, `exclude`): a pattern matches a
 * name when it matches all of it. `*` is any run of characters, `/` included
 * (a check's name is one name, not a path); `?` is one character; `[abc]`,
 * `[a-z]` and `[!a]` (or `[^a]`) are one character of a class, `]` first in it
 * and `-` first or last taken as themselves; `\` makes the next character
 * itself. Case counts, as in the service's names. A character is a code point,
 * so `?` matches one emoji.
 *
 * A pattern is cut at its stars into pieces of one character each (a literal,
 * `?` or a class). The first piece is matched at the name's start and the last
 * at its end; each piece between is taken at its leftmost place after the one
 * before, which is right because the star before it could take any run of
 * characters. No piece is ever tried again: a match takes at most the name's
 * length times the pattern's steps, never the time a backtracking matcher
 * spends on `*a*a*a*b` against a long run of `a` (the name's length to the
 * power of the stars).
 */
import { ValueError, parseList, quote } from './parse.js'

/** One character of a pattern: itself, any (`?`), or one of a class. */
type Piece = { is: number } | { any: true } | { ranges: Array<[number, number]>; negated: boolean }

export interface Glob {
  /** The pattern as written. */
  source: string
  /** Does it match the whole of `name`? */
  matches: (name: string) => boolean
  /** Its literal characters (escapes resolved; wildcards and classes left out): what the nearest names are measured from. */
  literal: string
}

const STAR = Symbol('star')

/** Read a pattern; a malformed one (an unclosed `[`, a lone `\` at the end, a range such as `z-a`) is a ValueError. */
export function compileGlob(source: string): Glob {
  const chars = Array.from(source, c => c.codePointAt(0) as number)
  const tokens: Array<Piece | typeof STAR> = []
  let literal = ''
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]
    if (c === 0x5c /* \ */) {
      if (i + 1 >= chars.length) throw new ValueError('ends with a lone \\ (write \\\\ for a backslash)')
      tokens.push({ is: chars[++i] })
      literal += String.fromCodePoint(chars[i])
    } else if (c === 0x2a /* * */) {
      // Stars in a row are one: the empty run between them matches where it stands.
      tokens.push(STAR)
    } else if (c === 0x3f /* ? */) {
      tokens.push({ any: true })
    } else if (c === 0x5b /* [ */) {
      const { piece, end } = classAt(chars, i)
      tokens.push(piece)
      i = end
    } else {
      tokens.push({ is: c })
      literal += String.fromCodePoint(c)
    }
  }
  const pieces: Piece[][] = [[]]
  for (const token of tokens) {
    if (token === STAR) pieces.push([])
    else pieces[pieces.length - 1].push(token)
  }
  return {
    source,
    literal,
    matches: name =>
      matchPieces(
        pieces,
        Array.from(name, c => c.codePointAt(0) as number)
      )
  }
}

/** The class that opens at `start` (a `[`): its piece and where its `]` is. */
function classAt(chars: number[], start: number): { piece: Piece; end: number } {
  let i = start + 1
  const negated = chars[i] === 0x21 /* ! */ || chars[i] === 0x5e /* ^ */
  if (negated) i++
  const ranges: Array<[number, number]> = []
  const unclosed = () =>
    new ValueError(`has a [ (character ${start + 1}) that is never closed by a ] (write \\[ for a [ itself)`)
  /**
   * The character at `at`, an escape resolved: [its code point, the index
   * after it]. Past the pattern's end (`[a\`, `[a-`) what it reads is no
   * character, and the index after it is past the end too: the loop's next
   * turn finds the class unclosed, its one check for that.
   */
  const charAt = (at: number): [number, number] => (chars[at] === 0x5c ? [chars[at + 1], at + 2] : [chars[at], at + 1])
  for (let first = true; ; first = false) {
    if (i >= chars.length) throw unclosed()
    if (chars[i] === 0x5d /* ] */ && !first) return { piece: { ranges, negated }, end: i }
    const [low, next] = charAt(i)
    // A `-` between two characters makes a range; first or last in the class it is itself.
    if (chars[next] === 0x2d /* - */ && chars[next + 1] !== 0x5d) {
      const [high, after] = charAt(next + 1)
      if (high < low) {
        const [from, to] = [low, high].map(c => JSON.stringify(String.fromCodePoint(c)))
        throw new ValueError(`has an empty range, ${from} to ${to} (write a range low to high)`)
      }
      ranges.push([low, high])
      i = after
    } else {
      ranges.push([low, low])
      i = next
    }
  }
}

function pieceMatches(piece: Piece, c: number): boolean {
  if ('is' in piece) return piece.is === c
  if ('any' in piece) return true
  return piece.ranges.some(([low, high]) => low <= c && c <= high) !== piece.negated
}

/** Does `run` match the name's characters from `at` on, one piece a character? */
function runAt(run: Piece[], name: number[], at: number): boolean {
  for (let k = 0; k < run.length; k++) if (!pieceMatches(run[k], name[at + k])) return false
  return true
}

/** The pieces between stars against a whole name: first at the start, last at the end, each between leftmost. */
function matchPieces(pieces: Piece[][], name: number[]): boolean {
  const first = pieces[0]
  if (pieces.length === 1) return first.length === name.length && runAt(first, name, 0)
  const last = pieces[pieces.length - 1]
  const lastAt = name.length - last.length
  if (lastAt < first.length || !runAt(first, name, 0) || !runAt(last, name, lastAt)) return false
  let from = first.length
  for (const run of pieces.slice(1, -1)) {
    for (let at = from; ; at++) {
      if (at + run.length > lastAt) return false
      if (runAt(run, name, at)) {
        from = at + run.length
        break
      }
    }
  }
  return true
}

/**
 * A list of patterns as an input gives them (one per line, or separated by
 * commas), each read: the first malformed one is a ValueError naming it.
 */
export function parsePatterns(value: string): string[] {
  const patterns = parseList(value)
  if (patterns.length === 0) throw new ValueError('holds no pattern (one per line, or separated by commas)')
  const byComma = !/[\r\n]/.test(value) && patterns.length > 1
  for (const pattern of patterns) {
    try {
      compileGlob(pattern)
    } catch (error) {
      const cut = byComma ? '; the list was cut at its commas: to keep a comma in a pattern, write one per line' : ''
      throw new ValueError(`holds ${quote(pattern)}, which ${(error as Error).message}${cut}`)
    }
  }
  return patterns
}
