/**
 * Runner strings -> one typed, validated Config. Nothing here makes a request:
 * every problem with the inputs is found, and named, before the first one.
 */
import * as z from 'zod/mini'
import { parseBoolean, parseList, quote, windowText } from '../values/parse.js'
import { OperationName, entryOf } from '../operations/registry.js'
import { CheckSpecSchema, IncidentSpecSchema, StatusPageSpecSchema, specProblem } from '../run/specs.js'
import { Mapping, idProblem } from '../values/values.js'
import type { Config } from '../run/config.js'
import { INPUTS, InputError, Parsed, RawInputs, YAML_INPUTS, parseInput, schema } from './table.js'

export { loadParsers } from './table.js'

/** Runner strings with "" meaning "not set". */
function present(raw: RawInputs): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string' && value.trim() !== '') out[name] = value
  }
  return out
}

/**
 * What an input that is required but empty most likely means: the variable or
 * secret it reads is unset (the runner passes that as ""), or withheld from the
 * run. (api-key's is told in core/failure.ts, where the run's event is known.)
 */
const EMPTY: Record<string, string> = {
  'base-url':
    '. It is empty: the variable it reads is not set in this repository, or is withheld from this run (variables are not passed to a workflow run for a pull request from a fork). Store the API root (https://api.example.com/v1) as a variable (Settings > Secrets and variables > Actions > Variables) and pass it: base-url: ${{ vars.MONITORING_BASE_URL }}'
}

/** Make the first zod issue one sentence that starts with the input's name. */
function messageOfIssues(error: z.core.$ZodError): string {
  return error.issues
    .map(issue => {
      const name = String(issue.path[0] ?? 'inputs')
      if (issue.code === 'unrecognized_keys') return `unknown input(s): ${issue.keys.join(', ')}`
      if (issue.message === 'is required' && EMPTY[name]) return `${name} is required${EMPTY[name]}`
      // `check is not valid YAML` reads as if a check were; a spec input is named as an input.
      return (YAML_INPUTS as readonly string[]).includes(name)
        ? `the input \`${name}\` ${issue.message}`
        : `${name} ${issue.message}`
    })
    .join('; ')
}

/**
 * check-id and check-name: lists for the operations that target several
 * checks. For the others check-name is one whole value, commas included (a
 * name may hold them); check-id is still read as a list so that `a,b` is
 * "two ids" rather than one id that no check has.
 */
function targetsOf(operation: OperationName, p: Parsed): { ids: string[]; names: string[]; byComma?: string } {
  const multi = entryOf(operation).targets === 'several'
  const ids = p['check-id'] === undefined ? [] : parseList(p['check-id'])
  if (!multi && ids.length > 1) throw new InputError(`check-id takes one id for ${operation}, got ${ids.length}`)
  let names: string[] = []
  const name = p['check-name']
  if (name !== undefined) {
    names = multi ? parseList(name) : [name.trim()]
    if (!multi && /[\r\n]/.test(names[0])) {
      throw new InputError(`check-name takes one name for ${operation}, got ${parseList(name).length} lines`)
    }
  }
  for (const id of ids) {
    const problem = idProblem(id)
    if (problem) throw new InputError(`check-id holds ${quote(id)}: ${problem}`)
  }
  // A list split on commas: a name that holds one was cut (core/failure.ts says so if a part is not found).
  const byComma = multi && names.length > 1 && name !== undefined && !/[\r\n]/.test(name) ? name.trim() : undefined
  return { ids, names, byComma }
}

function buildCheck(p: Parsed, names: string[]): Mapping {
  const spec: Mapping = { ...(p.check ?? {}) }
  const problem = specProblem(CheckSpecSchema, spec)
  if (problem) throw new InputError(`check: ${problem}`)
  if (names.length === 1) spec.name = names[0]
  if (p['check-url'] !== undefined) {
    const urlProblem = specProblem(CheckSpecSchema, { url: p['check-url'] })
    if (urlProblem) throw new InputError(`check-${urlProblem}`)
    spec.url = p['check-url']
  }
  if (p['check-type'] !== undefined) spec.type = p['check-type']
  if (p['check-interval'] !== undefined) spec.interval = p['check-interval']
  if (p['alert-channels'] !== undefined) spec.alertChannels = p['alert-channels']
  if (p['check-status'] !== undefined) spec.status = p['check-status']
  return spec
}

function buildIncident(p: Parsed): Mapping {
  const spec: Mapping = { ...(p.incident ?? {}) }
  const problem = specProblem(IncidentSpecSchema, spec)
  if (problem) throw new InputError(`incident: ${problem}`)
  if (p['incident-title'] !== undefined) spec.title = p['incident-title']
  if (p['incident-message'] !== undefined) spec.message = p['incident-message']
  if (p['incident-status'] !== undefined) spec.status = p['incident-status']
  // incident-key: part of the incident's identity (its title), so matrix legs keep one incident each.
  if (p['incident-key'] !== undefined && typeof spec.title === 'string')
    spec.title = `${spec.title} [${p['incident-key']}]`
  return spec
}

function buildStatusPage(p: Parsed): Mapping {
  const spec: Mapping = { ...(p['status-page'] ?? {}) }
  const problem = specProblem(StatusPageSpecSchema, spec)
  if (problem) throw new InputError(`status-page: ${problem}`)
  if (p['status-page-name'] !== undefined) spec.name = p['status-page-name']
  return spec
}

/** What the operation needs before it can send anything (its registry entry says). */
function requireForOperation(c: Config<OperationName>): void {
  const entry = entryOf(c.operation)
  const needs = (message: string): never => {
    throw new InputError(`${c.operation} needs ${message}`)
  }
  const byFleet = entry.fleet === true && (c.namePrefix !== undefined || c.namePatterns.length > 0)
  if (entry.targets && c.checkIds.length === 0 && c.checkNames.length === 0 && !byFleet) {
    const what = entry.fleet ? 'check-id, check-name, name-prefix or name-pattern' : 'check-id or check-name'
    needs(entry.targets === 'several' ? `${what} (one or more)` : what)
  }
  if (c.exclude.length > 0 && c.namePrefix === undefined && c.namePatterns.length === 0) {
    throw new InputError(
      'exclude only applies with name-prefix or name-pattern: it leaves out some of the checks they select. Set one of them, or drop exclude'
    )
  }
  const missing = entry.needs?.(c)
  if (missing) needs(missing)
  if (c.prunePrefix !== undefined && !c.prune) {
    throw new InputError('prune-prefix only applies with prune: true')
  }
  if (c.failOnDrift && entry.reportsDrift && !c.dryRun) {
    throw new InputError(
      'fail-on-drift applies to a dry run (dry-run: true): a sync that applies the plan corrects the drift it finds. Set dry-run: true for a scheduled drift check, or drop fail-on-drift'
    )
  }
  if (c.operation === 'wait-for-check') {
    baselinePair(c)
    sloPair(c)
    burnPair(c)
  }
}

/** The shortest `burn-window`: its short window, a twelfth, is then a minute. */
export const MIN_BURN_WINDOW_MS = 12 * 60_000

/**
 * max-burn-rate is measured against the budget slo leaves, over a window that
 * lies within slo-window; burn-window is read only with it (the runner passes
 * the default, 1h, when it is not set). A multiple the objective cannot reach
 * (every result failed burns at 1 / (1 - slo)) would never hold a release.
 */
function burnPair(c: Config<OperationName>): void {
  const rate = c.maxBurnRate
  if (rate === undefined) {
    if (c.burnWindowMs !== parseInput('burn-window', undefined))
      throw new InputError(
        'burn-window needs max-burn-rate (such as 14.4): the window is what the burn rate is measured over'
      )
    return
  }
  if (c.slo === undefined)
    throw new InputError(
      'max-burn-rate needs slo (an objective such as 99.9%): the rate is measured against the budget slo leaves'
    )
  if (c.burnWindowMs < MIN_BURN_WINDOW_MS)
    throw new InputError('burn-window must be at least 12m: its short window is its last twelfth (1h gives 5m)')
  if (c.burnWindowMs > c.sloWindowMs)
    throw new InputError(
      `burn-window (${windowText(c.burnWindowMs)}) must not be longer than slo-window (${windowText(c.sloWindowMs)}): the burn rate is a share of that window's budget`
    )
  const whole = BigInt(100 * c.slo.scale)
  const allowed = whole - BigInt(c.slo.scaled)
  if (BigInt(rate.scaled) * allowed >= whole * BigInt(rate.scale)) {
    const fastest = Math.floor((Number(whole) / Number(allowed)) * 10_000) / 10_000
    throw new InputError(
      `max-burn-rate ${rate.multiple} can never be exceeded with slo ${c.slo.percent}%: a window in which every result failed burns at ${fastest}. Choose a lower multiple (14.4 or 6 are usual)`
    )
  }
}

/**
 * slo-window is read only with slo: a window set without an objective would
 * measure nothing, in a gate the user thinks checks the budget. (The runner
 * passes the default, 30d, when it is not set: only another value is caught.)
 */
function sloPair(c: Config<OperationName>): void {
  if (c.sloWindowMs === 0) throw new InputError('slo-window must be longer than 0 (a window such as 30d or 7d)')
  if (c.slo === undefined && c.sloWindowMs !== parseInput('slo-window', undefined)) {
    throw new InputError(
      'slo-window needs slo (an objective such as 99.9%): the window is what the objective is measured over'
    )
  }
}

/**
 * baseline and max-response-time-increase go together: a window without a
 * limit would judge nothing (a gate the user thinks compares), a limit
 * without a window has nothing to add to.
 */
function baselinePair(c: Config<OperationName>): void {
  if (c.baselineMs === 0) throw new InputError('baseline must be longer than 0 (a window such as 1h or 24h)')
  if (c.baselineMs !== undefined && c.maxIncrease === undefined) {
    throw new InputError(
      'baseline needs max-response-time-increase (20% or 150ms): a result passes if it is at most the baseline p95 plus it'
    )
  }
  if (c.maxIncrease !== undefined && c.baselineMs === undefined) {
    throw new InputError(
      "max-response-time-increase needs baseline (a window such as 24h): the check's history in it is what the increase is measured from"
    )
  }
}

/** Parse and validate every input. Throws InputError naming the input. */
export function parseConfig(raw: RawInputs): Config<OperationName> {
  const result = schema.safeParse(present(raw))
  if (!result.success) throw new InputError(messageOfIssues(result.error))
  const p = result.data
  const targets = targetsOf(p.operation, p)
  const config: Config<OperationName> = {
    operation: p.operation,
    apiKey: p['api-key'],
    baseUrl: p['base-url'],
    check: buildCheck(p, targets.names),
    checkIds: targets.ids,
    checkNames: targets.names,
    checkNamesByComma: targets.byComma,
    checksFile: p['checks-file'],
    autoResume: p['auto-resume'],
    checkApiWrites: p['check-api-writes'],
    prune: p.prune,
    prunePrefix: p['prune-prefix'],
    namePrefix: p['name-prefix'],
    namePatterns: p['name-pattern'] ?? [],
    exclude: p.exclude ?? [],
    failOnDrift: p['fail-on-drift'],
    driftIssue: p['drift-issue'],
    maxDeletions: p['max-deletions'],
    planFile: p['plan-file'],
    approvedPlan: p['approved-plan'],
    prComment: p['pr-comment'],
    githubToken: p['github-token']?.trim(),
    expectedStatus: p['expected-status'],
    maxResponseTimeMs: p['max-response-time'],
    requireFresh: p['require-fresh'],
    timeoutMs: p.timeout,
    pollIntervalMs: p['poll-interval'],
    consecutivePasses: p['consecutive-passes'],
    junitFile: p['junit-file'],
    baselineMs: p.baseline,
    maxIncrease: p['max-response-time-increase'],
    slo: p.slo,
    sloWindowMs: p['slo-window'],
    maxBurnRate: p['max-burn-rate'],
    burnWindowMs: p['burn-window'],
    since: p.since,
    incident: buildIncident(p),
    incidentId: p['incident-id'],
    incidentKey: p['incident-key'],
    statusPage: buildStatusPage(p),
    statusPageId: p['status-page-id'],
    dryRun: p['dry-run'],
    failOnError: p['fail-on-error'],
    maxRetries: p['max-retries'],
    requestTimeoutMs: p['request-timeout'],
    jobSummary: p['job-summary']
  }
  if (config.requestTimeoutMs < 100) throw new InputError('request-timeout must be at least 100ms')
  if (config.pollIntervalMs < 100) throw new InputError('poll-interval must be at least 100ms')
  requireForOperation(config)
  return config
}

/**
 * `fail-on-error` read on its own, so that even a config that does not parse
 * knows whether to fail the step. Anything but a valid `false` means true.
 */
export function failOnErrorOf(raw: RawInputs): boolean {
  try {
    return raw['fail-on-error'] === undefined || raw['fail-on-error'].trim() === ''
      ? true
      : parseBoolean(raw['fail-on-error'])
  } catch {
    return true
  }
}

/** Read every input through a getInput-like function (the runner's `INPUT_*`). */
export function readInputs(getInput: (name: string) => string): RawInputs {
  const raw: RawInputs = {}
  for (const name of INPUTS) raw[name] = getInput(name)
  return raw
}
