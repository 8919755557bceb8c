/**
 * Admin endpoints under /__emulator (no auth): GET requests, GET state,
 * POST reset, POST faults (a Fault as JSON), POST latency
 * (`{"POST /checks": 1000}`; 0 removes a route's latency), POST views
 * (`{"createdAt": false, "zonelessTimes": true, "historyTimes": "started"}`),
 * POST history (a check's past: given entries, or made, see `historyFrom`).
 */
import type * as http from 'node:http'
import type { Fault } from './faults.js'
import { Views, viewsFrom } from './views.js'
import { Json, send } from './http.js'
import type { Stored } from './store.js'
import { historyFrom } from './history.js'

/** What the admin endpoints act on. */
export interface AdminTarget {
  requests: unknown[]
  checks: Map<string, Stored>
  history: Map<string, Json[]>
  incidents: Map<string, Stored>
  statusPages: Map<string, Stored>
  latency: Record<string, number>
  reset: () => void
  inject: (fault: Fault) => void
  views: Views
}

export async function admin(
  target: AdminTarget,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL
): Promise<void> {
  let raw = ''
  req.setEncoding('utf8')
  for await (const chunk of req) raw += chunk
  const action = url.pathname.replace(/^\/__emulator\/?/, '')
  try {
    if (req.method === 'GET' && action === 'requests') return send(res, { status: 200, body: target.requests })
    if (req.method === 'GET' && action === 'state') {
      return send(res, {
        status: 200,
        body: {
          checks: [...target.checks.values()],
          incidents: [...target.incidents.values()],
          statusPages: [...target.statusPages.values()]
        }
      })
    }
    if (req.method === 'POST' && action === 'reset') {
      target.reset()
      return send(res, { status: 204 })
    }
    if (req.method === 'POST' && action === 'latency') {
      const routes = JSON.parse(raw || '{}') as Record<string, number>
      for (const [route, ms] of Object.entries(routes)) {
        if (typeof ms !== 'number' || !(ms >= 0)) throw new Error(`latency of ${route} must be a number of ms`)
        if (ms === 0) delete target.latency[route]
        else target.latency[route] = ms
      }
      return send(res, { status: 200, body: target.latency })
    }
    if (req.method === 'POST' && action === 'views') {
      target.views = viewsFrom(JSON.parse(raw || '{}'), target.views)
      return send(res, { status: 200, body: target.views as unknown as Json })
    }
    if (req.method === 'POST' && action === 'history') {
      const { checkId, entries } = historyFrom(JSON.parse(raw || '{}'), Date.now())
      if (!target.checks.has(checkId))
        return send(res, { status: 404, body: { error: { message: `no check ${checkId}` } } })
      target.history.set(checkId, entries)
      return send(res, { status: 200, body: { checkId, count: entries.length } })
    }
    if (req.method === 'POST' && action === 'faults') {
      const fault = JSON.parse(raw || '{}') as Fault
      target.inject(fault)
      return send(res, { status: 201, body: fault })
    }
    return send(res, { status: 404, body: { error: { message: `unknown admin action ${action}` } } })
  } catch (error) {
    return send(res, { status: 400, body: { error: { message: String(error) } } })
  }
}
