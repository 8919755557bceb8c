/**
 * Run the action in-process against an emulator over real HTTP, with a fake
 * core. Waits (backoff, Retry-After, polling) are real but scaled down by
 * `timeScale` so tests stay fast.
 */
import { afterAll, beforeAll, beforeEach } from '@jest/globals'
import { Target } from '../../scripts/lib/target.js'
import { ApiClient } from '../../src/api/client.js'
import { MonitoringApi } from '../../src/api/monitoring.js'
import { Clock, Pacer, realClock } from '../../src/api/pacer.js'
import { Dependencies, run } from '../../src/main.js'
import { runContextOf } from '../../src/github/run-facts.js'
import { Emulator, EmulatorOptions } from '../../emulator/server.js'
import { FakeCore, fakeCore } from './fake-core.js'

export const KEY = 'test-key-0123456789'

/**
 * One emulator for a test file: started before its tests, reset before each,
 * stopped after all. Returned at once (its baseUrl is set once started).
 */
export function useEmulator(options: EmulatorOptions = {}): Emulator {
  const emulator = new Emulator({ apiKeys: [KEY], ...options })
  beforeAll(() => emulator.start())
  afterAll(() => emulator.stop())
  beforeEach(() => emulator.reset())
  return emulator
}

/** One local target for the probes of a test file: up and fast again before each test. */
export function useTarget(): Target {
  const target = new Target()
  beforeAll(() => target.start())
  afterAll(() => target.stop())
  beforeEach(() => {
    target.mode = 'up'
    target.delayMs = 0
    target.hits = 0
  })
  return target
}

/** The api-key and base-url inputs of `emulator`, read when spread (after it started). */
export function credentialsOf(emulator: Emulator): Record<string, string> {
  return {
    'api-key': KEY,
    get 'base-url'() {
      return emulator.baseUrl
    }
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emulator = new Emulator({ apiKeys: [KEY], ...options })
  await emulator.start()
  return emulator
}

/** A real clock whose sleeps are shortened by `scale` (time itself still passes normally). */
export function scaledClock(scale: number): Clock & { slept: number[] } {
  const slept: number[] = []
  return {
    slept,
    now: () => Date.now(),
    sleep: (ms, signal) => {
      slept.push(ms)
      return realClock.sleep(Math.max(0, ms * scale), signal)
    }
  }
}

export interface RunOptions {
  /** State saved by the main step; given, this run is the post step (as the runner starts dist/post.js) unless `stage` says otherwise. */
  state?: Record<string, string>
  stage?: 'main' | 'post'
  /** Multiply every wait by this (default 0.01). */
  timeScale?: number
  clock?: Clock
  env?: NodeJS.ProcessEnv
  /** Change the fake core before the run (e.g. make its summary fail). */
  prepare?: (core: FakeCore) => void
  /** The client's pacing: off by default; true = the API's 100 a minute; or a given Pacer. */
  pacing?: boolean | Pacer
  /** Where the run listens for SIGINT/SIGTERM (emit on it to cancel); and what SIGTERM's exit does. */
  signals?: NodeJS.EventEmitter
  exit?: (code: number) => void
  /** Replace the API the run gets (to make it fail in ways the emulator cannot). */
  makeApi?: Dependencies['makeApi']
  /** When the runner has read what the step printed (default: at once). */
  drained?: Dependencies['drained']
}

export interface RunOutcome {
  core: FakeCore
  slept: number[]
}

export const GITHUB_ENV = {
  GITHUB_WORKFLOW: 'Deploy',
  GITHUB_JOB: 'deploy',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_REF: 'refs/heads/main',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_NUMBER: '7',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_ACTOR: 'octocat',
  GITHUB_EVENT_NAME: 'push'
}

/** Run the action with these inputs; `api-key` and `base-url` default to the emulator's. */
export async function runAction(
  emulator: Emulator | undefined,
  inputs: Record<string, string>,
  options: RunOptions = {}
): Promise<RunOutcome> {
  const core = fakeCore(
    { 'api-key': KEY, ...(emulator ? { 'base-url': emulator.baseUrl } : {}), ...inputs },
    options.state
  )
  options.prepare?.(core)
  const clock = options.clock ?? scaledClock(options.timeScale ?? 0.01)
  const env = { ...GITHUB_ENV, ...(options.env ?? {}) }
  const deps: Dependencies = {
    core,
    clock,
    env,
    runContext: async () =>
      runContextOf(
        {
          workflow: env.GITHUB_WORKFLOW ?? '',
          job: env.GITHUB_JOB ?? '',
          ref: env.GITHUB_REF ?? '',
          sha: env.GITHUB_SHA ?? '',
          runId: Number(env.GITHUB_RUN_ID),
          runNumber: Number(env.GITHUB_RUN_NUMBER),
          runAttempt: Number(env.GITHUB_RUN_ATTEMPT),
          actor: env.GITHUB_ACTOR ?? '',
          eventName: env.GITHUB_EVENT_NAME ?? '',
          serverUrl: env.GITHUB_SERVER_URL ?? ''
        },
        env
      ),
    signals: options.signals,
    exit: options.exit,
    drained: options.drained,
    makeApi:
      options.makeApi ??
      ((config, log, signal, secrets) => {
        const client = new ApiClient({
          signal,
          secrets,
          baseUrl: config.baseUrl,
          apiKey: config.apiKey,
          maxRetries: config.maxRetries,
          requestTimeoutMs: config.requestTimeoutMs,
          log,
          clock,
          pacer: options.pacing instanceof Pacer ? options.pacing : options.pacing ? undefined : null
        })
        return new MonitoringApi(client)
      })
  }
  await run(deps, options.stage ?? (options.state !== undefined ? 'post' : 'main'))
  return { core, slept: 'slept' in clock ? (clock as { slept: number[] }).slept : [] }
}

/** The result output, parsed. */
export function resultOf(core: FakeCore): unknown {
  return JSON.parse(core.outputs.result ?? 'null')
}

/** Resolves once `condition()` holds; rejects after `ms`. */
export async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 5))
  }
}

/**
 * Give each check its first scripted result right after the step's first
 * read of it (`GET /checks/{id}`, or the list) was answered: a result newer
 * than what the step first saw, so fresh with `require-fresh`.
 */
export function afterFirstRead(on: Emulator, results: Record<string, object>): void {
  const waiting = new Map(Object.entries(results))
  on.afterAnswer = request => {
    if (request.method !== 'GET') return
    for (const [id, result] of waiting) {
      if (request.path !== `/checks/${id}` && request.path.split('?')[0] !== '/checks') continue
      Object.assign(on.checks.get(id) as object, result)
      waiting.delete(id)
    }
  }
}

/** The gate tests' scripted start: every scripted clock begins here. */
export const SCRIPT_START = Date.parse('2026-11-23T08:00:00Z')

/** A check's fields a script sets at a poll. */
export type ScriptedResult = { status?: string; lastCheckedAt?: string; responseTime?: number }

/**
 * A clock from SCRIPT_START; each sleep moves it on and gives each check of
 * `script` its next scripted result (the last one again when they run out),
 * after `between(poll)`: so every count a gate makes is exact.
 */
export function scriptedClock(
  on: Emulator,
  script: Record<string, ScriptedResult[]>,
  between?: (poll: number) => void
): Clock {
  let now = SCRIPT_START
  let poll = 0
  return {
    now: () => now,
    sleep: async ms => {
      now += ms
      poll++
      between?.(poll)
      for (const [id, results] of Object.entries(script)) {
        Object.assign(on.checks.get(id) as object, results[Math.min(poll, results.length - 1)])
      }
    }
  }
}
