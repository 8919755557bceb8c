/**
 * Answering one request of the API, after the server has read its line:
 * the body, an injected fault (before or after the request takes effect),
 * auth, the rate limit, the route's latency, then the route table, and the
 * answer as the views show it (trickled when a fault says so).
 */
import type * as http from 'node:http'
import { FaultList, echoed, trickle } from './faults.js'
import { Answer, HttpProblem, Json, isObject, problemAnswer, send } from './http.js'
import { CollectionStyle, pageOf } from './paging.js'
import type { RateWindows } from './rate-limit.js'
import { dispatch } from './routes.js'
import type { Store } from './store.js'
import { Views, viewed } from './views.js'

/** One request as the emulator records it. */
export interface RequestRecord {
  method: string
  path: string
  status: number
  at: number
  authorized: boolean
}

/** What answering needs of the server: its state now (faults and views change while it runs). */
export interface Answering {
  store: Store
  faults: FaultList
  /** Bumped by a reset: a request held across one is dropped, never applied. */
  generation: () => number
  rateWindows: RateWindows
  apiKeys: string[]
  latency: Record<string, number>
  views: Views
  collectionStyle: CollectionStyle
  pageSize: number
  baseUrl: string
}

/** A request body as a JSON object, or the 400 the API answers. */
function jsonBody(raw: string): Json {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new HttpProblem(400, 'invalid_json', 'Request body is not valid JSON')
  }
  if (!isObject(parsed)) throw new HttpProblem(400, 'invalid_request', 'Request body must be a JSON object')
  return parsed
}

export async function answer(
  at: Answering,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  method: string,
  path: string,
  record: RequestRecord
): Promise<void> {
  let raw = ''
  let tooLarge = false
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => {
    raw += chunk
    if (raw.length > 1_000_000) tooLarge = true
  })
  await new Promise<void>(resolve => req.on('end', () => resolve()))

  const fault = at.faults.take(method, path)
  const generation = at.generation()
  if (fault?.delayMs) {
    if (fault.late) at.faults.heldLate++
    try {
      await new Promise(r => setTimeout(r, fault.delayMs))
    } finally {
      if (fault.late) at.faults.heldLate--
    }
  }
  if (generation !== at.generation()) {
    // A reset happened while this request was held: it belongs to a world that is gone.
    req.socket.destroy()
    return
  }
  if (fault?.drop && !fault.after) {
    record.status = -1
    req.socket.destroy()
    return
  }
  let answer: Answer
  let budget: Record<string, string> | undefined
  if (fault && fault.status !== undefined && !fault.after) {
    answer = { status: fault.status, body: echoed(fault.body, req), headers: fault.headers }
  } else {
    try {
      if (!url.pathname.startsWith('/v1/') && url.pathname !== '/v1') {
        throw new HttpProblem(404, 'not_found', `No such path: ${url.pathname} (the API lives under /v1)`)
      }
      const key = authenticate(req, at.apiKeys)
      record.authorized = true
      const counted = at.rateWindows.count(key)
      if (tooLarge) throw new HttpProblem(413, 'payload_too_large', 'Request body too large')
      const hold = latencyOf(at.latency, method, path)
      if (hold > 0) {
        await new Promise(r => setTimeout(r, hold))
        if (generation !== at.generation()) {
          req.socket.destroy()
          return
        }
      }
      budget = counted?.()
      answer = dispatch(method, path, {
        store: at.store,
        body: () => jsonBody(raw),
        oldestFirst: at.views.historyOldestFirst === true,
        page: items =>
          pageOf(items, url, at.collectionStyle, at.pageSize, at.baseUrl, fault?.shift, {
            moved: fault?.moved,
            total: at.views.statedTotal
          })
      })
    } catch (error) {
      answer = problemAnswer(error)
    }
    if (budget) answer = { ...answer, headers: { ...budget, ...(answer.headers ?? {}) } }
    if (fault?.after) {
      if (fault.drop) {
        record.status = -1
        req.socket.destroy()
        return
      }
      answer = {
        status: fault.status ?? 500,
        body: fault.body ?? { error: { message: 'Internal server error' } },
        headers: fault.headers
      }
    }
  }
  record.status = answer.status
  answer = { ...answer, body: viewed(answer.body, at.views) as Answer['body'] }
  if (fault?.trickle) trickle(res, answer, fault)
  else send(res, answer)
}

function authenticate(req: http.IncomingMessage, apiKeys: string[]): string {
  const header = req.headers.authorization ?? ''
  const match = /^Bearer (.+)$/.exec(header)
  if (!match || !apiKeys.includes(match[1])) {
    throw new HttpProblem(
      401,
      'unauthorized',
      match ? 'Invalid API key' : 'Missing API key: send Authorization: Bearer <API_KEY>'
    )
  }
  return match[1]
}

/** How long a request to this route is held before it takes effect. */
function latencyOf(latency: Record<string, number>, method: string, path: string): number {
  return latency[`${method} ${path}`] ?? latency[method] ?? latency[path] ?? 0
}
