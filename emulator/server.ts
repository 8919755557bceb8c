/**
 * An emulator of the monitoring API (seed document), in memory, on 127.0.0.1.
 * All 12 endpoints, Bearer auth, JSON errors, the 100-a-minute rate limit (one
 * fixed window per key, shared by every connection; X-RateLimit-* and
 * RateLimit-* headers on every answer; 429 with Retry-After), pagination, PUT
 * that replaces (or merges), per-route latency (a create that takes a second
 * to land), fault injection, and real probing of each check's URL.
 *
 * Admin endpoints (no auth) under /__emulator: GET requests, GET state,
 * POST faults, POST latency (`{"POST /checks": 1000}`; 0 removes), POST reset.
 */
import { randomBytes } from 'node:crypto'
import * as http from 'node:http'
import * as https from 'node:https'
import type { AddressInfo } from 'node:net'

type Json = Record<string, unknown>

export interface Fault {
  method?: string
  /** Path after the version segment, e.g. `/checks`; `re:` prefix for a regular expression. */
  path?: string
  /** How many matching requests it affects; default 1; `Infinity` (or -1 over HTTP) for all. */
  times?: number
  status?: number
  headers?: Record<string, string>
  /** `{authorization}` in it is replaced by the request's Authorization header (a server that echoes it). */
  body?: string | Json | unknown[]
  delayMs?: number
  /** Close the connection without an answer. */
  drop?: boolean
  /** Apply the request for real first, then answer with `status`/`body` (or drop). */
  after?: boolean
  /**
   * Deliver the answer slowly: `headers` sends the status line, then one header
   * line every `trickleIntervalMs`; `body` sends the headers, then one space of
   * the body every `trickleIntervalMs`. After `trickleForMs` the real answer
   * follows. A client without an overall request timeout waits all that time.
   */
  trickle?: 'headers' | 'body'
  trickleIntervalMs?: number
  trickleForMs?: number
}

export interface RequestRecord {
  method: string
  path: string
  status: number
  at: number
  authorized: boolean
}

export interface EmulatorOptions {
  port?: number
  host?: string
  apiKeys?: string[]
  /** Requests per window per key; false turns the limit off. */
  rateLimit?: { limit: number; windowMs: number } | false
  pageSize?: number
  /** How collections are shaped and paged. */
  collectionStyle?: 'envelope' | 'bare' | 'cursor'
  putSemantics?: 'replace' | 'merge'
  /** Probe each check's URL every `interval` seconds times `timeScale`. */
  probe?: boolean
  timeScale?: number
  probeTimeoutMs?: number
  /** Keep at most this many history entries per check. */
  historyLimit?: number
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string }
  /**
   * Hold matching requests this long before they take effect (the answer comes
   * after). Keys are `METHOD /path` (`POST /checks`), `METHOD` or `/path`;
   * the path is after the version segment.
   */
  latency?: Record<string, number>
  /** Shorthand: hold every create (POST /checks, /incidents, /status-pages) this long. */
  createLatencyMs?: number
  /** Send X-RateLimit-* and RateLimit-* headers on every answer (default true). */
  rateLimitHeaders?: boolean
  /** Give checks and incidents a `createdAt` (default true); false: a server whose resources carry none. */
  createdAt?: boolean
}

interface Stored extends Json {
  id: string
}

const CHECK_DEFAULTS = { type: 'http', interval: 60, alertChannels: [] as string[] }
const SERVER_FIELDS = ['id', 'status', 'lastCheckedAt', 'responseTime', 'createdAt', 'updatedAt']

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }
}

interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export class Emulator {
  readonly options: Required<Omit<EmulatorOptions, 'rateLimit' | 'tls' | 'latency' | 'createLatencyMs'>> &
    Pick<EmulatorOptions, 'rateLimit' | 'tls'>
  /** Per-route latency (see EmulatorOptions.latency); may be changed between requests. */
  latency: Record<string, number>
  checks = new Map<string, Stored>()
  incidents = new Map<string, Stored>()
  statusPages = new Map<string, Stored>()
  history = new Map<string, Json[]>()
  requests: RequestRecord[] = []
  faults: Array<Fault & { left: number }> = []
  private server?: http.Server
  /** One fixed rate-limit window per key, shared by every connection that uses it. */
  private windows = new Map<string, { start: number; count: number }>()
  private timers = new Map<string, NodeJS.Timeout>()
  private sockets = new Set<import('node:net').Socket>()
  /** Bumped by reset(): requests still in flight from before are dropped, never applied. */
  private generation = 0
  baseUrl = ''

  constructor(options: EmulatorOptions = {}) {
    this.options = {
      port: options.port ?? 0,
      host: options.host ?? '127.0.0.1',
      apiKeys: options.apiKeys ?? ['test-key'],
      rateLimit: options.rateLimit === undefined ? { limit: 100, windowMs: 60_000 } : options.rateLimit,
      pageSize: options.pageSize ?? 50,
      collectionStyle: options.collectionStyle ?? 'envelope',
      putSemantics: options.putSemantics ?? 'replace',
      probe: options.probe ?? false,
      timeScale: options.timeScale ?? 1,
      probeTimeoutMs: options.probeTimeoutMs ?? 5_000,
      historyLimit: options.historyLimit ?? 1_000,
      tls: options.tls,
      rateLimitHeaders: options.rateLimitHeaders ?? true,
      createdAt: options.createdAt ?? true
    }
    this.latency = { ...(options.latency ?? {}) }
    if (options.createLatencyMs) {
      for (const collection of ['/checks', '/incidents', '/status-pages'])
        this.latency[`POST ${collection}`] ??= options.createLatencyMs
    }
  }

  /** Start listening; resolves with the API's base URL (…/v1). */
  async start(): Promise<string> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res)
    this.server = this.options.tls ? https.createServer(this.options.tls, handler) : http.createServer(handler)
    this.server.on('connection', socket => {
      this.sockets.add(socket)
      socket.on('close', () => this.sockets.delete(socket))
    })
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject)
      this.server?.listen(this.options.port, this.options.host, () => resolve())
    })
    const { port } = this.server.address() as AddressInfo
    const host = this.options.host.includes(':') ? `[${this.options.host}]` : this.options.host
    this.baseUrl = `${this.options.tls ? 'https' : 'http'}://${host}:${port}/v1`
    return this.baseUrl
  }

  async stop(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>(resolve => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  /** Forget all data, requests, faults and rate-limit windows (latency is configuration: it stays). */
  reset(): void {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
    this.checks.clear()
    this.incidents.clear()
    this.statusPages.clear()
    this.history.clear()
    this.requests = []
    this.faults = []
    this.windows.clear()
    this.generation++
  }

  /** Connections open now (a client that gave up has closed its own). */
  openConnections(): number {
    return this.sockets.size
  }

  /** Add a fault; it applies to the next `times` matching requests. */
  inject(fault: Fault): void {
    const times = fault.times === undefined ? 1 : fault.times < 0 ? Infinity : fault.times
    this.faults.push({ ...fault, left: times })
  }

  /** Requests to the API (admin requests are not counted), optionally filtered. */
  count(method?: string, pathPrefix?: string): number {
    return this.requests.filter(r => (!method || r.method === method) && (!pathPrefix || r.path.startsWith(pathPrefix)))
      .length
  }

  /** Add a check directly (no request, no rate limit), for test setup. */
  seedCheck(fields: Json): Stored {
    const now = this.now()
    const check: Stored = {
      ...CHECK_DEFAULTS,
      status: 'pending',
      lastCheckedAt: null,
      responseTime: null,
      ...fields,
      id: typeof fields.id === 'string' ? fields.id : newId('chk'),
      createdAt: typeof fields.createdAt === 'string' ? fields.createdAt : now
    }
    if (!this.options.createdAt && typeof fields.createdAt !== 'string') delete check.createdAt
    this.checks.set(check.id, check)
    this.history.set(check.id, [])
    this.schedule(check.id, 0)
    return check
  }

  seedIncident(fields: Json): Stored {
    const now = this.now()
    const incident: Stored = { status: 'investigating', createdAt: now, updatedAt: now, ...fields, id: newId('inc') }
    if (!this.options.createdAt && typeof fields.createdAt !== 'string') delete incident.createdAt
    this.incidents.set(incident.id, incident)
    return incident
  }

  // ------------------------------------------------------------------ plumbing

  private now(): string {
    return new Date().toISOString()
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator')
    if (url.pathname.startsWith('/__emulator')) return this.admin(req, res, url)
    const method = (req.method ?? 'GET').toUpperCase()
    const path = url.pathname.replace(/^\/v1(?=\/|$)/, '')
    const record: RequestRecord = { method, path: path + url.search, status: 0, at: Date.now(), authorized: false }
    this.requests.push(record)
    let raw = ''
    let tooLarge = false
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      raw += chunk
      if (raw.length > 1_000_000) tooLarge = true
    })
    await new Promise<void>(resolve => req.on('end', () => resolve()))

    const fault = this.takeFault(method, path)
    const generation = this.generation
    if (fault?.delayMs) await new Promise(r => setTimeout(r, fault.delayMs))
    if (generation !== this.generation) {
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
        const key = this.authenticate(req)
        record.authorized = true
        const counted = this.rateLimit(key)
        if (tooLarge) throw new HttpProblem(413, 'payload_too_large', 'Request body too large')
        const hold = this.latencyOf(method, path)
        if (hold > 0) {
          await new Promise(r => setTimeout(r, hold))
          if (generation !== this.generation) {
            req.socket.destroy()
            return
          }
        }
        budget = counted?.()
        answer = this.route(method, path, url, raw)
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
    if (fault?.trickle) trickle(res, answer, fault)
    else send(res, answer)
  }

  private takeFault(method: string, path: string): Fault | undefined {
    const fault = this.faults.find(f => {
      if (f.left <= 0) return false
      if (f.method && f.method.toUpperCase() !== method) return false
      if (f.path) {
        if (f.path.startsWith('re:')) return new RegExp(f.path.slice(3)).test(path)
        return f.path === path
      }
      return true
    })
    if (fault) fault.left--
    return fault
  }

  private authenticate(req: http.IncomingMessage): string {
    const header = req.headers.authorization ?? ''
    const match = /^Bearer (.+)$/.exec(header)
    if (!match || !this.options.apiKeys.includes(match[1])) {
      throw new HttpProblem(
        401,
        'unauthorized',
        match ? 'Invalid API key' : 'Missing API key: send Authorization: Bearer <API_KEY>'
      )
    }
    return match[1]
  }

  /** How long a request to this route is held before it takes effect. */
  private latencyOf(method: string, path: string): number {
    return this.latency[`${method} ${path}`] ?? this.latency[method] ?? this.latency[path] ?? 0
  }

  /**
   * Count the request in its key's fixed window (one per key, across every
   * connection). Returns what makes the answer's rate-limit headers (as of
   * when the answer is sent); throws a 429 when the window is spent.
   */
  private rateLimit(key: string): (() => Record<string, string>) | undefined {
    const limit = this.options.rateLimit
    if (!limit) return undefined
    const now = Date.now()
    let window = this.windows.get(key)
    if (!window || now >= window.start + limit.windowMs) {
      window = { start: now, count: 0 }
      this.windows.set(key, window)
    }
    const resetAt = window.start + limit.windowMs
    const current = window
    const headers = (remaining: number): Record<string, string> => {
      if (!this.options.rateLimitHeaders) return {}
      const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
      return {
        'X-RateLimit-Limit': String(limit.limit),
        'X-RateLimit-Remaining': String(remaining),
        'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
        'RateLimit-Limit': String(limit.limit),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(seconds)
      }
    }
    if (window.count >= limit.limit) {
      throw new HttpProblem(
        429,
        'rate_limited',
        `Rate limit exceeded: ${limit.limit} requests per ${limit.windowMs / 1000} s`,
        { 'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))), ...headers(0) }
      )
    }
    window.count++
    // The count as of the answer: requests that arrived meanwhile (during a latency hold) are in it.
    return () =>
      this.windows.get(key) === current && Date.now() < resetAt
        ? headers(limit.limit - current.count)
        : headers(limit.limit)
  }

  private route(method: string, path: string, url: URL, raw: string): Answer {
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent)
    const body = (): Json => {
      let parsed: unknown
      try {
        parsed = JSON.parse(raw)
      } catch {
        throw new HttpProblem(400, 'invalid_json', 'Request body is not valid JSON')
      }
      if (!isObject(parsed)) throw new HttpProblem(400, 'invalid_request', 'Request body must be a JSON object')
      return parsed
    }
    const [collection, id, sub] = parts
    const notAllowed = () => {
      throw new HttpProblem(405, 'method_not_allowed', `${method} is not allowed on ${path}`)
    }
    if (collection === 'checks') {
      if (!id) {
        if (method === 'GET') return this.page([...this.checks.values()], url)
        if (method === 'POST') return { status: 201, body: { data: this.createCheck(body()) } }
        return notAllowed()
      }
      const check = this.checks.get(id)
      if (!check) throw new HttpProblem(404, 'not_found', `Check ${id} not found`)
      if (sub === 'history' && parts.length === 3) {
        if (method === 'GET') return this.page(this.history.get(id) ?? [], url)
        return notAllowed()
      }
      if (parts.length !== 2) throw new HttpProblem(404, 'not_found', `No such path: ${path}`)
      if (method === 'GET') return { status: 200, body: { data: check } }
      if (method === 'PUT') return { status: 200, body: { data: this.updateCheck(check, body()) } }
      if (method === 'DELETE') {
        this.checks.delete(id)
        this.history.delete(id)
        clearTimeout(this.timers.get(id))
        this.timers.delete(id)
        return { status: 204 }
      }
      return notAllowed()
    }
    if (collection === 'incidents') {
      if (!id) {
        if (method === 'GET') return this.page([...this.incidents.values()], url)
        if (method === 'POST') return { status: 201, body: { data: this.createIncident(body()) } }
        return notAllowed()
      }
      const incident = this.incidents.get(id)
      if (!incident || parts.length !== 2) throw new HttpProblem(404, 'not_found', `Incident ${id} not found`)
      if (method === 'PUT') return { status: 200, body: { data: this.updateIncident(incident, body()) } }
      return notAllowed()
    }
    if (collection === 'status-pages') {
      if (!id) {
        if (method === 'GET') return this.page([...this.statusPages.values()], url)
        if (method === 'POST') return { status: 201, body: { data: this.createStatusPage(body()) } }
        return notAllowed()
      }
      const page = this.statusPages.get(id)
      if (!page || parts.length !== 2) throw new HttpProblem(404, 'not_found', `Status page ${id} not found`)
      if (method === 'GET') return { status: 200, body: { data: page } }
      return notAllowed()
    }
    throw new HttpProblem(404, 'not_found', `No such path: ${path}`)
  }

  /** One page of a collection, shaped as the options say, with a next link when there are more. */
  private page(items: Json[], url: URL): Answer {
    const size = Math.min(Math.max(Number(url.searchParams.get('per_page')) || this.options.pageSize, 1), 500)
    const cursor = url.searchParams.get('cursor')
    const page = cursor
      ? Number(Buffer.from(cursor, 'base64url').toString()) || 1
      : Math.max(Number(url.searchParams.get('page')) || 1, 1)
    const rows = items.slice((page - 1) * size, page * size)
    const more = page * size < items.length
    const next = new URL(url.href)
    next.searchParams.set('page', String(page + 1))
    const nextPath = `/v1${next.pathname.replace(/^\/v1/, '')}${next.search}`
    const headers: Record<string, string> = {}
    switch (this.options.collectionStyle) {
      case 'bare':
        if (more) headers.Link = `<${this.baseUrl.replace(/\/v1$/, '')}${nextPath}>; rel="next"`
        return { status: 200, body: rows, headers }
      case 'cursor':
        return {
          status: 200,
          body: { data: rows, next_cursor: more ? Buffer.from(String(page + 1)).toString('base64url') : null }
        }
      default:
        if (more) headers.Link = `<${this.baseUrl.replace(/\/v1$/, '')}${nextPath}>; rel="next"`
        return { status: 200, body: { data: rows, links: { next: more ? nextPath : null } }, headers }
    }
  }

  private validateCheck(check: Json, partial: boolean): void {
    const bad = (message: string): never => {
      throw new HttpProblem(400, 'invalid_request', message)
    }
    if (!partial || 'name' in check) {
      if (typeof check.name !== 'string' || check.name.trim() === '')
        bad('name is required and must be a non-empty string')
    }
    if (!partial || 'url' in check) {
      let ok: boolean
      try {
        ok = ['http:', 'https:'].includes(new URL(String(check.url)).protocol) && typeof check.url === 'string'
      } catch {
        ok = false
      }
      if (!ok) bad('url is required and must be an absolute http(s) URL')
    }
    if ('type' in check && typeof check.type !== 'string') bad('type must be a string')
    if ('interval' in check && !(Number.isInteger(check.interval) && (check.interval as number) > 0))
      bad('interval must be a positive integer')
    if (
      'alertChannels' in check &&
      !(Array.isArray(check.alertChannels) && check.alertChannels.every(c => typeof c === 'string'))
    ) {
      bad('alertChannels must be an array of strings')
    }
    if ('status' in check && typeof check.status !== 'string') bad('status must be a string')
  }

  private createCheck(input: Json): Stored {
    this.validateCheck(input, false)
    const fields = Object.fromEntries(Object.entries(input).filter(([k]) => !SERVER_FIELDS.includes(k)))
    const paused = input.status === 'paused'
    return this.seedCheck({ ...CHECK_DEFAULTS, ...fields, status: paused ? 'paused' : 'pending' })
  }

  private updateCheck(check: Stored, input: Json): Stored {
    this.validateCheck(input, this.options.putSemantics === 'merge')
    const writable = Object.fromEntries(Object.entries(input).filter(([k]) => !SERVER_FIELDS.includes(k)))
    const kept = Object.fromEntries(Object.entries(check).filter(([k]) => SERVER_FIELDS.includes(k)))
    const next: Stored =
      this.options.putSemantics === 'merge' ? { ...check, ...writable } : ({ ...writable, ...kept } as Stored)
    const wasPaused = check.status === 'paused'
    if (typeof input.status === 'string') next.status = input.status
    next.updatedAt = this.now()
    this.checks.set(check.id, next)
    const nowPaused = next.status === 'paused'
    if (nowPaused) {
      clearTimeout(this.timers.get(check.id))
      this.timers.delete(check.id)
    } else if (wasPaused || check.interval !== next.interval || check.url !== next.url) {
      this.schedule(check.id, 0)
    }
    return next
  }

  private createIncident(input: Json): Stored {
    if (typeof input.title !== 'string' || input.title.trim() === '') {
      throw new HttpProblem(400, 'invalid_request', 'title is required and must be a non-empty string')
    }
    const fields = Object.fromEntries(
      Object.entries(input).filter(([k]) => !['id', 'createdAt', 'updatedAt'].includes(k))
    )
    return this.seedIncident(fields)
  }

  private updateIncident(incident: Stored, input: Json): Stored {
    const fields = Object.fromEntries(
      Object.entries(input).filter(([k]) => !['id', 'createdAt', 'updatedAt'].includes(k))
    )
    const next: Stored =
      this.options.putSemantics === 'merge'
        ? { ...incident, ...fields }
        : { ...fields, id: incident.id, createdAt: incident.createdAt }
    if (typeof next.title !== 'string' || next.title.trim() === '') {
      throw new HttpProblem(400, 'invalid_request', 'title is required and must be a non-empty string')
    }
    next.updatedAt = this.now()
    this.incidents.set(incident.id, next)
    return next
  }

  private createStatusPage(input: Json): Stored {
    if (typeof input.name !== 'string' || input.name.trim() === '') {
      throw new HttpProblem(400, 'invalid_request', 'name is required and must be a non-empty string')
    }
    const page: Stored = { ...input, id: newId('sp'), createdAt: this.now() }
    this.statusPages.set(page.id, page)
    return page
  }

  // ------------------------------------------------------------------ probing

  /** Probe `id` after `delayMs`, then every interval (scaled), while it exists and is not paused. */
  private schedule(id: string, delayMs: number): void {
    if (!this.options.probe) return
    clearTimeout(this.timers.get(id))
    const check = this.checks.get(id)
    if (!check || check.status === 'paused') return
    const timer = setTimeout(() => {
      void this.probe(id).then(() => {
        const current = this.checks.get(id)
        if (current && this.timers.get(id) === timer) {
          this.schedule(id, Math.max(10, Number(current.interval) * 1000 * this.options.timeScale))
        }
      })
    }, delayMs)
    timer.unref()
    this.timers.set(id, timer)
  }

  /** One real probe: GET the check's URL; up for a 2xx/3xx answer within the probe timeout. */
  async probe(id: string): Promise<void> {
    const check = this.checks.get(id)
    if (!check || check.status === 'paused') return
    const started = Date.now()
    const { ok, statusCode, error } = await probeUrl(String(check.url), this.options.probeTimeoutMs)
    const current = this.checks.get(id)
    if (!current || current.status === 'paused') return
    const entry = {
      checkedAt: this.now(),
      status: ok ? 'up' : 'down',
      responseTime: Date.now() - started,
      ...(statusCode ? { statusCode } : {}),
      ...(error ? { error } : {})
    }
    current.status = entry.status
    current.responseTime = entry.responseTime
    current.lastCheckedAt = entry.checkedAt
    const list = this.history.get(id) ?? []
    list.unshift(entry)
    list.length = Math.min(list.length, this.options.historyLimit)
    this.history.set(id, list)
  }

  // ------------------------------------------------------------------ admin

  private async admin(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    let raw = ''
    req.setEncoding('utf8')
    for await (const chunk of req) raw += chunk
    const action = url.pathname.replace(/^\/__emulator\/?/, '')
    try {
      if (req.method === 'GET' && action === 'requests') return send(res, { status: 200, body: this.requests })
      if (req.method === 'GET' && action === 'state') {
        return send(res, {
          status: 200,
          body: {
            checks: [...this.checks.values()],
            incidents: [...this.incidents.values()],
            statusPages: [...this.statusPages.values()]
          }
        })
      }
      if (req.method === 'POST' && action === 'reset') {
        this.reset()
        return send(res, { status: 204 })
      }
      if (req.method === 'POST' && action === 'latency') {
        const routes = JSON.parse(raw || '{}') as Record<string, number>
        for (const [route, ms] of Object.entries(routes)) {
          if (typeof ms !== 'number' || !(ms >= 0)) throw new Error(`latency of ${route} must be a number of ms`)
          if (ms === 0) delete this.latency[route]
          else this.latency[route] = ms
        }
        return send(res, { status: 200, body: this.latency })
      }
      if (req.method === 'POST' && action === 'faults') {
        const fault = JSON.parse(raw || '{}') as Fault
        this.inject(fault)
        return send(res, { status: 201, body: fault })
      }
      return send(res, { status: 404, body: { error: { message: `unknown admin action ${action}` } } })
    } catch (error) {
      return send(res, { status: 400, body: { error: { message: String(error) } } })
    }
  }
}

/** A fault's body with `{authorization}` replaced by the request's header. */
function echoed(body: Fault['body'], req: http.IncomingMessage): Fault['body'] {
  if (body === undefined) return body
  const auth = req.headers.authorization ?? ''
  if (typeof body === 'string') return body.split('{authorization}').join(auth)
  return JSON.parse(JSON.stringify(body).split('{authorization}').join(auth)) as Fault['body']
}

function problemAnswer(error: unknown): Answer {
  if (error instanceof HttpProblem) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message } },
      headers: error.headers
    }
  }
  return { status: 500, body: { error: { code: 'internal', message: 'Internal server error' } } }
}

function send(res: http.ServerResponse, answer: Answer): void {
  if (res.destroyed) return
  const headers: Record<string, string> = { ...(answer.headers ?? {}) }
  let payload = ''
  if (answer.body !== undefined && answer.status !== 204) {
    payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
    if (!Object.keys(headers).some(h => h.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'
    }
  }
  res.writeHead(answer.status, headers)
  res.end(payload)
}

/** The fault's slow delivery of `answer` (see Fault.trickle); stops when the client goes away. */
function trickle(res: http.ServerResponse, answer: Answer, fault: Fault): void {
  const every = fault.trickleIntervalMs ?? 200
  const endAt = Date.now() + (fault.trickleForMs ?? 60_000)
  const socket = res.socket
  if (!socket) return
  const payload = answer.body === undefined ? '' : JSON.stringify(answer.body)
  let lines = 0
  if (fault.trickle === 'headers') socket.write(`HTTP/1.1 ${answer.status} Slow\r\n`)
  else {
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) })
    res.flushHeaders()
  }
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer)
    if (Date.now() < endAt) {
      if (fault.trickle === 'headers') socket.write(`X-Trickle-${++lines}: .\r\n`)
      else res.write(' ')
      return
    }
    clearInterval(timer)
    if (fault.trickle === 'headers') {
      socket.end(
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`
      )
    } else res.end(payload)
  }, every)
  socket.on('close', () => clearInterval(timer))
}

/** GET a URL once; never follows redirects (3xx counts as up). */
export function probeUrl(
  target: string,
  timeoutMs: number
): Promise<{ ok: boolean; statusCode?: number; error?: string }> {
  return new Promise(resolve => {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      resolve({ ok: false, error: 'invalid URL' })
      return
    }
    const lib = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined
    if (!lib) {
      resolve({ ok: false, error: `unsupported protocol ${url.protocol}` })
      return
    }
    const req = lib.get(url, { timeout: timeoutMs, headers: { 'User-Agent': 'monitoring-emulator-probe' } }, res => {
      res.resume()
      const code = res.statusCode ?? 0
      res.on('end', () => resolve({ ok: code >= 200 && code < 400, statusCode: code }))
      res.on('error', () => resolve({ ok: false, statusCode: code, error: 'connection broke' }))
    })
    req.on('timeout', () => {
      req.destroy()
      resolve({ ok: false, error: `no answer within ${timeoutMs} ms` })
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, error: error.code ?? error.message }))
  })
}
