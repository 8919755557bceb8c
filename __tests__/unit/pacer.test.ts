import { describe, expect, it } from '@jest/globals'
import { MAX_TOTAL_SERVER_WAIT_MS, Pacer, PacingExhausted, RETURN_MS } from '../../src/api/pacer.js'
import { fakeClock } from '../helpers/fake-clock.js'

describe('Pacer', () => {
  it('lets `limit` requests start at once, then waits for the window', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(3, 1000, clock)
    const starts: number[] = []
    for (let i = 0; i < 7; i++) {
      pacer.settle(await pacer.take())
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
    await Promise.all(
      [0, 1, 2].map(i =>
        pacer.take().then(ticket => {
          order.push(i)
          pacer.settle(ticket)
        })
      )
    )
    expect(order).toEqual([0, 1, 2])
  })

  describe("the server's stated budget (shared by every job using the key)", () => {
    it('with nothing left, waits for the reset instead of meeting a 429', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      const ticket = await pacer.take()
      pacer.settle(ticket, { remaining: 0, resetInMs: 5000 })
      await pacer.take()
      expect(clock.time).toBe(5000)
    })

    it('counts its own starts against what is left: 8 left means 3 more (the last 5 kept for light work), then the reset', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take(), { remaining: 8, resetInMs: 8000 })
      for (let i = 0; i < 3; i++) pacer.settle(await pacer.take())
      expect(clock.time).toBe(0)
      await pacer.take()
      expect(clock.time).toBe(8000)
    })

    it('alone on the key it spends the window at once but the last 5 (5% of 100), kept for light work', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      const sentAt: number[] = []
      for (let remaining = 39; remaining >= 5; remaining--) {
        const ticket = await pacer.take()
        sentAt.push(clock.time)
        pacer.settle(ticket, { remaining, resetInMs: 10_000 - clock.time })
      }
      expect(pacer.shared).toBe(false)
      expect(sentAt.filter(t => t === 0)).toHaveLength(35)
      // A job sending back to back never takes the reserve, alone or not: nothing in the counts says
      // a gate polling every 10 s is there until it has taken from it.
      await pacer.take()
      expect(clock.time).toBe(10_000)
    })

    it('in a window it came into across a reset, bulk work leaves the first 1.25 s to the jobs coming back', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 2000 })
      const first = await pacer.take()
      expect(clock.time).toBe(2000)
      // Reset headers are whole seconds: a job that met a 429 (or saw the window spent) comes back up
      // to a second after the reset, while this one, with many answers, knows it to the millisecond.
      pacer.settle(first, { remaining: 99, resetInMs: 60_000 })
      const sentAt: number[] = []
      for (let i = 0; i < 3; i++) {
        const ticket = await pacer.take()
        sentAt.push(clock.time)
        pacer.settle(ticket, { remaining: 98 - i, resetInMs: 62_000 - clock.time })
      }
      expect(sentAt).toEqual([2000 + RETURN_MS, 2000 + RETURN_MS, 2000 + RETURN_MS])
      // A window that ends before its hold would: the wait ends at the reset, where a new one opens.
      const short = new Pacer(100, 60_000, clock)
      short.settle(await short.take(), { remaining: 0, resetInMs: 1000 })
      short.settle(await short.take(), { remaining: 50, resetInMs: 800 })
      const opened = clock.time
      await short.take()
      expect(clock.time).toBe(opened + 800)
      // A job's first window is not held: nothing says it opened it at a reset.
      const fresh = new Pacer(100, 60_000, clock)
      const start = clock.time
      fresh.settle(await fresh.take(), { remaining: 50, resetInMs: 30_000 })
      fresh.settle(await fresh.take())
      expect(clock.time).toBe(start)
    })

    /** A job whose every answer comes `roundTrip` ms after its start, and shows `others` more spent by other jobs. */
    async function sharing(others: number, roundTrip = 100) {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      let remaining = 100
      /** One request; true when its slot had to wait (for the reset). */
      const step = async (): Promise<boolean> => {
        const before = clock.time
        const ticket = await pacer.take()
        const waited = clock.time > before
        await clock.sleep(roundTrip)
        remaining -= 1 + others
        pacer.settle(ticket, { remaining, resetInMs: 30_000 - clock.time, limit: 100 })
        return waited
      }
      return { clock, pacer, step, left: () => remaining }
    }

    it('when others spend the same budget, it does not slow down while plenty is left (a window unused is lost)', async () => {
      const { clock, pacer, step } = await sharing(3)
      for (let i = 0; i < 10; i++) await step()
      expect(pacer.shared).toBe(true)
      // 10 requests, each one round trip: no wait beyond the round trips.
      expect(clock.time).toBe(1000)
    })

    it("it stops for the reset when what is left will be the others' before its next request arrives, keeping 5 for light work", async () => {
      const { clock, step, left } = await sharing(3)
      let stoppedWith = -1
      for (let i = 0; i < 100; i++) {
        const before = left()
        if (await step()) {
          stoppedWith = before
          break
        }
      }
      // Others spend 3 per round trip (0.03 a ms); the next request would arrive a round trip after
      // the last answer: 3 more of theirs. It stopped with no more than that and the reserve left,
      // and waited for the reset (30 s) rather than meet a 429.
      // The counts fall by 4 a request: 12 left still went (12 - 3 - 5 > 0), 8 did not (8 - 3 - 5).
      // Without the others' share it would go on to 4; without the reserve, to 0.
      expect(stoppedWith).toBe(8)
      expect(clock.time).toBeGreaterThanOrEqual(30_000)
    })

    it("a pause in the job's own work does not hold it for the reset: a view older than a round trip makes the request light", async () => {
      const { clock, pacer, step, left } = await sharing(3)
      for (let i = 0; i < 21; i++) await step()
      expect(left()).toBe(16)
      // 16 left, others spending 3 a round trip (100 ms); the job pauses half a second (converging, say).
      await clock.sleep(500)
      const before = clock.time
      await pacer.take()
      // Counted over the half second, the others have spent 18 of the 16 it was told: a request
      // sent back to back would wait for the reset. Its view is older than a round trip, so this
      // one is light: it may take from the reserve the others leave, and goes now.
      expect(clock.time).toBe(before)
    })

    it('a request a second after its previous one is light: it may take the reserve the bulk jobs leave', async () => {
      const { clock, pacer, step } = await sharing(3)
      for (let i = 0; i < 5; i++) await step()
      // The window is nearly spent: 7 left, others spending 3 a round trip.
      const ticket = await pacer.take()
      await clock.sleep(100)
      pacer.settle(ticket, { remaining: 7, resetInMs: 20_000, limit: 100 })
      const bulk = clock.time
      // A bulk request right away waits for the reset (7 - 3 others - 5 reserve leaves nothing) ...
      await pacer.take()
      expect(clock.time).toBe(bulk + 20_000)
      // ... while a light one (a second after the job's previous one) goes at once while anything is left.
      const light = new Pacer(100, 60_000, clock)
      light.settle(await light.take(), { remaining: 30, resetInMs: 20_000, limit: 100 })
      light.settle(await light.take(), { remaining: 7, resetInMs: 19_000, limit: 100 })
      expect(light.shared).toBe(true)
      await clock.sleep(1000)
      const before = clock.time
      await light.take()
      expect(clock.time).toBe(before)
    })

    it('light requests take the reserve only while more than half of it is left: the rest is a margin for others as old', async () => {
      // Two gates polling a second apart, each with the view of its own last answer, among bulk jobs
      // that left the reserve (5 of 100). Neither knows what the other took since.
      const clock = fakeClock()
      const gate = (remaining: number) => {
        const pacer = new Pacer(100, 60_000, clock)
        return pacer.take().then(ticket => (pacer.settle(ticket, { remaining, resetInMs: 30_000, limit: 100 }), pacer))
      }
      const goesNow = async (pacer: Pacer) => {
        await clock.sleep(1000)
        const before = clock.time
        const ticket = await pacer.take()
        const now = clock.time === before
        pacer.settle(ticket)
        return now
      }
      // Told 5, 4: more than 3 (half of 5, rounded up) left by their view: they go.
      expect(await goesNow(await gate(5))).toBe(true)
      expect(await goesNow(await gate(4))).toBe(true)
      // Told 3 (or 1): they wait for the reset, since another gate as old may have taken the rest.
      expect(await goesNow(await gate(3))).toBe(false)
      expect(await goesNow(await gate(1))).toBe(false)
      // With 40 a window the reserve is 2 (5% is less): a light request needs 2 left by its view.
      const small = new Pacer(100, 60_000, clock)
      small.settle(await small.take(), { remaining: 2, resetInMs: 30_000, limit: 40 })
      expect(await goesNow(small)).toBe(true)
      const last = new Pacer(100, 60_000, clock)
      last.settle(await last.take(), { remaining: 1, resetInMs: 30_000, limit: 40 })
      expect(await goesNow(last)).toBe(false)
    })

    it("a wait for the reset past the caller's deadline is refused at once", async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 60_000, limit: 40 })
      await expect(pacer.take(1000)).rejects.toThrow('request slot')
      expect(clock.time).toBe(0)
    })

    it('ignores an answer older than the one it knows, and a reset more than 2 minutes away', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take()) // the first answer, without the headers
      const first = await pacer.take()
      const second = await pacer.take()
      pacer.settle(second, { remaining: 10, resetInMs: 5000 })
      pacer.settle(first, { remaining: 0, resetInMs: 5000 })
      pacer.settle(await pacer.take())
      expect(clock.time).toBe(0)
      pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 3_600_000 })
      await pacer.take()
      expect(clock.time).toBe(0)
    })

    it('a new window (a later reset) starts a fresh count', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 2000 })
      pacer.settle(await pacer.take())
      expect(clock.time).toBe(2000)
      pacer.settle(await pacer.take(), { remaining: 10, resetInMs: 10_000 })
      for (let i = 0; i < 4; i++) pacer.settle(await pacer.take())
      // After the first 1.25 s of the window (left to jobs coming back at its reset), 4 of the 10.
      expect(clock.time).toBe(2000 + RETURN_MS)
    })

    it('the window ends at the earliest reset its answers allow (they are rounded up to whole seconds)', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take(), { remaining: 10, resetInMs: 10_000 })
      await clock.sleep(400)
      // The same reset, said 0.4 s later and rounded up: 10 s again, not 9.6.
      pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 10_000 })
      await pacer.take()
      expect(clock.time).toBe(10_000)
    })

    it("after a 429 the wait ends at the window's stated reset when Retry-After rounds past it by under a second", () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(1, { remaining: 0, resetInMs: 4200 })
      expect(pacer.pause(5000)).toBe(4200)
      // A Retry-After a second or more past the reset is the server's wish: kept.
      const other = new Pacer(100, 60_000, clock)
      other.settle(1, { remaining: 0, resetInMs: 4000 })
      expect(other.pause(9000)).toBe(9000)
      // Without a stated budget, Retry-After as it is.
      expect(new Pacer(100, 60_000, clock).pause(3000)).toBe(3000)
    })
  })

  describe('requests in flight at once', () => {
    it('the first goes alone; then several, while the job is alone on a key that states its budget', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      const first = await pacer.take()
      let second = false
      const waiting = pacer.take().then(t => ((second = true), t))
      await Promise.resolve()
      await new Promise(resolve => setImmediate(resolve))
      expect(second).toBe(false)
      pacer.settle(first, { remaining: 90, resetInMs: 30_000 })
      const t2 = await waiting
      pacer.settle(t2, { remaining: 89, resetInMs: 30_000 })
      // Two answers of the window, no one else spending: three at once.
      await pacer.take()
      await pacer.take()
      await pacer.take()
      expect(clock.time).toBe(0)
    })

    it('after a 429, one at a time: the next waits until the one in flight is over, answered or not', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.settle(await pacer.take())
      pacer.pause(0)
      const inFlight = await pacer.take()
      let next = false
      const waiting = pacer.take().then(() => (next = true))
      await new Promise(resolve => setImmediate(resolve))
      expect(next).toBe(false)
      pacer.settle(inFlight) // no answer (a timeout): over all the same
      await waiting
      expect(next).toBe(true)
    })

    it("a long run one at a time leaves no listener on the job's cancel signal behind", async () => {
      const clock = fakeClock()
      const pacer = new Pacer(1000, 60_000, clock)
      pacer.pause(0)
      const abort = new AbortController()
      const added: string[] = []
      const removed: string[] = []
      const signal = abort.signal
      const add = signal.addEventListener.bind(signal)
      const remove = signal.removeEventListener.bind(signal)
      signal.addEventListener = (type: string, listener: () => void, options?: { once?: boolean }) => {
        added.push(type)
        add(type, listener, options)
      }
      signal.removeEventListener = (type: string, listener: () => void) => {
        removed.push(type)
        remove(type, listener)
      }
      let inFlight = await pacer.take(undefined, signal)
      for (let i = 0; i < 50; i++) {
        const next = pacer.take(undefined, signal)
        await new Promise(resolve => setImmediate(resolve))
        pacer.settle(inFlight)
        inFlight = await next
      }
      // Each wait for the request in flight added a listener and took it away again.
      expect(added.filter(t => t === 'abort').length).toBeGreaterThanOrEqual(50)
      expect(removed.filter(t => t === 'abort').length).toBe(added.filter(t => t === 'abort').length)
    })

    it('a cancel ends a wait for the request in flight', async () => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      pacer.pause(0)
      await pacer.take()
      const abort = new AbortController()
      const waiting = pacer.take(undefined, abort.signal)
      abort.abort()
      await expect(waiting).rejects.toThrow('cancelled')
    })
  })

  it('a server that says Remaining: 0 with a reset under 2 minutes on every answer holds a client 5 minutes in all, then it stops', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    let error: unknown
    let sent = 0
    try {
      for (let i = 0; i < 100; i++) {
        pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 119_000 })
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
    for (let i = 0; i < 20; i++) pacer.settle(await pacer.take())
    expect(clock.time).toBeGreaterThan(MAX_TOTAL_SERVER_WAIT_MS)
  })
})
