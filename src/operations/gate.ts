/**
 * Release gating: poll checks until every one reports the expected status
 * (and response time, and a result fresher than the step's start), or the
 * timeout passes. A closed gate fails the step; an unreachable API is an error.
 */
import type { Check } from '../api/schemas.js'
import { ApiError } from '../api/errors.js'
import { str } from './common.js'
import { checkOutputs, targetChecks } from './check-targets.js'
import type { Operation } from './types.js'
import { OperationError, withKnownOutputs } from './types.js'

/** Allowance for clock skew between the runner and the service. */
export const FRESHNESS_SKEW_MS = 5_000

export interface Verdict {
  passed: boolean
  /** What it missed, in words; empty when passed. */
  missed: string[]
}

export interface GateRules {
  expectedStatus: string
  maxResponseTimeMs?: number
  /** Results at or before this time (ms) are stale; undefined = freshness not required. */
  freshAfter?: number
}

export function judge(check: Check, rules: GateRules): Verdict {
  const missed: string[] = []
  const status = str(check.status)
  if (status.toLowerCase() !== rules.expectedStatus.toLowerCase()) {
    missed.push(`status is ${status || 'empty'}, expected ${rules.expectedStatus}`)
  }
  if (rules.maxResponseTimeMs !== undefined) {
    const rt = check.responseTime
    if (typeof rt !== 'number') missed.push('no response time reported')
    else if (rt > rules.maxResponseTimeMs) missed.push(`response time ${rt} ms is above ${rules.maxResponseTimeMs} ms`)
  }
  if (rules.freshAfter !== undefined) {
    const at = Date.parse(str(check.lastCheckedAt))
    if (Number.isNaN(at)) missed.push('never checked')
    else if (at <= rules.freshAfter)
      missed.push(`last checked ${str(check.lastCheckedAt)}, before this step started (stale)`)
  }
  return { passed: missed.length === 0, missed }
}

function describeCheck(check: Check): string {
  return `${str(check.name) || check.id} (${check.id}): status ${str(check.status) || '-'}, response time ${
    check.responseTime ?? '-'
  } ms, checked ${str(check.lastCheckedAt) || 'never'}`
}

/** The gate; on an error (not a closed gate) `passed` is still set, to false. */
export const waitForCheck: Operation = ctx => withKnownOutputs({ passed: false }, () => gate(ctx))

const gate: Operation = async untimed => {
  const { config, clock } = untimed
  const rules: GateRules = {
    expectedStatus: config.expectedStatus,
    maxResponseTimeMs: config.maxResponseTimeMs,
    freshAfter: config.requireFresh ? untimed.startedAt - FRESHNESS_SKEW_MS : undefined
  }
  const deadline = untimed.startedAt + config.timeoutMs
  // Every wait inside the gate (retries, pacing) counts against the timeout; the hard stop adds one request's time.
  const ctx = { ...untimed, api: untimed.api.withDeadline(deadline) }
  const hardStop = deadline + config.requestTimeoutMs + 1_000

  const { checks: targets } = await targetChecks(ctx, false)
  const latest = new Map<string, Check>(targets.map(c => [c.id, c]))
  const verdicts = new Map<string, Verdict>()
  const pending = new Set(targets.map(c => c.id))
  let round = 0
  /** Why polling stopped before every check was polled to the end: a wait that would pass the timeout. */
  let cutShort: string | undefined
  const conditions = [
    `status ${rules.expectedStatus}`,
    rules.maxResponseTimeMs !== undefined ? `response time <= ${rules.maxResponseTimeMs} ms` : '',
    rules.freshAfter !== undefined ? 'a result from after the step started' : ''
  ].filter(Boolean)
  ctx.log.info(`Waiting up to ${config.timeoutMs / 1000} s for ${targets.length} check(s): ${conditions.join(', ')}.`)

  for (;;) {
    round++
    await ctx.log.group(`Poll ${round}: ${pending.size} check(s) pending`, async () => {
      for (const id of [...pending]) {
        if (clock.now() > hardStop) return
        let check: Check | null
        try {
          check = await ctx.api.getCheck(id)
        } catch (error) {
          if (error instanceof ApiError && error.kind === 'deadline') {
            cutShort = error.message
            return
          }
          throw error
        }
        if (!check) throw new OperationError(`check ${id} was deleted while waiting for it (GET answered 404)`)
        latest.set(id, check)
        let verdict = judge(check, rules)
        // A gate whose time ran out never passes: an answer that arrives after the timeout is
        // reported, but does not count.
        if (verdict.passed && clock.now() > deadline) {
          verdict = { passed: false, missed: ['the answer arrived after the timeout'] }
        }
        verdicts.set(id, verdict)
        ctx.log.info(`${describeCheck(check)}: ${verdict.passed ? 'passed' : verdict.missed.join('; ')}`)
        if (verdict.passed) pending.delete(id)
      }
    })
    if (pending.size === 0 || cutShort !== undefined) break
    const now = clock.now()
    if (now >= deadline) break
    await clock.sleep(Math.min(config.pollIntervalMs, deadline - now), ctx.signal)
    if (ctx.signal.aborted) throw new OperationError('wait-for-check was cancelled before the checks passed')
  }

  const checks = targets.map(t => latest.get(t.id) as Check)
  const passed = pending.size === 0
  const rows = checks.map(c => {
    const v = verdicts.get(c.id)
    return [
      c.name,
      c.id,
      c.status,
      c.responseTime,
      c.lastCheckedAt,
      v?.passed ? 'passed' : `not passed: ${v ? v.missed.join('; ') : 'not polled before the time limit'}`
    ]
  })
  const elapsed = ((clock.now() - ctx.startedAt) / 1000).toFixed(1)
  const outputs = { ...checkOutputs(checks[0]), result: checks, passed }
  const summary = {
    title: passed ? 'Release gate passed' : 'Release gate closed',
    lines: [
      `${passed ? 'Every check' : `${pending.size} of ${checks.length} check(s) did not`} ${passed ? 'met' : 'meet'}: ${conditions.join(', ')} (${round} poll(s), ${elapsed} s).`
    ],
    tables: [{ head: ['Check', 'ID', 'Status', 'Response time (ms)', 'Checked at', 'Verdict'], rows }]
  }
  if (passed) return { outputs, summary }
  const failures = checks
    .filter(c => pending.has(c.id))
    .map(c => `${describeCheck(c)}: ${(verdicts.get(c.id)?.missed ?? ['not polled before the time limit']).join('; ')}`)
  return {
    outputs,
    summary,
    gateClosed: `wait-for-check: ${pending.size} of ${checks.length} check(s) did not pass within ${config.timeoutMs / 1000} s: ${failures.join(' | ')}${cutShort ? ` (polling stopped early: ${cutShort})` : ''}`
  }
}
