/**
 * What check-api saw of the service: each answer of each list read (its
 * shape, its next-page signal, a stated total, the rate-limit headers), the
 * rows, one check read alone, and what the writes on its own check showed.
 * Recorded as the answers come (MonitoringApi.observeList), judged after
 * (points.ts).
 */
import type { Page } from '../../api/pagination.js'
import { parseLinkNext, nextPageOf, statedTotal } from '../../api/pagination.js'
import { rateHeadersOf } from '../../api/retry.js'
import { type Mapping, isMapping } from '../../values/values.js'

/** One page of a list as it came. */
export interface PageSeen {
  rows: number
  /** `a bare array`, `{"data": [...]}` (or items, results), or `not a list`. */
  shape: string
  /** How the answer pointed at a next page, when it did. */
  next?: 'a Link header' | 'a next link in the body' | 'a cursor in the body'
  /** The body held a next link too, beside a Link header. */
  alsoInBody?: boolean
  total?: number
  rate: ReturnType<typeof rateHeadersOf>
}

/** One list read: its pages, its rows, and why it could not be read whole. */
export interface ListSeen {
  name: string
  pages: PageSeen[]
  rows: Mapping[]
  failed?: string
}

/** What the writes on check-api's own check showed (own-check.ts). */
export interface WritesSeen {
  name: string
  id?: string
  /** The body of the create. */
  sent: Mapping
  /** The fields the create's answer held, and the check as the create answered it. */
  created?: Mapping
  /** The check read back after a PUT of only name, url and status. */
  afterPut?: Mapping
  /** The status the check showed after a resume (status up), then after a pause. */
  resumed?: string
  paused?: string
  /** Where the writes stopped, and why. */
  failed?: { at: string; why: string }
  /** Deleted (true), or why it could not be: the post step then deletes it. */
  deleted?: true | string
}

export interface Seen {
  lists: ListSeen[]
  /** One check read alone (GET /checks/{id}): how its answer was wrapped. */
  one?: { shape: 'data' | 'bare'; check: Mapping }
  writes?: WritesSeen
  /** The client's page cap: a list is read to at most this many pages. */
  maxPages: number
}

function shapeOf(body: unknown): string {
  if (Array.isArray(body)) return 'a bare array'
  if (isMapping(body)) {
    for (const key of ['data', 'items', 'results']) if (Array.isArray(body[key])) return `{"${key}": [...]}`
  }
  return 'not a list'
}

function rowsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body
  if (!isMapping(body)) return []
  const key = ['data', 'items', 'results'].find(k => Array.isArray(body[k]))
  return key === undefined ? [] : (body[key] as unknown[])
}

/** A page's answer as check-api records it (taken at once: the reader lets the rows go after). */
export function pageSeen(answer: Page, url: URL, now: number): PageSeen {
  const linked = parseLinkNext(answer.headers.link) !== undefined
  const inBody = nextPageOf(undefined, answer.body, url, url)
  const cursor = inBody !== undefined && inBody.searchParams.get('cursor') !== url.searchParams.get('cursor')
  const bodyNext = inBody === undefined ? undefined : cursor ? 'a cursor in the body' : 'a next link in the body'
  const total = statedTotal(answer.headers['x-total-count'], answer.body)
  return {
    rows: rowsOf(answer.body).length,
    shape: shapeOf(answer.body),
    ...(linked
      ? { next: 'a Link header' as const, alsoInBody: bodyNext !== undefined }
      : bodyNext
        ? { next: bodyNext }
        : {}),
    ...(total !== undefined ? { total } : {}),
    rate: rateHeadersOf(answer.headers, now)
  }
}

/** How one resource's answer was wrapped: in `data`, or the bare object (undefined: neither). */
export function oneShape(body: unknown): 'data' | 'bare' | undefined {
  if (!isMapping(body)) return undefined
  if (isMapping(body.data)) return 'data'
  return 'id' in body ? 'bare' : undefined
}
