import { describe, expect, it } from '@jest/globals'
import { Pacer } from '../../src/api/pacer.js'

function fakeClock() {
  let t = 0
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms
    },
    get time() {
      return t
    }
  }
}

describe('Pacer', () => {
  it('lets `limit` requests start at once, then waits for the window', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(3, 1000, clock)
    const starts: number[] = []
    for (let i = 0; i < 7; i++) {
      await pacer.take()
      starts.push(clock.time)
    }
    expect(starts.slice(0, 3)).toEqual([0, 0, 0])
    expect(starts[3]).toBeGreaterThanOrEqual(1000)
    expect(starts[6]).toBeGreaterThanOrEqual(2000)
    // never more than 3 in any window
    for (let i = 3; i < starts.length; i++) expect(starts[i] - starts[i - 3]).toBeGreaterThanOrEqual(1000)
  })

  it('holds everyone after a pause (a 429)', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 1000, clock)
    pacer.pause(5000)
    await pacer.take()
    expect(clock.time).toBe(5000)
  })

  it('hands out slots in call order to concurrent callers', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(1, 100, clock)
    const order: number[] = []
    await Promise.all([0, 1, 2].map(i => pacer.take().then(() => order.push(i))))
    expect(order).toEqual([0, 1, 2])
  })
})
