/**
 * Client-side pacing: at most `limit` request starts in any window of
 * `windowMs`, so bulk work stays under the service's rate limit without
 * meeting a 429. A 429's wait blocks every request, not just the one that met it.
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

export class Pacer {
  private readonly starts: number[] = []
  private blockedUntil = 0
  private queue: Promise<void> = Promise.resolve()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock = realClock
  ) {}

  /**
   * Wait for a slot; resolves when this request may start. Slots are handed
   * out in call order. When the slot comes after `deadline` (ms), rejects at
   * once with a PacingDeadline instead of waiting; when `signal` aborts, the
   * wait ends with a PacingCancelled.
   */
  take(deadline?: number, signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot(deadline, signal))
    this.queue = turn.catch(() => undefined)
    return turn
  }

  /** After a 429: nobody starts before `ms` from now. */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms)
  }

  private async waitForSlot(deadline: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new PacingCancelled()
      const now = this.clock.now()
      const window = this.windowMs + WINDOW_SLACK_MS
      while (this.starts.length > 0 && this.starts[0] <= now - window) this.starts.shift()
      let until: number
      if (now < this.blockedUntil) until = this.blockedUntil
      else if (this.starts.length < this.limit) {
        this.starts.push(now)
        return
      } else until = this.starts[0] + window
      if (deadline !== undefined && until > deadline) throw new PacingDeadline(until - now)
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

export class PacingCancelled extends Error {
  constructor() {
    super('cancelled while waiting for a request slot')
    this.name = 'PacingCancelled'
  }
}
