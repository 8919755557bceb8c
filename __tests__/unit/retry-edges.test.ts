/**
 * The retry rules at their edges (contract: "Rate-limit headers", `max-retries`):
 * the forms a header's number may take and the ones it may not, the limits
 * stated as "longer than 2 minutes" and "under 10^9", which pair of headers
 * is read, and the words a retry's log line and error use.
 */
import { describe, expect, it } from '@jest/globals'
import {
  MAX_RATE_LIMIT_WAIT_MS,
  RATE_LIMIT_HEADERS,
  decide,
  isFailure,
  parseRateLimitReset,
  rateHeadersOf,
  readRetryAfter,
  resetForm,
  statedLimit,
  retryLine,
  retryWhy,
  serverBudget
} from '../../src/api/retry.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')

describe('Retry-After as RFC 9110 writes it: delta-seconds (digits only) or an HTTP date in GMT', () => {
  it('reads delta-seconds, digits only, with blanks around them', () => {
    expect(readRetryAfter('2', NOW)).toEqual({ waitMs: 2000 })
    expect(readRetryAfter(' 2 ', NOW)).toEqual({ waitMs: 2000 })
    expect(readRetryAfter('0', NOW)).toEqual({ waitMs: 0 })
    expect(readRetryAfter('007', NOW)).toEqual({ waitMs: 7000 })
  })

  it('anything else is unreadable, quoted as written: no date of 2001 read from a malformed number', () => {
    for (const text of ['1.', '.5', '-5', '1.5', '+5', '1e3', 'soon', 'x2', '2x', '2 s', '', '0x10', '１']) {
      expect(readRetryAfter(text, NOW)).toEqual({ unreadable: text })
    }
  })

  it('an HTTP date in each of its three forms is a wait until then, never below 0', () => {
    expect(readRetryAfter('Thu, 26 Nov 2026 12:00:30 GMT', NOW)).toEqual({ waitMs: 30_000 })
    expect(readRetryAfter('Thursday, 26-Nov-26 12:00:30 GMT', NOW)).toEqual({ waitMs: 30_000 })
    expect(readRetryAfter('Thu Nov 26 12:00:30 2026', NOW)).toEqual({ waitMs: 30_000 })
    expect(readRetryAfter('Thu Nov  6 12:00:30 2026', NOW)).toEqual({ waitMs: 0 })
    expect(readRetryAfter('Thu, 26 Nov 2026 11:59:00 GMT', NOW)).toEqual({ waitMs: 0 })
  })

  it('a year of four digits is the year written, however far off; only two digits are read within 50 years ahead', () => {
    expect(readRetryAfter('Wed, 01 Jan 2200 00:00:00 GMT', NOW)).toEqual({ waitMs: Date.UTC(2200, 0, 1) - NOW })
    expect(readRetryAfter('Wed Jan  1 00:00:00 2200', NOW)).toEqual({ waitMs: Date.UTC(2200, 0, 1) - NOW })
  })

  it('a date that is not an HTTP date is unreadable: another zone, ISO form, no zone, a day or hour out of range', () => {
    for (const text of [
      'Thu, 26 Nov 2026 12:00:30 +0000',
      'Thu, 26 Nov 2026 12:00:30 UTC',
      'Thu, 26 Nov 2026 12:00:30',
      '2026-11-26T12:00:30Z',
      'Thu, 31 Nov 2026 12:00:30 GMT',
      'Thu, 26 Nov 2026 24:00:30 GMT',
      'Thu, 26 Nov 2026 12:60:30 GMT',
      'Thu, 26 Nov 2026 12:00:61 GMT',
      'Thu, 6 Nov 2026 12:00:30 GMT',
      'Thx, 26 Nov 2026 12:00:30 GMT',
      'Thu, 26 Nox 2026 12:00:30 GMT',
      'Nov 26 2026 12:00:30'
    ]) {
      expect(readRetryAfter(text, NOW)).toEqual({ unreadable: text })
    }
  })

  it('a two-digit year of the obsolete form is the latest with those digits at most 50 years ahead', () => {
    const yearOf = (digits: string, now: number) => {
      const read = readRetryAfter(`Friday, 01-Jan-${digits} 00:00:00 GMT`, now)
      return read && 'waitMs' in read ? new Date(now + read.waitMs).getUTCFullYear() : undefined
    }
    const in1999 = Date.parse('1999-01-01T00:00:00Z')
    expect(yearOf('49', in1999)).toBe(2049)
    // A year in the past is a wait of 0: the year is told by the wait alone when it is ahead.
    expect(readRetryAfter('Saturday, 01-Jan-50 00:00:00 GMT', in1999)).toStrictEqual({ waitMs: 0 })
    expect(yearOf('76', NOW)).toBe(2076)
    expect(readRetryAfter('Friday, 01-Jan-77 00:00:00 GMT', NOW)).toStrictEqual({ waitMs: 0 })
    expect(readRetryAfter('Friday, 27-Nov-26 12:00:00 GMT', NOW)).toStrictEqual({ waitMs: 86_400_000 })
    expect(readRetryAfter('Friday, 26-Nov-00 12:00:00 GMT', NOW)).toStrictEqual({ waitMs: 0 })
  })

  it('every month, and a four-digit year however far ahead', () => {
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
    for (const [i, month] of months.entries()) {
      expect(readRetryAfter(`Mon, 01 ${month} 2027 00:00:00 GMT`, NOW)).toStrictEqual({
        waitMs: Date.UTC(2027, i, 1) - NOW
      })
    }
    expect(readRetryAfter('Fri, 01 Jan 2100 00:00:00 GMT', NOW)).toStrictEqual({ waitMs: Date.UTC(2100, 0, 1) - NOW })
    // A four-digit year is as written, never moved to another century (1950 is past: no wait).
    expect(readRetryAfter('Sun, 01 Jan 1950 00:00:00 GMT', NOW)).toStrictEqual({ waitMs: 0 })
  })

  it('the last second of a day, a leap second (the next minute), and each field past its range', () => {
    const day = Date.UTC(2026, 10, 27)
    expect(readRetryAfter('Fri, 27 Nov 2026 23:59:59 GMT', NOW)).toStrictEqual({ waitMs: day + 86_399_000 - NOW })
    expect(readRetryAfter('Fri, 27 Nov 2026 23:59:60 GMT', NOW)).toStrictEqual({ waitMs: day + 86_400_000 - NOW })
    expect(readRetryAfter('Fri, 27 Nov 2026 01:02:03 GMT', NOW)).toStrictEqual({ waitMs: day + 3_723_000 - NOW })
    for (const time of ['24:00:00', '23:60:00', '23:59:61', '00:00:99']) {
      expect(readRetryAfter(`Fri, 27 Nov 2026 ${time} GMT`, NOW)).toStrictEqual({
        unreadable: `Fri, 27 Nov 2026 ${time} GMT`
      })
    }
    for (const date of ['00 Nov 2026', '31 Nov 2026', '29 Feb 2027', '32 Dec 2026']) {
      expect(readRetryAfter(`Fri, ${date} 00:00:00 GMT`, NOW)).toStrictEqual({
        unreadable: `Fri, ${date} 00:00:00 GMT`
      })
    }
    expect(readRetryAfter('Tue, 29 Feb 2028 00:00:00 GMT', NOW)).toStrictEqual({ waitMs: Date.UTC(2028, 1, 29) - NOW })
  })

  it('no header is no answer', () => {
    expect(readRetryAfter(undefined, NOW)).toBeUndefined()
  })
})

describe('an unreadable Retry-After: backed off as if there were none, and said', () => {
  const refused = (value: string, extra: Record<string, string> = {}) => ({
    status: 429,
    headers: { 'retry-after': value, ...extra }
  })

  it.each(['1.', '.5', '-5', 'soon'])('%s: the back-off wait, not 0, and the value quoted', value => {
    const decision = decide('GET', 1, 3, refused(value), NOW, () => 0.5)
    expect(decision).toStrictEqual({ retry: true, waitMs: 375, asked: false, unreadable: value })
    if (!decision.retry) throw new Error('expected a retry')
    expect(retryLine(429, 'x', 1, 3, decision)).toBe(
      `rate limited (HTTP 429); retry 1 of 3 in 0.4 s (could not read Retry-After ${JSON.stringify(value)}: backing off)`
    )
  })

  it('a reset header beside an unreadable Retry-After is still read', () => {
    const decision = decide('GET', 1, 3, refused('1.', { 'x-ratelimit-reset': '4' }), NOW)
    expect(decision).toStrictEqual({ retry: true, waitMs: 4000, asked: true, unreadable: '1.' })
  })

  it('a readable value says nothing more', () => {
    const decision = decide('GET', 1, 3, refused('2'), NOW)
    expect(decision).toStrictEqual({ retry: true, waitMs: 2000, asked: true })
    if (!decision.retry) throw new Error('expected a retry')
    expect(retryLine(429, 'x', 1, 3, decision)).toBe(
      'rate limited (HTTP 429); retry 1 of 3 in 2.0 s as the server asked'
    )
  })

  it('on a 503 too', () => {
    const decision = decide('GET', 1, 3, { status: 503, headers: { 'retry-after': '-5' } }, NOW, () => 0)
    if (!decision.retry) throw new Error('expected a retry')
    expect(retryLine(503, 'x', 1, 3, decision)).toBe(
      'HTTP 503; retry 1 of 3 in 0.3 s (could not read Retry-After "-5": backing off)'
    )
  })
})

describe('the limit the server states', () => {
  it('RateLimit-Limit (its leading number, a policy after it) before X-RateLimit-Limit', () => {
    expect(statedLimit({ 'ratelimit-limit': '100, 100;w=60' })).toStrictEqual({ limit: 100, header: 'RateLimit-Limit' })
    expect(statedLimit({ 'ratelimit-limit': '100;w=60' })).toStrictEqual({ limit: 100, header: 'RateLimit-Limit' })
    expect(statedLimit({ 'ratelimit-limit': ' 30 ' })).toStrictEqual({ limit: 30, header: 'RateLimit-Limit' })
    expect(statedLimit({ 'x-ratelimit-limit': '25' })).toStrictEqual({ limit: 25, header: 'X-RateLimit-Limit' })
    expect(statedLimit({ 'ratelimit-limit': '10', 'x-ratelimit-limit': '25' })).toStrictEqual({
      limit: 10,
      header: 'RateLimit-Limit'
    })
  })

  it('a value that does not start with a whole number states nothing; the other header may', () => {
    for (const value of ['abc', '10x', '1.5', '-3', '']) {
      expect(statedLimit({ 'ratelimit-limit': value })).toBeUndefined()
      expect(statedLimit({ 'ratelimit-limit': value, 'x-ratelimit-limit': '7' })).toStrictEqual({
        limit: 7,
        header: 'X-RateLimit-Limit'
      })
    }
    expect(statedLimit({})).toBeUndefined()
  })
})

describe('RateLimit-Reset / X-RateLimit-Reset: under 10^9 seconds from now, else a Unix time', () => {
  it('reads seconds from now, whole or fractional, with blanks around them', () => {
    expect(parseRateLimitReset('30', NOW)).toBe(30_000)
    expect(parseRateLimitReset(' 30 ', NOW)).toBe(30_000)
    expect(parseRateLimitReset('1.5', NOW)).toBe(1500)
    expect(parseRateLimitReset('1.25', NOW)).toBe(1250)
  })

  it('anything but a number is not read', () => {
    for (const text of ['x30', '30x', '30 s', 'soon', '1.']) expect(parseRateLimitReset(text, NOW)).toBeUndefined()
  })

  it('10^9 itself is a Unix time (a moment of 2001, long past: no wait), and 10^9 - 1 is seconds', () => {
    expect(parseRateLimitReset('1000000000', NOW)).toBe(0)
    expect(parseRateLimitReset('999999999', NOW)).toBe(999_999_999_000)
    expect(parseRateLimitReset(String(NOW / 1000 + 42), NOW)).toBe(42_000)
  })
})

describe("the server's stated budget", () => {
  const seconds = (remaining: string, reset = '10', limit?: string) => ({
    'ratelimit-remaining': remaining,
    'ratelimit-reset': reset,
    ...(limit !== undefined ? { 'ratelimit-limit': limit } : {})
  })

  it('reads the count and the limit with blanks around them; a count or a limit with anything else is not read', () => {
    expect(serverBudget(seconds(' 5 ', '10', ' 100 '), NOW)).toStrictEqual({
      remaining: 5,
      resetInMs: 10_000,
      limit: 100
    })
    expect(serverBudget(seconds('5x'), NOW)).toBeUndefined()
    expect(serverBudget(seconds('x5'), NOW)).toBeUndefined()
    expect(serverBudget(seconds('5', '10', '100x'), NOW)).toStrictEqual({ remaining: 5, resetInMs: 10_000 })
    expect(serverBudget(seconds('5', '10', 'x100'), NOW)).toStrictEqual({ remaining: 5, resetInMs: 10_000 })
  })

  it('with both pairs stating seconds, the first (RateLimit-*) is read; a pair stating a Unix time wins, from 10^9 on', () => {
    const both = (xReset: string) => ({
      ...seconds('5'),
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': xReset
    })
    expect(serverBudget(both('10'), NOW)?.remaining).toBe(5)
    expect(serverBudget(both(String(NOW / 1000 + 10)), NOW)?.remaining).toBe(7)
    // 10^9 exactly is a Unix time (contract: under 10^9 are seconds): that pair is read.
    expect(serverBudget(both('1000000000'), NOW)).toStrictEqual({ remaining: 7, resetInMs: 0 })
  })
})

describe('decide: the edges of max-retries and of the longest wait', () => {
  const refused = (retryAfter: string) => ({ status: 429, headers: { 'retry-after': retryAfter } })

  it('the last retry max-retries allows is made; the next is not', () => {
    expect(decide('GET', 3, 3, refused('1'), NOW)).toEqual({ retry: true, waitMs: 1000, asked: true })
    expect(decide('GET', 4, 3, refused('1'), NOW)).toEqual({ retry: false, reason: 'out of retries' })
  })

  it('a wait of exactly 2 minutes is made; a longer one is not ("longer than 2 minutes")', () => {
    expect(MAX_RATE_LIMIT_WAIT_MS).toBe(120_000)
    expect(decide('GET', 1, 3, refused('120'), NOW)).toEqual({ retry: true, waitMs: 120_000, asked: true })
    const reset = { status: 429, headers: { 'x-ratelimit-reset': '120.001' } }
    expect(decide('GET', 1, 3, reset, NOW)).toEqual({ retry: false, reason: 'wait too long', tooLongMs: 120_001 })
    expect(decide('GET', 1, 3, refused('121'), NOW)).toEqual({
      retry: false,
      reason: 'wait too long',
      tooLongMs: 121_000
    })
  })
})

describe('the words of a retry', () => {
  it('the failures without an answer are network, timeout and unknown-host; nothing else is', () => {
    for (const kind of ['network', 'timeout', 'unknown-host']) expect(isFailure(kind)).toBe(true)
    for (const kind of ['deadline', 'cancelled', 'http', '']) expect(isFailure(kind)).toBe(false)
  })

  it("a retry's line names the status or the failure, the retry's number and the wait", () => {
    expect(retryLine(429, 'x', 1, 3, { waitMs: 2000, asked: true })).toBe(
      'rate limited (HTTP 429); retry 1 of 3 in 2.0 s as the server asked'
    )
    expect(retryLine(429, 'x', 2, 3, { waitMs: 1500, asked: false })).toBe(
      'rate limited (HTTP 429); retry 2 of 3 in 1.5 s'
    )
    expect(retryLine(503, 'x', 1, 2, { waitMs: 500, asked: false })).toBe('HTTP 503; retry 1 of 2 in 0.5 s')
    expect(retryLine(undefined, 'timed out after 3 s', 1, 2, { waitMs: 250, asked: false })).toBe(
      'timed out after 3 s; retry 1 of 2 in 0.3 s'
    )
  })

  it('what failed, as an error says it', () => {
    expect(retryWhy(429, 'x')).toBe('was rate limited (HTTP 429)')
    expect(retryWhy(503, 'x')).toBe('failed: HTTP 503')
    expect(retryWhy(undefined, 'timed out after 3 s')).toBe('timed out after 3 s')
  })
})

describe('what check-api reads of the rate-limit headers (resetForm, rateHeadersOf)', () => {
  it('a reset under 10^9 is seconds from now, from it a Unix time; another form is not read', () => {
    expect(resetForm('60')).toBe('seconds from now')
    expect(resetForm(' 999999999.5 ')).toBe('seconds from now')
    expect(resetForm('1000000000')).toBe('a Unix time')
    expect(resetForm('1795980677')).toBe('a Unix time')
    for (const bad of ['', 'soon', '-5', '1e9', 'Tue, 24 Nov 2026 10:00:00 GMT'])
      expect(resetForm(bad)).toBe('unreadable')
    expect(RATE_LIMIT_HEADERS).toEqual([
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset'
    ])
  })

  it('names the headers sent, in the order it reads them, each reset with its form, the limit, and whether it is followed', () => {
    const now = 1_795_980_000_000
    const both = rateHeadersOf(
      {
        'ratelimit-limit': '100, 100;w=60',
        'ratelimit-remaining': '42',
        'ratelimit-reset': '30',
        'x-ratelimit-reset': ['1795980677', 'ignored']
      },
      now
    )
    expect(both).toStrictEqual({
      sent: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-RateLimit-Reset'],
      resets: [
        { header: 'RateLimit-Reset', value: '30', form: 'seconds from now' },
        { header: 'X-RateLimit-Reset', value: '1795980677', form: 'a Unix time' }
      ],
      limit: { limit: 100, header: 'RateLimit-Limit' },
      followed: true
    })
    // A limit alone: stated, but no budget to follow; nothing at all: nothing sent, no limit key.
    expect(rateHeadersOf({ 'x-ratelimit-limit': '50' }, now)).toStrictEqual({
      sent: ['X-RateLimit-Limit'],
      resets: [],
      limit: { limit: 50, header: 'X-RateLimit-Limit' },
      followed: false
    })
    expect(rateHeadersOf({}, now)).toStrictEqual({ sent: [], resets: [], followed: false })
    // The X- trio alone is a budget followed too.
    expect(
      rateHeadersOf({ 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '7', 'x-ratelimit-reset': '30' }, now)
    ).toStrictEqual({
      sent: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
      resets: [{ header: 'X-RateLimit-Reset', value: '30', form: 'seconds from now' }],
      limit: { limit: 100, header: 'X-RateLimit-Limit' },
      followed: true
    })
    expect(rateHeadersOf({ 'ratelimit-reset': 'later' }, now).resets).toEqual([
      { header: 'RateLimit-Reset', value: 'later', form: 'unreadable' }
    ])
  })
})
