/**
 * What run() is given, by either door: the runner or the command's host in
 * its place, the clock, the environment, the run's facts, the API client's
 * maker, the signals, and a wait for the log's reader. The pieces both doors
 * use are here (makeApi, stdoutDrained); each door fills in the rest
 * (step/dependencies.ts for the runner, cli/main.ts for the command).
 */
import { ApiClient } from '../api/client.js'
import { MonitoringApi } from '../api/monitoring.js'
import type { Clock } from '../api/pacer.js'
import type { Logger } from '../api/types.js'
import type { Config } from '../run/config.js'
import type { RunContext } from '../run/run-context.js'
import type { CoreLike } from '../run/runner.js'

/** Which door the run came in by: the Actions runner (the step) or the command (monitoring-ci). */
export type Door = 'runner' | 'command'

export interface Dependencies {
  core: CoreLike
  clock: Clock
  env: NodeJS.ProcessEnv
  runContext: () => Promise<RunContext>
  /** The API client; `secrets` (the step's, growing) are redacted from server text before it is shortened. */
  makeApi: (config: Config, log: Logger, signal: AbortSignal, secrets?: readonly string[]) => MonitoringApi
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

export function makeApi(
  config: Config,
  log: Logger,
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
