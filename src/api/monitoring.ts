/**
 * One method per endpoint of the monitoring API (seed document), on top of
 * the generic client. Ids are always path-encoded.
 */
import { idProblem, timeOf } from '../values/values.js'
import type { ApiClient } from './client.js'
import type { AttemptWatch, RequestTally } from './types.js'
import { Created, createResource } from './create.js'
import type { ListRead, Page } from './pagination.js'
import { type PackedRow, type PackedValues, packer } from './packed.js'
import {
  Check,
  CheckSchema,
  HistoryEntry,
  HistoryEntrySchema,
  Incident,
  IncidentSchema,
  StatusPage,
  StatusPageSchema
} from './schemas.js'

type Body = Record<string, unknown>

/** An answer as the service gave it, for a caller that studies the service (check-api): the page's or resource's URL too. */
export type Observe = (answer: Page, url: URL) => void

/** The lists `observeList` reads, each with its schema and how a row is named. */
const LISTS = {
  checks: { path: () => paths.checks, schema: CheckSchema, what: 'check' },
  incidents: { path: () => paths.incidents, schema: IncidentSchema, what: 'incident' },
  statusPages: { path: () => paths.statusPages, schema: StatusPageSchema, what: 'status page' },
  history: { path: (id: string) => paths.history(id), schema: HistoryEntrySchema, what: 'history entry' }
}

/** An id that would address another path (empty, "." or ".."): refused before any request. */
export class UnsafeIdError extends Error {
  constructor(id: string) {
    super(`the server gave a resource the id ${JSON.stringify(id)}: ${idProblem(id)}; no request was sent to it`)
    this.name = 'UnsafeIdError'
  }
}

/** An id as one path segment: percent-encoded; empty, "." and ".." are refused (encoding keeps dots). */
function seg(id: string): string {
  if (idProblem(id)) throw new UnsafeIdError(id)
  return encodeURIComponent(id)
}

/** Every path of the API, ids encoded: for requests, and for the messages and dry-run lines that name them. */
export const paths = {
  checks: '/checks',
  check: (id: string) => `/checks/${seg(id)}`,
  history: (id: string) => `/checks/${seg(id)}/history`,
  incidents: '/incidents',
  incident: (id: string) => `/incidents/${seg(id)}`,
  statusPages: '/status-pages',
  statusPage: (id: string) => `/status-pages/${seg(id)}`
}
const idSets = new WeakMap<ReadonlyArray<{ id: string }>, ReadonlySet<string>>()
/** The ids of a list, built once per list: a sync's creates all name the same list read before them. */
const ids = (items: ReadonlyArray<{ id: string }>): ReadonlySet<string> => {
  const known = idSets.get(items)
  if (known) return known
  const set = new Set(items.map(i => i.id))
  idSets.set(items, set)
  return set
}

export class MonitoringApi {
  constructor(readonly client: ApiClient) {}

  /**
   * The same API, whose waits (retries, pacing) never pass `deadline` (ms since
   * the epoch); `hard`: nor its requests (none sent after it, one in flight cut off).
   */
  withDeadline(deadline: number, hard = false): MonitoringApi {
    return new MonitoringApi(this.client.withDeadline(deadline, hard))
  }

  /**
   * The same API whose lists follow up to `pages` pages rather than the usual
   * 100: for a read bounded otherwise (a history window, under a hard deadline).
   */
  withMaxPages(pages: number): MonitoringApi {
    const client = Object.assign(
      Object.create(Object.getPrototypeOf(this.client) as object) as ApiClient,
      this.client,
      {
        maxPages: pages
      }
    )
    return new MonitoringApi(client)
  }

  /** The same API, counting in `tally` every request it sends (ApiClient.counting): what a read really cost. */
  counting(tally: RequestTally): MonitoringApi {
    return new MonitoringApi(this.client.counting(tally))
  }

  listChecks(): Promise<Check[]> {
    return this.client.list(paths.checks, CheckSchema, 'check')
  }
  /**
   * A full read of the checks that says whether it shifted while it was paged
   * (operations/names/snapshot.ts) and how many pages it took; `enough`, given each
   * page in turn, may end it early (a read that needs only some rows).
   */
  readChecks(enough?: (page: Check[]) => boolean): Promise<ListRead<Check>> {
    return this.client.read(paths.checks, CheckSchema, 'check', { enough })
  }
  /**
   * A full read of the checks (as `readChecks`) whose rows are kept packed
   * (packed.ts), in `values` when given: for a fleet's plan, which needs each
   * check whole only while it compares it.
   */
  readPackedChecks(values?: PackedValues): Promise<ListRead<PackedRow<Check>>> {
    return this.client.read(paths.checks, CheckSchema, 'check', { keep: packer<Check>(values) })
  }
  getCheck(id: string): Promise<Check | null> {
    return this.client.getOrNull(paths.check(id), CheckSchema, 'a check')
  }
  /** `existing` is the list read before the create (what was there before): its ids. `watch` as for updateCheck. */
  async createCheck(
    body: Body,
    existing: ReadonlyArray<{ id: string }>,
    watch?: AttemptWatch
  ): Promise<Created<Check>> {
    return createResource(this.client, paths.checks, body, CheckSchema, 'check', {
      before: ids(existing),
      matches: c => c.name === body.name && c.url === body.url,
      watch
    })
  }
  /** `watch` is told of each attempt sent, and of each without an answer (ApiClient.send). */
  updateCheck(id: string, body: Body, watch?: AttemptWatch): Promise<Check> {
    return this.client.put(paths.check(id), body, CheckSchema, 'a check', watch)
  }
  /** False when the check was already gone. */
  deleteCheck(id: string): Promise<boolean> {
    return this.client.delete(paths.check(id))
  }
  /**
   * A check's history: every page; with `from` (ms since the epoch), the pages
   * stop once one is wholly older than it, while the pages read list the
   * entries newest first (see `newestFirstUntil`). Entries older than `from`
   * may still be in the answer: the caller filters.
   */
  checkHistory(id: string, from?: number): Promise<HistoryEntry[]> {
    const enough = from === undefined ? undefined : newestFirstUntil(from)
    return this.client.list(paths.history(id), HistoryEntrySchema, 'history entry', enough)
  }

  /**
   * A full read of a list (a check's history with `id`), each page's answer shown to `observe` as it
   * came: its status, headers and body (check-api learns how the service pages, states totals and
   * rate limits from them). Bounded by the client's page cap like every read.
   */
  observeList(list: keyof typeof LISTS, observe: Observe, id = ''): Promise<ListRead<Body>> {
    const { path, schema, what } = LISTS[list]
    return this.client.read(path(id), schema, what, { observe }) as Promise<ListRead<Body>>
  }
  /** One check (null when gone), its answer shown to `observe` as it came (the envelope, the headers). */
  async observeCheck(id: string, observe: Observe): Promise<Check | null> {
    const response = await this.client.send('GET', paths.check(id), undefined, s => s === 404)
    const check = response.status === 404 ? null : this.client.readOne(CheckSchema, 'GET', response, 'a check')
    observe({ status: response.status, headers: response.headers, body: jsonOrNothing(response.body) }, response.url)
    return check
  }

  listIncidents(): Promise<Incident[]> {
    return this.client.list(paths.incidents, IncidentSchema, 'incident')
  }
  /** A full read of the incidents that says whether it shifted while it was paged (operations/names/snapshot.ts). */
  readIncidents(): Promise<ListRead<Incident>> {
    return this.client.read(paths.incidents, IncidentSchema, 'incident')
  }
  /** `ours`: whether a listed incident is the one this body makes (its title, as the service may store it). */
  createIncident(body: Body, existing: Incident[], ours: (i: Incident) => boolean): Promise<Created<Incident>> {
    return createResource(this.client, paths.incidents, body, IncidentSchema, 'incident', {
      before: ids(existing),
      matches: ours
    })
  }
  updateIncident(id: string, body: Body): Promise<Incident> {
    return this.client.put(paths.incident(id), body, IncidentSchema, 'an incident')
  }

  listStatusPages(): Promise<StatusPage[]> {
    return this.client.list(paths.statusPages, StatusPageSchema, 'status page')
  }
  createStatusPage(body: Body, existing: StatusPage[]): Promise<Created<StatusPage>> {
    return createResource(this.client, paths.statusPages, body, StatusPageSchema, 'status page', {
      before: ids(existing),
      matches: p => p.name === body.name
    })
  }
  getStatusPage(id: string): Promise<StatusPage | null> {
    return this.client.getOrNull(paths.statusPage(id), StatusPageSchema, 'a status page')
  }
}

/** A body's JSON, or undefined when it is empty or not JSON (the reader that needs it says so: body.ts). */
function jsonOrNothing(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * When a history read may stop: the document says nothing of the order, so
 * the pages are checked as they come. While every entry read so far has a
 * `checkedAt` no later than the one before it (newest first, as the service
 * lists them), a page whose entries are all older than `from` ends the read:
 * the pages after it are older still. An entry out of that order, or without
 * a `checkedAt`, means the order is not known: every page is read.
 */
export function newestFirstUntil(from: number): (page: HistoryEntry[]) => boolean {
  let last = Number.POSITIVE_INFINITY
  let ordered = true
  return page => {
    for (const entry of page) {
      const at = timeOf(entry.checkedAt)
      if (at <= last) last = at
      else ordered = false
    }
    return ordered && page.length > 0 && timeOf(page[0].checkedAt) < from
  }
}
