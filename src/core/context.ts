/**
 * What an operation is given (its context), the run's secrets, and the
 * cancel signals, whichever door the run came in by. The runner's own
 * dependencies are step/dependencies.ts; the command's, cli/main.ts.
 */
import type { Config } from '../run/config.js'
import type { OperationContext } from '../operations/types.js'
import type { ActionLog } from '../report/log.js'
import { formsOf, redact, redactValue, registrable } from '../secrets/secrets.js'
import type { Dependencies } from './dependencies.js'
import type { CoreLike } from '../run/runner.js'
import { RunnerFileError } from './failure.js'
import type { GitHubSide } from './github.js'
import { workspaceOf } from './workspace.js'

/** Call `fn` at most once; later calls get the same promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined
  return () => (value ??= fn())
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
    workspace: workspaceOf(deps.env).dir,
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
