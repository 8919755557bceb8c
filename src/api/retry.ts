/**
 * The retry policy, in one place: what may be retried, and how long to wait.
 * `decide` is the whole decision after one attempt, as a pure function; the
 * client only carries it out.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** A wait longer than this is not made: the action gives up instead. */
export const MAX_RATE_LIMIT_WAIT_MS = 120_000
const BACKOFF_BASE_MS = 500
const BACKOFF_CAP_MS = 20_000

/** Statuses that are never retried: the request itself is wrong. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500
}

/**
 * May this failure be retried as it is? GET, PUT and DELETE are idempotent.
 * A POST may only be resent after a 429 (the request was refused, nothing was
 * created); any other POST failure is ambiguous and needs a look first.
 */
export function mayResend(method: Method, status: number | undefined): boolean {
  if (status === 429) return true
  return method !== 'POST'
}

/** Retry-After: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000)
  const date = Date.parse(text)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/** RateLimit-Reset / X-RateLimit-Reset: under 10^9 seconds from now, else a Unix time in seconds. */
export function parseRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined
  const n = Number(text)
  if (n < 1e9) return Math.ceil(n * 1000)
  return Math.max(0, Math.ceil(n * 1000 - now))
}

type Headers = Record<string, string | string[] | undefined>

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/** How long the server asked us to wait, if it said. */
export function serverWaitMs(headers: Headers, now: number): number | undefined {
  return (
    parseRetryAfter(header(headers, 'retry-after'), now) ??
    parseRateLimitReset(header(headers, 'ratelimit-reset'), now) ??
    parseRateLimitReset(header(headers, 'x-ratelimit-reset'), now)
  )
}

/**
 * What the server says is left of the key's budget: `RateLimit-Remaining` /
 * `X-RateLimit-Remaining` with the matching reset header. Undefined when it
 * does not say both. When both pairs are there and one states the reset as a
 * time (Unix seconds), that one is taken: every job on the key reads the same
 * instant from it, where a count of seconds is rounded up from each answer's
 * own moment, so jobs that wait for the reset start again together.
 */
export function serverBudget(
  headers: Headers,
  now: number
): { remaining: number; resetInMs: number; limit?: number } | undefined {
  let found: { remaining: number; resetInMs: number; limit?: number } | undefined
  for (const prefix of ['ratelimit', 'x-ratelimit']) {
    const remaining = header(headers, `${prefix}-remaining`)?.trim()
    const reset = header(headers, `${prefix}-reset`)
    const resetInMs = parseRateLimitReset(reset, now)
    if (remaining === undefined || !/^\d+$/.test(remaining) || resetInMs === undefined) continue
    const limit = header(headers, `${prefix}-limit`)?.trim()
    const budget = {
      remaining: Number(remaining),
      resetInMs,
      ...(limit && /^\d+$/.test(limit) ? { limit: Number(limit) } : {})
    }
    if (found === undefined) found = budget
    if (Number(reset) >= 1e9) return budget
  }
  return found
}

/** Exponential backoff with jitter: half fixed, half random. `attempt` counts from 1. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** An attempt without an answer: the connection failed, request-timeout passed, or the host name did not resolve. */
export type Failure = 'network' | 'timeout' | 'unknown-host'
export const isFailure = (kind: string): kind is Failure => ['network', 'timeout', 'unknown-host'].includes(kind)

/** What one attempt came to, when it did not succeed. */
export type Outcome = { status: number; headers: Headers } | { failure: Failure }

export type Decision =
  /** Send it again after `waitMs`; `asked`: the server said how long. */
  | { retry: true; waitMs: number; asked: boolean }
  /** Stop. `tooLongMs`: the server asked for a wait longer than the action makes. */
  | { retry: false; reason: 'not retryable' | 'out of retries' | 'wait too long'; tooLongMs?: number }

/**
 * After attempt number `attempt` (from 1) of `method` failed with `outcome`:
 * retry, and after how long, or stop. 429 is retried for every method (it was
 * refused); 408, 5xx and failures without an answer only for methods that may
 * be resent (never a POST: that is ambiguous, see create.ts). A host name that
 * does not resolve (ENOTFOUND) is never retried: the resolver has answered
 * that the name does not exist, and asking again asks the same question (a
 * DNS server that did not answer, EAI_AGAIN, is a network failure: retried).
 */
export function decide(
  method: Method,
  attempt: number,
  maxRetries: number,
  outcome: Outcome,
  now: number,
  random: () => number = Math.random
): Decision {
  const status = 'status' in outcome ? outcome.status : undefined
  if (status !== undefined && !isRetryableStatus(status)) return { retry: false, reason: 'not retryable' }
  if ('failure' in outcome && outcome.failure === 'unknown-host') return { retry: false, reason: 'not retryable' }
  if (!mayResend(method, status)) return { retry: false, reason: 'not retryable' }
  const asked = 'headers' in outcome ? serverWaitMs(outcome.headers, now) : undefined
  const waitMs = asked ?? backoffMs(attempt, random)
  // A 429 that asks for too long a wait is given up on as such, whatever the count.
  if (status === 429 && waitMs > MAX_RATE_LIMIT_WAIT_MS)
    return { retry: false, reason: 'wait too long', tooLongMs: waitMs }
  if (attempt > maxRetries) return { retry: false, reason: 'out of retries' }
  return { retry: true, waitMs: Math.min(waitMs, MAX_RATE_LIMIT_WAIT_MS), asked: asked !== undefined }
}

/** A retry as the log says it, after `METHOD path: `: `HTTP 503; retry 1 of 3 in 0.5 s`. */
export function retryLine(
  status: number | undefined,
  why: string,
  attempt: number,
  retries: number,
  decision: { waitMs: number; asked: boolean }
): string {
  const next = `retry ${attempt} of ${retries} in ${(decision.waitMs / 1000).toFixed(1)} s`
  if (status === 429) return `rate limited (HTTP 429); ${next}${decision.asked ? ' as the server asked' : ''}`
  return `${status !== undefined ? `HTTP ${status}` : why}; ${next}`
}

/** What failed, for a retry's line and a deadline's error: `was rate limited (HTTP 429)`, `failed: HTTP 503`, or `detail`. */
export function retryWhy(status: number | undefined, detail: string): string {
  return status === 429 ? 'was rate limited (HTTP 429)' : status !== undefined ? `failed: HTTP ${status}` : detail
}
