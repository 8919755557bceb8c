/**
 * The step's wiring: what run() is given (the runner, the clock, the API
 * client's maker, the signals), what an operation is given (its context),
 * the step's secrets, and the runner's cancel signals.
 */
import * as core from '@actions/core'
import { ApiClient } from '../api/client.js'
import { MonitoringApi } from '../api/monitoring.js'
import { Clock, realClock } from '../api/pacer.js'
import type { Config } from '../run/config.js'
import type { OperationContext, OperationLog } from '../operations/types.js'
import type { ActionLog } from '../report/log.js'
import { formsOf, redact, redactValue, registrable } from '../secrets/secrets.js'
import { RunContext, loadRunContext } from '../run/run-context.js'
import type { CoreLike } from '../run/runner.js'
import { Door, RunnerFileError } from './failure.js'
import type { GitHubSide } from './github.js'

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
  /** Resolves once the runner has read what the step printed, up to what a stream buffers (absent: nothing to wait for). */
  drained?: () => Promise<void>
  /** Which door the run came in by (absent: the runner's); the hints a failure gets say what that door reads. */
  door?: Door
  /** The job's page when this door knows it without asking GitHub (another CI's job URL). */
  jobUrl?: () => Promise<string | undefined>
}

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
    exit: code => process.exit(code),
    drained: stdoutDrained(process.stdout)
  }
}

/** How long the log waits for a lagging reader before it stops waiting for good. */
export const DRAIN_PATIENCE_MS = 2000

/**
 * A wait until `stdout` (a pipe the runner reads) holds no more than its
 * buffer's mark: at once, or at its next 'drain'. A write to a pipe the reader
 * has not emptied waits in memory; a fleet's thousands of lines would all wait
 * there. A reader that takes nothing for `patience` ms is not waited for again
 * (the lines then wait in memory, as they would without this): the step never
 * hangs on the log.
 */
export function stdoutDrained(stdout: NodeJS.WriteStream, patience = DRAIN_PATIENCE_MS): () => Promise<void> {
  let gaveUp = false
  return () => {
    if (gaveUp || !stdout.writableNeedDrain) return Promise.resolve()
    return new Promise<void>(done => {
      const timer = setTimeout(() => {
        gaveUp = true
        stdout.off('drain', drained)
        done()
      }, patience)
      timer.unref?.()
      const drained = (): void => {
        clearTimeout(timer)
        done()
      }
      stdout.once('drain', drained)
    })
  }
}

/**
 * Treat `value` as a secret from now on: the runner masks each of its forms
 * (raw, JSON-escaped, percent-encoded) in the log, and the action's own
 * redaction replaces them in everything it writes.
 */
export function addSecret(runner: CoreLike, secrets: string[], value: string): void {
  if (value === '' || secrets.includes(value)) return
  // A form that decodes to a short or everyday word (`%6D%61%69%6E` is `main`) is never masked job-wide.
  for (const form of formsOf(value)) if (form === value || registrable(form)) runner.setSecret(form)
  secrets.push(value)
}

/**
 * A value found in data (a spec, a checks file, an export) is a secret job-wide
 * only when it is `registrable`: nothing short, numeric or an everyday word.
 */
export function addFoundSecret(runner: CoreLike, secrets: string[], value: string): void {
  if (registrable(value)) addSecret(runner, secrets, value)
}

/**
 * A value the user declared a secret is never shown by the action (its own
 * redaction by value), and masked job-wide only when it is `registrable`.
 */
export function addDeclaredSecret(runner: CoreLike, secrets: string[], value: string): void {
  if (registrable(value)) addSecret(runner, secrets, value)
  else if (value !== '' && !secrets.includes(value)) secrets.push(value)
}

/** What an operation is given: the config, an API client, the log, the clock, the run, the cancel signal. */
export function contextFor(
  deps: Dependencies,
  config: Config,
  log: ActionLog,
  signal: AbortSignal,
  startedAt: number,
  secrets: string[],
  github: GitHubSide
): OperationContext {
  return {
    config,
    api: deps.makeApi(config, log, signal, secrets),
    log,
    clock: deps.clock,
    startedAt,
    runContext: once(deps.runContext),
    jobUrl: deps.jobUrl ?? github.jobUrl,
    workspace: deps.env.GITHUB_WORKSPACE || process.cwd(),
    env: deps.env,
    addSecret: value => addFoundSecret(deps.core, secrets, value),
    declareSecret: value => addDeclaredSecret(deps.core, secrets, value),
    redact: text => redact(text, secrets),
    redactValue: value => redactValue(value, secrets),
    remember: (name, value) => {
      try {
        deps.core.saveState(name, value)
      } catch (error) {
        throw new RunnerFileError('GITHUB_STATE', deps.env, error)
      }
    },
    signal
  }
}

/**
 * The runner cancels a job with SIGINT, then SIGTERM about 7.5 s later, then
 * runs the post steps. On SIGINT no new request starts, a read (GET) under
 * way is cut off at once (the step then still has the time to write its
 * outputs and reports), a write under way finishes (so its effect is known),
 * and the step ends failed; on SIGTERM the
 * process ends at once. What auto-resume needs was recorded before each
 * request, so the post step finds it either way.
 */
export function onCancel(deps: Dependencies, log: ActionLog, controller: AbortController): () => void {
  const signals = deps.signals
  if (!signals) return () => {}
  const interrupt = () => {
    log.warning(
      'The job is being cancelled (SIGINT): no new request is sent; a read under way is cut off, a write under way may finish.'
    )
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
