/**
 * The pacer's rules at their edges (src/api/pacer.ts; contract: "Rate-limit
 * headers", "Every wait is bounded"): an equal value on each side of a
 * limit, which answers open a new window, how a round trip is measured, the
 * others' pace over a fixed number of answers, and when requests go one at a
 * time. Each case states what the job does, not how the pacer keeps it.
 */
import { getEventListeners } from 'node:events'
import { describe, expect, it } from '@jest/globals'
import { MAX_TOTAL_SERVER_WAIT_MS, Pacer, PacingDeadline, RETURN_MS, realClock } from '../../src/api/pacer.js'
import { type FakeClock, fakeClock } from '../helpers/fake-clock.js'

/** Whether `pacer.take()` asked now starts now (it is settled at once, without a budget). */
async function goesNow(pacer: Pacer, clock: FakeClock): Promise<boolean> {
  const before = clock.time
  pacer.settle(await pacer.take())
  return clock.time === before
}

/** Whether a second request waits for the first, taken back to back without an answer between. */
async function secondWaits(pacer: Pacer): Promise<boolean> {
  const first = await pacer.take()
  let started = false
  const second = pacer.take().then(ticket => ((started = true), ticket))
  for (let i = 0; i < 5; i++) await new Promise(resolve => setImmediate(resolve))
  const waited = !started
  pacer.settle(first)
  pacer.settle(await second)
  return waited
}

/**
 * A job that came into a window across its reset (a spent window ending at 1 s, then the new one's
 * first answer there: the hold runs to 1 s + RETURN_MS), with one more request made in the hold at
 * 2 s whose answer shows `remaining` (100 a minute).
 */
async function inTheHold(remaining: number): Promise<{ clock: FakeClock; pacer: Pacer }> {
  const clock = fakeClock()
  const pacer = new Pacer(100, 60_000, clock)
  pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 1000 })
  pacer.settle(await pacer.take(), { remaining: 99, resetInMs: 60_000 })
  await clock.sleep(1000)
  pacer.settle(await pacer.take(), { remaining, resetInMs: 59_000 })
  expect(clock.time).toBe(2000)
  return { clock, pacer }
}

describe('the real clock', () => {
  it('sleeps the time asked; an abort ends the sleep at once and leaves no listener behind', async () => {
    const started = Date.now()
    await realClock.sleep(30)
    expect(Date.now() - started).toBeGreaterThanOrEqual(25)
    const abort = new AbortController()
    const waiting = realClock.sleep(60_000, abort.signal)
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(1)
    const cut = Date.now()
    abort.abort()
    await waiting
    expect(Date.now() - cut).toBeLessThan(1000)
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0)
    // A sleep that ends by itself takes its listener away too; an aborted signal ends a sleep before it starts.
    const other = new AbortController()
    await realClock.sleep(5, other.signal)
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0)
    const before = Date.now()
    await realClock.sleep(60_000, abort.signal)
    expect(Date.now() - before).toBeLessThan(1000)
  })

  it("an aborted sleep leaves no timer behind (a cancelled job's process is not kept alive for the rest of the wait)", async () => {
    const timers = () => process.getActiveResourcesInfo().filter(kind => kind === 'Timeout').length
    const idle = timers()
    const abort = new AbortController()
    const waiting = realClock.sleep(60_000, abort.signal)
    expect(timers()).toBe(idle + 1)
    abort.abort()
    await waiting
    expect(timers()).toBe(idle)
  })
})

describe("a 429's wait and the window's stated reset", () => {
  it('ends at the reset when Retry-After rounds past it by under a second; by a second or more, as asked', () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    void pacer.take().then(ticket => pacer.settle(ticket, { remaining: 0, resetInMs: 5000 }))
    return Promise.resolve().then(async () => {
      await new Promise(resolve => setImmediate(resolve))
      // The reset is 5 s away: a 4.5 s Retry-After ends there (0.5 s short of it) ...
      expect(pacer.pause(4500)).toBe(5000)
      // ... a 4 s one (exactly a second short) is waited as asked.
      const again = new Pacer(100, 60_000, clock)
      again.settle(await again.take(), { remaining: 0, resetInMs: 5000 })
      expect(again.pause(4000)).toBe(4000)
    })
  })

  it('a reset that is now or past is not waited for: the wait is as asked', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 1000 })
    await clock.sleep(1000)
    expect(pacer.pause(500)).toBe(500)
    await clock.sleep(500)
    expect(pacer.pause(300)).toBe(300)
  })
})

describe('what the answers say', () => {
  it('a reset exactly 2 minutes away is followed; one further is not', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 120_000 })
    await pacer.take()
    expect(clock.time).toBe(120_000)
    const far = new Pacer(100, 60_000, clock)
    far.settle(await far.take(), { remaining: 0, resetInMs: 120_001 })
    expect(await goesNow(far, clock)).toBe(true)
  })

  /** Two answers: `first` then `second` (remaining, reset in ms from 0); then when the count runs out, which reset is waited for. */
  async function resetAfter(first: [number, number], second: [number, number]): Promise<number> {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    pacer.settle(await pacer.take(), { remaining: first[0], resetInMs: first[1] })
    pacer.settle(await pacer.take(), { remaining: second[0], resetInMs: second[1] })
    for (let i = 0; i < 100; i++) {
      const before = clock.time
      pacer.settle(await pacer.take())
      if (clock.time > before && clock.time !== RETURN_MS) return clock.time
    }
    return -1
  }

  it('a later reset (by more than a second) with more left is a new window; either alone is the same window', async () => {
    // The same window: its reset is the earliest its answers allow (reset headers round up).
    expect(await resetAfter([9, 10_000], [8, 11_500])).toBe(10_000) // later, but fewer left
    expect(await resetAfter([9, 10_000], [9, 11_500])).toBe(10_000) // later, as many left
    expect(await resetAfter([9, 10_000], [20, 11_000])).toBe(10_000) // more left, a second later only
    // A new window: later by more than a second, and more left.
    expect(await resetAfter([9, 10_000], [20, 11_500])).toBe(11_500)
  })

  it("the others' pace is measured over the last 8 answers: after 7 answers of its own alone, others are still seen; after 8, not", async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    let remaining = 100
    const step = async (others: number) => {
      const ticket = await pacer.take()
      await clock.sleep(10)
      remaining -= 1 + others
      pacer.settle(ticket, { remaining, resetInMs: 50_000 - clock.time, limit: 100 })
    }
    for (let i = 0; i < 5; i++) await step(3)
    expect(pacer.shared).toBe(true)
    for (let i = 0; i < 6; i++) await step(0)
    expect(pacer.shared).toBe(true)
    await step(0)
    expect(pacer.shared).toBe(false)
  })
})

describe('the window as its answers show it', () => {
  it('the pace others spend at is measured in the hold too: answers then show the key shared', async () => {
    const { pacer } = await inTheHold(90) // in the hold: 8 more spent by others
    expect(pacer.shared).toBe(true)
  })

  it("a window has passed when its newest answer's reset has, though an older answer said later", async () => {
    // Reset headers round up: the newest answer's reset (9.6 s) bounds the window, not the first
    // answers' (10 s). At 9.7 s the window is past: the job knows nothing of the next, one at a time.
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    pacer.settle(await pacer.take(), { remaining: 90, resetInMs: 10_000 })
    pacer.settle(await pacer.take(), { remaining: 89, resetInMs: 10_000 })
    await clock.sleep(600)
    pacer.settle(await pacer.take(), { remaining: 88, resetInMs: 9000 })
    await clock.sleep(9100)
    expect(await secondWaits(pacer)).toBe(true)
  })
})

describe('light and bulk requests at their edges', () => {
  it("a request a second exactly after the job's previous start is light, even with its view fresh", async () => {
    // A round trip of a second: the answer is fresh when the next request is asked for, a second after
    // the last start. With 5 left of 100 (the reserve), a light request goes; a bulk one waits for the reset.
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    const ticket = await pacer.take()
    await clock.sleep(1000)
    pacer.settle(ticket, { remaining: 5, resetInMs: 30_000, limit: 100 })
    expect(await goesNow(pacer, clock)).toBe(true)
    // 999 ms after: bulk.
    const other = new Pacer(100, 60_000, clock)
    const first = await other.take()
    await clock.sleep(999)
    other.settle(first, { remaining: 5, resetInMs: 30_000, limit: 100 })
    expect(await goesNow(other, clock)).toBe(false)
  })

  it("a failed request's time is no round trip: only answers that state the budget measure it", async () => {
    // Round trips of 10 ms; a request that fails after 880 ms (no answer) must not make the view of
    // 400 ms old look fresh: the next request is light, and goes with 4 of 100 left.
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    for (const remaining of [50, 49]) {
      const ticket = await pacer.take()
      await clock.sleep(10)
      pacer.settle(ticket, { remaining, resetInMs: 30_000 - clock.time, limit: 100 })
    }
    const failing = await pacer.take()
    await clock.sleep(470)
    const last = await pacer.take()
    await clock.sleep(10)
    pacer.settle(last, { remaining: 4, resetInMs: 30_000 - clock.time, limit: 100 })
    await clock.sleep(400)
    pacer.settle(failing)
    expect(clock.time).toBe(900)
    expect(await goesNow(pacer, clock)).toBe(true)
  })

  it('a view older than the round trip (averaged over the answers) makes a request light', async () => {
    // Round trips of 100 and 300 ms average 200: a request asked 250 ms after the last answer is
    // light (5 of 100 left: it goes); 150 ms after, it is bulk (it waits for the reset).
    const light = async (afterMs: number) => {
      const clock = fakeClock()
      const pacer = new Pacer(100, 60_000, clock)
      const a = await pacer.take()
      await clock.sleep(100)
      pacer.settle(a, { remaining: 50, resetInMs: 30_000, limit: 100 })
      const b = await pacer.take()
      await clock.sleep(300)
      pacer.settle(b, { remaining: 5, resetInMs: 30_000, limit: 100 })
      await clock.sleep(afterMs)
      return goesNow(pacer, clock)
    }
    expect(await light(250)).toBe(true)
    expect(await light(150)).toBe(false)
  })
})

describe('one request at a time', () => {
  it('once the window it knew has passed its reset, a job knows nothing again: one at a time', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    for (const remaining of [90, 89]) pacer.settle(await pacer.take(), { remaining, resetInMs: 10_000 })
    expect(await secondWaits(pacer)).toBe(false) // two answers of the window: several at once
    const after = new Pacer(100, 60_000, clock)
    for (const remaining of [90, 89]) after.settle(await after.take(), { remaining, resetInMs: 10_000 })
    await clock.sleep(10_000)
    expect(await secondWaits(after)).toBe(true)
  })

  it('after the hold at a window it came into across a reset, a view from before the hold is renewed one at a time', async () => {
    const { clock, pacer } = await inTheHold(98) // a light request in the hold
    // Two answers of the window and nobody else spending it: several could go at once, but both
    // answers came before the hold ended, and the jobs that came back since spent unseen.
    await clock.sleep(300)
    expect(await secondWaits(pacer)).toBe(true)
  })

  it('an answer at the instant the hold ends is from after it: two such answers let several go at once', async () => {
    const { clock, pacer } = await inTheHold(98) // a light request in the hold
    await clock.sleep(250)
    expect(clock.time).toBe(1000 + RETURN_MS)
    // At the hold's end exactly: the view from before it is renewed, one request at a time...
    pacer.settle(await pacer.take(), { remaining: 97, resetInMs: 58_750 })
    pacer.settle(await pacer.take(), { remaining: 96, resetInMs: 58_750 })
    // ...and two answers of that instant are a view from after the hold: several at once again.
    expect(await secondWaits(pacer)).toBe(false)
  })
})

describe('the bounds on waiting', () => {
  it("a slot exactly at the caller's deadline is waited for; one past it is refused with the wait it would be", async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 5000 })
    await clock.sleep(1000)
    const refused = await pacer.take(4999).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(PacingDeadline)
    expect((refused as PacingDeadline).waitMs).toBe(4000)
    await pacer.take(5000)
    expect(clock.time).toBe(5000)
  })

  it('waits the server imposes that add up to exactly the bound are made; a wait past it is not', async () => {
    const clock = fakeClock()
    const pacer = new Pacer(100, 60_000, clock)
    // Five resets of a minute each: 300 s, the bound, in all.
    for (let i = 0; i < 5; i++) pacer.settle(await pacer.take(), { remaining: 0, resetInMs: 60_000 })
    expect(clock.time).toBe(4 * 60_000)
    await pacer.take()
    expect(clock.time).toBe(MAX_TOTAL_SERVER_WAIT_MS)
    const over = new Pacer(100, 60_000, clock)
    for (let i = 0; i < 5; i++) over.settle(await over.take(), { remaining: 0, resetInMs: 60_000 })
    over.settle(await over.take(), { remaining: 0, resetInMs: 1 })
    await expect(over.take()).rejects.toThrow('in all')
  })
})

/**
 * A job on a loaded machine: its clock jumps (the process descheduled) while other jobs spend the key.
 * The service: 20 requests per 2 s, windows from 0, stating its budget on every answer, the reset as
 * a Unix second. `others(n)` spends n of the window open now, as jobs that kept running would.
 */
function heldUp() {
  const clock = fakeClock()
  const pacer = new Pacer(100, 60_000, clock)
  const limit = 20
  const windowMs = 2000
  const spent = new Map<number, number>()
  const windowOf = () => Math.floor(clock.time / windowMs)
  const others = (n: number) => spent.set(windowOf(), Math.min(limit, (spent.get(windowOf()) ?? 0) + n))
  const refused: number[] = []
  /** Request `ticket` arrives now and is answered at once; resolves with the wait a 429 asks of the client. */
  const answer = (ticket: number): number => {
    const window = windowOf()
    const used = spent.get(window) ?? 0
    const resetInMs = (window + 1) * windowMs - clock.time
    if (used < limit) spent.set(window, used + 1)
    pacer.settle(ticket, { remaining: Math.max(0, limit - used - 1), resetInMs, limit })
    if (used < limit) return 0
    refused.push(window)
    return pacer.pause(Math.ceil(resetInMs / 1000) * 1000)
  }
  /** The same, the wait made as the client makes it. */
  const arrive = (ticket: number) => clock.sleep(answer(ticket))
  return { clock, pacer, others, answer, arrive, refused }
}

describe('a job held up past a window end while the others spend the next (a clock that jumps)', () => {
  it('held up before its pacer decides: the view of a window past is none, one request renews it, one 429', async () => {
    const { clock, pacer, others, arrive, refused } = heldUp()
    await arrive(await pacer.take())
    await arrive(await pacer.take())
    // Two answers of the window and nobody else spending: several would go at once now.
    expect(await secondWaits(pacer)).toBe(false)
    await clock.sleep(2500 - clock.time)
    others(20)
    // Four asked for at once (a sync's plan): one goes, and its 429 says the window is spent.
    const starts: number[] = []
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const ticket = await pacer.take()
        starts.push(clock.time)
        await arrive(ticket)
      })
    )
    expect(refused).toEqual([1])
    // The one the reset lets go opens the next window; the others follow after its hold.
    expect(starts).toEqual([2500, 4000, 4000 + RETURN_MS, 4000 + RETURN_MS])
  })

  it("held up between its pacer's go and the request's arrival: no rule that sends can see it; one 429 for each window it is late into", async () => {
    const { clock, pacer, others, arrive, refused } = heldUp()
    await arrive(await pacer.take())
    // Its view at the go: 19 of 20 left, 2 s to the reset. The request reaches the server 2.5 s later,
    // after the others spent the next window; the retry, let go at that window's reset, is held up as long.
    let ticket = await pacer.take()
    await clock.sleep(2500)
    others(20)
    await arrive(ticket)
    expect(clock.time).toBe(4000)
    ticket = await pacer.take()
    await clock.sleep(600)
    others(20)
    await arrive(ticket)
    // Two 429s, each in a window of its own: after one, nothing goes before the reset it states.
    expect(refused).toEqual([1, 2])
    expect(clock.time).toBe(6000)
    await arrive(await pacer.take())
    expect(refused).toEqual([1, 2])
  })

  it('several in flight when it is held up: each may be refused, then one at a time to the reset', async () => {
    const { clock, pacer, others, answer, arrive, refused } = heldUp()
    await arrive(await pacer.take())
    await arrive(await pacer.take())
    const tickets = await Promise.all([pacer.take(), pacer.take(), pacer.take(), pacer.take()])
    expect(clock.time).toBe(0)
    await clock.sleep(2500)
    others(20)
    await clock.sleep(Math.max(...tickets.map(answer)))
    expect(refused).toEqual([1, 1, 1, 1])
    // Every later request waits for the stated reset, and goes alone.
    expect(await secondWaits(pacer)).toBe(true)
    expect(clock.time).toBeGreaterThanOrEqual(4000)
  })
})
