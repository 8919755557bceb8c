/** Plain values as JSON and YAML give them: the one definition of "a mapping" every layer uses. */

export type Mapping = Record<string, unknown>

/** A plain object (JSON's object, YAML's map): not an array, a Set, a Map or binary data. */
export function isMapping(value: unknown): value is Mapping {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
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

/** An ISO 8601 date and time without a zone (`2026-11-24T03:30:00`, or with a space): the API means UTC. */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/

/**
 * A time from the service, in ms since the epoch (NaN when it is not a time).
 * One without a zone is UTC, whatever the runner's time zone: `Date.parse`
 * would read it as local time, and a self-hosted runner is often not on UTC.
 */
export function timeOf(value: unknown): number {
  if (typeof value !== 'string') return Number.NaN
  const text = value.trim()
  const zoneless = ZONELESS.exec(text)
  return Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : text)
}
