/**
 * GitHub's own limits, as one policy: which waits Octokit's retry and
 * throttling plugins may make (they carry the retries out; nothing here
 * sends a request), and what a failure that stayed a failure was. Pure
 * functions of the clock's value and what GitHub answered.
 *
 * - A 5xx is retried by @octokit/plugin-retry after 1, 4 and 9 s.
 * - A rate limit is retried by @octokit/plugin-throttling after the time
 *   GitHub names: `retry-after` for a secondary limit, `x-ratelimit-reset`
 *   for the primary one (`x-ratelimit-remaining: 0`).
 * - Every wait must end within one minute of the step's first call to
 *   GitHub, and before the step's `timeout` where the operation has one; a
 *   wait that would end later is not made, and the call fails as it is.
 */

/** All the waits of a step's calls to GitHub end within this long of its first call. */
export const MAX_GITHUB_WAIT_MS = 60_000

/** @octokit/plugin-retry's waits after a server error: the nth retry waits n² seconds. */
const SERVER_ERROR_RETRIES = 3
const serverErrorWaitMs = (retryCount: number) => (retryCount + 1) ** 2 * 1000

/** The moment every wait must have ended by: a minute from the first call, and never past the step's deadline. */
export function waitsEndBy(firstCall: number, stepDeadline: number | undefined): number {
  return Math.min(firstCall + MAX_GITHUB_WAIT_MS, stepDeadline ?? Infinity)
}

/** May a wait of `waitMs` start at `now`? Only if it ends by `endBy`. */
export function mayWait(now: number, waitMs: number, endBy: number): boolean {
  return now + waitMs <= endBy
}

/**
 * How many retries @octokit/plugin-retry may make after a server error, asked before the attempt
 * that follows `retryCount` retries: its usual three while the next wait fits, none once it does
 * not (the plugin reads this number again after each attempt).
 */
export function serverErrorRetries(now: number, retryCount: number, endBy: number): number {
  return retryCount < SERVER_ERROR_RETRIES && mayWait(now, serverErrorWaitMs(retryCount), endBy)
    ? SERVER_ERROR_RETRIES
    : 0
}

type Headers = Record<string, string | number | undefined>

/** What a call to GitHub that failed in the end came to, in the words a warning uses. */
export type Cause =
  /** A rate limit: `primary` (the token's hourly budget), `secondary` (too much at once), with the wait GitHub asked for. */
  | { kind: 'rate limit'; limit: 'primary' | 'secondary'; waitSeconds?: number }
  /** 403 without a sign of a rate limit: the token may not do it. */
  | { kind: 'permission' }
  /** 404: not there, or hidden from this token (GitHub answers 404 for what a token may not see). */
  | { kind: 'not found' }
  /** Anything else: a 5xx that lasted, a 422, no answer. */
  | { kind: 'other' }

const header = (headers: Headers | undefined, name: string) => {
  const value = headers?.[name]
  return value === undefined ? undefined : String(value)
}

/**
 * The cause of a failed call, from its status, headers and message (Octokit's RequestError).
 * GitHub answers a rate limit with 403 or 429: a secondary one with `retry-after` (and a message
 * that says so), the primary one with `x-ratelimit-remaining: 0` and `x-ratelimit-reset`.
 */
export function causeOf(
  status: number | undefined,
  headers: Headers | undefined,
  message: string | undefined,
  now: number
): Cause {
  if (status === 403 || status === 429) {
    const retryAfter = header(headers, 'retry-after')
    const remaining = header(headers, 'x-ratelimit-remaining')
    const reset = Number(header(headers, 'x-ratelimit-reset'))
    if (remaining === '0' || /\bAPI rate limit exceeded\b/i.test(message ?? '')) {
      const waitSeconds = Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - now / 1000)) : undefined
      return { kind: 'rate limit', limit: 'primary', ...(waitSeconds === undefined ? {} : { waitSeconds }) }
    }
    if (retryAfter !== undefined || status === 429 || /\bsecondary rate limit\b/i.test(message ?? '')) {
      const waitSeconds = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined
      return { kind: 'rate limit', limit: 'secondary', ...(waitSeconds === undefined ? {} : { waitSeconds }) }
    }
    return { kind: 'permission' }
  }
  if (status === 404) return { kind: 'not found' }
  return { kind: 'other' }
}
