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

/** What a Retry-After header says: a wait, or a value that is neither of the standard's forms (quoted as sent). */
export type RetryAfter = { waitMs: number } | { unreadable: string }

/**
 * RFC 9110 section 5.6.7's three forms of an HTTP date, IMF-fixdate, the
 * obsolete RFC 850 form and asctime, with where each holds the day, month,
 * year and time. Built at each reading (a Retry-After that is a date is rare):
 * nothing at module level, so every part of it is tested by the tests that
 * read a date.
 */
function httpDateForms() {
  const days = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun'
  const longDays = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday'
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  const month = `(${months.join('|')})`
  const time = '(\\d\\d):(\\d\\d):(\\d\\d)'
  const forms: Array<{ form: RegExp; order: [day: number, month: number, year: number, time: number] }> = [
    { form: new RegExp(`^(?:${days}), (\\d\\d) ${month} (\\d{4}) ${time} GMT$`), order: [1, 2, 3, 4] },
    { form: new RegExp(`^(?:${longDays}), (\\d\\d)-${month}-(\\d\\d) ${time} GMT$`), order: [1, 2, 3, 4] },
    { form: new RegExp(`^(?:${days}) ${month} ([ \\d]\\d) ${time} (\\d{4})$`), order: [2, 1, 6, 3] }
  ]
  return { months, forms }
}

/** An HTTP date as a time (ms), or undefined when `text` is not one or names no real moment (31 Nov, 24:00). */
function httpDate(text: string, now: number): number | undefined {
  const { months, forms } = httpDateForms()
  for (const { form, order } of forms) {
    const m = form.exec(text)
    if (!m) continue
    const [day, month, year] = [Number(m[order[0]]), months.indexOf(m[order[1]]), m[order[2]]]
    const [hour, minute, second] = [m[order[3]], m[order[3] + 1], m[order[3] + 2]].map(Number)
    if (hour > 23 || minute > 59 || second > 60) return undefined // 60: a leap second, read as the next minute's first
    // A two-digit year is the latest with those digits at most 50 years ahead (RFC 9110).
    const latest = new Date(now).getUTCFullYear() + 50
    const full = year.length === 2 ? latest - ((latest - Number(year)) % 100) : Number(year)
    const midnight = Date.UTC(full, month, day)
    if (new Date(midnight).getUTCDate() !== day) return undefined // 31 Nov is no day
    return midnight + ((hour * 60 + minute) * 60 + second) * 1000
  }
  return undefined
}

/**
 * Retry-After as RFC 9110 writes it: delta-seconds (digits only) or an HTTP
 * date, which is in GMT. Anything else (`1.`, `.5`, `-5`, `soon`, an ISO
 * time) is unreadable, never guessed at: `Date.parse` reads `1.` as a day of
 * 2001, a wait of nothing.
 */
export function readRetryAfter(value: string | undefined, now: number): RetryAfter | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (/^[0-9]+$/.test(text)) return { waitMs: Number(text) * 1000 }
  const date = httpDate(text, now)
  return date === undefined ? { unreadable: value } : { waitMs: Math.max(0, date - now) }
}

/** A reset header's value from this on is a Unix time in seconds; under it, seconds from now. */
const RESET_IS_A_TIME_FROM = 1e9

/** How a reset header states the reset: seconds from now, a Unix time (seconds), or in a form not read. */
export type ResetForm = 'seconds from now' | 'a Unix time' | 'unreadable'

/** The form of a RateLimit-Reset / X-RateLimit-Reset value, as parseRateLimitReset reads it. */
export function resetForm(value: string): ResetForm {
  if (parseRateLimitReset(value, 0) === undefined) return 'unreadable'
  return Number(value.trim()) < RESET_IS_A_TIME_FROM ? 'seconds from now' : 'a Unix time'
}

/** RateLimit-Reset / X-RateLimit-Reset: under 10^9 seconds from now, else a Unix time in seconds. */
export function parseRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined
  const n = Number(text)
  if (n < RESET_IS_A_TIME_FROM) return Math.ceil(n * 1000)
  return Math.max(0, Math.ceil(n * 1000 - now))
}

type Headers = Record<string, string | string[] | undefined>

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/** How long the server asked us to wait, if it said, and a Retry-After it sent that could not be read. */
export function serverWait(headers: Headers, now: number): { waitMs?: number; unreadable?: string } {
  const retryAfter = readRetryAfter(header(headers, 'retry-after'), now)
  const waitMs =
    (retryAfter && 'waitMs' in retryAfter ? retryAfter.waitMs : undefined) ??
    parseRateLimitReset(header(headers, 'ratelimit-reset'), now) ??
    parseRateLimitReset(header(headers, 'x-ratelimit-reset'), now)
  return {
    ...(waitMs !== undefined ? { waitMs } : {}),
    ...(retryAfter && 'unreadable' in retryAfter ? { unreadable: retryAfter.unreadable } : {})
  }
}

/**
 * The limit the server states for the key: `RateLimit-Limit` (its leading
 * number: the IETF draft may follow it with a policy, `100, 100;w=60`) or
 * `X-RateLimit-Limit`, and the header that said it.
 */
export function statedLimit(headers: Headers): { limit: number; header: string } | undefined {
  for (const name of ['RateLimit-Limit', 'X-RateLimit-Limit']) {
    const value = header(headers, name)?.trim()
    const number = value === undefined ? undefined : /^([0-9]+)(?:$|[,;\s])/.exec(value)?.[1]
    if (number !== undefined) return { limit: Number(number), header: name }
  }
  return undefined
}

/** The rate-limit headers the action reads, as the service names them. */
export const RATE_LIMIT_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset'
]

/**
 * What an answer's rate-limit headers tell the action: which of them it sent,
 * how each reset header states the reset, the limit (statedLimit) and whether
 * the pacer can follow the key's budget from them (serverBudget).
 */
export function rateHeadersOf(
  headers: Headers,
  now: number
): {
  sent: string[]
  resets: Array<{ header: string; value: string; form: ResetForm }>
  limit?: { limit: number; header: string }
  followed: boolean
} {
  const sent = RATE_LIMIT_HEADERS.filter(name => header(headers, name) !== undefined)
  const resets = sent
    .filter(name => name.endsWith('-Reset'))
    .map(name => {
      const value = header(headers, name) as string
      return { header: name, value, form: resetForm(value) }
    })
  const limit = statedLimit(headers)
  return { sent, resets, ...(limit ? { limit } : {}), followed: serverBudget(headers, now) !== undefined }
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
    const limit = statedLimit({ [`${prefix}-limit`]: header(headers, `${prefix}-limit`) })?.limit
    const budget = { remaining: Number(remaining), resetInMs, ...(limit !== undefined ? { limit } : {}) }
    if (found === undefined) found = budget
    if (Number(reset) >= RESET_IS_A_TIME_FROM) return budget
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
  /** Send it again after `waitMs`; `asked`: the server said how long; `unreadable`: a Retry-After not read. */
  | { retry: true; waitMs: number; asked: boolean; unreadable?: string }
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
  const { waitMs: asked, unreadable } = 'headers' in outcome ? serverWait(outcome.headers, now) : {}
  const waitMs = asked ?? backoffMs(attempt, random)
  // A 429 that asks for too long a wait is given up on as such, whatever the count.
  if (status === 429 && waitMs > MAX_RATE_LIMIT_WAIT_MS)
    return { retry: false, reason: 'wait too long', tooLongMs: waitMs }
  if (attempt > maxRetries) return { retry: false, reason: 'out of retries' }
  const wait = { retry: true as const, waitMs: Math.min(waitMs, MAX_RATE_LIMIT_WAIT_MS), asked: asked !== undefined }
  return unreadable === undefined ? wait : { ...wait, unreadable }
}

/** A retry as the log says it, after `METHOD path: `: `HTTP 503; retry 1 of 3 in 0.5 s`. */
export function retryLine(
  status: number | undefined,
  why: string,
  attempt: number,
  retries: number,
  decision: { waitMs: number; asked: boolean; unreadable?: string }
): string {
  const unread =
    decision.unreadable === undefined
      ? ''
      : ` (could not read Retry-After ${JSON.stringify(decision.unreadable)}: backing off)`
  const next = `retry ${attempt} of ${retries} in ${(decision.waitMs / 1000).toFixed(1)} s${unread}`
  if (status === 429) return `rate limited (HTTP 429); ${next}${decision.asked ? ' as the server asked' : ''}`
  return `${status !== undefined ? `HTTP ${status}` : why}; ${next}`
}

/** What failed, for a retry's line and a deadline's error: `was rate limited (HTTP 429)`, `failed: HTTP 503`, or `detail`. */
export function retryWhy(status: number | undefined, detail: string): string {
  return status === 429 ? 'was rate limited (HTTP 429)' : status !== undefined ? `failed: HTTP ${status}` : detail
}
