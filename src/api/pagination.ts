/**
 * How a collection comes back and where its next page is: the API document
 * says neither, so every common form is read (see docs/reasoning/api-assumptions.md).
 * Pure functions; the client follows the pages and refuses other origins.
 */
import { ApiError } from './errors.js'
import type { RawResponse } from './types.js'
import { isMapping } from '../values/values.js'

/** Rows of a collection: a bare array, or `data` / `items` / `results`. */
export function collectionOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body
  if (isMapping(body)) {
    for (const key of ['data', 'items', 'results']) {
      if (Array.isArray(body[key])) return body[key] as unknown[]
    }
  }
  return undefined
}

/** The `rel="next"` target of a Link header. */
export function parseLinkNext(header: string | string[] | undefined): string | undefined {
  if (!header) return undefined
  const text = Array.isArray(header) ? header.join(',') : header
  for (const part of text.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part)
    if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2])) return match[1]
  }
  return undefined
}

/**
 * The next page after `current`, if the answer signals one: a Link header;
 * else a next URL in the body (`links.next`, `next`, `meta.next`: absolute,
 * under the base path, relative to the base URL, or a `?query`); else a
 * cursor (`nextCursor`, `next_cursor`, `meta.cursor`...) sent as `?cursor=`.
 * Another origin is returned as it is: the caller refuses it.
 */
export function nextPageOf(
  link: string | string[] | undefined,
  body: unknown,
  current: URL,
  base: URL
): URL | undefined {
  const linked = parseLinkNext(link)
  if (linked) return new URL(linked, current)
  if (!isMapping(body)) return undefined
  const links = isMapping(body.links) ? body.links : undefined
  const meta = isMapping(body.meta) ? body.meta : isMapping(body.pagination) ? body.pagination : undefined
  const urlLike = [links?.next, body.next, meta?.next].find(v => typeof v === 'string' && v !== '') as
    string | undefined
  const cursor = [body.nextCursor, body.next_cursor, meta?.nextCursor, meta?.next_cursor, meta?.cursor].find(
    v => typeof v === 'string' && v !== ''
  ) as string | undefined
  if (urlLike && /^(https?:\/\/|\/|\?)|\//.test(urlLike)) return resolveNext(urlLike, current, base)
  if (!urlLike && !cursor) return undefined
  const next = new URL(current.href)
  next.searchParams.set('cursor', (urlLike ?? cursor) as string)
  return next
}

/** A body's next link: absolute, origin-relative under the base path, or relative to the base URL. */
function resolveNext(next: string, current: URL, base: URL): URL {
  if (/^https?:\/\//.test(next)) return new URL(next)
  if (next.startsWith('?')) return new URL(next, current)
  if (next.startsWith(base.pathname)) return new URL(next, base.origin)
  return new URL(next.replace(/^\/+/, ''), base)
}

/**
 * One full read of a collection and what it proves. `shift` says why the
 * read cannot be trusted to hold every row, when it cannot: a list that
 * shifts while it is paged (offset paging while others write, or a list
 * sorted by recent activity) shows some row twice and may skip another; a
 * read that holds fewer distinct rows than the total the service states has
 * missed some. `items` holds each id once either way.
 */
export interface ListRead<T> {
  items: T[]
  shift?: string
  /** Pages the read took (the service's page size decides it): what reading the list costs in requests. */
  pages?: number
}

/**
 * Rows read across pages, each id once (the later read of a row is kept, in
 * the first place), remembering the ids a page repeated and the last total
 * the service stated.
 */
export class RowsById<T> {
  /** Every row as it was read, in order (`read` makes each id once). */
  private readonly rows: T[] = []
  /** The collection's size as the last page stated it (statedTotal). */
  total: number | undefined

  add(item: T): void {
    this.rows.push(item)
  }

  /** The read as a whole: its rows and, when it shifted, why (see ListRead). */
  read(what: string): ListRead<T> {
    const { items, repeated } = eachIdOnce(this.rows)
    if (repeated.length > 0) {
      const named = repeated.slice(0, 3).map(id => JSON.stringify(id))
      return {
        items,
        shift: `the read showed ${repeated.length} ${what}(s) twice (${named.join(', ')}${repeated.length > 3 ? ', ...' : ''}): the list moved while it was paged, so a row it repeats stands for one it may have missed`
      }
    }
    if (this.total !== undefined && items.length < this.total) {
      return {
        items,
        shift: `the read held ${items.length} distinct ${what}(s) where the service stated ${this.total}: some were missed while it was paged`
      }
    }
    return { items }
  }
}

const idOf = (row: unknown): unknown => (row as { id?: unknown } | null)?.id

/**
 * `rows` with each id once, at the place of its first read and holding its
 * last (a row without an id stays as it is), and the ids read more than once,
 * in the order their second reads came. Found by sorting the places of the
 * rows by id, not in a map of every id: a fleet's read holds no second copy
 * of its ids. `rows` itself when no id repeats.
 */
function eachIdOnce<T>(rows: T[]): { items: T[]; repeated: string[] } {
  const places: number[] = []
  for (let i = 0; i < rows.length; i++) if (typeof idOf(rows[i]) === 'string') places.push(i)
  const id = (place: number) => idOf(rows[place]) as string
  places.sort((a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : a - b))
  const gone = new Set<number>()
  const again: Array<{ second: number; id: string }> = []
  let items: T[] | undefined
  for (let run = 0; run < places.length;) {
    let next = run + 1
    while (next < places.length && id(places[next]) === id(places[run])) next++
    if (next - run > 1) {
      items ??= rows.slice()
      items[places[run]] = rows[places[next - 1]]
      for (let later = run + 1; later < next; later++) gone.add(places[later])
      again.push({ second: places[run + 1], id: id(places[run]) })
    }
    run = next
  }
  if (items === undefined) return { items: rows, repeated: [] }
  return {
    items: items.filter((_, place) => !gone.has(place)),
    repeated: again.sort((a, b) => a.second - b.second).map(r => r.id)
  }
}

/**
 * How many rows the whole collection holds, when an answer says: the
 * `X-Total-Count` header, or `total` / `totalCount` / `total_count` in the
 * body or its `meta` / `pagination`. Undefined when none is a whole number.
 */
export function statedTotal(header: string | string[] | undefined, body: unknown): number | undefined {
  const holders = isMapping(body) ? [body, body.meta, body.pagination].filter(isMapping) : []
  const candidates = [
    Array.isArray(header) ? header[0] : header,
    ...holders.flatMap(h => [h.total, h.totalCount, h.total_count])
  ]
  for (const value of candidates) {
    const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n
  }
  return undefined
}

/** Why a next-page link is not followed (another origin: the key is never sent there; a page already read), or undefined. */
export function refusedNextPage(next: URL, base: URL, seen: ReadonlySet<string>): string | undefined {
  if (next.origin !== base.origin) {
    return `returned a next-page link to another origin (${next.origin}); not followed, so the API key is not sent there`
  }
  if (seen.has(next.href)) return 'returned a next-page link to a page already read; stopped'
  return undefined
}

/** A GET of a collection whose 2xx answer is not a list. */
export function notAList(path: string, status: number): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    method: 'GET',
    path,
    detail: `returned HTTP ${status} but not a list (expected an array or {"data": [...]})`
  })
}

/** A page of a collection as read: what the reader needs of its answer. */
export interface Page {
  status: number
  headers: RawResponse['headers']
  body: unknown
}

/** What a full read of a collection needs of the client: one GET of a page, rows parsed, paths named. */
export interface PageReader<T, K = T> {
  first: URL
  base: URL
  maxPages: number
  /** How a row is named in messages ("check"). */
  what: string
  /** Given each page's rows in turn (as kept): true = the rest is not needed; no next page is read. */
  enough?: (page: K[]) => boolean
  pathOf: (url: URL) => string
  /** One page: its answer's status and headers, and its body parsed (its text is not kept: a fleet's pages are many). */
  fetch: (url: URL) => Promise<Page>
  parse: (row: unknown, index: number, url: URL) => T
  /** What is kept of a parsed row (packed.ts: a handle to its packed text); the row itself when not given. */
  keep?: (row: T) => K
  /** Shown each page's answer as it came (check-api: how the service pages); take what is needed at once, its rows are let go of after. */
  observe?: (page: Page, url: URL) => void
}

/**
 * Every row of a collection, following the server's next-page signals (at
 * most `maxPages`, never to another origin, never a page twice), each id
 * once, and whether the read shifted while it was paged (ListRead).
 */
export async function readPages<T, K = T>(reader: PageReader<T, K>): Promise<ListRead<K>> {
  const keep = reader.keep ?? ((row: T) => row as unknown as K)
  const rows = new RowsById<K>()
  const seen = new Set<string>()
  const stop = (at: URL, detail: string) =>
    new ApiError({ kind: 'pagination', method: 'GET', path: reader.pathOf(at), detail })
  let pages = 0
  for (let next: URL | undefined = reader.first; next;) {
    if (++pages > reader.maxPages)
      throw stop(reader.first, `has more than ${reader.maxPages} pages; stopped rather than read without end`)
    const current: URL = next
    seen.add(current.href)
    const answer = await reader.fetch(current)
    reader.observe?.(answer, current)
    const { status, headers, body } = answer
    const page = collectionOf(body)
    if (page === undefined) throw notAList(reader.pathOf(current), status)
    // Each row checked and kept (packed or whole), then let go of in the page: a page's rows are not all held twice.
    const parsed = page.map((row, i) => {
      const kept = keep(reader.parse(row, i, current))
      page[i] = undefined
      return kept
    })
    parsed.forEach(row => rows.add(row))
    const cut = reader.enough?.(parsed) ?? false
    // A read cut short on purpose holds fewer rows than the whole: its total proves nothing.
    rows.total = cut ? undefined : (statedTotal(headers['x-total-count'], body) ?? rows.total)
    next = cut ? undefined : nextPageOf(headers.link, body, current, reader.base)
    const refused = next && refusedNextPage(next, reader.base, seen)
    if (refused) throw stop(current, refused)
  }
  return { ...rows.read(reader.what), pages }
}
