/**
 * Each check's past, read once before the first poll: its history in the
 * widest window a rule needs (the baseline's, the error budget's), from which
 * each rule takes its own window. Every page, or up to the first wholly older
 * than the window when the service lists it newest first
 * (`MonitoringApi.checkHistory`). The read counts against the timeout and
 * never runs past it (`ctx.api` has the hard deadline): no request is sent
 * after the deadline, and one in flight is cut off there.
 */
import { RATE_LIMIT } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import type { MonitoringApi } from '../../api/monitoring.js'
import type { RequestTally } from '../../api/types.js'
import type { HistoryEntry } from '../../api/schemas.js'
import type { BurnRate, Increase, Slo } from '../../run/config.js'
import { str } from '../common.js'
import type { OperationContext } from '../types.js'
import { windowText } from '../../values/parse.js'
import { baselineOf, baselineText } from './baseline.js'
import { budgetOf, budgetText } from './budget.js'
import { burnOf, burnText } from './burn.js'
import type { Track } from './judge.js'

/**
 * The most pages the error budget's read follows (the usual cap is 100): a
 * 30-day window of a one-minute check is 43,200 results, 864 pages of 50. The
 * timeout bounds the read in time; this bounds it should the pages never end.
 */
export const BUDGET_MAX_PAGES = 10_000

export interface PastRules {
  baseline?: { windowMs: number; increase: Increase }
  budget?: { windowMs: number; slo: Slo }
  /** With the budget: the burn rate's long window (its short one is within it). */
  burn?: { windowMs: number; max: BurnRate }
}

/** A request the deadline stopped (not sent, or cut off): the gate's time is up, not the API down. */
export const isDeadline = (error: unknown): error is ApiError => error instanceof ApiError && error.kind === 'deadline'

/**
 * What reading the past came to: read (each track has its baseline and
 * budget); `timed-out` (a baseline could not be read in time: the gate
 * closes); `error` (a budget that could not be read in time, or whose rows
 * cannot all be placed: the budget is unknown, never taken as unspent).
 */
export type PastRead = { kind: 'read' } | { kind: 'timed-out'; why: string } | { kind: 'error'; message: string }

/**
 * What reading the history cost, against the key's rate limit (the API's
 * `RATE_LIMIT`): `The result history took 14 requests (14% of the key's 100 a minute).`
 */
export function historyCost(requests: number): string {
  const share = Math.round((requests * 1000) / RATE_LIMIT.limit) / 10
  return `The result history took ${requests} request${requests === 1 ? '' : 's'} (${share}% of the key's ${RATE_LIMIT.limit} a minute).`
}

/**
 * Read each check's past and set its baseline and budget (the ledger counts
 * the rows). `tally` counts every request the read sends, as it goes out:
 * each page, retry and redirect hop, for every check; with the error budget,
 * the log says what that came to, however the read ended.
 */
export async function readPast(
  ctx: OperationContext,
  tracks: Track[],
  rules: PastRules,
  tally: RequestTally
): Promise<PastRead> {
  // One read reaches over the longest window and serves every rule.
  const windowMs = Math.max(rules.baseline?.windowMs ?? 0, rules.budget?.windowMs ?? 0, rules.burn?.windowMs ?? 0)
  const api = (rules.budget ? ctx.api.withMaxPages(BUDGET_MAX_PAGES) : ctx.api).counting(tally)
  const what = rules.budget ? `Error budget${rules.baseline ? ' and baseline' : ''}` : 'Baseline'
  return ctx.log.group(
    `${what}: each check's history in the ${windowText(windowMs)} before the step started`,
    async (): Promise<PastRead> => {
      try {
        return await readEach(ctx, tracks, rules, api, ctx.startedAt - windowMs)
      } finally {
        if (rules.budget) ctx.log.info(historyCost(tally.sent))
      }
    }
  )
}

/** Each check's history back to `from`, one after another, through `api`; then whether every budget could be placed. */
async function readEach(
  ctx: OperationContext,
  tracks: Track[],
  rules: PastRules,
  api: MonitoringApi,
  from: number
): Promise<PastRead> {
  const nameOf = (track: Track) => `${str(track.check.name) || track.check.id} (${track.check.id})`
  for (const track of tracks) {
    const name = nameOf(track)
    let history: HistoryEntry[]
    // A long window takes minutes to read at 100 requests a minute: say what is under way.
    if (rules.budget) ctx.log.info(`${name}: reading its history back to ${new Date(from).toISOString()}`)
    try {
      history = await api.checkHistory(track.check.id, from)
    } catch (error) {
      if (!isDeadline(error)) throw error
      if (rules.budget) {
        return {
          kind: 'error',
          message: `the error budget's window (${windowText(rules.budget.windowMs)}) of ${name} could not be read within the timeout (${ctx.config.timeoutMs / 1000} s): ${error.message}. A long window of a frequent check takes many requests at the API's ${RATE_LIMIT.limit} a minute: raise timeout (see "What the error budget's read costs" in docs/guides/error-budget.md)`
        }
      }
      // A wait (pacing, a retry) that would pass the timeout is refused before the time runs out.
      const why = error.detail.includes('would pass')
        ? `reading the baseline would have waited past the timeout: ${error.message}`
        : `the time ran out reading the baseline: ${error.message}`
      return { kind: 'timed-out', why }
    }
    if (rules.budget) {
      track.budget = budgetOf(history, ctx.startedAt - rules.budget.windowMs, ctx.startedAt, rules.budget.slo)
      const text = `${name}: ${budgetText(track.budget)}`
      if (track.budget.skipped !== undefined) ctx.log.warning(`${text}.`)
      else ctx.log.info(text)
      if (rules.burn) {
        track.burn = burnOf(history, ctx.startedAt, rules.burn.windowMs, rules.budget.slo, rules.burn.max)
        const burn = `${name}: ${burnText(track.burn)}`
        if (track.burn.skipped !== undefined) ctx.log.warning(`${burn}.`)
        else ctx.log.info(burn)
      }
    }
    if (rules.baseline) {
      const { windowMs: baselineMs, increase } = rules.baseline
      track.baseline = baselineOf(history, ctx.startedAt - baselineMs, ctx.startedAt, increase)
      const text = `${name}: ${baselineText(track.baseline, increase)}`
      if (track.baseline.skipped !== undefined) ctx.log.warning(`${text}: its results are judged without it.`)
      else ctx.log.info(text)
    }
  }
  const unknown = tracks.filter(t => t.budget?.unplaced)
  if (unknown.length === 0) return { kind: 'read' }
  const named = unknown.map(t => {
    const { rows, example } = t.budget?.unplaced as { rows: number; example: string }
    return `${nameOf(t)}: ${rows} history row(s) with a time in a form the action cannot place (such as ${example})`
  })
  return {
    kind: 'error',
    message: `the error budget${rules.burn ? ' and burn rate' : ''} of ${unknown.length} of ${tracks.length} check(s) ${rules.burn ? 'are' : 'is'} unknown, so the gate cannot pass: ${named.join(' | ')}. Times are read as ISO 8601 / RFC 3339 (2026-11-24T10:00:00Z) or as an HTTP date (Tue, 24 Nov 2026 10:00:00 GMT)`
  }
}
