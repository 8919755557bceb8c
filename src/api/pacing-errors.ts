/** Why the pacer (pacer.ts) did not hand out a slot, and the bound on the waits the server imposes. */

/**
 * All the waits the server's rate limit imposes on one client (a budget of
 * 0 left, a 429's pause) add up to at most this: a server that says
 * `Remaining: 0` with a reset just under 2 minutes on every answer would
 * otherwise hold a long sync for hours. Our own pacing (100 a minute) does
 * not count.
 */
export const MAX_TOTAL_SERVER_WAIT_MS = 300_000

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
