/**
 * The simulation's bound of a step allows for the step's own pacing: the
 * client starts at most 100 requests a minute (pacer.ts), so a step that
 * sends 101 waits a window for the 101st (seed 9252's sync of 102 requests
 * took 60.6 s against a bound of 60 s that left this out).
 */
import { describe, expect, it } from '@jest/globals'
import { pacingAllowanceMs } from '../../scripts/lib/simulate/invariants.js'

const requests = (n: number) =>
  Array.from({ length: n }, (_, i) => `::debug::${i % 2 ? 'POST' : 'GET'} /checks?page=${i}\nother line`).join('\n')

describe('pacingAllowanceMs', () => {
  it('nothing for up to 100 requests; a window and its slack for each further hundred', () => {
    expect(pacingAllowanceMs('')).toBe(0)
    expect(pacingAllowanceMs(requests(100))).toBe(0)
    expect(pacingAllowanceMs(requests(101))).toBe(60_250)
    expect(pacingAllowanceMs(requests(200))).toBe(60_250)
    expect(pacingAllowanceMs(requests(201))).toBe(120_500)
  })

  it("counts only the client's request lines: other debug lines and a line that only mentions a request do not count", () => {
    const noise = Array.from({ length: 150 }, () => '::debug::Read 2 of 2 check(s)\nretry of GET /checks').join('\n')
    expect(pacingAllowanceMs(`${noise}\n${requests(100)}`)).toBe(0)
    expect(pacingAllowanceMs(`${noise}\n${requests(102)}`)).toBe(60_250)
  })
})
