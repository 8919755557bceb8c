/**
 * Client-side pacing: at most `limit` request starts in any window of
 * `windowMs`, so bulk work stays under the service's rate limit without
 * meeting a 429. A 429's wait blocks every request, not just the one that met it.
 */
export interface Clock {
  now: () => number
  sleep: (ms: number) => Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: ms => new Promise(resolve => setTimeout(resolve, ms))
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

  /** Wait for a slot; resolves when this request may start. Slots are handed out in call order. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot())
    this.queue = turn.catch(() => undefined)
    return turn
  }

  /** After a 429: nobody starts before `ms` from now. */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + ms)
  }

  private async waitForSlot(): Promise<void> {
    for (;;) {
      const now = this.clock.now()
      const window = this.windowMs + WINDOW_SLACK_MS
      while (this.starts.length > 0 && this.starts[0] <= now - window) this.starts.shift()
      if (now < this.blockedUntil) {
        await this.clock.sleep(this.blockedUntil - now)
        continue
      }
      if (this.starts.length < this.limit) {
        this.starts.push(now)
        return
      }
      await this.clock.sleep(this.starts[0] + window - now)
    }
  }
}
