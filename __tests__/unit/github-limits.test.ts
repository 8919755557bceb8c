import { describe, expect, it } from '@jest/globals'
import { causeOf, mayWait, serverErrorRetries, waitsEndBy } from '../../src/github/limits.js'
import { RunStamp, STAMP_BYTES, laterRun, stampIn, stampLine } from '../../src/github/sticky.js'
import { refusalOf } from '../../src/github/keep-one.js'

const NOW = Date.parse('2026-05-04T10:00:00Z')

describe("the waits for GitHub's limits", () => {
  it('end within a minute of the first call, and by the step’s deadline when it has one', () => {
    expect(waitsEndBy(NOW, undefined)).toBe(NOW + 60_000)
    expect(waitsEndBy(NOW, NOW + 20_000)).toBe(NOW + 20_000)
    expect(waitsEndBy(NOW, NOW + 600_000)).toBe(NOW + 60_000)
    const endBy = NOW + 60_000
    expect(mayWait(NOW, 60_000, endBy)).toBe(true)
    expect(mayWait(NOW, 60_001, endBy)).toBe(false)
    expect(mayWait(NOW + 59_000, 1_000, endBy)).toBe(true)
  })

  it("after a 5xx, plugin-retry's three retries (1, 4, 9 s) while the next wait fits, none once it does not", () => {
    const endBy = NOW + 60_000
    expect([0, 1, 2].map(count => serverErrorRetries(NOW, count, endBy))).toEqual([3, 3, 3])
    expect(serverErrorRetries(NOW, 3, endBy)).toBe(0)
    // the third retry waits 9 s: at 51 s it still ends in time, at 52 s it would not
    expect(serverErrorRetries(NOW + 51_000, 2, endBy)).toBe(3)
    expect(serverErrorRetries(NOW + 52_000, 2, endBy)).toBe(0)
    // a step whose timeout has passed: no retry at all
    expect(serverErrorRetries(NOW, 0, NOW - 1)).toBe(0)
  })
})

describe('the cause of a failed call to GitHub', () => {
  const seconds = NOW / 1000
  it('a secondary rate limit: 403 or 429 with retry-after, or its message', () => {
    expect(causeOf(403, { 'retry-after': '30' }, 'You have exceeded a secondary rate limit.', NOW)).toEqual({
      kind: 'rate limit',
      limit: 'secondary',
      waitSeconds: 30
    })
    expect(causeOf(429, { 'retry-after': '5' }, 'Too Many Requests', NOW)).toMatchObject({ limit: 'secondary' })
    expect(causeOf(403, {}, 'You have exceeded a secondary rate limit', NOW)).toEqual({
      kind: 'rate limit',
      limit: 'secondary'
    })
  })

  it('the primary rate limit: x-ratelimit-remaining 0 (the wait until x-ratelimit-reset), or its message', () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(seconds + 1800) }
    expect(causeOf(403, headers, 'API rate limit exceeded for installation ID 1.', NOW)).toEqual({
      kind: 'rate limit',
      limit: 'primary',
      waitSeconds: 1800
    })
    expect(causeOf(429, headers, '', NOW)).toMatchObject({ limit: 'primary' })
    expect(causeOf(403, {}, 'API rate limit exceeded for user ID 1.', NOW)).toEqual({
      kind: 'rate limit',
      limit: 'primary'
    })
  })

  it('a 403 without a sign of a rate limit is a permission; a 404 is not found; anything else is other', () => {
    expect(causeOf(403, { 'x-ratelimit-remaining': '4999' }, 'Resource not accessible by integration', NOW)).toEqual({
      kind: 'permission'
    })
    expect(causeOf(404, {}, 'Not Found', NOW)).toEqual({ kind: 'not found' })
    for (const status of [502, 422, 401, undefined]) expect(causeOf(status, {}, '', NOW)).toEqual({ kind: 'other' })
  })
})

describe("the run's stamp in the comment", () => {
  const stamp = (runId: number, attempt: number, startedAt: number): RunStamp => ({ runId, attempt, startedAt })

  it('is read back from a body, wherever it stands; a body without one has none', () => {
    const line = stampLine(stamp(5101, 2, NOW))
    expect(line).toBe(`<!-- monitoring-action run: 5101.2 at ${NOW} -->`)
    expect(stampIn(`<!-- marker -->\n${line}\n### Plan`)).toEqual(stamp(5101, 2, NOW))
    // a re-run past the ninth attempt, a run id of any length: read back whole
    expect(stampIn(stampLine(stamp(2 ** 40, 12, NOW)))).toEqual(stamp(2 ** 40, 12, NOW))
    expect(stampIn('### Plan')).toBeUndefined()
    expect(stampIn(undefined)).toBeUndefined()
    // values out of range are written as 0, never as something a person could take for a run
    expect(stampLine(stamp(Number.NaN, -1, 1.5))).toBe('<!-- monitoring-action run: 0.0 at 0 -->')
    expect(Buffer.byteLength(stampLine(stamp(2 ** 53 - 1, 2 ** 53 - 1, 2 ** 53 - 1))) + 1).toBe(STAMP_BYTES)
  })

  it('orders runs: the greater run id, then the later attempt, then the later start; no stamp is the earliest', () => {
    expect(laterRun(stamp(101, 1, 0), stamp(100, 5, 9))).toBe(true)
    expect(laterRun(stamp(100, 5, 9), stamp(101, 1, 0))).toBe(false)
    expect(laterRun(stamp(100, 2, 0), stamp(100, 1, 9))).toBe(true)
    expect(laterRun(stamp(100, 1, 9), stamp(100, 2, 0))).toBe(false)
    expect(laterRun(stamp(100, 1, 10), stamp(100, 1, 9))).toBe(true)
    expect(laterRun(stamp(100, 1, 9), stamp(100, 1, 9))).toBe(false)
    expect(laterRun(stamp(0, 0, 0), undefined)).toBe(true)
    expect(laterRun(undefined, stamp(0, 0, 0))).toBe(false)
  })
})

describe('a refusal of an edit', () => {
  it('is a 403 without a rate limit, a 404, a 410 or a 422, told as GitHub said it; a rate limit or a 5xx is none', () => {
    const error = (status: number, message: string, headers: Record<string, string> = {}) => ({
      status,
      message,
      response: { headers }
    })
    expect(refusalOf(error(403, 'Resource not accessible by integration'))).toBe(
      'HTTP 403: Resource not accessible by integration'
    )
    expect(refusalOf(error(404, 'Not Found'))).toBe('HTTP 404: Not Found')
    expect(refusalOf(error(410, 'This issue was deleted'))).toBe('HTTP 410: This issue was deleted')
    expect(refusalOf(error(422, 'Validation Failed'))).toBe('HTTP 422: Validation Failed')
    expect(refusalOf(error(403, 'You have exceeded a secondary rate limit', { 'retry-after': '60' }))).toBeUndefined()
    expect(refusalOf(error(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }))).toBeUndefined()
    expect(refusalOf(error(429, 'Too Many Requests'))).toBeUndefined()
    expect(refusalOf(error(502, 'Server Error'))).toBeUndefined()
    expect(refusalOf(new Error('no answer'))).toBeUndefined()
  })
})
