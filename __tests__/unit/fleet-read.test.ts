/**
 * How a gate's poll round reads its checks: the list when its pages, plus a
 * GET for each check it would not show, are fewer requests than a GET per
 * check; otherwise one by one.
 */
import { describe, expect, it } from '@jest/globals'
import { planRound } from '../../src/operations/gate/fleet-read.js'

const checks = (n: number) => Array.from({ length: n }, (_, i) => `chk_${i}`)
const none = new Set<string>()

describe('planRound', () => {
  it('one check is read by id, whatever the list costs', () => {
    expect(planRound(['chk_0'], { pages: 1, missed: none })).toEqual({ by: 'id' })
    expect(planRound(['chk_0'], { missed: none })).toEqual({ by: 'id' })
  })

  it('reads the list when it takes fewer pages than there are checks, up to one page fewer', () => {
    expect(planRound(checks(10), { pages: 1, missed: none })).toEqual({ by: 'list', maxPages: 9 })
    expect(planRound(checks(200), { pages: 4, missed: none })).toEqual({ by: 'list', maxPages: 199 })
    expect(planRound(checks(2), { pages: 1, missed: none })).toEqual({ by: 'list', maxPages: 1 })
  })

  it('reads by id when the list takes as many pages as there are checks, or more', () => {
    expect(planRound(checks(10), { pages: 10, missed: none })).toEqual({ by: 'id' })
    expect(planRound(checks(10), { pages: 12, missed: none })).toEqual({ by: 'id' })
  })

  it('counts a GET for each pending check the last read did not show whole', () => {
    const missed = new Set(['chk_0', 'chk_1', 'chk_9'])
    expect(planRound(checks(10), { pages: 6, missed })).toEqual({ by: 'list', maxPages: 6 }) // 6 + 3 < 10
    expect(planRound(checks(10), { pages: 7, missed })).toEqual({ by: 'id' }) // 7 + 3 = 10
    // chk_9 is no longer pending (it passed): only the other two count, 2 + 2 < 5.
    expect(planRound(checks(5), { pages: 2, missed })).toEqual({ by: 'list', maxPages: 2 })
  })

  it('a list never read is tried for one page fewer than the checks; one that failed is never read again', () => {
    expect(planRound(checks(25), { missed: none })).toEqual({ by: 'list', maxPages: 24 })
    expect(planRound(checks(25), { pages: Number.POSITIVE_INFINITY, missed: none })).toEqual({ by: 'id' })
  })
})
