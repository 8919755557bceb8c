/**
 * The validated configuration of one step: what inputs.ts makes of the
 * runner's strings, and all an operation reads of them.
 */
import type { Mapping } from '../values/values.js'

/** A moment given as a duration back from the step's start, or as a time. */
export type Since = { agoMs: number } | { at: number }

/** How much slower than its baseline's p95 a result may be: a percentage of it, or milliseconds added. */
export type Increase = { percent: number } | { ms: number }

/** An availability objective: `scaled / scale` percent, exactly (`99.9%`: 999 / 10). */
export interface Slo {
  percent: number
  scaled: number
  scale: number
}

/** A multiple of the sustainable burn rate, exact: `scaled / scale` (`multiple` as a number). */
export interface BurnRate {
  multiple: number
  scaled: number
  scale: number
}

/**
 * `Op` is the type of operation names: inputs.ts hands out a `Config<OperationName>`
 * (the registry's names); operations only read it as a string.
 */
export interface Config<Op extends string = string> {
  operation: Op
  apiKey: string
  /** API root without a trailing slash, e.g. https://api.example.com/v1 */
  baseUrl: string
  /** The wanted check fields: the `check` spec with the shorthand inputs applied. */
  check: Mapping
  checkIds: string[]
  checkNames: string[]
  /** check-name as given, when it was read as a list split on commas (it held one and no line break). */
  checkNamesByComma?: string
  checksFile?: string
  autoResume: boolean
  /** check-api: also write, on a paused check of its own (deleted whatever happens). */
  checkApiWrites: boolean
  prune: boolean
  prunePrefix?: string
  /** export-checks, list-checks: only checks whose name starts with this; pause-check, resume-check, wait-for-check, delete-check: every such check is a target. */
  namePrefix?: string
  /** Where name-prefix applies: the checks whose whole name matches one of these glob patterns (values/glob.ts) too. */
  namePatterns: string[]
  /** With name-prefix or name-pattern: glob patterns; a check whose name matches one is never a target. */
  exclude: string[]
  /** sync-checks with dry-run: fail the step when the plan is not empty. */
  failOnDrift: boolean
  /** sync-checks: keep one GitHub issue about drift. */
  driftIssue: boolean
  /** sync-checks: the most deletes a plan may hold; delete-check with name-prefix: the most checks it deletes. */
  maxDeletions: number
  /** sync-checks: where to write the plan (JSON). */
  planFile?: string
  /** sync-checks: the plan file that was reviewed; apply only that. */
  approvedPlan?: string
  /** Comment on the pull request (sync-checks, wait-for-check). */
  prComment: boolean
  githubToken?: string
  expectedStatus: string
  maxResponseTimeMs?: number
  requireFresh: boolean
  timeoutMs: number
  pollIntervalMs: number
  /** wait-for-check: results in a row, each with its own lastCheckedAt, a check must meet the condition in. */
  consecutivePasses: number
  /** wait-for-check: where to write the JUnit XML report. */
  junitFile?: string
  /** wait-for-check: the window of each check's history, before the step started, its baseline is read from. */
  baselineMs?: number
  /** wait-for-check with a baseline: how much above the baseline's p95 a result may be. */
  maxIncrease?: Increase
  /** wait-for-check: the availability objective whose error budget must not be spent. */
  slo?: Slo
  /** wait-for-check with slo: the window before the step's start the objective is measured over. */
  sloWindowMs: number
  /** wait-for-check with slo: hold the release while the budget burns faster than this multiple, over both windows. */
  maxBurnRate?: BurnRate
  /** wait-for-check with max-burn-rate: the long window; the short one is its last twelfth. */
  burnWindowMs: number
  /** check-history: only entries from this moment on. */
  since?: Since
  /** The wanted incident fields: the `incident` spec with the shorthand inputs applied. */
  incident: Mapping
  incidentId?: string
  /** incident-key: already at the end of `incident.title` (`<title> [<key>]`); a cut title must keep it. */
  incidentKey?: string
  statusPage: Mapping
  statusPageId?: string
  dryRun: boolean
  failOnError: boolean
  maxRetries: number
  requestTimeoutMs: number
  jobSummary: boolean
}
