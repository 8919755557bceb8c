/**
 * One method per endpoint of the monitoring API (seed document), on top of
 * the generic client. Ids are always path-encoded.
 */
import { idProblem } from '../values.js'
import type { ApiClient } from './client.js'
import { Created, createResource } from './create.js'
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
const ids = (items: Array<{ id: string }>) => new Set(items.map(i => i.id))

export class MonitoringApi {
  constructor(readonly client: ApiClient) {}

  /**
   * The same API, whose waits (retries, pacing) never pass `deadline` (ms since
   * the epoch); `hard`: nor its requests (none sent after it, one in flight cut off).
   */
  withDeadline(deadline: number, hard = false): MonitoringApi {
    return new MonitoringApi(this.client.withDeadline(deadline, hard))
  }

  listChecks(): Promise<Check[]> {
    return this.client.list(paths.checks, CheckSchema, 'check')
  }
  getCheck(id: string): Promise<Check | null> {
    return this.client.getOrNull(paths.check(id), CheckSchema, 'a check')
  }
  /** `existing` is the list read before the create (what was there before). */
  async createCheck(body: Body, existing: Check[]): Promise<Created<Check>> {
    return createResource(this.client, paths.checks, body, CheckSchema, 'check', {
      before: ids(existing),
      matches: c => c.name === body.name && c.url === body.url
    })
  }
  updateCheck(id: string, body: Body): Promise<Check> {
    return this.client.put(paths.check(id), body, CheckSchema, 'a check')
  }
  /** False when the check was already gone. */
  deleteCheck(id: string): Promise<boolean> {
    return this.client.delete(paths.check(id))
  }
  checkHistory(id: string): Promise<HistoryEntry[]> {
    return this.client.list(paths.history(id), HistoryEntrySchema, 'history entry')
  }

  listIncidents(): Promise<Incident[]> {
    return this.client.list(paths.incidents, IncidentSchema, 'incident')
  }
  createIncident(body: Body, existing: Incident[]): Promise<Created<Incident>> {
    return createResource(this.client, paths.incidents, body, IncidentSchema, 'incident', {
      before: ids(existing),
      matches: i => i.title === body.title
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
