/**
 * Client-side pacing: at most `limit` request starts in any window of
 * `windowMs`, so bulk work stays under the service's rate limit without
 * meeting a 429. A 429's wait blocks every request, not just the one that met it.
 *
 * The key's budget is shared by every job that uses it, so the pacer also
 * follows what the server says is left (`observe`): with nothing left it waits
 * for the reset; once it sees others spend the same budget, it spreads what is
 * left over the time to the reset instead of bursting into a 429.
 */
export interface Clock {
  now: () => number
  /** Resolves after `ms`, or at once when `signal` aborts (the timer is then cleared). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise(resolve => {
      if (signal?.aborted) return resolve()
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal?.addEventListener('abort', done, { once: true })
    })
}

/** Slack added to the window for the time a request takes to reach the server. */
const WINDOW_SLACK_MS = 250
/** A reset further away than this is not waited for: the server's 429 decides (and the action gives up). */
const MAX_BUDGET_WAIT_MS = 120_000
/**
 * All the waits the server's rate limit imposes on one client (a budget of
 * 0 left, a 429's pause) add up to at most this: a server that says
 * `Remaining: 0` with a reset just under 2 minutes on every answer would
 * otherwise hold a long sync for hours. Our own pacing (100 a minute) does
 * not count.
 */
export const MAX_TOTAL_SERVER_WAIT_MS = 300_000
/**
 * Requests spent by others, beyond our own, before the budget counts as shared:
 * more than our own requests in flight could account for by arriving out of order.
 */
const SHARED_AFTER = 4
/** Others' pace is measured over at least this long, so that two answers close together do not inflate it. */
const MIN_PACE_SPAN_MS = 1000

/** What the server said is left of the key's budget, in an answer. */
export interface ServerBudget {
  remaining: number
  resetInMs: number
  /** The window's size, when the server says (`RateLimit-Limit`). */
  limit?: number
}

interface Observed {
  /** The start number of the request whose answer said it. */
  ticket: number
  remaining: number
  resetAt: number
  /** When it was said. */
  at: number
}

export class Pacer {
  private readonly starts: number[] = []
  private blockedUntil = 0
  private queue: Promise<void> = Promise.resolve()
  /** Requests started so far: each start's number is its ticket. */
  private started = 0
  private lastStartAt = Number.NEGATIVE_INFINITY
  /** The newest budget the server stated, and the first one of the same window. */
  private server?: Observed
  private windowFirst?: Observed
  /**
   * Others spend the same budget: seen in the server's counts (for the rest of
   * this client's life: they are likely still there in the next window), or
   * assumed for this window because it was more than half spent when we came.
   */
  private othersSeen = false
  private joinedSpent = false
  get shared(): boolean {
    return this.othersSeen || this.joinedSpent
  }
  /** How fast others spend it (requests per ms), measured over the current window. */
  private othersRate = 0
  /** Waited so far because the server said so (see MAX_TOTAL_SERVER_WAIT_MS). */
  private serverWaitedMs = 0

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock = realClock
  ) {}

  /**
   * Wait for a slot; resolves with the request's ticket (give it to `observe`)
   * when it may start. Slots are handed out in call order. When the slot comes
   * after `deadline` (ms), rejects at once with a PacingDeadline instead of
   * waiting; when `signal` aborts, the wait ends with a PacingCancelled.
   */
  take(deadline?: number, signal?: AbortSignal): Promise<number> {
    const turn = this.queue.then(() => this.waitForSlot(deadline, signal))
    this.queue = turn.then(
      () => undefined,
      () => undefined
    )
    return turn
  }

  /** After a 429: nobody starts before `ms` from now. */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms)
  }

  /** The server's rate-limit headers on the answer to request `ticket`. */
  observe(ticket: number, budget: ServerBudget): void {
    if (budget.resetInMs > MAX_BUDGET_WAIT_MS) return
    const now = this.clock.now()
    const seen: Observed = { ticket, remaining: budget.remaining, resetAt: now + budget.resetInMs, at: now }
    const current = this.server
    // A new window: the known one has passed, or the budget went up with a later reset (reset
    // headers are whole seconds, so a later reset alone is not enough).
    const newWindow =
      !current ||
      now >= current.resetAt ||
      (seen.resetAt > current.resetAt + 1000 && seen.remaining > current.remaining)
    if (!newWindow && ticket < current.ticket) return // an older answer that arrived late
    if (newWindow) {
      this.server = seen
      this.windowFirst = seen
      this.joinedSpent = false
      this.othersRate = 0
      // Joining a window that is already more than half spent: assume whoever spent it is still
      // at it, and spread from the start rather than burst into what is left.
      const limit = budget.limit
      if (current === undefined && limit !== undefined && limit - budget.remaining - 1 > limit / 2) {
        this.joinedSpent = true
      }
      return
    }
    this.server = seen
    const first = this.windowFirst as Observed
    const others = first.remaining - seen.remaining - (seen.ticket - first.ticket)
    if (others > SHARED_AFTER) this.othersSeen = true
    if (this.shared) this.othersRate = Math.max(0, others) / Math.max(now - first.at, MIN_PACE_SPAN_MS)
  }

  /**
   * When the server's stated budget lets the next request start (now if it says
   * nothing). `spread` marks a wait that only spaces requests out: one that
   * would pass the caller's deadline is not made (the request goes now).
   */
  private serverAllows(now: number): { until: number; spread: boolean } {
    const server = this.server
    if (!server || now >= server.resetAt) return { until: now, spread: false }
    // Our own requests started after the observed one may not be counted in it yet; nor what
    // others (at the pace they showed) have spent since it was said.
    const others = this.shared ? Math.floor(this.othersRate * (now - server.at)) : 0
    const left = server.remaining - (this.started - server.ticket) - others
    if (left <= 0) return { until: server.resetAt, spread: false }
    if (!this.shared) return { until: now, spread: false }
    return { until: Math.max(now, this.lastStartAt + (server.resetAt - now) / left), spread: true }
  }

  private async waitForSlot(deadline: number | undefined, signal: AbortSignal | undefined): Promise<number> {
    for (;;) {
      if (signal?.aborted) throw new PacingCancelled()
      const now = this.clock.now()
      const window = this.windowMs + WINDOW_SLACK_MS
      while (this.starts.length > 0 && this.starts[0] <= now - window) this.starts.shift()
      const server = this.serverAllows(now)
      const spread = server.spread && deadline !== undefined && server.until > deadline ? now : server.until
      let until = Math.max(now, this.blockedUntil, spread)
      if (until <= now && this.starts.length >= this.limit) until = this.starts[0] + window
      if (until <= now) {
        this.starts.push(now)
        this.lastStartAt = now
        return ++this.started
      }
      if (deadline !== undefined && until > deadline) throw new PacingDeadline(until - now)
      // The part of this wait the server imposed (its budget, a 429), against the overall bound.
      const imposed = Math.max(
        0,
        Math.min(until, Math.max(this.blockedUntil, server.spread ? now : server.until)) - now
      )
      if (this.serverWaitedMs + imposed > MAX_TOTAL_SERVER_WAIT_MS) {
        throw new PacingExhausted(this.serverWaitedMs, imposed)
      }
      this.serverWaitedMs += imposed
      await this.clock.sleep(until - now, signal)
    }
  }
}

/** The next slot comes after the caller's deadline: not waited for. */
export class PacingDeadline extends Error {
  constructor(readonly waitMs: number) {
    super(`the next request slot is ${(waitMs / 1000).toFixed(1)} s away (pacing to the rate limit)`)
    this.name = 'PacingDeadline'
  }
}

/** The server's rate limit has held this client too long in all: not waited for again. */
export class PacingExhausted extends Error {
  constructor(
    readonly waitedMs: number,
    readonly nextMs: number
  ) {
    super(
      `the service's rate limit has already held this step ${Math.round(waitedMs / 1000)} s in all and asks ${Math.ceil(nextMs / 1000)} s more; the action waits at most ${MAX_TOTAL_SERVER_WAIT_MS / 60_000} minutes in all for it, so it stopped (another job may be spending the same key's budget)`
    )
    this.name = 'PacingExhausted'
  }
}

export class PacingCancelled extends Error {
  constructor() {
    super('cancelled while waiting for a request slot')
    this.name = 'PacingCancelled'
  }
}
