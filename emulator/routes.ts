/**
 * The API's routes as a table: a path pattern, a lookup that answers 404 for
 * a resource that does not exist (before the method is looked at), and a
 * handler per method. Anything else is a 404 (no such path) or a 405.
 */
import { Answer, HttpProblem, Json } from './http.js'
import type { Store, Stored } from './store.js'

export interface RouteContext {
  store: Store
  /** Path parameters (`:id`), decoded. */
  params: Record<string, string>
  /** The request body as a JSON object (400 otherwise). */
  body: () => Json
  /** A page of a collection, as the server is configured to page. */
  page: (items: Json[]) => Answer
  /** A check's history is listed oldest first (the views' `historyOldestFirst`); else newest first, as stored. */
  oldestFirst?: boolean
}

type Handler = (ctx: RouteContext) => Answer
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface Route extends Partial<Record<Method, Handler>> {
  /** Segments after the version: `/checks/:id/history`. */
  path: string
  /** Throws the 404 of a missing resource. */
  find?: (ctx: RouteContext) => Stored
}

const found = (map: Map<string, Stored>, what: string) => (ctx: RouteContext) => {
  const item = map.get(ctx.params.id)
  if (!item) throw new HttpProblem(404, 'not_found', `${what} ${ctx.params.id} not found`)
  return item
}
const check = (ctx: RouteContext) => found(ctx.store.checks, 'Check')(ctx)
const incident = (ctx: RouteContext) => found(ctx.store.incidents, 'Incident')(ctx)
const statusPage = (ctx: RouteContext) => found(ctx.store.statusPages, 'Status page')(ctx)
const ok = (data: unknown): Answer => ({ status: 200, body: { data } })
const created = (data: unknown): Answer => ({ status: 201, body: { data } })

export const ROUTES: Route[] = [
  {
    path: '/checks',
    GET: c => c.page([...c.store.checks.values()]),
    POST: c => created(c.store.createCheck(c.body()))
  },
  {
    path: '/checks/:id',
    find: check,
    GET: c => ok(check(c)),
    PUT: c => ok(c.store.updateCheck(check(c), c.body())),
    DELETE: c => {
      c.store.deleteCheck(c.params.id)
      return { status: 204 }
    }
  },
  {
    path: '/checks/:id/history',
    find: check,
    GET: c => {
      const newestFirst = c.store.history.get(c.params.id) ?? []
      return c.page(c.oldestFirst ? [...newestFirst].reverse() : newestFirst)
    }
  },
  {
    path: '/incidents',
    GET: c => c.page([...c.store.incidents.values()]),
    POST: c => created(c.store.createIncident(c.body()))
  },
  { path: '/incidents/:id', find: incident, PUT: c => ok(c.store.updateIncident(incident(c), c.body())) },
  {
    path: '/status-pages',
    GET: c => c.page([...c.store.statusPages.values()]),
    POST: c => created(c.store.createStatusPage(c.body()))
  },
  { path: '/status-pages/:id', find: statusPage, GET: c => ok(statusPage(c)) }
]

/** The parameters of `parts` under `pattern` (its first `pattern.length` segments), or undefined. */
function match(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (parts.length < pattern.length) return undefined
  const params: Record<string, string> = {}
  for (const [i, segment] of pattern.entries()) {
    if (segment.startsWith(':')) params[segment.slice(1)] = parts[i]
    else if (segment !== parts[i]) return undefined
  }
  return params
}

/** The route table, longest pattern first: the longest route that covers a path decides. */
const BY_LENGTH = ROUTES.map(route => ({ route, pattern: route.path.split('/').filter(Boolean) })).sort(
  (a, b) => b.pattern.length - a.pattern.length
)

/**
 * Answer one API request from the route table: the covering route's lookup
 * first (a missing resource is a 404 whatever the method), then the method.
 */
export function dispatch(method: string, path: string, context: Omit<RouteContext, 'params'>): Answer {
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent)
  for (const { route, pattern } of BY_LENGTH) {
    const params = match(pattern, parts)
    if (!params) continue
    const ctx: RouteContext = { ...context, params }
    route.find?.(ctx)
    if (pattern.length !== parts.length) break
    const handler = route[method as Method]
    if (!handler) throw new HttpProblem(405, 'method_not_allowed', `${method} is not allowed on ${path}`)
    return handler(ctx)
  }
  throw new HttpProblem(404, 'not_found', `No such path: ${path}`)
}
