/** One page of a collection, shaped and linked the way the configured server does it. */
import type { Answer, Json } from './http.js'

export type CollectionStyle = 'envelope' | 'bare' | 'cursor'

/**
 * How a read's pages shift under the reader (faults.ts): `repeat` (a row
 * inserted at the head), `skip` (a row at the head deleted), or `reorder` (a
 * list sorted by recent activity: after the first page, one row moves to the
 * head, so the next page repeats the last row of the first and the moved row
 * is never shown).
 */
export type Shift = 'repeat' | 'skip' | 'reorder'

/**
 * The page of `items` that `url` asks for (`page`, `per_page` or `cursor`):
 * a bare array with a Link header, an envelope with `links.next` and a Link
 * header, or `{data, next_cursor}`; with a next link when there are more.
 * `shift` shows the pages as a reader sees them while others write; `moved`
 * names the row a `reorder` moves (by name or id; unset: the last row).
 * `total`: the answer states how many rows the collection holds (`meta.total`
 * in an envelope, `total` beside a cursor, `X-Total-Count` on a bare array).
 */
export function pageOf(
  items: Json[],
  url: URL,
  style: CollectionStyle,
  pageSize: number,
  baseUrl: string,
  shift?: Shift,
  options: { moved?: string; total?: boolean } = {}
): Answer {
  const size = Math.min(Math.max(Number(url.searchParams.get('per_page')) || pageSize, 1), 500)
  const cursor = url.searchParams.get('cursor')
  const page = cursor
    ? Number(Buffer.from(cursor, 'base64url').toString()) || 1
    : Math.max(Number(url.searchParams.get('page')) || 1, 1)
  const count = items.length
  if (shift === 'reorder' && page > 1) items = reordered(items, options.moved)
  // A shifted read (faults.ts): pages after the first start one row early (repeat) or late (skip).
  const moved = page > 1 ? (shift === 'repeat' ? -1 : shift === 'skip' ? 1 : 0) : 0
  const rows = items.slice((page - 1) * size + moved, page * size + moved)
  // More while rows remain past this page as shifted: a page that starts one row early (a row inserted
  // before it) leaves the last row for a further page, as the longer list would; one that starts late
  // (a row deleted before it) has lost a row for good.
  const more = page * size + moved < items.length
  const next = new URL(url.href)
  next.searchParams.set('page', String(page + 1))
  const nextPath = `/v1${next.pathname.replace(/^\/v1/, '')}${next.search}`
  const headers: Record<string, string> = {}
  const stated = options.total ? count : undefined
  switch (style) {
    case 'bare':
      if (more) headers.Link = `<${baseUrl.replace(/\/v1$/, '')}${nextPath}>; rel="next"`
      if (stated !== undefined) headers['X-Total-Count'] = String(stated)
      return { status: 200, body: rows, headers }
    case 'cursor':
      return {
        status: 200,
        body: {
          data: rows,
          next_cursor: more ? Buffer.from(String(page + 1)).toString('base64url') : null,
          ...(stated !== undefined ? { total: stated } : {})
        }
      }
    default:
      if (more) headers.Link = `<${baseUrl.replace(/\/v1$/, '')}${nextPath}>; rel="next"`
      return {
        status: 200,
        body: {
          data: rows,
          links: { next: more ? nextPath : null },
          ...(stated !== undefined ? { meta: { total: stated } } : {})
        },
        headers
      }
  }
}

/** The rows with one moved to the head: the row named (or with the id) `moved`, else the last. */
function reordered(items: Json[], moved: string | undefined): Json[] {
  const at = moved === undefined ? items.length - 1 : items.findIndex(i => i.name === moved || i.id === moved)
  if (at <= 0) return items
  return [items[at], ...items.slice(0, at), ...items.slice(at + 1)]
}
