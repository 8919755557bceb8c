/** What an operation is given, and what it gives back. */
import type { Clock } from '../api/pacer.js'
import type { Logger } from '../api/types.js'
import type { MonitoringApi } from '../api/monitoring.js'
import type { Config } from '../run/config.js'
import type { RunContext } from '../run/run-context.js'

/** A place in a file of the repository: a warning or error about it is annotated there. */
export interface FilePlace {
  /** Relative to the workspace, as the pull request's diff shows it. */
  file: string
  line?: number
}

export interface OperationLog extends Logger {
  /** A warning, annotated at a place in a file when given. */
  warning: (message: string, place?: FilePlace) => void
  /** A notice annotation: worth seeing, not a problem. */
  notice: (message: string) => void
  /** Run `fn` inside a collapsible log group. */
  group: <T>(name: string, fn: () => Promise<T>) => Promise<T>
  /**
   * Resolves once the runner has read the lines written so far (but what a
   * stream buffers): a long log (a fleet's plan) waits on it between lines, so
   * they never pile up in memory when the runner reads slower than they come.
   */
  drained?: () => Promise<void>
  /**
   * Where there is one (the command): progress that the next progress replaces. An operation that
   * has it says its rounds there, one line each, and its details at debug; without it, in groups.
   */
  progress?: (message: string) => void
}

export interface OperationContext {
  config: Config
  api: MonitoringApi
  log: OperationLog
  clock: Clock
  /** When the step started (ms since the epoch). */
  startedAt: number
  /** Facts of the workflow run (loaded on first use). */
  runContext: () => Promise<RunContext>
  /** The job's own page, when it can be found (asked of GitHub on first use); else undefined. */
  jobUrl: () => Promise<string | undefined>
  /** Directory a relative checks-file is resolved against. */
  workspace: string
  /** The step's environment (checks-file templates read it). */
  env: NodeJS.ProcessEnv
  /**
   * A value found standing in a secret position (an export's lifted value):
   * masked job-wide and *** in everything the action writes, when registrable
   * (secrets.ts); else left to the grammar of positions.
   */
  addSecret: (value: string) => void
  /**
   * A value the user declared a secret (`${secret:NAME}`, a variable named
   * like one): *** in everything the action writes, always; masked job-wide
   * only when registrable.
   */
  declareSecret: (value: string) => void
  /** Text with every form of every secret known so far replaced by ***, for files the action writes. */
  redact: (text: string) => string
  /** A value with every secret in it replaced field by field (secrets.ts): serialise it after, never before. */
  redactValue: <T>(value: T) => T
  /** Save a value for the post step now (core.saveState): it survives a failure or cancel later in the step. */
  remember: (name: string, value: string) => void
  /** Aborted when the job is being cancelled. */
  signal: AbortSignal
}

/** The outputs of action.yml; absent means "not set by this operation". */
export interface Outputs {
  'check-id'?: string
  'check-name'?: string
  'check-status'?: string
  'response-time'?: string
  'last-checked-at'?: string
  'incident-id'?: string
  'incident-status'?: string
  'status-page-id'?: string
  result?: unknown
  count?: number
  changed?: boolean
  created?: number
  updated?: number
  deleted?: number
  unchanged?: number
  passed?: boolean
  outcome?: 'passed' | 'timed-out' | 'budget-exhausted' | 'budget-burning' | 'error'
  'failed-checks'?: unknown[]
  'response-time-p95'?: string
  'baseline-p95'?: string
  /** wait-for-check with slo: the first target's availability and error budget left, in percent. */
  availability?: string
  'error-budget-remaining'?: string
  /** wait-for-check with max-burn-rate: the fastest burner's rate over burn-window and over its last twelfth. */
  'burn-rate'?: string
  'burn-rate-short'?: string
  uptime?: string
  'comment-url'?: string
  /** sync-checks: the plan (before applying) creates, updates or deletes something. */
  drift?: boolean
  'issue-url'?: string
  error?: string
}

/** The most rows a rendered table shows (the job summary, a comment); the others are counted in a note. */
export const MAX_TABLE_ROWS = 500

/** A table of plain values: the summary escapes them (operations never write Markdown). */
export interface SummaryTable {
  head: string[]
  /** Its rows; a fleet's table may list only the first MAX_TABLE_ROWS, no reader is shown more. */
  rows: unknown[][]
  /** How many rows the table has, when `rows` lists fewer. */
  total?: number
}

/** A table of `items`, listing the rows of the first MAX_TABLE_ROWS only (see SummaryTable). */
export function tableOf<T>(head: string[], items: readonly T[], row: (item: T) => unknown[]): SummaryTable {
  return {
    head,
    rows: items.slice(0, MAX_TABLE_ROWS).map(row),
    ...(items.length > MAX_TABLE_ROWS ? { total: items.length } : {})
  }
}

/**
 * Text shown whole, as written (a fenced block, folded): values a table cell
 * shows cut, so that no part of what is applied is out of a reviewer's reach.
 */
export interface SummaryDetails {
  title: string
  lines: string[]
}

/** A job summary section: a heading, lines of plain text, tables, whole texts. */
export interface Summary {
  title: string
  lines: string[]
  tables: SummaryTable[]
  details?: SummaryDetails[]
}

export interface OperationResult {
  outputs: Outputs
  summary: Summary
  /** A closed gate: fails the step whatever fail-on-error says. */
  gateClosed?: string
}

export type Operation = (ctx: OperationContext) => Promise<OperationResult>

/** An error that carries what was known when it happened (outputs, summary). */
export class OperationError extends Error {
  constructor(
    message: string,
    readonly outputs: Outputs = {},
    readonly summary?: Summary
  ) {
    super(message)
    this.name = 'OperationError'
  }
}

/**
 * Run `fn`; if it fails, fail with the same message and with `outputs` (what is
 * already known, such as the target's id) so the step reports them too.
 */
export async function withKnownOutputs<T>(outputs: Outputs, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof OperationError) {
      throw new OperationError(error.message, { ...outputs, ...error.outputs }, error.summary)
    }
    throw new OperationError(error instanceof Error ? error.message : String(error), outputs)
  }
}
