import { describe, expect, it } from '@jest/globals'
import { MAX_TOTAL_SERVER_WAIT_MS, Pacer, PacingExhausted } from '../../src/api/pacer.js'

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

  describe("the server's stated budget (shared by every job using the key)", () => {
    it('with nothing left, waits for the reset instead of meeting a 429', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      const ticket = await pacer.take()
      pacer.observe(ticket, { remaining: 0, resetInMs: 5000 })
      await pacer.take()
      expect(clock.time).toBe(5000)
    })

    it('counts its own starts against what is left: 3 left means 3 more, then the reset', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.observe(await pacer.take(), { remaining: 3, resetInMs: 8000 })
      for (let i = 0; i < 3; i++) await pacer.take()
      expect(clock.time).toBe(0)
      await pacer.take()
      expect(clock.time).toBe(8000)
    })

    it('alone on the key it bursts: the counts fall only by its own requests', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      for (let remaining = 39; remaining >= 10; remaining--) {
        pacer.observe(await pacer.take(), { remaining, resetInMs: 10_000 })
      }
      expect(pacer.shared).toBe(false)
      expect(clock.time).toBe(0)
    })

    it('when others spend the same budget, it spreads what is left over the time to the reset', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      // Each of our requests sees the count fall by 3: two other jobs share the key.
      let remaining = 40
      for (let i = 0; i < 4; i++) {
        remaining -= 3
        pacer.observe(await pacer.take(), { remaining, resetInMs: 10_000 - clock.time })
      }
      expect(pacer.shared).toBe(true)
      const before = clock.time
      const ticket = await pacer.take()
      const spacing = clock.time - before
      // 28 left over about 10 s: roughly one start per 10 s / 27
      expect(spacing).toBeGreaterThan(250)
      expect(spacing).toBeLessThan(1000)
      pacer.observe(ticket, { remaining: 2, resetInMs: 10_000 - clock.time })
      // Others spend about 3 for each of ours: the last 2 will be theirs by the time a slot comes,
      // so the next start waits for the reset rather than meet a 429.
      await pacer.take()
      expect(clock.time).toBe(10_000)
    })

    it('joining a window others have spent more than half of, it spreads from its first request', async () => {
      const clock = fakeClock()
      const joining = new Pacer(100, 60_000, clock)
      joining.observe(await joining.take(), { remaining: 15, resetInMs: 8000, limit: 40 })
      expect(joining.shared).toBe(true)
      await joining.take()
      expect(clock.time).toBeGreaterThan(400) // 15 left over 8 s
      const fresh = new Pacer(100, 60_000, clock)
      fresh.observe(await fresh.take(), { remaining: 30, resetInMs: 8000, limit: 40 })
      expect(fresh.shared).toBe(false)
    })

    it("a wait that only spreads requests out is not made past the caller's deadline; one for the reset is refused", async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.observe(await pacer.take(), { remaining: 2, resetInMs: 60_000, limit: 40 })
      expect(pacer.shared).toBe(true)
      // 2 left over a minute would be 30 s apart: with a deadline 1 s away both go now...
      await pacer.take(1000)
      await pacer.take(1000)
      expect(clock.time).toBe(0)
      // ...and with none left, the reset is past the deadline: refused at once.
      await expect(pacer.take(1000)).rejects.toThrow('request slot')
      expect(clock.time).toBe(0)
    })

    it('ignores an answer older than the one it knows, and a reset more than 2 minutes away', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      const first = await pacer.take()
      const second = await pacer.take()
      pacer.observe(second, { remaining: 10, resetInMs: 5000 })
      pacer.observe(first, { remaining: 0, resetInMs: 5000 })
      await pacer.take()
      expect(clock.time).toBe(0)
      pacer.observe(await pacer.take(), { remaining: 0, resetInMs: 3_600_000 })
      await pacer.take()
      expect(clock.time).toBe(0)
    })

    it('a new window (a later reset) starts a fresh count', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.observe(await pacer.take(), { remaining: 0, resetInMs: 2000 })
      await pacer.take()
      expect(clock.time).toBe(2000)
      pacer.observe(await pacer.take(), { remaining: 5, resetInMs: 10_000 })
      for (let i = 0; i < 4; i++) await pacer.take()
      expect(clock.time).toBe(2000)
    })
  })

  it('a server that says Remaining: 0 with a reset under 2 minutes on every answer holds a client 5 minutes in all, then it stops', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    let error: unknown
    let sent = 0
    try {
      for (let i = 0; i < 100; i++) {
        pacer.observe(await pacer.take(), { remaining: 0, resetInMs: 119_000 })
        sent++
      }
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(PacingExhausted)
    expect((error as Error).message).toContain('at most 5 minutes in all')
    expect(sent).toBe(3)
    expect(clock.time).toBeLessThanOrEqual(MAX_TOTAL_SERVER_WAIT_MS)
  })

  it('our own pacing (100 a minute) never counts against that bound', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(2, 60_000, clock)
    for (let i = 0; i < 20; i++) await pacer.take()
    expect(clock.time).toBeGreaterThan(MAX_TOTAL_SERVER_WAIT_MS)
  })
})
