/**
 * What must hold in a round whose runs share a rate-limited key (shared-key.ts;
 * contract: "Rate-limit headers": the key's budget is shared by every job
 * that uses it), beside invariants.ts, whose stepRules already holds every
 * process to its time bound. Each process is one job on the key (its pacer
 * starts knowing nothing), as __tests__/unit/shared-key.test.ts measured the
 * pacer:
 *
 * - every process exits by itself (a cancelled main step may end by the
 *   runner's signal);
 * - none fails because of the rate limit (its error names it), unless it
 *   gave up on a 429 and each 429 it met may have been one of the round's
 *   injected 429s (faults drawn as in any round; a 5xx or a cancel that
 *   fails a run is not judged here), or, without the headers, it gave up
 *   after its max-retries of 429s (the contract counts them) having met no
 *   more than the bound below allows (a note); a stop short of a wait for the rate
 *   limit (the pacer's next slot) is the rate limit's, whatever the faults.
 *   A step with a time limit of its own (a gate's `timeout`) that stopped
 *   because the wait the rate limit asked, at most a window and the second
 *   a reset header rounds up, would pass that limit did what the contract
 *   asks (no wait passes the timeout): a note, not a violation;
 * - a process meets at most limitedBound 429s (scripts/lib/shared-key.ts),
 *   the bound the pacer keeps in any schedule of the machine: the round's
 *   processes run on a machine whose load the round does not set (many test
 *   workers at once in CI), and one held up between its pacer's go and its
 *   request's arrival sends on a view as old as the hold-up. With the
 *   rate-limit headers, each request in flight when it first meets one, then
 *   one at each window end it lives through (the one 429 of a machine that
 *   keeps up is held by the virtual-time tests, unit/shared-key.test.ts);
 *   without them, each request in flight at the first window end, then two at
 *   each later one. The round's injected 429s are allowed on top in both cases.
 *
 * The 429s are counted as the shared-key bench counts them (limitedIn).
 */
import { IN_FLIGHT, gaveUpOnRateLimit, limitedBound, limitedIn } from '../shared-key.js'
import type { After, Executed } from './invariants.js'
import type { Round } from './world.js'

/** The 429s the round's faults inject, at most (a fault `times` that many; a negative `times` is for ever). */
export function injected429s(round: Pick<Round, 'faults'>): number {
  return round.faults
    .filter(f => f.status === 429)
    .reduce((n, f) => n + (f.times === undefined ? 1 : f.times < 0 ? Infinity : f.times), 0)
}

/** Window ends (each window's start plus its length) from `from` to `to` (ms). */
export function windowEndsWithin(starts: readonly number[], windowMs: number, from: number, to: number): number {
  return starts.filter(start => start + windowMs > from && start + windowMs <= to).length
}

/** The wait for the rate limit (ms) that an error says was not made because it would pass the step's time limit. */
export function waitPastTimeLimit(error: string): number | undefined {
  const match =
    /was rate limited \(HTTP 429\); not retried, because the wait \((\d+(?:\.\d+)?) s\) would pass the operation's time limit|the next request slot is (\d+(?:\.\d+)?) s away \(pacing to the rate limit\) would pass the operation's time limit/.exec(
      error
    )
  return match ? Number(match[1] ?? match[2]) * 1000 : undefined
}

/** An error that says a request's retries (max-retries) were all spent: `after 3 attempts (max-retries 2)`. */
const MAX_RETRIES_SPENT = /rate limited \(HTTP 429\) after \d+ attempts \(max-retries \d+\)/

export interface SharedKeyJudgement {
  violations: string[]
  /** Steps that stopped at their own time limit, short of a wait the rate limit asked: the contract's behaviour. */
  notes: string[]
}

export function judgeSharedKey(
  round: Round,
  after: Pick<After, 'windowStarts'>,
  executed: Executed[]
): SharedKeyJudgement {
  const key = round.sharedKey
  const judged: SharedKeyJudgement = { violations: [], notes: [] }
  if (!key) return judged
  const injected = injected429s(round)
  const limit = `a key of ${key.limit} requests per ${key.windowMs / 1000} s ${key.headers ? 'with' : 'without'} the rate-limit headers`
  for (const { run, steps } of executed) {
    for (const { what, result, startedAt } of steps) {
      const label = `run ${run.n} (${run.kind}) ${what}, on ${limit},`
      const cancelled = what === 'main' && run.cancelMs !== undefined
      if (result.code === null && !cancelled) {
        judged.violations.push(`${label} did not exit by itself: ended by ${result.signal} after ${result.ms} ms`)
        continue
      }
      const met = limitedIn(result)
      const error = result.outputs.error ?? ''
      const ends = windowEndsWithin(after.windowStarts, key.windowMs, startedAt, startedAt + result.ms)
      const bound = limitedBound(key.headers, ends) + injected
      // Gave up on a 429 when every 429 it met may have been injected: the faults explain it. A stop short
      // of a wait for the rate limit (no 429 there) is the rate limit's, whatever the faults.
      const injectedAlone = error.includes('(HTTP 429)') && met <= injected
      if (!cancelled && gaveUpOnRateLimit(result) && !injectedAlone) {
        const waitMs = waitPastTimeLimit(error)
        const ownLimit = run.inputs.timeout !== undefined && waitMs !== undefined && waitMs <= key.windowMs + 1_000
        // Without the headers a request may meet a 429 at each window end, as limitedBound allows; the
        // contract counts 429s toward max-retries and gives up after them, saying it was the rate limit.
        const spentRetries = !key.headers && MAX_RETRIES_SPENT.test(error) && met <= bound
        const how = ownLimit
          ? `stopped at its timeout (${run.inputs.timeout}), short of a ${waitMs / 1000} s wait for the rate limit`
          : spentRetries
            ? `gave up after its max-retries of 429s, as the contract asks, within the bound of ${bound}`
            : 'failed on the rate limit'
        ;(ownLimit || spentRetries ? judged.notes : judged.violations).push(
          `${label} ${how} after ${met} 429(s) (the round injected ${injected}): ${JSON.stringify(error.slice(0, 240))}`
        )
      }
      if (met > bound)
        judged.violations.push(
          `${label} met ${met} 429s, more than ${bound} (${IN_FLIGHT} + ${key.headers ? ends : `2 x ${Math.max(0, ends - 1)}`}: it lived through ${ends} window end(s)${injected ? `, and the round's ${injected} injected` : ''})`
        )
    }
  }
  return judged
}

/** The violations of a shared-key round (judgeSharedKey). */
export function sharedKeyRules(round: Round, after: Pick<After, 'windowStarts'>, executed: Executed[]): string[] {
  return judgeSharedKey(round, after, executed).violations
}
