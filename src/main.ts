/**
 * run(): read inputs -> config -> perform the operation -> outputs and summary.
 * One try/catch/finally; every thrown value becomes one clear failure.
 */
import * as core from '@actions/core'
import { ApiClient } from './api/client.js'
import { MonitoringApi } from './api/monitoring.js'
import { Clock, realClock } from './api/pacer.js'
import { Config, InputError, failOnErrorOf, parseConfig, readInputs } from './inputs.js'
import { PAUSED_STATE, resumePaused } from './operations/checks.js'
import { operations } from './operations/index.js'
import { WRITE_OPERATIONS } from './operations/names.js'
import type { OperationContext, OperationLog, Outputs, Summary } from './operations/types.js'
import { OperationError } from './operations/types.js'
import { redact, writeOutputs } from './report/outputs.js'
import { renderSummary } from './report/summary.js'
import { RunContext, loadRunContext } from './run-context.js'

/** The parts of @actions/core the action uses; tests pass a fake. */
export interface CoreLike {
  getInput: (name: string) => string
  setSecret: (secret: string) => void
  setOutput: (name: string, value: string) => void
  setFailed: (message: string) => void
  info: (message: string) => void
  debug: (message: string) => void
  warning: (message: string) => void
  startGroup: (name: string) => void
  endGroup: () => void
  saveState: (name: string, value: string) => void
  getState: (name: string) => string
  summary: { addRaw: (text: string, addEOL?: boolean) => { write: () => Promise<unknown> } }
}

export interface Dependencies {
  core: CoreLike
  clock: Clock
  env: NodeJS.ProcessEnv
  runContext: () => Promise<RunContext>
  makeApi: (config: Config, log: OperationLog) => MonitoringApi
}

const IS_POST = 'isPost'

/** Call `fn` at most once; later calls get the same promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => (value ??= fn())
}

export function makeApi(config: Config, log: OperationLog): MonitoringApi {
  return new MonitoringApi(
    new ApiClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      maxRetries: config.maxRetries,
      requestTimeoutMs: config.requestTimeoutMs,
      log,
      userAgent: 'monitoring-action/1'
    })
  )
}

export function defaultDependencies(): Dependencies {
  return { core, clock: realClock, env: process.env, runContext: () => loadRunContext(), makeApi }
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

/** What an operation is given: the config, an API client, a redacting log, the clock and the run. */
function contextFor(deps: Dependencies, config: Config, secrets: string[], startedAt: number): OperationContext {
  const log = logOf(deps.core, secrets)
  return {
    config,
    api: deps.makeApi(config, log),
    log,
    clock: deps.clock,
    startedAt,
    runContext: once(deps.runContext),
    workspace: deps.env.GITHUB_WORKSPACE || process.cwd()
  }
}

function logOf(c: CoreLike, secrets: string[]): OperationLog {
  const clean = (m: string) => redact(m, secrets)
  return {
    debug: m => c.debug(clean(m)),
    info: m => c.info(clean(m)),
    warning: m => c.warning(clean(m)),
    group: async (name, fn) => {
      c.startGroup(clean(name))
      try {
        return await fn()
      } finally {
        c.endGroup()
      }
    }
  }
}

export async function run(deps: Dependencies = defaultDependencies()): Promise<void> {
  const c = deps.core
  const startedAt = deps.clock.now()
  const secrets: string[] = []
  let failOnError = true
  let jobSummary = true
  let operation = 'unknown'
  let summary: Summary | undefined
  let outputs: Outputs = {}
  try {
    const raw = readInputs(name => c.getInput(name))
    // The key is masked before anything else can print it.
    const key = raw['api-key'] ?? ''
    // Also each line of a key pasted with line breaks, so no line of it is ever shown.
    for (const form of new Set([key, ...key.split(/\r?\n/).map(line => line.trim())])) {
      if (form !== '') {
        c.setSecret(form)
        secrets.push(form)
      }
    }
    failOnError = failOnErrorOf(raw)
    jobSummary = raw['job-summary']?.trim().toLowerCase() !== 'false'
    operation = raw.operation?.trim() || 'unknown'

    if (c.getState(IS_POST) === 'true') {
      await post(deps, raw, secrets)
      return
    }
    c.saveState(IS_POST, 'true')

    const config = parseConfig(raw)
    jobSummary = config.jobSummary
    const ctx = contextFor(deps, config, secrets, startedAt)
    const log = ctx.log
    if (config.dryRun) c.info('dry-run: writes are printed, not sent.')
    const result = await operations[config.operation](ctx)
    outputs = result.outputs
    summary = result.summary
    log.info([summary.title, ...summary.lines].join(' - '))
    if (WRITE_OPERATIONS.includes(config.operation) && outputs.changed === undefined) outputs.changed = false
    if (result.gateClosed) outputs.error = result.gateClosed
    writeOutputs(c.setOutput, outputs, secrets)
    for (const [name, value] of Object.entries(result.state ?? {})) c.saveState(name, value)
    if (result.gateClosed) c.setFailed(redact(result.gateClosed, secrets))
  } catch (error) {
    const message = redact(messageOf(error), secrets)
    const known = error instanceof OperationError ? error.outputs : {}
    outputs = { ...outputs, ...known, error: message }
    writeOutputs(c.setOutput, outputs, secrets)
    summary = error instanceof OperationError && error.summary ? error.summary : failureSummary(message, error)
    if (failOnError) c.setFailed(message)
    else c.warning(`${message} (fail-on-error is false: the step continues)`)
  } finally {
    if (jobSummary && summary) {
      try {
        await c.summary.addRaw(renderSummary(summary, operation, secrets)).write()
      } catch (error) {
        c.warning(`The job summary could not be written: ${messageOf(error)}`)
      }
    }
  }
}

function failureSummary(message: string, error: unknown): Summary {
  const title = error instanceof InputError ? 'Bad input: nothing was sent' : 'The operation failed'
  return { title, lines: [`> ${message.replace(/\n/g, ' ')}`], tables: [] }
}

/**
 * The post step (runs.post), run when the job ends whatever its outcome:
 * resumes the checks a `pause-check` step with `auto-resume` paused.
 * Does nothing for every other operation.
 */
async function post(deps: Dependencies, raw: ReturnType<typeof readInputs>, secrets: string[]): Promise<void> {
  const c = deps.core
  const ids = c.getState(PAUSED_STATE)
  if (!ids) return
  const ctx = contextFor(deps, parseConfig(raw), secrets, deps.clock.now())
  const log = ctx.log
  const list = JSON.parse(ids) as string[]
  await log.group(`auto-resume: resuming ${list.length} check(s) paused by this step`, async () => {
    const resumed = await resumePaused(ctx, list)
    c.info(`auto-resume: resumed ${resumed.length} of ${list.length} check(s).`)
  })
}
