/**
 * Admin endpoints under /__emulator (no auth): GET requests, GET state,
 * POST reset, POST faults (a Fault as JSON), POST titles (a TitleForm), POST latency
 * (`{"POST /checks": 1000}`; 0 removes a route's latency), POST views
 * (`{"createdAt": false, "zonelessTimes": true}`), POST history (a check's
 * past results: history.ts).
 */
import type * as http from 'node:http'
import type { Fault } from './faults.js'
import { Views, viewsFrom } from './views.js'
import { HttpProblem, Json, problemAnswer, send } from './http.js'
import { historyEntries, merged } from './history.js'
import { type Stored, type TitleForm, titleFormFrom } from './store.js'

/** What the admin endpoints act on. */
export interface AdminTarget {
  requests: unknown[]
  checks: Map<string, Stored>
  incidents: Map<string, Stored>
  statusPages: Map<string, Stored>
  history: Map<string, Json[]>
  latency: Record<string, number>
  reset: () => void
  inject: (fault: Fault) => void
  views: Views
  incidentTitles: TitleForm
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
    if (req.method === 'POST' && action === 'titles') {
      target.incidentTitles = titleFormFrom(JSON.parse(raw || '{}') as Json)
      return send(res, { status: 200, body: target.incidentTitles as unknown as Json })
    }
    if (req.method === 'POST' && action === 'faults') {
      const fault = JSON.parse(raw || '{}') as Fault
      target.inject(fault)
      return send(res, { status: 201, body: fault })
    }
    if (req.method === 'POST' && action === 'history') {
      const { checkId, entries } = historyEntries(JSON.parse(raw || '{}'), Date.now())
      if (!target.checks.has(checkId)) throw new HttpProblem(404, 'not_found', `no check ${checkId}`)
      target.history.set(checkId, merged(target.history.get(checkId) ?? [], entries))
      const body = { checkId, added: entries.length, entries: target.history.get(checkId)?.length ?? 0 }
      return send(res, { status: 200, body })
    }
    return send(res, { status: 404, body: { error: { message: `unknown admin action ${action}` } } })
  } catch (error) {
    if (error instanceof HttpProblem) return send(res, problemAnswer(error))
    return send(res, { status: 400, body: { error: { message: String(error) } } })
  }
}
