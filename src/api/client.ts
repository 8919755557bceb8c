/**
 * The HTTP client of the monitoring API, composed of its parts: one exchange
 * with same-origin redirects (transport.ts), the retry decision (retry.ts),
 * pacing (pacer.ts), pages (pagination.ts) and errors that name the method,
 * path, status and the server's message (errors.ts). Bearer auth; `{data: ...}`
 * or bare bodies. It knows nothing of the runner: it is given a logger.
 */
import { HttpClient, getProxyUrl } from '@actions/http-client'
import type * as z from 'zod/mini'
import { BodyNames, jsonOf, parseAs, pathUnder, readOne } from './body.js'
import { ApiError, httpError, noAnswer, pacingError, rateLimitError, withAttempts } from './errors.js'
import { type ListRead, type PageReader, readPages } from './pagination.js'
import { Clock, Pacer, ServerBudget, realClock } from './pacer.js'
import { Failure, Method, decide, isFailure, retryLine, retryWhy, serverBudget, statedLimit } from './retry.js'
import { TransportOptions, exchangeFollowing } from './transport.js'
import { AttemptWatch, ClientOptions, Logger, RawResponse, RequestTally, silentLogger } from './types.js'
import { redact } from '../secrets/secrets.js'
import { withoutCredentials } from '../secrets/secret-positions.js'

export const RATE_LIMIT = { limit: 100, windowMs: 60_000 }
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024
const DEFAULT_MAX_PAGES = 100

export class ApiClient {
  /** Absolute time (ms) after which no wait starts: set by `withDeadline`. */
  readonly deadline?: number
  readonly log: Logger
  readonly clock: Clock
  readonly random: () => number
  readonly maxPages: number
  private readonly transport: TransportOptions
  private readonly base: URL
  private readonly pacer: Pacer | null

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
      baseUrl: withoutCredentials(options.baseUrl.replace(/\/+$/, '')),
      abort: options.signal,
      agentFor: url => agents.getAgent(url.href),
      proxyFor: url => withoutCredentials(getProxyUrl(url.href)) || undefined
    }
  }

  /** The same client (same pacing), whose waits never pass `deadline` (ms since the epoch); `hard`: nor its requests. */
  withDeadline(deadline: number, hard = false): ApiClient {
    const transport = hard ? { ...this.transport, cut: { at: deadline, now: () => this.clock.now() } } : this.transport
    return Object.assign(Object.create(ApiClient.prototype) as ApiClient, this, { deadline, transport })
  }

  /** The same client (same pacing, same deadline), counting in `tally` every request it sends: each page, retry and hop. */
  counting(tally: RequestTally): ApiClient {
    const transport = { ...this.transport, tally }
    return Object.assign(Object.create(ApiClient.prototype) as ApiClient, this, { transport })
  }

  get settings(): { maxRetries: number; requestTimeoutMs: number } {
    return { maxRetries: this.options.maxRetries, requestTimeoutMs: this.options.requestTimeoutMs }
  }

  /** The URL of a path under the base URL (`/checks` -> `{base}/checks`). */
  url(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.base)
  }

  /** How a URL is named in messages: its path relative to the base URL. */
  pathOf(url: URL): string {
    return pathUnder(this.base, url)
  }

  /** Server text for a message: the key redacted first, so that shortening it later cannot leave part of it. */
  private clean(text: string): string {
    return redact(text, [this.options.apiKey, ...(this.options.secrets ?? [])])
  }

  // ---------------------------------------------------------------- waiting
  /** After a cancel, nothing new is sent. */
  private throwIfCancelled(method: string, path: string): void {
    if (this.options.signal?.aborted) {
      throw new ApiError({ kind: 'cancelled', method, path, detail: 'was not sent: the job is being cancelled' })
    }
  }

  /** Wait `ms` before a retry, unless that would pass the deadline (`why`: the failure). `announce` only a retry made. */
  async waitToRetry(ms: number, method: Method, path: string, why: string, announce?: () => void): Promise<void> {
    if (this.deadline !== undefined && this.clock.now() + ms > this.deadline) {
      throw new ApiError({
        kind: 'deadline',
        method,
        path,
        detail: `${why}; not retried, because the wait (${(ms / 1000).toFixed(1)} s) would pass the operation's time limit`
      })
    }
    this.throwIfCancelled(method, path)
    announce?.()
    await this.clock.sleep(ms, this.options.signal)
    this.throwIfCancelled(method, path)
  }

  /** Wait for the pacer's slot (never past the deadline). Returns the pacer's ticket for this request. */
  private async pace(method: Method, path: string): Promise<number> {
    try {
      return (await this.pacer?.take(this.deadline, this.options.signal)) ?? 0
    } catch (error) {
      const refused = pacingError(error, method, path)
      if (refused) throw refused
      this.throwIfCancelled(method, path)
      throw error
    }
  }

  // ---------------------------------------------------------------- sending

  /** One attempt: pace, then one exchange (following same-origin redirects), within request-timeout. */
  private async attempt(
    method: Method,
    url: URL,
    body: string | undefined,
    path: string,
    onSent: (at: number) => void
  ): Promise<RawResponse> {
    const ticket = await this.pace(method, path)
    const sent = this.clock.now()
    let budget: ServerBudget | undefined
    try {
      const answer = await exchangeFollowing(
        { method, url, body },
        hop => ({
          Authorization: `Bearer ${this.options.apiKey}`,
          Accept: 'application/json',
          'User-Agent': this.options.userAgent ?? 'monitoring-action',
          ...(hop.body !== undefined ? { 'Content-Type': 'application/json' } : {})
        }),
        this.transport,
        {
          origin: this.base.origin,
          pathOf: u => this.pathOf(u),
          clean: text => this.clean(text),
          before: hop => {
            this.throwIfCancelled(method, path)
            onSent(this.clock.now())
            this.log.debug(`${hop.method} ${this.pathOf(hop.url)}`)
          }
        }
      )
      budget = serverBudget(answer.headers, this.clock.now())
      return { ...answer, attempts: 1, tookMs: this.clock.now() - sent }
    } finally {
      this.pacer?.settle(ticket, budget)
    }
  }

  /**
   * Send a request with the retry policy (retry.ts `decide`). Resolves with a
   * 2xx (or, when `allowed` says so, another) response; throws an ApiError
   * otherwise. A POST is resent only after a 429. `watch` is told when each
   * attempt is sent, and when one got no answer (a timeout, a dropped
   * connection, a cancel): the server may still apply that one, whatever
   * later attempts get.
   */
  async send(
    method: Method,
    target: string | URL,
    payload?: unknown,
    allowed: (status: number) => boolean = () => false,
    watch: AttemptWatch = {}
  ): Promise<RawResponse> {
    const url = typeof target === 'string' ? this.url(target) : target
    const path = this.pathOf(url)
    const body = payload === undefined ? undefined : JSON.stringify(payload)
    const retries = this.options.maxRetries
    for (let attempt = 1; ; attempt++) {
      let response: RawResponse | undefined
      let failure: ApiError | undefined
      let sentAt: number | undefined
      try {
        response = await this.attempt(method, url, body, path, at => watch.sent?.((sentAt = at)))
      } catch (error) {
        const weighed = error instanceof ApiError && isFailure(error.kind)
        if (sentAt !== undefined && noAnswer(error)) watch.unanswered?.(sentAt)
        if (!weighed) throw attempt > 1 && error instanceof ApiError ? withAttempts(error, attempt) : error
        failure = error
      }
      if (response) {
        response.attempts = attempt
        if ((response.status >= 200 && response.status < 300) || allowed(response.status)) return response
      }
      const outcome = response
        ? { status: response.status, headers: response.headers }
        : { failure: (failure as ApiError).kind as Failure }
      const decision = decide(method, attempt, retries, outcome, this.clock.now(), this.random)
      const status = response?.status
      if (!decision.retry) {
        if (status === 429) {
          const stated = statedLimit(response?.headers ?? {})
          throw rateLimitError(method, path, this.clean(response?.body ?? ''), attempt, stated, decision.tooLongMs)
        }
        const error = failure ?? httpError(method, path, status as number, this.clean(response?.body ?? ''))
        throw attempt > 1 ? withAttempts(error, attempt) : error
      }
      const why = retryWhy(status, failure?.detail ?? '')
      // A retry is a log line, not a warning: a run whose retries end in success stays green. If
      // they do not, the error that fails the step says how many attempts were made.
      // After a 429 every request waits; the pacer may end the wait at the window's stated reset.
      if (status === 429) decision.waitMs = this.pacer?.pause(decision.waitMs) ?? decision.waitMs
      await this.waitToRetry(decision.waitMs, method, path, why, () =>
        this.log.info(`${method} ${path}: ${retryLine(status, why, attempt, retries, decision)}`)
      )
    }
  }

  /** A single resource of an answer: `{data: {...}}` or the bare object (body.ts). */
  readOne<S extends z.ZodMiniType>(schema: S, method: Method, response: RawResponse, what: string): z.output<S> {
    return readOne(schema, method, response, what, this.names)
  }

  /** How bodies name URLs and show server text in errors. */
  private get names(): BodyNames {
    return { pathOf: url => this.pathOf(url), clean: text => this.clean(text) }
  }

  // ---------------------------------------------------------------- verbs

  /** GET one resource; null on 404. */
  async getOrNull<S extends z.ZodMiniType>(path: string, schema: S, what: string): Promise<z.output<S> | null> {
    const response = await this.send('GET', path, undefined, s => s === 404)
    if (response.status === 404) return null
    return this.readOne(schema, 'GET', response, what)
  }

  async get<S extends z.ZodMiniType>(path: string, schema: S, what: string): Promise<z.output<S>> {
    return this.readOne(schema, 'GET', await this.send('GET', path), what)
  }

  /** PUT a whole resource. Servers that answer with no body get the sent one back. */
  async put<S extends z.ZodMiniType>(
    path: string,
    body: Record<string, unknown>,
    schema: S,
    what: string,
    watch?: AttemptWatch
  ): Promise<z.output<S>> {
    const response = await this.send('PUT', path, body, undefined, watch)
    if (response.body.trim() === '') return parseAs(schema, body, 'PUT', response.url, what, this.names)
    return this.readOne(schema, 'PUT', response, what)
  }

  /**
   * DELETE; false when the resource was already gone (404). A 404 on a retry,
   * after an attempt that failed ambiguously, means that attempt deleted it.
   */
  async delete(path: string): Promise<boolean> {
    const response = await this.send('DELETE', path, undefined, s => s === 404)
    return response.status !== 404 || response.attempts > 1
  }

  /** Every item of a collection, each id once: the rows of `read`, for a caller that needs no proof. */
  async list<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    what: string,
    enough?: (page: Array<z.output<S>>) => boolean
  ): Promise<Array<z.output<S>>> {
    return (await this.read(path, schema, what, { enough })).items
  }

  /** A full read of a collection (as `list`), saying whether it shifted (ListRead); rows kept as `keep` gives them. */
  read<S extends z.ZodMiniType, K = z.output<S>>(
    path: string,
    schema: S,
    what: string,
    kept: Pick<PageReader<z.output<S>, K>, 'enough' | 'keep' | 'observe'> = {}
  ): Promise<ListRead<K>> {
    const names = this.names
    return readPages<z.output<S>, K>({
      first: this.url(path),
      base: this.base,
      maxPages: this.maxPages,
      what,
      ...kept,
      pathOf: url => this.pathOf(url),
      fetch: async url => {
        const response = await this.send('GET', url)
        return { status: response.status, headers: response.headers, body: jsonOf('GET', response, names) }
      },
      parse: (row, i, url) => parseAs(schema, row, 'GET', url, `${what} #${i + 1}`, names)
    })
  }
}
