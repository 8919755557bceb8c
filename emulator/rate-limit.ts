/**
 * The rate limit: one fixed window per key, shared by every connection that
 * uses the key, with X-RateLimit-* and RateLimit-* headers (or one family, or
 * none) on every answer and a 429 with Retry-After when the window is spent.
 */
import { HttpProblem } from './http.js'

/**
 * Which rate-limit headers an answer carries: both families (the default),
 * only `X-RateLimit-*` (its reset a Unix time in seconds), or only the IETF
 * draft's `RateLimit-*` (its reset in seconds from now).
 */
export type RateHeaderForm = 'both' | 'x-ratelimit' | 'ratelimit'

export interface RateLimit {
  limit: number
  windowMs: number
}

export class RateWindows {
  private windows = new Map<string, { start: number; count: number }>()
  /** When each window opened (ms), any key, oldest first, since the last clear. */
  readonly opened: number[] = []

  constructor(
    private readonly rate: RateLimit | false,
    private readonly withHeaders: boolean,
    private readonly form: RateHeaderForm = 'both'
  ) {}

  clear(): void {
    this.windows.clear()
    this.opened.length = 0
  }

  /**
   * Count a request in its key's window. Returns what makes the answer's
   * rate-limit headers (as of when the answer is sent: requests that arrive
   * during a latency hold are in them); throws a 429 when the window is spent.
   */
  count(key: string): (() => Record<string, string>) | undefined {
    const rate = this.rate
    if (!rate) return undefined
    const now = Date.now()
    let window = this.windows.get(key)
    if (!window || now >= window.start + rate.windowMs) {
      window = { start: now, count: 0 }
      this.windows.set(key, window)
      this.opened.push(now)
    }
    const resetAt = window.start + rate.windowMs
    const current = window
    const headers = (remaining: number): Record<string, string> => {
      if (!this.withHeaders) return {}
      const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))
      const x = {
        'X-RateLimit-Limit': String(rate.limit),
        'X-RateLimit-Remaining': String(remaining),
        'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000))
      }
      const ietf = {
        'RateLimit-Limit': String(rate.limit),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': String(seconds)
      }
      return this.form === 'x-ratelimit' ? x : this.form === 'ratelimit' ? ietf : { ...x, ...ietf }
    }
    if (window.count >= rate.limit) {
      throw new HttpProblem(
        429,
        'rate_limited',
        `Rate limit exceeded: ${rate.limit} requests per ${rate.windowMs / 1000} s`,
        {
          'Retry-After': String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
          ...headers(0)
        }
      )
    }
    window.count++
    return () =>
      this.windows.get(key) === current && Date.now() < resetAt
        ? headers(rate.limit - current.count)
        : headers(rate.limit)
  }
}
