/**
 * The gate's polling: rounds until every check has passed or the time is
 * up, each round one step per pending check (its results between the polls,
 * then its reading now). A round reads the checks one by one or from the
 * list, whichever is cheaper (`fleet-read.ts`); either way each reading goes
 * through the same step: what it is, the probe ledger decides; `observe`
 * counts it.
 */
import type { Check } from '../../api/schemas.js'
import type { MonitoringApi } from '../../api/monitoring.js'
import type { OperationContext } from '../types.js'
import { OperationError } from '../types.js'
import { ListCost, readRound } from './fleet-read.js'
import { GateRules, Result, Track, countText, describeCheck, observe } from './judge.js'
import { between, checkReading, entryReading, takeOnce } from './ledger.js'
import { isDeadline } from './past.js'

/** A poll timed to the deadline may start this much after it (timers wake late). */
const DEADLINE_GRACE_MS = 1_000

/** What the polling needs: the context (its api stops at the deadline), history reads, the rules, the times. */
export interface Polling {
  ctx: OperationContext
  /** History reads between polls: paged, and stopped at the deadline too. */
  reads: MonitoringApi
  rules: GateRules
  needed: number
  deadline: number
  pollIntervalMs: number
  /** Rounds started so far (for the reports, whatever ends the gate). */
  rounds: number
  /** What reading the list costs, as the step's last read of it found: each round reads the cheaper way. */
  list: ListCost
}

/** How polling ended: the checks still pending, and why it stopped early (a wait that would pass the timeout). */
export interface Polled {
  pending: Set<string>
  cutShort?: string
}

/** Poll every pending check each round until each has passed, the time is up, or a request is cut off. */
export async function pollUntilDone(p: Polling, tracks: Map<string, Track>): Promise<Polled> {
  const { ctx, deadline } = p
  const pending = new Set(tracks.keys())
  for (;;) {
    p.rounds++
    const title = `Poll ${p.rounds}: ${pending.size} check(s) pending`
    const progress = ctx.log.progress
    // Where the log has a progress line (the command), a round is one line, and each check's at debug.
    const cutShort = progress
      ? await pollRound({ ...p, ctx: { ...ctx, log: { ...ctx.log, info: ctx.log.debug } } }, tracks, pending)
      : await ctx.log.group(title, () => pollRound(p, tracks, pending))
    const now = ctx.clock.now()
    progress?.(
      `Poll ${p.rounds}: ${tracks.size - pending.size} of ${tracks.size} check(s) passed, ${Math.max(0, Math.ceil((deadline - now) / 1000))} s left`
    )
    if (pending.size === 0 || cutShort !== undefined) return { pending, cutShort }
    if (now >= deadline) return { pending }
    await ctx.clock.sleep(Math.min(p.pollIntervalMs, deadline - now), ctx.signal)
    if (ctx.signal.aborted) throw new OperationError('wait-for-check was cancelled before the checks passed')
  }
}

/** One round: each pending check once. Returns why polling must stop early, or undefined. */
async function pollRound(p: Polling, tracks: Map<string, Track>, pending: Set<string>): Promise<string | undefined> {
  const { ctx, deadline } = p
  // No request starts once the time is up (a second's grace for the poll that the
  // last wait times to the deadline itself): its answer could not count.
  const timeUp = () => ctx.clock.now() > deadline + DEADLINE_GRACE_MS
  let listed: ReadonlyMap<string, Check>
  try {
    if (timeUp()) return 'the time ran out during the poll'
    const round = await readRound(ctx, [...pending], p.list)
    p.list = round.known
    listed = round.rows
  } catch (error) {
    if (isDeadline(error)) return error.message
    throw error
  }
  for (const id of [...pending]) {
    if (timeUp()) return 'the time ran out during the poll'
    const track = tracks.get(id) as Track
    try {
      await pollCheck(p, track, listed.get(id))
    } catch (error) {
      if (isDeadline(error)) return error.message
      throw error
    }
    if (track.streak >= p.needed) {
      track.passedAfterMs = ctx.clock.now() - ctx.startedAt
      pending.delete(id)
    }
  }
  return undefined
}

/**
 * One check at one poll: its results between the polls (oldest first), then
 * its reading now: `listed`, its row in the round's read of the list, or
 * else read by id.
 */
async function pollCheck(p: Polling, track: Track, listed: Check | undefined): Promise<void> {
  const { ctx, rules, needed, deadline } = p
  const id = track.check.id
  const check = listed ?? (await ctx.api.getCheck(id))
  if (!check) throw new OperationError(`check ${id} was deleted while waiting for it (GET answered 404)`)
  // Each result is judged late or not when it is counted: one judged after the deadline never counts.
  const late = () => ctx.clock.now() > deadline
  for (const result of await resultsBetween(p.reads, track, check, needed)) {
    observe(track, result, rules, needed, late())
  }
  track.check = check
  const progress = observe(track, { check, reading: checkReading(check) }, rules, needed, late())
  ctx.log.info(`${describeCheck(check)}: ${progress} (${countText(track, needed)})`)
}

/**
 * The results the service recorded between the newest one counted and
 * `check`'s, oldest first, as checks (its history's status, response time
 * and time). With consecutive passes, a check that flips faster than
 * poll-interval (up, down, up) must not pass on the results the polls happen
 * to see: those in between are counted too, each as the ledger places it. At
 * most one history read per check and poll, and only when a newer result
 * appeared; `api` has the hard deadline (a slow read is cut off there).
 */
async function resultsBetween(api: MonitoringApi, track: Track, check: Check, needed: number): Promise<Result[]> {
  const since = track.ledger.newest
  const now = checkReading(check)
  if (needed <= 1 || since === undefined || now === undefined || !(now.at > since)) return []
  // Pages back to a minute before the newest result: a time in whole seconds (or minutes) may read as earlier.
  const history = await api.checkHistory(check.id, since - 60_000)
  return history
    .flatMap(entry => {
      const reading = entryReading(entry)
      return reading && between(track.ledger, reading, now) && takeOnce(track.ledger, entry) ? [{ entry, reading }] : []
    })
    .sort((a, b) => a.reading.at - b.reading.at)
    .map(({ entry, reading }) => ({
      reading,
      check: {
        ...check,
        status: entry.status ?? undefined,
        responseTime: entry.responseTime ?? undefined,
        // A placed time is text (placeTime reads no other kind).
        lastCheckedAt: typeof entry.checkedAt === 'string' ? entry.checkedAt : undefined
      }
    }))
}
