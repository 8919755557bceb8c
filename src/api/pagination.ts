/**
 * How a collection comes back and where its next page is: the API document
 * says neither, so every common form is read (see docs/api-assumptions.md).
 * Pure functions; the client follows the pages and refuses other origins.
 */
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
