/**
 * run(): read inputs -> config -> perform the operation -> outputs and summary.
 * One try/catch/finally; every thrown value becomes one clear failure.
 */
import * as core from '@actions/core'
import { ApiClient } from './api/client.js'
import { ApiError } from './api/errors.js'
import { MonitoringApi } from './api/monitoring.js'
import { Clock, realClock } from './api/pacer.js'
import type { Config } from './config.js'
import {
  InputError,
  expectedStatusWarning,
  failOnErrorOf,
  inputsNotApplying,
  loadParsers,
  parseConfig,
  readInputs
} from './inputs.js'
import { OperationName, entryOf, isOperationName } from './operations/registry.js'
import type { FilePlace, OperationContext, OperationLog, Outputs, Summary } from './operations/types.js'
import { OperationError } from './operations/types.js'
import { ActionLog, actionLog } from './report/log.js'
import { writeOutputs } from './report/outputs.js'
import { PR_COMMENT, renderSummary } from './report/summary.js'
import { defused, markdownText } from './report/text.js'
import { findJobUrl } from './github/job-url.js'
import { MARKER_BYTES, commentOnPullRequest } from './github/pr-comment.js'
import { formsOf, redact, redactValue } from './secrets.js'
import { RunContext, loadRunContext } from './run-context.js'
import type { CoreLike } from './runner.js'

export interface Dependencies {
  core: CoreLike
  clock: Clock
  env: NodeJS.ProcessEnv
  runContext: () => Promise<RunContext>
  /** The API client; `secrets` (the step's, growing) are redacted from server text before it is shortened. */
  makeApi: (config: Config, log: OperationLog, signal: AbortSignal, secrets?: readonly string[]) => MonitoringApi
  /** Where SIGINT and SIGTERM arrive (the process); absent in tests that do not cancel. */
  signals?: NodeJS.EventEmitter
  /** Ends the process at once (on SIGTERM). */
  exit?: (code: number) => void
}

/**
 * Which stage of the step this process is: the runner starts dist/index.js
 * for the main step and dist/post.js for the post step (action.yml). Never
 * read from the environment or the saved state: a workflow's `env:` can set
 * STATE_* variables, and must not turn a gate into a silent no-op.
 */
export type Stage = 'main' | 'post'

/** Call `fn` at most once; later calls get the same promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => (value ??= fn())
}

export function makeApi(
  config: Config,
  log: OperationLog,
  signal: AbortSignal,
  secrets: readonly string[] = []
): MonitoringApi {
  return new MonitoringApi(
    new ApiClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      secrets,
      maxRetries: config.maxRetries,
      requestTimeoutMs: config.requestTimeoutMs,
      log,
      signal,
      userAgent: 'monitoring-action/1'
    })
  )
}

export function defaultDependencies(): Dependencies {
  return {
    core,
    clock: realClock,
    env: process.env,
    runContext: () => loadRunContext(),
    makeApi,
    signals: process,
    exit: code => process.exit(code)
  }
}

/** Any thrown value, as one line a user can act on (never only a stack trace). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return `unexpected failure: ${JSON.stringify(error)}`
  } catch {
    return `unexpected failure: ${String(error)}`
  }
}

/**
 * Treat `value` as a secret from now on: the runner masks each of its forms
 * (raw, JSON-escaped, percent-encoded) in the log, and the action's own
 * redaction replaces them in everything it writes.
 */
function addSecret(runner: CoreLike, secrets: string[], value: string, minLength = 4): void {
  if (value.length < minLength || secrets.includes(value)) return
  for (const form of formsOf(value)) runner.setSecret(form)
  secrets.push(value)
}

/** What an operation is given: the config, an API client, the log, the clock, the run, the cancel signal. */
function contextFor(
  deps: Dependencies,
  config: Config,
  log: ActionLog,
  signal: AbortSignal,
  startedAt: number,
  secrets: string[]
): OperationContext {
  return {
    config,
    api: deps.makeApi(config, log, signal, secrets),
    log,
    clock: deps.clock,
    startedAt,
    runContext: once(deps.runContext),
    jobUrl: once(() =>
      findJobUrl({ token: config.githubToken, env: deps.env, signal, timeoutMs: config.requestTimeoutMs, log })
    ),
    workspace: deps.env.GITHUB_WORKSPACE || process.cwd(),
    env: deps.env,
    addSecret: value => addSecret(deps.core, secrets, value),
    redact: text => redact(text, secrets),
    redactValue: value => redactValue(value, secrets),
    remember: (name, value) => deps.core.saveState(name, value),
    signal
  }
}

/**
 * The runner cancels a job with SIGINT, then SIGTERM about 7.5 s later, then
 * runs the post steps. On SIGINT no new request starts (the one under way
 * finishes, so its effect is known) and the step ends failed; on SIGTERM the
 * process ends at once. What auto-resume needs was recorded before each
 * request, so the post step finds it either way.
 */
function onCancel(deps: Dependencies, log: ActionLog, controller: AbortController): () => void {
  const signals = deps.signals
  if (!signals) return () => {}
  const interrupt = () => {
    log.warning('The job is being cancelled (SIGINT): no new request is sent; the one under way may finish.')
    controller.abort()
  }
  const terminate = () => {
    log.warning('The job is being stopped (SIGTERM): ending now.')
    controller.abort()
    deps.exit?.(143)
  }
  signals.on('SIGINT', interrupt)
  signals.on('SIGTERM', terminate)
  return () => {
    signals.off('SIGINT', interrupt)
    signals.off('SIGTERM', terminate)
  }
}

export async function run(deps: Dependencies = defaultDependencies(), stage: Stage = 'main'): Promise<void> {
  const runner = deps.core
  const startedAt = deps.clock.now()
  const secrets: string[] = []
  const log = actionLog(runner, secrets)
  const controller = new AbortController()
  const stopListening = onCancel(deps, log, controller)
  let failOnError = true
  let jobSummary = true
  let operation = 'unknown'
  let config: Config<OperationName> | undefined
  let summary: Summary | undefined
  let outputs: Outputs = {}
  try {
    const raw = readInputs(name => runner.getInput(name))
    // The key and the GitHub token are masked before anything else can print them:
    // also each line of one pasted with line breaks, so no line of it is ever shown.
    for (const key of [raw['api-key'] ?? '', raw['github-token'] ?? '']) {
      for (const line of new Set([key, ...key.split(/\r?\n|\r/).map(part => part.trim())])) {
        addSecret(runner, secrets, line, 1)
      }
    }
    failOnError = failOnErrorOf(raw)
    jobSummary = raw['job-summary']?.trim().toLowerCase() !== 'false'
    const named = raw.operation?.trim() ?? ''
    // Only a known name reaches the summary: the input itself could hold anything.
    operation = isOperationName(named) ? named : 'unknown'

    if (stage === 'post') {
      summary = await post(deps, raw, log, controller.signal, secrets)
      return
    }

    await loadParsers(raw)
    config = parseConfig(raw)
    jobSummary = config.jobSummary
    for (const unused of inputsNotApplying(raw, config.operation)) log.warning(`${unused}.`)
    const statusWarning = expectedStatusWarning(config)
    if (statusWarning) log.warning(`${statusWarning}.`)
    const ctx = contextFor(deps, config, log, controller.signal, startedAt, secrets)
    if (config.dryRun) log.info('dry-run: writes are printed, not sent.')
    const entry = entryOf(config.operation)
    const result = await entry.run(ctx)
    outputs = result.outputs
    summary = result.summary
    log.info([summary.title, ...summary.lines].join(' - '))
    if (entry.writes && outputs.changed === undefined) outputs.changed = false
    if (result.gateClosed) outputs.error = result.gateClosed
    writeOutputs(runner.setOutput, outputs, secrets)
    if (result.gateClosed) log.fail(result.gateClosed)
  } catch (error) {
    const hint = hintFor(error, deps.env, config)
    const message = redact(hint ? messageOf(error).replace(/\.$/, '') + hint : messageOf(error), secrets)
    debugStack(log, error)
    const known = error instanceof OperationError ? error.outputs : {}
    const fallback = isOperationName(operation) ? (entryOf(operation).errorOutputs ?? {}) : {}
    outputs = { ...fallback, ...outputs, ...known, error: message }
    writeOutputs(runner.setOutput, outputs, secrets)
    summary = error instanceof OperationError && error.summary ? error.summary : failureSummary(message, error)
    if (failOnError) log.fail(message, placeOf(error))
    else log.warning(`${message} (fail-on-error is false: the step continues)`, placeOf(error))
  } finally {
    // The job summary first, then the comment: a cancel during the comment (the signals are still
    // heard, and abort it) cannot lose the summary.
    if (jobSummary && summary) {
      try {
        await runner.summary.addRaw(renderSummary(summary, operation, secrets)).write()
      } catch (error) {
        log.warning(`The job summary could not be written: ${messageOf(error)}`)
      }
    }
    if (config?.prComment && summary) {
      try {
        const url = await pullRequestComment(deps, config, summary, log, controller.signal, secrets)
        if (url) writeOutputs(runner.setOutput, { 'comment-url': url }, secrets)
      } catch (error) {
        log.warning(`pr-comment: the comment could not be written (${messageOf(error)}). The step goes on.`)
      }
    }
    stopListening()
  }
}

/**
 * What the user can do about an error, when the message alone would leave
 * them guessing: a missing key where secrets are withheld, a base URL
 * without its version segment.
 */
function hintFor(error: unknown, env: NodeJS.ProcessEnv, config: Config | undefined): string {
  if (error instanceof InputError && error.message.startsWith('api-key is required')) {
    const event = env.GITHUB_EVENT_NAME ?? ''
    if (event.startsWith('pull_request') || env.GITHUB_ACTOR === 'dependabot[bot]') {
      return ". Secrets are not passed to a workflow run for a pull request from a fork, nor to one Dependabot triggers, so the key is empty here. Skip the step there (if: github.event.pull_request.head.repo.fork != true && github.actor != 'dependabot[bot]'), or give Dependabot the secret under Settings > Secrets and variables > Dependabot"
    }
  }
  if (error instanceof ApiError && error.status === 404 && config) {
    const base = config.baseUrl.replace(/\/+$/, '')
    if (!/\/v\d+$/.test(new URL(base).pathname)) {
      return `. The base-url ${base} has no version segment, and the API answered 404: did you mean ${base}/v1?`
    }
  }
  return ''
}

/** Where an error is in a file of the repository (a checks file's line), to annotate the failure there. */
function placeOf(error: unknown): FilePlace | undefined {
  const place = (error as { place?: unknown } | undefined)?.place
  return place && typeof place === 'object' && typeof (place as FilePlace).file === 'string'
    ? (place as FilePlace)
    : undefined
}

/**
 * pr-comment: the step's summary as one sticky comment on the pull request
 * (sync-checks' plan, the gate's result), written whatever the outcome so the
 * reviewer sees a refusal too. Never fails the step.
 */
async function pullRequestComment(
  deps: Dependencies,
  config: Config<OperationName>,
  summary: Summary,
  log: ActionLog,
  signal: AbortSignal,
  secrets: string[]
): Promise<string | undefined> {
  const target = entryOf(config.operation).commentTarget
  if (!target) {
    log.warning(`pr-comment applies to sync-checks and wait-for-check, not ${config.operation}; no comment written.`)
    return undefined
  }
  if (signal.aborted) return undefined
  const env = deps.env
  const run = await deps.runContext()
  const footer = run.runUrl
    ? `\n<sub>Written by [${defused(markdownText(run.workflow || 'the workflow'))} run](${encodeURI(run.runUrl).replace(/\)/g, '%29')}).</sub>\n`
    : ''
  // GitHub counts the whole body against its 65,536 characters: the marker and the footer too.
  const room = PR_COMMENT.maxBytes - Buffer.byteLength(footer) - MARKER_BYTES
  return commentOnPullRequest({
    token: config.githubToken,
    // The API too: matrix legs of one job that sync one file to two services keep a comment each.
    identity: [env.GITHUB_WORKFLOW ?? '', env.GITHUB_JOB ?? '', config.operation, target(config), config.baseUrl],
    markdown: renderSummary(summary, config.operation, secrets, { ...PR_COMMENT, maxBytes: room }) + footer,
    log,
    signal,
    timeoutMs: config.requestTimeoutMs,
    env
  })
}

/**
 * An unexpected error (a bug, not an API or input problem) leaves its stack in
 * the debug log (ACTIONS_STEP_DEBUG). The bundle's positions map to the source
 * only when the step sets NODE_OPTIONS=--enable-source-maps: the map is never
 * parsed otherwise, so starts and failures stay fast.
 */
function debugStack(log: ActionLog, error: unknown): void {
  if (!(error instanceof Error) || error instanceof ApiError || error instanceof InputError) return
  // Errors the action raises on purpose (about a file, a plan) say all there is: no stack.
  if (error instanceof OperationError || !error.stack || /^(ChecksFile|PlanFile)Error$/.test(error.name)) return
  log.debug('unexpected error; its stack (NODE_OPTIONS=--enable-source-maps maps it to the source):')
  for (const line of error.stack.split('\n')) log.debug(line)
}

function failureSummary(message: string, error: unknown): Summary {
  const title = error instanceof InputError ? 'Bad input: nothing was sent' : 'The operation failed'
  return { title, lines: [message], tables: [] }
}

/**
 * The post step (runs.post), run when the job ends whatever its outcome: the
 * operation's registered post step, with the state its main step saved (for
 * pause-check with auto-resume: resume the checks it paused). Quiet when
 * there is nothing to do.
 */
async function post(
  deps: Dependencies,
  raw: ReturnType<typeof readInputs>,
  log: ActionLog,
  signal: AbortSignal,
  secrets: string[]
): Promise<Summary | undefined> {
  const named = raw.operation?.trim() ?? ''
  const step = isOperationName(named) ? entryOf(named).post : undefined
  const saved = step ? deps.core.getState(step.state) : ''
  if (!step || saved === '') return undefined
  await loadParsers(raw)
  const ctx = contextFor(deps, parseConfig(raw), log, signal, deps.clock.now(), secrets)
  return step.run(ctx, saved)
}
