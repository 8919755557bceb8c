/**
 * A URL is read one way: where its userinfo stands, as the URL parser the
 * action uses (WHATWG URL, Node's `URL`) reads it, so that every form that
 * parser accepts with a user name or password is found: `https://u:p@h`,
 * and also `https:/u:p@h`, `https:///u:p@h`, `https:\\u:p@h`, `http:u:p@h`,
 * in any case of the scheme. secret-positions.ts asks here; a property test
 * holds this reading against `new URL` (__tests__/unit/url-forms.test.ts).
 */

/**
 * The schemes the URL parser reads as special (WHATWG URL, Node's `URL`): after
 * `scheme:` any run of `/` and `\` leads to the authority, and `\` ends it
 * as `/` does, so `https:/u:p@h`, `https:\\u:p@h` and `http:u:p@h` hold a
 * userinfo. Another scheme has an authority only after `//`. (`file:` has
 * none the parser accepts with credentials.)
 */
const SPECIAL = new Set(['http', 'https', 'ws', 'wss', 'ftp'])
/** A scheme at a word's start, any case; at most 32 characters, so linear on long text. */
const SCHEME = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,31}):/g

/** How a text is read: what ends a value besides the grammar's own delimiters, and whether it is one value. */
export interface TextKind {
  /** A character class's contents: a blank, a quote. */
  stop: string
  /** A string of a structured value (a check's `url`): a URL with nothing but blanks before it is the whole value. */
  wholeValue: boolean
}

/**
 * The userinfos of `value` as the URL parser reads them, [start, end): from
 * the authority's start to the last `@` before the authority ends (`/`, `?`,
 * `#`, and `\` after a special scheme). A whole value is one URL to the
 * parser, which takes blanks into the userinfo; elsewhere a `\` or a
 * character of the kind's `stop` ends it too. Linear in `value`: a later start inside an
 * authority already scanned shares its end.
 */
export function userinfoRanges(value: string, kind: TextKind): Array<[start: number, end: number]> {
  const ranges: Array<[number, number]> = []
  const stops = new RegExp(`[/?#\\\\${kind.stop}]`, 'g')
  // The authority last scanned ends at `end`, its last @ at `lastAt`: a later start before `end` shares both.
  let end = 0
  let lastAt = 0
  const first = value.search(/\S/)
  for (const m of value.matchAll(SCHEME)) {
    let start = (m.index ?? 0) + m[0].length
    const special = SPECIAL.has(m[1].toLowerCase())
    if (special) while (value[start] === '/' || value[start] === '\\') start++
    else if (value.startsWith('//', start)) start += 2
    else continue
    if (start >= end) {
      const whole = kind.wholeValue && m.index === first
      end = whole ? authorityEnd(value, start, special) : firstStop(value, start, stops)
      lastAt = start + value.slice(start, end).lastIndexOf('@')
    }
    if (lastAt > start) ranges.push([start, lastAt])
  }
  return ranges
}

/** Where the parser ends an authority that starts at `start`: `/`, `?`, `#`, or `\` after a special scheme. */
function authorityEnd(value: string, start: number, special: boolean): number {
  const end = value.slice(start).search(special ? /[/?#\\]/ : /[/?#]/)
  return end < 0 ? value.length : start + end
}

/** Where an authority ends in a longer text: at `/`, `?`, `#`, `\` or a character of `stop`. */
function firstStop(value: string, start: number, stops: RegExp): number {
  stops.lastIndex = start
  return stops.exec(value)?.index ?? value.length
}
