/** The gate's verdict on one check result. */
import { describe, expect, it } from '@jest/globals'
import { judge } from '../../src/operations/gate/judge.js'
import { checkReading, decide, openLedger } from '../../src/operations/gate/ledger.js'

describe('judge', () => {
  const check = { id: 'c', status: 'UP', responseTime: 300, lastCheckedAt: '2026-01-01T00:00:10Z' }
  it('compares status without case, response time and freshness', () => {
    expect(judge(check, { expectedStatus: 'up' }).passed).toBe(true)
    // max-response-time: at or below it passes
    expect(judge(check, { expectedStatus: 'up', maxResponseTimeMs: 300 }).passed).toBe(true)
    expect(judge(check, { expectedStatus: 'up', maxResponseTimeMs: 299 }).missed).toEqual([
      'response time 300 ms is above 299 ms'
    ])
    // Freshness is the probe ledger's: the result the step's first read showed is from before the step.
    const ledger = openLedger(check, Date.parse('2026-01-01T00:00:05Z'), true)
    expect(decide(ledger, checkReading(check))).toBe('before-step')
    expect(judge({ ...check, lastCheckedAt: null }, { expectedStatus: 'up', requireFresh: true }).missed).toEqual([
      'never checked'
    ])
    expect(judge({ ...check, responseTime: null }, { expectedStatus: 'up', maxResponseTimeMs: 5 }).missed).toEqual([
      'no response time reported'
    ])
  })
})
