/**
 * Client-side pacing: at most `limit` request starts in any window of
 * `windowMs`, so bulk work stays under the service's rate limit without
 * meeting a 429. A 429's wait blocks every request, not just the one that met it.
 *
 * The key's budget is shared by every job that uses it, so the pacer also
 * follows what the server says is left (`settle`): bulk work spends it at
 * once (a window unused is time lost for every job on the key) but a small
 * reserve for light work, leaves the start of each window to the jobs coming
 * back at its reset, and waits for the reset when what is left will have been
 * spent, by its own requests and the others' at the pace the counts show.
 */
import { MAX_TOTAL_SERVER_WAIT_MS, PacingCancelled, PacingDeadline, PacingExhausted } from './pacing-errors.js'

export { MAX_TOTAL_SERVER_WAIT_MS, PacingCancelled, PacingDeadline, PacingExhausted }

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
      signal?.addEventListener('abort', done) // taken away by done, whichever ends the wait
    })
}

/** Slack added to the window for the time a request takes to reach the server. */
export const WINDOW_SLACK_MS = 250
/** A reset further away than this is not waited for: the server's 429 decides (and the action gives up). */
const MAX_BUDGET_WAIT_MS = 120_000
/** The share of each window kept for light work (see serverAllows). */
const RESERVE_SHARE = 0.05
/** A request this long after the job's previous one is light work (see serverAllows). */
const LIGHT_GAP_MS = 1000
/**
 * Reset headers are whole seconds, rounded up: a job that waited for one comes back up to a second
 * after the window opened, while a job that read many answers knows the reset to the millisecond.
 * Bulk work starts this long after its first answer of a window it came into across a reset.
 */
export const RETURN_MS = 1000 + WINDOW_SLACK_MS
/** Others' pace is measured over the last this many answers of a window (enough to smooth, few enough to follow). */
const PACE_SAMPLES = 8

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
  /** The window's size, when the server says. */
  limit?: number
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
  /** When each request still unanswered started, by ticket (for the round trip). */
  private readonly startedAt = new Map<number, number>()
  /** A request's round trip (start to answer), smoothed. */
  private roundTripMs = 0
  /** The budgets the server stated in the current window, oldest first (the newest last). */
  private window: Observed[] = []
  /** When the hold at the current window's start ends: RETURN_MS after this job's first answer of it. */
  private holdEnd = Number.NEGATIVE_INFINITY
  /** How fast others spend the same budget (requests per ms), over the window's last answers. */
  private othersRate = 0
  /** Others were seen spending the key's budget (for tests and the log). */
  get shared(): boolean {
    return this.othersRate > 0
  }
  /** A 429 was met (see pause). */
  private limited = false
  /** An answer stated the key's budget: the service sends the headers. */
  private statesBudget = false
  /** An answer (or a failure) of this job's has come: it no longer knows nothing. */
  private answered = false
  /** Wakes the slot's waiter when a request is over (single file). */
  private wake?: () => void
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
    const askedAt = this.clock.now()
    const turn = this.queue.then(() => this.waitForSlot(askedAt, deadline, signal))
    this.queue = turn.then(
      () => undefined,
      () => undefined
    )
    return turn
  }

  /**
   * After a 429 that asks for `ms`: nobody starts before then. Returns the
   * wait to make. Retry-After is rounded up to whole seconds from each
   * answer's own moment; when the window's reset the server stated is within
   * that second, the wait ends at the reset instead, the same instant for
   * every job on the key (see serverBudget), so they start again together.
   * From then on this job sends one request at a time (see oneAtATime).
   */
  pause(ms: number): number {
    const now = this.clock.now()
    const reset = this.window.at(-1)?.resetAt
    const until = reset !== undefined && reset > now && Math.abs(now + ms - reset) < 1000 ? reset : now + ms
    this.blockedUntil = Math.max(this.blockedUntil, until)
    this.limited = true
    return until - now
  }

  /**
   * Request `ticket` is over: answered (with the server's rate-limit headers,
   * if it sent them) or not (a timeout, a dropped connection). Every
   * job on the key spends the same budget, and answers are the only thing
   * jobs on different runners share: from the counts this job learns how fast
   * the others spend, so that it stops when what is left will be theirs
   * before its next request arrives, and starts again at the reset.
   */
  settle(ticket: number, budget?: ServerBudget): void {
    const now = this.clock.now()
    const startedAt = this.startedAt.get(ticket)
    if (startedAt !== undefined) {
      this.startedAt.delete(ticket)
      this.answered = true
      if (budget) this.roundTripMs = this.roundTripMs === 0 ? now - startedAt : (this.roundTripMs + now - startedAt) / 2
      const wake = this.wake
      this.wake = undefined
      wake?.()
    }
    if (!budget) return
    this.statesBudget = true
    if (budget.resetInMs > MAX_BUDGET_WAIT_MS) return
    const seen: Observed = {
      ticket,
      remaining: budget.remaining,
      resetAt: now + budget.resetInMs,
      limit: budget.limit,
      at: now
    }
    const current = this.window.at(-1)
    // A new window: the known one has passed, or the budget went up with a later reset (reset
    // headers are whole seconds, so a later reset alone is not enough).
    const newWindow =
      !current ||
      now >= current.resetAt ||
      (seen.resetAt > current.resetAt + 1000 && seen.remaining > current.remaining)
    if (newWindow) {
      // A window this job came into across a reset (it knew the one before): jobs come back to it.
      this.holdEnd = current ? now + RETURN_MS : Number.NEGATIVE_INFINITY
      this.window = [seen]
      return
    }
    // Reset headers are rounded up to whole seconds: each answer bounds the reset from above, so
    // the window's reset is the earliest any of its answers allows (jobs resume together).
    seen.resetAt = Math.min(seen.resetAt, current.resetAt)
    if (ticket < current.ticket) {
      current.resetAt = seen.resetAt
      return // an older answer that arrived late
    }
    // The pace over the hold is the returning jobs', not the window's: measured afresh after it.
    if (this.fromBeforeHold(current.at)) this.window = []
    this.window.push(seen)
    if (this.window.length > PACE_SAMPLES) this.window.shift()
    const first = this.window[0]
    // What the count fell by beyond our own requests answered meanwhile: the others' share.
    const others = first.remaining - seen.remaining - (seen.ticket - first.ticket)
    this.othersRate = Math.max(0, others) / Math.max(now - first.at, 1)
  }

  /**
   * When the server's stated budget lets the next request start: now, the
   * reset, or the end of the hold at a window's start (RETURN_MS).
   *
   * A request is light when, as it was asked for, this job had started none
   * for a second, or its view of the budget was older than a round trip (a
   * gate between polls, a pause in its own work); otherwise it is bulk work.
   * - Bulk work counts against the last budget stated its own requests since
   *   and what the others, at the pace they showed, will have spent by the
   *   time it arrives, and stops short of the reserve (5% of the window, at
   *   least 2): a gate's poll or a lone upsert among bulk syncs is then
   *   answered now rather than at the reset. In a window it came into across
   *   a reset it starts only after the hold, when the jobs that waited for
   *   that reset on a header rounded up to the second are back.
   * - Light work goes while its view says more than half the reserve is left;
   *   the rest is a margin for other light jobs whose view is as old.
   */
  private serverAllows(now: number, askedAt: number): number {
    const server = this.window.at(-1)
    if (!server || now >= server.resetAt) return now
    const reserve = Math.max(2, Math.floor((server.limit ?? this.limit) * RESERVE_SHARE))
    const told = server.remaining - (this.started - server.ticket)
    const light = askedAt - this.lastStartAt >= LIGHT_GAP_MS || askedAt - server.at > this.roundTripMs
    if (light) return told > Math.ceil(reserve / 2) ? now : server.resetAt
    if (now < this.holdEnd) return Math.min(this.holdEnd, server.resetAt)
    // A view from before the hold says nothing of the pace after it: one request (one at a time) renews it.
    const others = this.fromBeforeHold(server.at)
      ? 0
      : Math.floor(this.othersRate * (now - server.at + this.roundTripMs))
    if (told - others - reserve > 0) return now
    return server.resetAt
  }

  /** An answer at `at` came before the hold at the window's start, and the hold is over (see RETURN_MS). */
  private fromBeforeHold(at: number): boolean {
    return at < this.holdEnd && this.clock.now() >= this.holdEnd
  }

  /**
   * Requests go one at a time while this job knows nothing of the window it
   * would spend: before its first answer, and, on a service that states its
   * budget, until two answers of a new window, and after the hold at its start
   * until an answer renews a view from before it. A job joining a window others
   * have spent then meets one 429, not one for each request it would have had
   * in flight. While others spend it too, also: the budget, not this job's
   * round trips, then bounds how fast the work goes. After a 429, always.
   */
  private oneAtATime(): boolean {
    const window = this.window.at(-1)
    const knows = this.window.length > 1 && window !== undefined && this.clock.now() < window.resetAt
    const held = window !== undefined && this.fromBeforeHold(window.at)
    return this.limited || !this.answered || (this.statesBudget && (!knows || this.shared || held))
  }

  private async waitForSlot(
    askedAt: number,
    deadline: number | undefined,
    signal: AbortSignal | undefined
  ): Promise<number> {
    for (;;) {
      if (signal?.aborted) throw new PacingCancelled()
      if (this.startedAt.size > 0 && this.oneAtATime()) {
        await new Promise<void>(resolve => {
          const done = () => {
            signal?.removeEventListener('abort', done)
            resolve()
          }
          this.wake = done
          signal?.addEventListener('abort', done) // taken away by done, whichever ends the wait
        })
        continue
      }
      const now = this.clock.now()
      const window = this.windowMs + WINDOW_SLACK_MS
      while ((this.starts[0] ?? Infinity) <= now - window) this.starts.shift()
      // The part of a wait the server imposes (its budget, a 429), against the overall bound.
      const imposedUntil = Math.max(now, this.blockedUntil, this.serverAllows(now, askedAt))
      const until = Math.max(imposedUntil, this.starts.length >= this.limit ? this.starts[0] + window : now)
      if (until <= now) {
        this.starts.push(now)
        this.lastStartAt = now
        const ticket = ++this.started
        this.startedAt.set(ticket, now)
        return ticket
      }
      if (deadline !== undefined && until > deadline) throw new PacingDeadline(until - now)
      const imposed = imposedUntil - now
      if (this.serverWaitedMs + imposed > MAX_TOTAL_SERVER_WAIT_MS) {
        throw new PacingExhausted(this.serverWaitedMs, imposed)
      }
      this.serverWaitedMs += imposed
      await this.clock.sleep(until - now, signal)
    }
  }
}
