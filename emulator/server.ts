/**
 * An emulator of the monitoring API (seed document), in memory, on 127.0.0.1.
 * This file is the server: its options, its state, listening and the admin
 * and test hooks. The parts:
 *   answer.ts      answering one request: faults, auth, the rate limit, latency, routing
 *   store.ts       the data and the API's rules for changing it
 *   routes.ts      the 12 endpoints as a table
 *   paging.ts      collections, paged and shaped as configured
 *   rate-limit.ts  one fixed window per key, headers on every answer, 429
 *   faults.ts      injected faults (status, delay, drop, after, trickle)
 *   probe.ts       real probing of each check's URL
 *   views.ts       how answers are shown (no createdAt, times without a zone, history times)
 *   profiles.ts    a service like yours by name (--profile): options and views together
 *   admin.ts       /__emulator: requests, state, reset, faults, latency, views, history
 *   history.ts     a check's past, given or made (POST /__emulator/history)
 *   cli.ts         `npm run emulator`: flags only
 */
import * as http from 'node:http'
import * as https from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { admin } from './admin.js'
import { Fault, FaultList } from './faults.js'
import { type Json, withoutKeySegment } from './http.js'
import type { CollectionStyle } from './paging.js'
import { Prober } from './probe.js'
import { profileSettings } from './profiles.js'
import { RateHeaderForm, RateLimit, RateWindows } from './rate-limit.js'
import { Store, Stored, TitleForm } from './store.js'
import { DEFAULT_VIEWS, Views } from './views.js'
import { RequestRecord, answer } from './answer.js'

export type { Fault } from './faults.js'
export type { RequestRecord } from './answer.js'

export interface EmulatorOptions {
  port?: number
  host?: string
  apiKeys?: string[]
  /** Requests per window per key; false turns the limit off. */
  rateLimit?: RateLimit | false
  pageSize?: number
  /** How collections are shaped and paged. */
  collectionStyle?: CollectionStyle
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
  /** Which rate-limit headers (default both families: rate-limit.ts). */
  rateHeaderForm?: RateHeaderForm
  /** Profiles (profiles.ts), later over earlier; an option given here wins over a profile's. */
  profiles?: string[]
}

export class Emulator {
  readonly options: Required<Omit<EmulatorOptions, 'rateLimit' | 'tls' | 'latency' | 'createLatencyMs' | 'profiles'>> &
    Pick<EmulatorOptions, 'rateLimit' | 'tls'>
  /** Per-route latency (see EmulatorOptions.latency); may be changed between requests. */
  latency: Record<string, number>
  requests: RequestRecord[] = []
  baseUrl = ''
  private readonly store: Store
  private readonly prober: Prober
  private rateWindows: RateWindows
  private faultList = new FaultList()
  private server?: http.Server
  private sockets = new Set<Socket>()
  /** Bumped by reset(): requests still in flight from before are dropped, never applied. */
  private generation = 0
  /** How answers are shown (views.ts): switchable while running, e.g. no createdAt, zone-less times. */
  views: Views = { ...DEFAULT_VIEWS }
  /** The views a reset restores: the defaults with the profiles' views. */
  private readonly baseViews: Views
  /** Requests received and not yet answered (a simulation waits for none before judging). */
  inFlight = 0

  constructor(options: EmulatorOptions = {}) {
    const profile = profileSettings(options.profiles ?? [])
    this.options = {
      port: options.port ?? 0,
      host: options.host ?? '127.0.0.1',
      apiKeys: options.apiKeys ?? ['test-key'],
      rateLimit: options.rateLimit === undefined ? { limit: 100, windowMs: 60_000 } : options.rateLimit,
      pageSize: options.pageSize ?? 50,
      collectionStyle: options.collectionStyle ?? profile.collectionStyle ?? 'envelope',
      putSemantics: options.putSemantics ?? profile.putSemantics ?? 'replace',
      probe: options.probe ?? false,
      timeScale: options.timeScale ?? 1,
      probeTimeoutMs: options.probeTimeoutMs ?? 5_000,
      historyLimit: options.historyLimit ?? 1_000,
      tls: options.tls,
      rateLimitHeaders: options.rateLimitHeaders ?? profile.rateLimitHeaders ?? true,
      rateHeaderForm: options.rateHeaderForm ?? profile.rateHeaderForm ?? 'both',
      createdAt: options.createdAt ?? profile.createdAt ?? true
    }
    this.baseViews = { ...DEFAULT_VIEWS, ...profile.views, createdAt: this.options.createdAt }
    this.views = { ...this.baseViews }
    this.latency = { ...(options.latency ?? {}) }
    if (options.createLatencyMs) {
      for (const collection of ['/checks', '/incidents', '/status-pages'])
        this.latency[`POST ${collection}`] ??= options.createLatencyMs
    }
    this.store = new Store({ putSemantics: this.options.putSemantics, createdAt: this.options.createdAt })
    this.prober = new Prober(this.store, {
      enabled: this.options.probe,
      timeScale: this.options.timeScale,
      timeoutMs: this.options.probeTimeoutMs,
      historyLimit: this.options.historyLimit
    })
    this.store.probes = this.prober
    this.rateWindows = new RateWindows(
      this.options.rateLimit ?? false,
      this.options.rateLimitHeaders,
      this.options.rateHeaderForm
    )
  }

  get checks(): Map<string, Stored> {
    return this.store.checks
  }
  get incidents(): Map<string, Stored> {
    return this.store.incidents
  }
  get statusPages(): Map<string, Stored> {
    return this.store.statusPages
  }
  get history(): Map<string, Json[]> {
    return this.store.history
  }
  /** Every check deleted since the last reset, as it was, with `deletedAt`. */
  get deletedChecks(): readonly Stored[] {
    return this.store.deleted
  }
  /** Requests received and not answered, except writes a `late` fault holds (they land when they land). */
  get unsettled(): number {
    return this.inFlight - this.faultList.heldLate
  }
  /** How the service stores incident titles (store.ts TitleForm): as sent unless set; a reset restores that. */
  get incidentTitles(): TitleForm {
    return this.store.titles
  }
  set incidentTitles(form: TitleForm) {
    this.store.titles = { ...form }
  }
  /** When each rate-limit window opened since the last reset or limit set (ms), any key, oldest first. */
  get rateWindowStarts(): readonly number[] {
    return this.rateWindows.opened
  }
  /** The faults still in force. */
  get faults(): ReadonlyArray<Fault & { left: number }> {
    return this.faultList.items
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
    this.prober.cancelAll()
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>(resolve => (this.server ? this.server.close(() => resolve()) : resolve()))
  }

  /** Forget all data, requests, faults and rate-limit windows (latency is configuration: it stays). */
  reset(): void {
    this.prober.cancelAll()
    this.store.clear()
    this.requests = []
    this.faultList = new FaultList()
    this.rateWindows.clear()
    this.views = { ...this.baseViews }
    this.afterAnswer = undefined
    this.generation++
  }

  /**
   * The rate limit from now on, and whether answers carry its headers (a
   * simulation sets both for each round); every window starts afresh.
   */
  setRateLimit(limits: Required<Pick<EmulatorOptions, 'rateLimit' | 'rateLimitHeaders'>>): void {
    this.options.rateLimit = limits.rateLimit
    this.options.rateLimitHeaders = limits.rateLimitHeaders
    this.rateWindows = new RateWindows(limits.rateLimit, limits.rateLimitHeaders, this.options.rateHeaderForm)
  }

  /** Remove every fault still in force (data, requests and views stay). */
  clearFaults(): void {
    this.faultList = new FaultList()
  }

  /** Connections open now (a client that gave up has closed its own). */
  openConnections(): number {
    return this.sockets.size
  }

  /** Add a fault; it applies to the next `times` matching requests. */
  inject(fault: Fault): void {
    this.faultList.add(fault)
  }

  /** Requests to the API (admin requests are not counted), optionally filtered. */
  count(method?: string, pathPrefix?: string): number {
    return this.requests.filter(r => (!method || r.method === method) && (!pathPrefix || r.path.startsWith(pathPrefix)))
      .length
  }

  /** Add a check directly (no request, no rate limit), for test setup. */
  seedCheck(fields: Json): Stored {
    return this.store.seedCheck(fields)
  }

  /** Add an incident directly (no request, no rate limit), for test setup. */
  seedIncident(fields: Json): Stored {
    return this.store.seedIncident(fields)
  }

  /**
   * Called once each API request has been answered (tests): the service's
   * data may change between two reads of one step, e.g. a probe landing right
   * after the step's first read of a check. A reset removes it.
   */
  afterAnswer?: (request: RequestRecord) => void

  /** Probe a check now (tests). */
  probe(id: string): Promise<void> {
    return this.prober.probe(id)
  }

  /** A probe whose outcome the caller decides (no fetch), as a service's probe finishing now; false if paused or gone. */
  recordProbe(id: string, outcome: { status: string; responseTime: number; statusCode?: number }): boolean {
    return this.prober.record(id, outcome)
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://emulator')
    if (url.pathname.startsWith('/__emulator')) return admin(this, req, res, url)
    const method = (req.method ?? 'GET').toUpperCase()
    const path = withoutKeySegment(url.pathname.replace(/^\/v1(?=\/|$)/, ''), this.options.apiKeys)
    const record: RequestRecord = { method, path: path + url.search, status: 0, at: Date.now(), authorized: false }
    this.requests.push(record)
    this.inFlight++
    try {
      await answer(
        {
          store: this.store,
          faults: this.faultList,
          generation: () => this.generation,
          rateWindows: this.rateWindows,
          apiKeys: this.options.apiKeys,
          latency: this.latency,
          views: this.views,
          collectionStyle: this.options.collectionStyle,
          pageSize: this.options.pageSize,
          baseUrl: this.baseUrl
        },
        req,
        res,
        url,
        method,
        path,
        record
      )
    } finally {
      this.inFlight--
    }
    this.afterAnswer?.(record)
  }
}
