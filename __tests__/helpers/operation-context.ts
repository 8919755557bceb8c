/**
 * An operation's context for unit tests of one module: a real MonitoringApi
 * over HTTP to the emulator on 127.0.0.1, a clock whose sleeps pass at once
 * (each recorded, and `onSleep` told the time after it), a log kept as lines,
 * the post step's state as a record. Only what an operation reads of its
 * config is set.
 */
import type { Emulator } from '../../emulator/server.js'
import { ApiClient } from '../../src/api/client.js'
import { MonitoringApi } from '../../src/api/monitoring.js'
import type { Config } from '../../src/run/config.js'
import type { OperationContext } from '../../src/operations/types.js'
import { KEY } from './harness.js'

export interface ContextOptions {
  /** The step's request-timeout (ms); default 30 s. */
  requestTimeoutMs?: number
  dryRun?: boolean
  /** Retries of the client (default 0: one attempt, its error thrown as it came). */
  maxRetries?: number
  /** The most pages one list follows (the client's bound). */
  maxPages?: number
  /** Where the clock starts (ms since the epoch). */
  start?: number
  /** Told the clock's time after each sleep (change the emulator's data there). */
  onSleep?: (now: number) => void
  /** The job's cancel: the context's signal and its client's. */
  signal?: AbortSignal
}

export interface TestContext {
  ctx: OperationContext
  /** The log as `info: …` / `warning: …` lines. */
  lines: string[]
  /** Every sleep asked of the clock (ms). */
  slept: number[]
  /** The post step's state as last saved. */
  state: Record<string, string>
  now: () => number
}

export function contextOn(emulator: Emulator, options: ContextOptions = {}): TestContext {
  const lines: string[] = []
  const slept: number[] = []
  const state: Record<string, string> = {}
  let time = options.start ?? Date.parse('2026-03-01T10:00:00.000Z')
  const clock = {
    now: () => time,
    sleep: async (ms: number) => {
      slept.push(ms)
      time += ms
      options.onSleep?.(time)
    }
  }
  const log = {
    debug: () => {},
    info: (line: string) => void lines.push(`info: ${line}`),
    warning: (line: string) => void lines.push(`warning: ${line}`),
    notice: (line: string) => void lines.push(`notice: ${line}`),
    group: <T>(_name: string, fn: () => Promise<T>) => fn()
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000
  const client = new ApiClient({
    baseUrl: emulator.baseUrl,
    apiKey: KEY,
    maxRetries: options.maxRetries ?? 0,
    requestTimeoutMs,
    pacer: null,
    random: () => 0.5,
    clock,
    log,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages })
  })
  const config = { requestTimeoutMs, dryRun: options.dryRun ?? false } as Config
  const ctx = {
    config,
    api: new MonitoringApi(client),
    log,
    clock,
    signal: options.signal ?? new AbortController().signal,
    remember: (name: string, value: string) => void (state[name] = value)
  } as unknown as OperationContext
  return { ctx, lines, slept, state, now: () => time }
}
