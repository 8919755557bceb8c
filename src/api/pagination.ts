/**
 * How a collection comes back and where its next page is: the API document
 * says neither, so every common form is read (see docs/api-assumptions.md).
 * Pure functions; the client follows the pages and refuses other origins.
 */
import { ApiError } from './errors.js'
import { isMapping } from '../values.js'

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
 * Rows read across pages, each id once: with offset paging, a row inserted at
 * the head between two page reads shows the last row of one page again on the
 * next; it is one resource (the later read of it is kept, in the first place).
 */
export class RowsById<T> {
  readonly items: T[] = []
  private readonly placeOf = new Map<string, number>()

  add(item: T): void {
    const id = (item as { id?: unknown } | null)?.id
    if (typeof id !== 'string') return void this.items.push(item)
    const place = this.placeOf.get(id)
    if (place === undefined) this.placeOf.set(id, this.items.push(item) - 1)
    else this.items[place] = item
  }
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
