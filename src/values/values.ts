/** Plain values as JSON and YAML give them: the one definition of "a mapping" every layer uses. */

export type Mapping = Record<string, unknown>

/** A plain object (JSON's object, YAML's map): not an array, a Set, a Map or binary data. */
export function isMapping(value: unknown): value is Mapping {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/**
 * A number as written: a sign, digits, a decimal part. A secret's form that is one is masked only
 * where a number ends (3600 never masks 36000 into ***0), and a value that is one is masked neither
 * job-wide (secrets.ts registrable) nor as written in a file for people (secret-positions.ts plainWord).
 */
export const NUMERIC = /^[-+]?\d+(\.\d+)?$/

/** `text` percent-decoded; undefined when it is no percent-encoding (`%zz`, a lone `%`, `%FF`). */
export function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** A leaf of a plain value. */
export type Leaf = string | number | boolean | bigint

/** Where a leaf stands: its key in the list or mapping that holds it, and where that stands (none at the top). */
export interface Trail {
  key: string | number
  holder: Mapping | unknown[]
  up?: Trail
}

/** A trail as a field's path: `headers[0]`, `auth.pass`. */
export function pathOf(trail: Trail | undefined): string {
  if (!trail) return ''
  const above = pathOf(trail.up)
  if (typeof trail.key === 'number') return `${above}[${trail.key}]`
  return above ? `${above}.${trail.key}` : trail.key
}

/**
 * The one walk over a plain value: each leaf replaced by what `leaf` gives,
 * each key of a mapping by what `key` gives. Copy on write: what holds no
 * change is the value itself, not a copy (the caller must not change it), and
 * only the branches that change are copied, so a fleet of 50,000 checks is not
 * copied whole to change none. An object that is not a plain mapping is
 * copied as one (its own fields). null and undefined stay.
 */
export function rewrite(
  value: unknown,
  leaf: (value: Leaf, trail: Trail | undefined) => unknown,
  key: (key: string) => string = k => k
): unknown {
  const walk = (v: unknown, trail: Trail | undefined): unknown => {
    if (v === null || v === undefined) return v
    if (typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? v : leaf(v as Leaf, trail)
    if (Array.isArray(v)) {
      let out: unknown[] | undefined
      v.forEach((x, i) => {
        const y = walk(x, { key: i, holder: v, up: trail })
        if (y !== x) (out ??= v.slice())[i] = y
      })
      return out ?? v
    }
    const map = v as Mapping
    const keys = Object.keys(map)
    // The entries of the copy, gathered from the first change on (those before it are as they were).
    let copy = Object.getPrototypeOf(v) !== Object.prototype ? ([] as Array<[string, unknown]>) : undefined
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]
      const x = map[k]
      const renamed = key(k)
      const y = walk(x, { key: k, holder: map, up: trail })
      if (copy === undefined && (renamed !== k || y !== x)) copy = keys.slice(0, i).map(p => [p, map[p]])
      copy?.push([renamed, y])
    }
    return copy ? Object.fromEntries(copy) : v
  }
  return walk(value, undefined)
}

/** Ids are put into paths: these would name another path, even percent-encoded. */
export function idProblem(id: string): string | undefined {
  if (id === '' || id === '.' || id === '..') {
    return 'an id cannot be empty, "." or ".." (even percent-encoded, it would address another path)'
  }
  return undefined
}

/** Edits (insert, delete, replace, swap two neighbours) from one word to another. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
      }
    }
  }
  return d[a.length][b.length]
}

/**
 * The known words closest to `word` (case aside), nearest first, within
 * `max` edits (by default a third of the word's length, at least 2). Long
 * lists are compared only with words of about the same length.
 */
export function closest(word: string, known: Iterable<string>, limit = 3, max?: number): string[] {
  const w = word.trim().toLowerCase()
  const bound = max ?? Math.max(2, Math.floor(w.length / 3))
  const scored: Array<[string, number]> = []
  for (const candidate of new Set(known)) {
    const c = candidate.toLowerCase()
    if (Math.abs(c.length - w.length) > bound) continue
    const distance = editDistance(w, c)
    if (distance <= bound) scored.push([candidate, distance])
  }
  return scored
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([candidate]) => candidate)
}

/** " (did you mean "a" or "b"?)", or nothing. */
export function didYouMean(word: string, known: Iterable<string>): string {
  const near = closest(word, known)
  if (near.length === 0) return ''
  const quoted = near.map(n => JSON.stringify(n))
  return ` (did you mean ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0]}?)`
}

/**
 * The forms of time the action reads: ISO 8601 / RFC 3339 (`2026-11-24`,
 * `2026-11-24T03:30`, `...:00`, `...:00.123`, `T`, `t` or a space between date and
 * time) and the same with slashes (`2026/11/24 03:30:00`); a zone `Z`, `UTC`,
 * `GMT`, `+02:00`, `+0200` or `+02`, or none.
 */
const TIME =
  /^(\d{4})([-/])(\d{2})\2(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?: ?(?:[Zz]|UTC|GMT|([+-])(\d{2})(?::?(\d{2}))?))?)?$/

/**
 * An HTTP date (RFC 9110's IMF-fixdate, the RFC 1123 form):
 * `Tue, 24 Nov 2026 10:00:00 GMT`. Always GMT, so it can be placed; a day
 * name that does not fit the date is refused.
 */
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** An HTTP date as `placeTime` reads it (whole seconds); undefined when it is not one. */
function placeHttpDate(text: string): Placed | undefined {
  const m = HTTP_DATE.exec(text)
  if (!m) return undefined
  const [, dayName, d, mon, y, h, mi, s] = m
  const [day, year, hour, minute, second] = [d, y, h, mi, s].map(Number)
  const month = MONTHS.indexOf(mon)
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const at = new Date(0)
  at.setUTCFullYear(year, month, day)
  at.setUTCHours(hour, minute, second, 0)
  if (at.getUTCMonth() !== month || at.getUTCDate() !== day || DAYS[at.getUTCDay()] !== dayName) return undefined
  return { ms: at.getTime(), precisionMs: 1000 }
}

/** A time the action could place: ms since the epoch, and how exactly its text gives it (ms). */
export interface Placed {
  ms: number
  /** 1 for milliseconds (or finer), 1000 for whole seconds, 60,000 without seconds, a day for a date alone. */
  precisionMs: number
}

/**
 * The one reader of times from the service (and of `since`). A time without
 * a zone is UTC, whatever the runner's time zone (`Date.parse` would read
 * most such forms as local time, and a self-hosted runner is often not on
 * UTC). An HTTP date (`Tue, 24 Nov 2026 10:00:00 GMT`) says its zone, so it
 * is placed too. Any other form (`Nov 24 2026 03:30`, an epoch number, a day
 * that does not exist, 24:00, a leap second, an HTTP date without `GMT`)
 * cannot be placed: undefined, never a guess.
 */
export function placeTime(value: unknown): Placed | undefined {
  if (typeof value !== 'string') return undefined
  const m = TIME.exec(value.trim())
  if (!m) return placeHttpDate(value.trim())
  const [, y, , mo, d, h = '0', mi = '0', s, fraction, sign, oh = '0', om = '0'] = m
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s ?? '0'].map(Number)
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined
  const at = new Date(0)
  at.setUTCFullYear(year, month - 1, day)
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return undefined
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3))
  at.setUTCHours(hour, minute, second, ms)
  if (Number(oh) > 23 || Number(om) > 59) return undefined
  const offsetMin = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om))
  const precisionMs =
    m[5] === undefined
      ? 86_400_000
      : s === undefined
        ? 60_000
        : fraction === undefined
          ? 1000
          : 10 ** Math.max(0, 3 - fraction.length)
  return { ms: at.getTime() - offsetMin * 60_000, precisionMs }
}

/** A time from the service, in ms since the epoch; NaN when it cannot be placed (`placeTime`). */
export function timeOf(value: unknown): number {
  return placeTime(value)?.ms ?? Number.NaN
}
