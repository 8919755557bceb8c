import { describe, expect, it } from '@jest/globals'
import {
  backoffMs,
  decide,
  isRetryableStatus,
  mayResend,
  parseRateLimitReset,
  readRetryAfter,
  serverBudget,
  serverWait
} from '../../src/api/retry.js'

const now = Date.parse('2026-11-22T10:00:00Z')

describe('retry policy', () => {
  it('retries 429, 408 and 5xx; never 400, 401, 403, 404', () => {
    for (const s of [429, 408, 500, 502, 503, 504]) expect(isRetryableStatus(s)).toBe(true)
    for (const s of [400, 401, 403, 404, 409, 422]) expect(isRetryableStatus(s)).toBe(false)
  })

  it('resends a POST only after a 429', () => {
    expect(mayResend('POST', 429)).toBe(true)
    expect(mayResend('POST', 500)).toBe(false)
    expect(mayResend('POST', undefined)).toBe(false)
    for (const m of ['GET', 'PUT', 'DELETE'] as const) expect(mayResend(m, 503)).toBe(true)
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(readRetryAfter('7', now)).toEqual({ waitMs: 7000 })
    expect(readRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toEqual({ waitMs: 30_000 })
    expect(readRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toEqual({ waitMs: 0 })
    expect(readRetryAfter('soon', now)).toEqual({ unreadable: 'soon' })
  })

  it('reads reset headers as seconds from now under 10^9, else a Unix time', () => {
    expect(parseRateLimitReset('12', now)).toBe(12_000)
    expect(parseRateLimitReset(String(now / 1000 + 20), now)).toBe(20_000)
    expect(parseRateLimitReset('x', now)).toBeUndefined()
  })

  it('prefers Retry-After, then RateLimit-Reset, then X-RateLimit-Reset', () => {
    expect(serverWait({ 'retry-after': '1', 'ratelimit-reset': '2' }, now)).toStrictEqual({ waitMs: 1000 })
    expect(serverWait({ 'ratelimit-reset': '2', 'x-ratelimit-reset': '3' }, now)).toStrictEqual({ waitMs: 2000 })
    expect(serverWait({ 'x-ratelimit-reset': '3' }, now)).toStrictEqual({ waitMs: 3000 })
    expect(serverWait({}, now)).toStrictEqual({})
    expect(serverWait({ 'retry-after': 'soon' }, now)).toStrictEqual({ unreadable: 'soon' })
  })

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(1, () => 0)).toBe(250)
    expect(backoffMs(1, () => 1)).toBe(500)
    expect(backoffMs(3, () => 0)).toBe(1000)
    expect(backoffMs(3, () => 1)).toBe(2000)
    expect(backoffMs(30, () => 1)).toBe(20_000)
  })

  it("reads the server's stated budget: RateLimit-* first, then X-RateLimit-*; both remaining and reset needed", () => {
    expect(serverBudget({ 'ratelimit-remaining': '7', 'ratelimit-reset': '12' }, now)).toStrictEqual({
      remaining: 7,
      resetInMs: 12_000
    })
    expect(
      serverBudget({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': String(now / 1000 + 30) }, now)
    ).toStrictEqual({
      remaining: 3,
      resetInMs: 30_000
    })
    expect(serverBudget({ 'ratelimit-remaining': '7', 'ratelimit-reset': '12', 'ratelimit-limit': '40' }, now)).toEqual(
      { remaining: 7, resetInMs: 12_000, limit: 40 }
    )
    // Both pairs: the reset stated as a time is taken, the same instant for every job on the key
    // (a count of seconds is rounded up from each answer's own moment).
    expect(
      serverBudget(
        {
          'ratelimit-remaining': '7',
          'ratelimit-reset': '13',
          'x-ratelimit-remaining': '7',
          'x-ratelimit-reset': String(now / 1000 + 12)
        },
        now
      )
    ).toEqual({ remaining: 7, resetInMs: 12_000 })
    expect(serverBudget({ 'x-ratelimit-remaining': '3' }, now)).toBeUndefined()
    expect(serverBudget({ 'ratelimit-remaining': 'many', 'ratelimit-reset': '1' }, now)).toBeUndefined()
    expect(serverBudget({}, now)).toBeUndefined()
  })

  describe('decide: the whole policy as a table', () => {
    const half = () => 0.5
    const none = {}
    const cases: Array<[string, Parameters<typeof decide>[0], number, Parameters<typeof decide>[3], unknown]> = [
      [
        'GET 503, first attempt: back off',
        'GET',
        1,
        { status: 503, headers: none },
        { retry: true, waitMs: 375, asked: false }
      ],
      [
        'GET 503 asking Retry-After 2',
        'GET',
        1,
        { status: 503, headers: { 'retry-after': '2' } },
        { retry: true, waitMs: 2000, asked: true }
      ],
      [
        'GET 503 after the last retry',
        'GET',
        4,
        { status: 503, headers: none },
        { retry: false, reason: 'out of retries' }
      ],
      ['PUT 408', 'PUT', 2, { status: 408, headers: none }, { retry: true, waitMs: 750, asked: false }],
      ['DELETE network failure', 'DELETE', 1, { failure: 'network' }, { retry: true, waitMs: 375, asked: false }],
      [
        'GET to a host name that does not resolve (ENOTFOUND): retrying cannot help',
        'GET',
        1,
        { failure: 'unknown-host' },
        { retry: false, reason: 'not retryable' }
      ],
      [
        'POST 502: ambiguous, never resent here',
        'POST',
        1,
        { status: 502, headers: none },
        { retry: false, reason: 'not retryable' }
      ],
      ['POST timeout: ambiguous', 'POST', 1, { failure: 'timeout' }, { retry: false, reason: 'not retryable' }],
      [
        'POST 429: refused, so resent',
        'POST',
        1,
        { status: 429, headers: { 'retry-after': '1' } },
        { retry: true, waitMs: 1000, asked: true }
      ],
      [
        '429 asking 3 minutes: give up as too long',
        'GET',
        1,
        { status: 429, headers: { 'retry-after': '180' } },
        { retry: false, reason: 'wait too long', tooLongMs: 180_000 }
      ],
      [
        '429 too long even when out of retries',
        'GET',
        9,
        { status: 429, headers: { 'retry-after': '180' } },
        { retry: false, reason: 'wait too long', tooLongMs: 180_000 }
      ],
      ['GET 404: never', 'GET', 1, { status: 404, headers: none }, { retry: false, reason: 'not retryable' }],
      ['GET 401: never', 'GET', 1, { status: 401, headers: none }, { retry: false, reason: 'not retryable' }],
      [
        '503 asking 5 minutes: capped at 2',
        'GET',
        1,
        { status: 503, headers: { 'retry-after': '300' } },
        { retry: true, waitMs: 120_000, asked: true }
      ]
    ]
    it.each(cases)('%s', (_label, method, attempt, outcome, expected) => {
      expect(decide(method, attempt, 3, outcome, now, half)).toEqual(expected)
    })
  })
})
