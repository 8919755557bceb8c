/**
 * `@actions/github` and an Octokit for a token: what every call to GitHub
 * starts with. GitHub's own limits (a 5xx, a rate limit) are retried by
 * Octokit's retry and throttling plugins, within the waits limits.ts allows;
 * the plugins are loaded with @actions/github, only by a step that calls
 * GitHub.
 */
import { load } from '../lazy/modules.cjs'
import { importGithub } from './run-facts.js'
import type { Logger } from '../api/types.js'
import { mayWait, serverErrorRetries } from './limits.js'

export type GitHub = Awaited<ReturnType<typeof importGithub>>
export type Octokit = ReturnType<GitHub['getOctokit']>

export interface CallBounds {
  /** Each attempt ends by this (request-timeout); an attempt that timed out is not retried. */
  timeoutMs: number
  /** When every wait for GitHub must have ended (limits.ts waitsEndBy), fixed at the step's first call. */
  waitsEndBy: () => number
  /** Where a retry is told: an info line, never a warning (a retry that then succeeds is no problem). */
  log: Logger
  /** Who is calling, for those lines ('pr-comment'). */
  label: string
}

/** What the hooks see of a request's options (plugin-retry keeps its count and its allowance there). */
type Attempt = {
  method?: string
  url?: string
  request: { signal?: AbortSignal | null; retries?: number; retryCount?: number }
}
type Hooked = {
  hook: {
    wrap: (name: 'request', wrap: (request: (o: Attempt) => Promise<unknown>, o: Attempt) => Promise<unknown>) => void
  }
}

/** Octokit's requests go through undici's fetch: undici is loaded first. */
export async function gitHubFor(
  token: string,
  env: NodeJS.ProcessEnv,
  bounds: CallBounds
): Promise<{ github: GitHub; octokit: Octokit }> {
  await load('undici')
  const [github, { retry, throttling }] = await Promise.all([importGithub(env), import('./plugins.js')])
  const endBy = bounds.waitsEndBy()
  const onLimit =
    (limit: string) =>
    (retryAfter: number, options: { method?: string; url?: string }): boolean => {
      if (!mayWait(Date.now(), retryAfter * 1000, endBy)) return false
      bounds.log.info(
        `${bounds.label}: GitHub's ${limit} (${options.method ?? ''} ${options.url ?? ''}); trying again in ${retryAfter} s.`
      )
      return true
    }
  const octokit = github.getOctokit(
    token,
    {
      // A 5xx is plugin-retry's; a rate limit (403 or 429) is plugin-throttling's alone, which waits as GitHub asks.
      retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451] },
      throttle: { onRateLimit: onLimit('rate limit'), onSecondaryRateLimit: onLimit('secondary rate limit') }
    },
    eachAttempt(bounds.timeoutMs, endBy),
    retry,
    throttling
  )
  // Outermost: the call ends when its signal does (the job cancelled), even in the middle of a plugin's wait.
  ;(octokit as unknown as Hooked).hook.wrap('request', (request, options) =>
    untilAborted(request(options), options.request?.signal ?? undefined)
  )
  return { github, octokit }
}

/**
 * A plugin, given first so its hook is the innermost (around each attempt): the attempt ends by
 * request-timeout, its body read included, and after a failed attempt plugin-retry is told
 * whether its next wait after a 5xx still ends in time (an attempt cut off, timed out or
 * cancelled, is not retried).
 *
 * Octokit's hooks share one options object, changed in place: the attempt's signal is set on it,
 * and `retries` (what plugin-retry allows) is there only between a failure and the plugin reading
 * it, since the plugin takes any failure of a request whose options hold it for one to retry.
 */
function eachAttempt(timeoutMs: number, endBy: number) {
  const callSignals = new WeakMap<Attempt, AbortSignal | undefined>()
  return (octokit: unknown) => {
    ;(octokit as Hooked).hook.wrap('request', async (request, options) => {
      if (!callSignals.has(options)) {
        callSignals.set(options, options.request.signal ?? undefined)
        // Its own: a call given no `request` option holds Octokit's defaults' object, shared by every call.
        options.request = { ...options.request }
      }
      const attempt = deadline(timeoutMs, callSignals.get(options))
      options.request.signal = attempt.signal
      delete options.request.retries
      try {
        const response = await request(options)
        // Octokit reads a body the signal cut off as an empty one: the attempt failed all the same.
        attempt.signal.throwIfAborted()
        return response
      } catch (error) {
        options.request.retries = attempt.signal.aborted
          ? 0
          : serverErrorRetries(Date.now(), options.request.retryCount ?? 0, endBy)
        throw namedSecondaryLimit(error)
      } finally {
        attempt.end()
      }
    })
  }
}

/**
 * A signal that aborts after `ms` (with a TimeoutError, as AbortSignal.timeout's) or when any of
 * `signals` does; `end()` lets go of the timer and the listeners once it is no longer needed.
 * Every bound on a call to GitHub is one of these, never AbortSignal.any over AbortSignal.timeout:
 * Node 20 holds the sources of AbortSignal.any weakly, so a timeout signal nothing else holds is
 * collected and never fires, and the call waits for undici's own five minutes. Here the timer
 * holds the controller. It does not keep the process alive (the request's socket does).
 */
export function deadline(
  ms: number,
  ...signals: Array<AbortSignal | undefined>
): { signal: AbortSignal; end: () => void } {
  const controller = new AbortController()
  const sources = signals.filter((source): source is AbortSignal => source !== undefined)
  const end = () => {
    clearTimeout(timer)
    for (const source of sources) source.removeEventListener('abort', fromSource)
  }
  const stop = (reason: unknown) => {
    end()
    controller.abort(reason)
  }
  function fromSource(this: AbortSignal) {
    stop(this.reason)
  }
  const timer = setTimeout(() => stop(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms)
  timer.unref()
  for (const source of sources) {
    if (source.aborted) {
      stop(source.reason)
      break
    }
    source.addEventListener('abort', fromSource)
  }
  return { signal: controller.signal, end }
}

/**
 * A 403 or 429 with `retry-after` is a secondary rate limit, whatever its message says (GitHub's docs);
 * plugin-throttling knows one only by the words "secondary rate" in the message, so they are added.
 */
function namedSecondaryLimit(error: unknown): unknown {
  const e = error as { status?: number; message?: unknown; response?: { headers?: Record<string, unknown> } }
  const retryAfter = e?.response?.headers?.['retry-after']
  if ((e?.status === 403 || e?.status === 429) && retryAfter !== undefined && typeof e.message === 'string') {
    if (!/\bsecondary rate\b/i.test(e.message))
      e.message = `${e.message} (a secondary rate limit: retry-after ${String(retryAfter)})`
  }
  return error
}

/** `promise`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error)
    if (signal.aborted) stop()
    signal.addEventListener('abort', stop, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}
