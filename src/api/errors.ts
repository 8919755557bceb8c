/**
 * Errors of the API client. Every message names the method, the path (relative
 * to the base URL, never with the key) and, for HTTP errors, the status and the
 * server's own message.
 */
import { PacingDeadline, PacingExhausted } from './pacer.js'

export type ApiErrorKind =
  | 'http' // the server answered with a status that is an error
  | 'rate-limit' // 429 and we gave up
  | 'network' // connection refused, reset, dropped
  | 'unknown-host' // the host name does not resolve (ENOTFOUND): nothing was sent, and a retry cannot help
  | 'timeout' // request-timeout elapsed
  | 'invalid-response' // 2xx whose body is not what the API promises
  | 'redirect' // a redirect we will not follow
  | 'pagination' // a next link we will not follow
  | 'deadline' // the operation's overall time ran out
  | 'tls' // the server's certificate is not trusted, or it does not speak TLS (never retried)
  | 'cancelled' // the job is being cancelled: not sent

export class ApiError extends Error {
  readonly kind: ApiErrorKind
  readonly method: string
  readonly path: string
  readonly status?: number
  readonly serverMessage?: string
  /** The message without the leading method and path. */
  readonly detail: string

  constructor(init: {
    kind: ApiErrorKind
    method: string
    path: string
    status?: number
    serverMessage?: string
    detail: string
  }) {
    super(`${init.method} ${init.path} ${init.detail}`)
    this.name = 'ApiError'
    this.kind = init.kind
    this.method = init.method
    this.path = init.path
    this.status = init.status
    this.serverMessage = init.serverMessage
    this.detail = init.detail
  }
}

const MAX_MESSAGE = 300

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}...` : flat
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value
  if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>
    for (const key of ['message', 'detail', 'title', 'description', 'error']) {
      const inner = asText(o[key])
      if (inner) return inner
    }
  }
  return undefined
}

/**
 * The server's message from an error body of unknown shape: `error.message`,
 * `error`, `message`, `errors[]`, or the start of the text itself.
 */
export function serverMessageOf(body: string): string | undefined {
  const text = body.trim()
  if (text === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // HTML error pages: keep the title or the visible text, not the markup.
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]
    const visible = title ?? text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]+>/gi, ' ')
    return clip(visible) || undefined
  }
  if (typeof parsed === 'object' && parsed !== null) {
    const o = parsed as Record<string, unknown>
    const direct = asText(o.error) ?? asText(o.message) ?? asText(o.detail) ?? asText(o.title)
    if (direct) return clip(direct)
    if (Array.isArray(o.errors)) {
      const parts = o.errors.map(e => asText(e) ?? JSON.stringify(e)).filter(Boolean)
      if (parts.length > 0) return clip(parts.join('; '))
    }
  }
  if (typeof parsed === 'string') return clip(parsed)
  return clip(text)
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout'
}

/** Where a key comes from; how to pass it depends on the door (core/failure.ts hintFor adds it). */
export const AUTH_HINT =
  'The API key is missing or invalid: the key is found in the monitoring service\'s account settings, under "API access".'

export function httpError(method: string, path: string, status: number, body: string): ApiError {
  const serverMessage = serverMessageOf(body)
  const reason = REASONS[status] ?? ''
  let detail = `failed: HTTP ${status}${reason ? ` ${reason}` : ''}`
  if (serverMessage) detail += `: ${serverMessage}`
  if (status === 401) detail += `. ${AUTH_HINT}`
  if (status === 403) detail += '. The API key is valid but not allowed to do this (plan tier or key permissions).'
  return new ApiError({ kind: 'http', method, path, status, serverMessage, detail })
}

/** The same error, saying how many attempts were made. */
export function withAttempts(error: ApiError, attempts: number): ApiError {
  return new ApiError({
    kind: error.kind,
    method: error.method,
    path: error.path,
    status: error.status,
    serverMessage: error.serverMessage,
    detail: `${error.detail} (after ${attempts} attempts)`
  })
}

/** Gave up on a 429: after the retries, or because the server asked for a wait longer than the action makes. */
export function rateLimitError(
  method: string,
  path: string,
  body: string,
  attempts: number,
  stated: { limit: number; header: string } | undefined,
  tooLongMs?: number
): ApiError {
  const base = httpError(method, path, 429, body)
  const limit = stated
    ? `the service states a limit of ${stated.limit} requests (${stated.header})`
    : 'the service states no limit; the API document gives 100 requests a minute'
  const detail = tooLongMs
    ? `was rate limited (HTTP 429): the service asked to wait ${Math.ceil(tooLongMs / 1000)} s, more than the 2 minutes the action waits; gave up`
    : `was rate limited (HTTP 429) after ${attempts} attempts (max-retries ${attempts - 1}); ${limit}${base.serverMessage ? `: ${base.serverMessage}` : ''}`
  return new ApiError({ kind: 'rate-limit', method, path, status: 429, serverMessage: base.serverMessage, detail })
}

/**
 * A wait for a request slot the client will not make, as the request's error:
 * past the operation's time limit, or the server's rate limit has held the
 * step too long in all. Undefined for any other error.
 */
export function pacingError(error: unknown, method: string, path: string): ApiError | undefined {
  if (error instanceof PacingDeadline) {
    const detail = `was not sent: ${error.message} would pass the operation's time limit`
    return new ApiError({ kind: 'deadline', method, path, detail })
  }
  if (error instanceof PacingExhausted) {
    return new ApiError({ kind: 'rate-limit', method, path, detail: `was not sent: ${error.message}` })
  }
  return undefined
}

/** Ambiguous failures of a POST: the create may or may not have happened. */
export function isAmbiguous(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false
  if (error.kind === 'network' || error.kind === 'timeout') return true
  return error.kind === 'http' && error.status !== undefined && (error.status >= 500 || error.status === 408)
}

/** A request sent and never answered: no answer came in time or the connection failed, or it was cut off (a cancel, a deadline). */
export function noAnswer(error: unknown): boolean {
  return error instanceof ApiError && ['network', 'timeout', 'cancelled', 'deadline'].includes(error.kind)
}
