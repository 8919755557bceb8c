/** The gate's verdict on one check result. */
import { describe, expect, it } from '@jest/globals'
import { judge } from '../../src/operations/gate/judge.js'

describe('judge', () => {
  const check = { id: 'c', status: 'UP', responseTime: 300, lastCheckedAt: '2026-01-01T00:00:10Z' }
  it('compares status without case, response time and freshness', () => {
    expect(judge(check, { expectedStatus: 'up' }).passed).toBe(true)
    expect(judge(check, { expectedStatus: 'up', maxResponseTimeMs: 299 }).missed).toEqual([
      'response time 300 ms is above 299 ms'
    ])
    expect(judge(check, { expectedStatus: 'up', freshAfter: Date.parse('2026-01-01T00:00:10Z') }).missed[0]).toContain(
      'stale'
    )
    expect(judge({ ...check, lastCheckedAt: null }, { expectedStatus: 'up', freshAfter: 0 }).missed).toEqual([
      'never checked'
    ])
    expect(judge({ ...check, responseTime: null }, { expectedStatus: 'up', maxResponseTimeMs: 5 }).missed).toEqual([
      'no response time reported'
    ])
  })
})
