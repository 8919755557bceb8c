/** check-api's pure parts: which failures end a run, the saved own check, times written as numbers (the rate-limit headers are retry.ts's: unit/retry-edges). */
import { describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import { endsTheRun } from '../../src/operations/service/check-api.js'
import { ownName, savedOwnCheck } from '../../src/operations/service/own-check.js'
import { createdAt, times } from '../../src/operations/service/points.js'
import type { Seen } from '../../src/operations/service/seen.js'

describe('what ends a check-api run', () => {
  const error = (kind: ApiError['kind'], status?: number) =>
    new ApiError({ kind, method: 'GET', path: '/checks', detail: 'x', ...(status ? { status } : {}) })
  it('unreachable, timed out, a refused key, a cancel: yes; anything else makes a point unknown', () => {
    for (const kind of ['network', 'unknown-host', 'timeout', 'tls', 'cancelled'] as const)
      expect(endsTheRun(error(kind))).toBe(true)
    expect(endsTheRun(error('http', 401))).toBe(true)
    expect(endsTheRun(error('http', 403))).toBe(true)
    expect(endsTheRun(error('http', 500))).toBe(false)
    expect(endsTheRun(error('pagination'))).toBe(false)
    expect(endsTheRun(error('rate-limit', 429))).toBe(false)
    expect(endsTheRun(new Error('x'))).toBe(false)
  })
})

describe('its own check', () => {
  it('a name of its own; the saved state read back, anything else nothing to delete', () => {
    expect(ownName()).toMatch(/^check-api-[0-9a-f]{8}$/)
    expect(savedOwnCheck('{"name":"check-api-0a1b2c3d","id":"chk_1"}')).toEqual({
      name: 'check-api-0a1b2c3d',
      id: 'chk_1'
    })
    expect(savedOwnCheck('{"name":"check-api-0a1b2c3d"}')).toEqual({ name: 'check-api-0a1b2c3d' })
    // Never a check of another name: the post step deletes only what check-api made.
    expect(savedOwnCheck('{"name":"shop","id":"chk_1"}')).toBeUndefined()
    expect(savedOwnCheck('')).toBeUndefined()
    expect(savedOwnCheck('not json')).toBeUndefined()
  })

  it('when its create was sent: a finite number, else left out (the post step then reads the list once)', () => {
    expect(savedOwnCheck('{"name":"check-api-0a1b2c3d","sentAt":1795988133951}')).toEqual({
      name: 'check-api-0a1b2c3d',
      sentAt: 1795988133951
    })
    expect(savedOwnCheck('{"name":"check-api-0a1b2c3d","sentAt":"1795988133951"}')).toEqual({
      name: 'check-api-0a1b2c3d'
    })
    expect(savedOwnCheck('{"name":"check-api-0a1b2c3d","sentAt":null}')).toEqual({ name: 'check-api-0a1b2c3d' })
  })
})

describe('times written as numbers', () => {
  const seen = (...rows: Array<Record<string, unknown>>): Seen => ({
    lists: [{ name: 'checks', pages: [], rows: rows.map((row, i) => ({ id: `chk_${i}`, ...row })) }],
    maxPages: 100
  })
  it('a createdAt the action cannot place ranks no create: counted as none, and said', () => {
    const point = createdAt(seen({ createdAt: 1795988133951 }, { createdAt: 1795988133951 }))
    expect(point.found).toBe(
      'no createdAt (createdAt on 0 of 2 checks (and on 2 in a form the action cannot place, as none), updatedAt on 0)'
    )
    expect(createdAt(seen({ createdAt: '2026-11-29T08:00:00Z' }, { createdAt: 1795988133951 })).found).toBe(
      'createdAt on 1 of 2 checks (and on 1 in a form the action cannot place, as none), updatedAt on 0'
    )
  })
  it('the times point names a number as a form it cannot place', () => {
    const point = times(seen({ lastCheckedAt: 1795988133951 }))
    expect(point.found).toBe('lastCheckedAt: a number (epoch time?), a form the action cannot place (1795988133951)')
    expect(point.advice).toContain('tell the service owner which form')
  })
})
