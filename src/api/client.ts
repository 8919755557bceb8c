/**
 * The HTTP client of the monitoring API: Bearer auth, per-request timeout,
 * same-origin redirects only, retries and rate limits (retry.ts), pacing
 * (pacer.ts), pagination, `{data: ...}` or bare bodies, and errors that name
 * the method, path, status and the server's message. It knows nothing of the
 * runner: it is given a logger.
 */
import { HttpClient, getProxyUrl } from '@actions/http-client'
import type { IncomingHttpHeaders } from 'node:http'
import { z } from 'zod'
import { isMapping } from '../values.js'
import { ApiError, httpError } from './errors.js'
import { TransportOptions, exchange } from './transport.js'
import { redact, withoutCredentials } from '../secrets.js'
import { Clock, Pacer, PacingDeadline, realClock } from './pacer.js'
import {
  MAX_RATE_LIMIT_WAIT_MS,
  Method,
  backoffMs,
  isRetryableStatus,
  mayResend,
  serverBudget,
  serverWaitMs
} from './retry.js'

export interface Logger {
  debug: (message: string) => void
  info: (message: string) => void
  warning: (message: string) => void
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warning: () => {} }

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  maxRetries: number
  requestTimeoutMs: number
  log?: Logger
  userAgent?: string
  /** Pacing; defaults to the API's 100 requests a minute. `null` turns it off. */
  pacer?: Pacer | null
  clock?: Clock
  random?: () => number
  /** Largest response body read into memory. */
  maxResponseBytes?: number
  /** Most pages followed by one list. */
  maxPages?: number
  /** Aborted when the job is cancelled: no new request starts and waits end at once. */
  signal?: AbortSignal
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
  url: URL
  /** How many times the request was sent (1 = no retry). */
  attempts: number
  /** How long the last attempt took, from sending to the whole answer (ms). */
  tookMs: number
}

/** A resource a POST created. */
export interface Created<T> {
  item: T
  /** Found by looking after an ambiguous failure, rather than in the answer. */
  recovered: boolean
  /** How long the create took to be answered (the last attempt), for the settle wait of converge. */
  tookMs: number
}

export const RATE_LIMIT = { limit: 100, windowMs: 60_000 }
const MAX_REDIRECTS = 5
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024
const DEFAULT_MAX_PAGES = 100

/** Ambiguous failures of a POST: the create may or may not have happened. */
export function isAmbiguous(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.kind === 'network' || error.kind === 'timeout') return true
  return error.kind === 'http' && error.status !== undefined && (error.status >= 500 || error.status === 408)
}

export class ApiClient {
  /** Absolute time (ms) after which no retry wait starts; set by the gate. */
  deadline?: number

  private readonly transport: TransportOptions
  private readonly base: URL
  private readonly log: Logger
  private readonly pacer: Pacer | null
  private readonly clock: Clock
  private readonly random: () => number
  readonly maxPages: number

  constructor(private readonly options: ClientOptions) {
    this.base = new URL(options.baseUrl.replace(/\/+$/, '') + '/')
    this.log = options.log ?? silentLogger
    this.clock = options.clock ?? realClock
    this.random = options.random ?? Math.random
    this.pacer =
      options.pacer === undefined ? new Pacer(RATE_LIMIT.limit, RATE_LIMIT.windowMs, this.clock) : options.pacer
    this.maxPages = options.maxPages ?? DEFAULT_MAX_PAGES
    // @actions/http-client builds the agent for a URL: a tunnel through HTTPS_PROXY/HTTP_PROXY
    // unless NO_PROXY (or a loopback host) says otherwise. The exchange itself is ours (transport.ts).
    const agents = new HttpClient(options.userAgent ?? 'monitoring-action', [], { keepAlive: false })
    this.transport = {
      timeoutMs: options.requestTimeoutMs,
      maxBytes: options.maxResponseBytes ?? DEFAULT_MAX_BYTES,
      agentFor: url => agents.getAgent(url.href),
      proxyFor: url => withoutCredentials(getProxyUrl(url.href)) || undefined
    }
  }

  /** The URL of a path under the base URL (`/checks` -> `{base}/checks`). */
  url(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.base)
  }

  /** How a URL is named in messages: its path relative to the base URL. */
  describe(url: URL): string {
    const basePath = this.base.pathname.replace(/\/$/, '')
    if (url.origin === this.base.origin && url.pathname.startsWith(basePath + '/')) {
      return url.pathname.slice(basePath.length) + url.search
    }
    return url.origin === this.base.origin ? url.pathname + url.search : `${url.origin}${url.pathname}`
  }

  // ---------------------------------------------------------------- one exchange

  /** One HTTP exchange (following same-origin redirects), with the request timeout. */
  private async exchange(method: Method, url: URL, body: string | undefined): Promise<RawResponse> {
    let current = url
    let currentMethod = method
    let currentBody = body
    for (let hop = 0; ; hop++) {
      const response = await this.once(currentMethod, current, currentBody, method)
      if (![301, 302, 303, 307, 308].includes(response.status)) return response
      const location = response.headers.location
      if (!location) return response
      let next: URL
      try {
        next = new URL(location, current)
      } catch {
        throw new ApiError({
          kind: 'redirect',
          method,
          path: this.describe(url),
          status: response.status,
          detail: `was redirected (HTTP ${response.status}) to an invalid Location header, ${JSON.stringify(this.clean(location).slice(0, 200))}; not followed`
        })
      }
      if (next.origin !== this.base.origin) {
        throw new ApiError({
          kind: 'redirect',
          method,
          path: this.describe(url),
          status: response.status,
          detail: `was redirected (HTTP ${response.status}) to another origin, ${next.origin}; not followed, so the API key is not sent there. Check base-url.`
        })
      }
      if (hop >= MAX_REDIRECTS) {
        throw new ApiError({
          kind: 'redirect',
          method,
          path: this.describe(url),
          status: response.status,
          detail: `was redirected more than ${MAX_REDIRECTS} times`
        })
      }
      if (response.status === 303) {
        currentMethod = 'GET'
        currentBody = undefined
      }
      current = next
    }
  }

  private once(method: Method, url: URL, body: string | undefined, original: Method): Promise<RawResponse> {
    const path = this.describe(url)
    this.throwIfCancelled(original, path)
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json',
      'User-Agent': this.options.userAgent ?? 'monitoring-action'
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    this.log.debug(`${method} ${path}`)
    const sent = this.clock.now()
    return exchange(method, url, headers, body, this.transport, { method: original, path }).then(answer => ({
      ...answer,
      url,
      attempts: 1,
      tookMs: this.clock.now() - sent
    }))
  }

  // ---------------------------------------------------------------- retries

  /** Wait before a retry, unless that would pass the deadline. `why` is the failure, without method and path. */
  private async wait(ms: number, method: Method, path: string, why: string): Promise<void> {
    if (this.deadline !== undefined && this.clock.now() + ms > this.deadline) {
      throw new ApiError({
        kind: 'deadline',
        method,
        path,
        detail: `${why}; not retried, because the wait (${(ms / 1000).toFixed(1)} s) would pass the operation's time limit`
      })
    }
    await this.sleep(ms, method, path)
  }

  /** Sleep, ending at once (with a `cancelled` error) when the job is cancelled. */
  private async sleep(ms: number, method: string, path: string): Promise<void> {
    this.throwIfCancelled(method, path)
    await this.clock.sleep(ms, this.options.signal)
    this.throwIfCancelled(method, path)
  }

  /** Wait for the pacer's slot; one that comes after the deadline is not waited for. Returns the pacer's ticket. */
  private async pace(method: Method, path: string): Promise<number> {
    try {
      return (await this.pacer?.take(this.deadline, this.options.signal)) ?? 0
    } catch (error) {
      if (error instanceof PacingDeadline) {
        throw new ApiError({
          kind: 'deadline',
          method,
          path,
          detail: `was not sent: ${error.message} would pass the operation's time limit`
        })
      }
      this.throwIfCancelled(method, path)
      throw error
    }
  }

  /** After a cancel, nothing new is sent. */
  private throwIfCancelled(method: string, path: string): void {
    if (this.options.signal?.aborted) {
      throw new ApiError({ kind: 'cancelled', method, path, detail: 'was not sent: the job is being cancelled' })
    }
  }

  /** Server text for a message: the key redacted first, so that shortening it later cannot leave part of the key. */
  private clean(text: string): string {
    return redact(text, [this.options.apiKey])
  }

  /**
   * Send a request with the retry policy. Resolves with a 2xx (or, when
   * `allowed` says so, another) response; throws an ApiError otherwise.
   * A POST is resent only after a 429.
   */
  async call(
    method: Method,
    target: string | URL,
    payload?: unknown,
    allowed: (status: number) => boolean = () => false
  ): Promise<RawResponse> {
    const url = typeof target === 'string' ? this.url(target) : target
    const path = this.describe(url)
    const body = payload === undefined ? undefined : JSON.stringify(payload)
    const retries = this.options.maxRetries
    for (let attempt = 1; ; attempt++) {
      const ticket = await this.pace(method, path)
      let response: RawResponse
      try {
        response = await this.exchange(method, url, body)
        const budget = serverBudget(response.headers, this.clock.now())
        if (budget) this.pacer?.observe(ticket, budget)
      } catch (error) {
        const transient = error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout')
        if (!transient || !mayResend(method, undefined) || attempt > retries) {
          throw attempt > 1 && error instanceof ApiError ? withAttempts(error, attempt) : error
        }
        const ms = backoffMs(attempt, this.random)
        this.log.warning(
          `${method} ${path}: ${(error as ApiError).detail}; retry ${attempt} of ${retries} in ${(ms / 1000).toFixed(1)} s`
        )
        await this.wait(ms, method, path, (error as ApiError).detail)
        continue
      }
      response.attempts = attempt
      const { status } = response
      if ((status >= 200 && status < 300) || allowed(status)) return response
      const retryable = isRetryableStatus(status) && mayResend(method, status)
      if (status === 429) {
        const asked = serverWaitMs(response.headers, this.clock.now())
        const ms = asked ?? backoffMs(attempt, this.random)
        if (attempt > retries || ms > MAX_RATE_LIMIT_WAIT_MS) {
          throw rateLimitError(
            method,
            path,
            this.clean(response.body),
            attempt,
            ms > MAX_RATE_LIMIT_WAIT_MS ? ms : undefined
          )
        }
        this.pacer?.pause(ms)
        this.log.warning(
          `${method} ${path}: rate limited (HTTP 429); retry ${attempt} of ${retries} in ${(ms / 1000).toFixed(1)} s${asked !== undefined ? ' as the server asked' : ''}`
        )
        await this.wait(ms, method, path, 'was rate limited (HTTP 429)')
        continue
      }
      if (!retryable || attempt > retries) {
        const error = httpError(method, path, status, this.clean(response.body))
        throw attempt > 1 ? withAttempts(error, attempt) : error
      }
      const asked = serverWaitMs(response.headers, this.clock.now())
      const ms = Math.min(asked ?? backoffMs(attempt, this.random), MAX_RATE_LIMIT_WAIT_MS)
      this.log.warning(
        `${method} ${path}: HTTP ${status}; retry ${attempt} of ${retries} in ${(ms / 1000).toFixed(1)} s`
      )
      await this.wait(ms, method, path, `failed: HTTP ${status}`)
    }
  }

  // ---------------------------------------------------------------- bodies

  private json(method: Method, response: RawResponse): unknown {
    const text = response.body.trim()
    if (text === '') return undefined
    try {
      return JSON.parse(text)
    } catch {
      throw new ApiError({
        kind: 'invalid-response',
        method,
        path: this.describe(response.url),
        status: response.status,
        detail: `returned HTTP ${response.status} but its body is not JSON: ${JSON.stringify(this.clean(text).slice(0, 120))}`
      })
    }
  }

  private parse<S extends z.ZodType>(schema: S, value: unknown, method: Method, url: URL, what: string): z.output<S> {
    const result = schema.safeParse(value)
    if (result.success) return result.data
    const issue = result.error.issues[0]
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
    throw new ApiError({
      kind: 'invalid-response',
      method,
      path: this.describe(url),
      detail: `returned ${what} that does not match the API: ${where}${issue.message}`
    })
  }

  /** A single resource: `{data: {...}}` or the bare object. */
  private single<S extends z.ZodType>(schema: S, method: Method, response: RawResponse, what: string): z.output<S> {
    const body = this.json(method, response)
    const value = isMapping(body) && isMapping(body.data) ? body.data : body
    return this.parse(schema, value, method, response.url, what)
  }

  // ---------------------------------------------------------------- verbs

  /** GET one resource; null on 404. */
  async getOrNull<S extends z.ZodType>(path: string, schema: S, what: string): Promise<z.output<S> | null> {
    const response = await this.call('GET', path, undefined, s => s === 404)
    if (response.status === 404) return null
    return this.single(schema, 'GET', response, what)
  }

  async get<S extends z.ZodType>(path: string, schema: S, what: string): Promise<z.output<S>> {
    const response = await this.call('GET', path)
    return this.single(schema, 'GET', response, what)
  }

  /** PUT a whole resource. Servers that answer with no body get the sent one back. */
  async put<S extends z.ZodType>(
    path: string,
    body: Record<string, unknown>,
    schema: S,
    what: string
  ): Promise<z.output<S>> {
    const response = await this.call('PUT', path, body)
    if (response.body.trim() === '') return this.parse(schema, body, 'PUT', response.url, what)
    return this.single(schema, 'PUT', response, what)
  }

  /**
   * DELETE; false when the resource was already gone (404). A 404 on a retry,
   * after an attempt that failed ambiguously, means that attempt deleted it.
   */
  async delete(path: string): Promise<boolean> {
    const response = await this.call('DELETE', path, undefined, s => s === 404)
    return response.status !== 404 || response.attempts > 1
  }

  /** Every item of a collection, following the server's next-page signals. */
  async list<S extends z.ZodType>(path: string, schema: S, what: string): Promise<Array<z.output<S>>> {
    const items: Array<z.output<S>> = []
    const seen = new Set<string>()
    let next: URL | undefined = this.url(path)
    for (let page = 1; next; page++) {
      if (page > this.maxPages) {
        throw new ApiError({
          kind: 'pagination',
          method: 'GET',
          path,
          detail: `has more than ${this.maxPages} pages; stopped rather than read without end`
        })
      }
      seen.add(next.href)
      const response = await this.call('GET', next)
      const body = this.json('GET', response)
      const rows = collectionOf(body)
      if (rows === undefined) {
        throw new ApiError({
          kind: 'invalid-response',
          method: 'GET',
          path: this.describe(next),
          detail: `returned HTTP ${response.status} but not a list (expected an array or {"data": [...]})`
        })
      }
      rows.forEach((row, i) => items.push(this.parse(schema, row, 'GET', next as URL, `${what} #${i + 1}`)))
      const following = this.nextPage(response, body, next)
      if (following && seen.has(following.href)) {
        throw new ApiError({
          kind: 'pagination',
          method: 'GET',
          path: this.describe(next),
          detail: 'returned a next-page link to a page already read; stopped'
        })
      }
      next = following
    }
    return items
  }

  /** The next page's URL, if the server signals one; never another origin. */
  private nextPage(response: RawResponse, body: unknown, current: URL): URL | undefined {
    const link = parseLinkNext(response.headers.link)
    let candidate: URL | undefined
    if (link) candidate = new URL(link, current)
    else if (isMapping(body)) {
      const links = isMapping(body.links) ? body.links : undefined
      const meta = isMapping(body.meta) ? body.meta : isMapping(body.pagination) ? body.pagination : undefined
      const urlLike = [links?.next, body.next, meta?.next].find(v => typeof v === 'string' && v !== '') as
        string | undefined
      const cursor = [body.nextCursor, body.next_cursor, meta?.nextCursor, meta?.next_cursor, meta?.cursor].find(
        v => typeof v === 'string' && v !== ''
      ) as string | undefined
      if (urlLike && /^(https?:\/\/|\/|\?)|\//.test(urlLike)) candidate = this.resolveNext(urlLike, current)
      else if (urlLike || cursor) {
        candidate = new URL(current.href)
        candidate.searchParams.set('cursor', (urlLike ?? cursor) as string)
      }
    }
    if (candidate && candidate.origin !== this.base.origin) {
      throw new ApiError({
        kind: 'pagination',
        method: 'GET',
        path: this.describe(current),
        detail: `returned a next-page link to another origin (${candidate.origin}); not followed, so the API key is not sent there`
      })
    }
    return candidate
  }

  /** A body's next link: absolute, origin-relative under the base path, or relative to the base URL. */
  private resolveNext(next: string, current: URL): URL {
    if (/^https?:\/\//.test(next)) return new URL(next)
    if (next.startsWith('?')) return new URL(next, current)
    const basePath = this.base.pathname
    if (next.startsWith(basePath)) return new URL(next, this.base.origin)
    return this.url(next)
  }

  /**
   * POST a new resource, never making a duplicate. After an ambiguous failure
   * (5xx, timeout, dropped connection) the collection is listed: an item that
   * `matches` and whose id is not in `before` is the one created. If there is
   * none, the POST is sent again, within the retry budget.
   */
  async create<S extends z.ZodType<{ id: string }>>(
    path: string,
    body: Record<string, unknown>,
    schema: S,
    what: string,
    recovery: { before: ReadonlySet<string>; matches: (item: z.output<S>) => boolean }
  ): Promise<Created<z.output<S>>> {
    const retries = this.options.maxRetries
    for (let attempt = 1; ; attempt++) {
      const started = this.clock.now()
      try {
        const response = await this.call('POST', path, body)
        if (response.body.trim() === '') {
          throw new ApiError({
            kind: 'invalid-response',
            method: 'POST',
            path,
            status: response.status,
            detail: `returned HTTP ${response.status} with an empty body; expected the created ${what}`
          })
        }
        const item = this.single(schema, 'POST', response, `the created ${what}`)
        return { item, recovered: false, tookMs: response.tookMs }
      } catch (error) {
        const unreadable = error instanceof ApiError && error.kind === 'invalid-response'
        if (!isAmbiguous(error) && !unreadable) throw error
        const failure = error as ApiError
        this.log.warning(`${failure.message}. Looking ${path} up to see whether the ${what} was created anyway.`)
        const failedAt = this.clock.now()
        if (failure.kind === 'timeout') {
          // The server may still be working on it: give it as long again before looking.
          await this.wait(this.options.requestTimeoutMs, 'POST', path, failure.detail)
        }
        const found = (await this.list(path, schema, what)).filter(
          item => !recovery.before.has(item.id) && recovery.matches(item)
        )
        if (found.length > 0) {
          this.log.info(`The ${what} was created despite the failure: ${found[found.length - 1].id}`)
          // How long the create took is unknown: at least until the failure.
          return { item: found[found.length - 1], recovered: true, tookMs: failedAt - started }
        }
        // A 2xx said it was created: sending it again could only make a second one.
        if (unreadable) throw failure
        if (attempt > retries) {
          throw new ApiError({
            kind: failure.kind,
            method: 'POST',
            path,
            status: failure.status,
            serverMessage: failure.serverMessage,
            detail: `${failure.detail} (${attempt} attempts; no ${what} was created: checked after each failure)`
          })
        }
        const ms = backoffMs(attempt, this.random)
        this.log.warning(
          `No ${what} was created; sending POST ${path} again (retry ${attempt} of ${retries}) in ${(ms / 1000).toFixed(1)} s`
        )
        await this.wait(ms, 'POST', path, failure.detail)
      }
    }
  }
}

function withAttempts(error: ApiError, attempts: number): ApiError {
  return new ApiError({
    kind: error.kind,
    method: error.method,
    path: error.path,
    status: error.status,
    serverMessage: error.serverMessage,
    detail: `${error.detail} (after ${attempts} attempts)`
  })
}

function rateLimitError(method: Method, path: string, body: string, attempts: number, tooLongMs?: number): ApiError {
  const base = httpError(method, path, 429, body)
  const detail = tooLongMs
    ? `was rate limited (HTTP 429): the service asked to wait ${Math.ceil(tooLongMs / 1000)} s, more than the 2 minutes the action waits; gave up`
    : `was rate limited (HTTP 429) after ${attempts} attempts (max-retries ${attempts - 1}); the service allows 100 requests a minute${base.serverMessage ? `: ${base.serverMessage}` : ''}`
  return new ApiError({ kind: 'rate-limit', method, path, status: 429, serverMessage: base.serverMessage, detail })
}

/** Rows of a collection: a bare array, or `data` / `items` / `results`. */
export function collectionOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body
  if (isMapping(body)) {
    for (const key of ['data', 'items', 'results']) {
      if (Array.isArray(body[key])) return body[key] as unknown[]
    }
  }
  return undefined
}

/** The `rel="next"` target of a Link header. */
export function parseLinkNext(header: string | string[] | undefined): string | undefined {
  if (!header) return undefined
  const text = Array.isArray(header) ? header.join(',') : header
  for (const part of text.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part)
    if (match && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(match[2])) return match[1]
  }
  return undefined
}
