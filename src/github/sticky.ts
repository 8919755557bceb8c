/**
 * What the action's own writings on GitHub share (the pull-request comment,
 * the drift issue): a hidden marker that finds them again, proof that a
 * found one is this token's own (which one is kept and what becomes of the
 * others: keep-one.ts), requests bounded in time and by the job's cancel, and a
 * failure told as one line that names its cause. Nothing here fails the step.
 */
import { createHash } from 'node:crypto'
import { type Octokit, deadline } from './octokit.js'
import { Cause, MAX_GITHUB_WAIT_MS, causeOf } from './limits.js'

/**
 * The hidden first line that finds the comment again: a digest of the
 * identity, so its size never depends on the target (a gate on 250 checks)
 * and no part of it can close the HTML comment.
 */
export function markerOf(identity: string[]): string {
  return marker(createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32))
}

/** The marker of a digest (32 hexadecimal characters). */
const marker = (digest: string) => `<!-- monitoring-action: ${digest} -->`

/**
 * Does a body hold the marker? Anywhere in it, not only on the first line: a
 * person may add a line above it (or below) when editing the issue or
 * comment, and it is still the same one. The marker proves nothing about who
 * wrote the body (anyone can copy it): authorTest does that.
 */
export const holdsMarker = (body: string | null | undefined, marker: string): boolean =>
  typeof body === 'string' && body.includes(marker)

/**
 * The marker's size and the line break after it: counted against GitHub's limit with the rest of the
 * body. Every digest has 32 characters, so no hash is needed to know it (every step computes this at
 * start; hashing there first cost about half a millisecond).
 */
export const MARKER_BYTES = Buffer.byteLength(marker('0'.repeat(32))) + 1

/** GitHub refuses a comment body longer than this many characters. */
export const MAX_COMMENT_CHARACTERS = 65_536

/** The login the job's own token (GITHUB_TOKEN) writes as. */
export const ACTIONS_BOT = 'github-actions[bot]'

type Author = { login?: string; type?: string } | null | undefined

/**
 * Which comments this token wrote, provably. A personal token says who it is
 * (GET /user). An installation token cannot (GET /user answers 403); the
 * job's GITHUB_TOKEN writes as github-actions[bot], so only its comments are
 * ours. Another app's comments are never taken for ours, even with the marker
 * (anyone can copy it): such a token posts a new comment instead.
 */
export async function authorTest(
  octokit: Octokit,
  bounded: () => { signal: AbortSignal }
): Promise<(author: Author) => boolean> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated({ request: bounded() })
    return author => author?.login === data.login
  } catch {
    return author => author?.login === ACTIONS_BOT && author?.type === 'Bot'
  }
}

export interface GitHubError {
  status?: number
  message?: string
  name?: string
  response?: { headers?: Record<string, string | number | undefined> }
  cause?: { name?: string }
}

/**
 * Bounds for a run of calls to GitHub: all of them end by `calls` times
 * request-timeout plus the waits GitHub's limits may take, and any when the
 * job is cancelled. (Each attempt's own bound, request-timeout, is octokit.ts's.)
 */
export function boundedBy(signal: AbortSignal, timeoutMs: number, calls: number): () => { signal: AbortSignal } {
  const bounded = { signal: deadline(timeoutMs * calls + MAX_GITHUB_WAIT_MS, signal).signal }
  return () => bounded
}

/** A failed call to GitHub: what happened in words, and its cause (limits.ts), or `stopped` (no answer in time, cancelled). */
export interface Failure {
  said: string
  cause: Cause | { kind: 'stopped' }
}

export function failureOf(error: unknown, signal: AbortSignal, timeoutMs: number): Failure {
  const { status, message, name, response, cause } = error as GitHubError
  // Octokit reports an aborted fetch as HTTP 500 (the abort its cause): say what happened instead.
  const aborted = (n: string | undefined) => n === 'AbortError' || n === 'TimeoutError'
  const stopped = aborted(name) || aborted(cause?.name) || /operation was aborted/i.test(message ?? '')
  if (stopped) {
    return {
      said: signal.aborted ? 'the job was cancelled' : `no answer within request-timeout (${timeoutMs} ms)`,
      cause: { kind: 'stopped' }
    }
  }
  return {
    said: `${status ? `HTTP ${status}` : 'no answer'}${message ? `: ${message}` : ''}`,
    cause: causeOf(status, response?.headers, message, Date.now())
  }
}

/** How a warning names a writing and who may write it: `label: GitHub refused {thing}`; `permission`, the fix. */
export interface Subject {
  label: string
  thing: string
  permission: string
}

/**
 * The one warning for a writing that failed, naming the cause: a rate limit (GitHub asked for a
 * longer wait than the action makes), a permission, something not found; else what happened.
 */
export function failureWarning(subject: Subject, { said, cause }: Failure): string {
  const { label, thing, permission } = subject
  switch (cause.kind) {
    case 'rate limit': {
      const limit =
        cause.limit === 'primary'
          ? "GitHub's rate limit for this token is used up"
          : "GitHub's secondary rate limit (too many requests at once) stopped it"
      const asked = cause.waitSeconds === undefined ? '' : `; GitHub asked to wait ${cause.waitSeconds} s`
      return `${label}: ${thing} was not written: a rate limit, not a permission problem. ${limit} (${said})${asked}, and the action waits for GitHub at most a minute in all (never past the step's timeout). The step goes on.`
    }
    case 'permission':
      return `${label}: GitHub refused ${thing} (${said}): a permission problem. ${permission} The step goes on.`
    case 'not found':
      return `${label}: GitHub refused ${thing} (${said}): not found (GitHub also answers 404 for what a token may not see). ${permission} The step goes on.`
    default:
      return `${label}: ${thing} could not be written (${said}). The step goes on.`
  }
}

/** A body over GitHub's limit: never sent (GitHub answers 422); a short note instead. */
export function withinLimit(marker: string, markdown: string, tooLong: string): string {
  const body = `${marker}\n${markdown}`
  if (body.length <= MAX_COMMENT_CHARACTERS) return body
  return `${marker}\n${tooLong} (${body.length} characters; GitHub takes ${MAX_COMMENT_CHARACTERS}). See the job summary.`
}

/**
 * Which run wrote a body, hidden in it below the marker: racing runs keep the
 * result of the latest run. The latest run is the one GitHub triggered last
 * (the greater run id: a later push's run, whatever the order the runs reach
 * a runner in), then the later attempt of it (a re-run), then the later start
 * of the step (matrix legs of one attempt).
 */
export interface RunStamp {
  runId: number
  attempt: number
  startedAt: number
}

const STAMP = /<!-- monitoring-action run: (\d+)\.(\d+) at (\d+) -->/

/** A whole number within JavaScript's exact range; anything else, 0. */
const whole = (value: number) => (Number.isSafeInteger(value) && value > 0 ? value : 0)

/** The stamp's line: a hidden comment, below the marker. */
export function stampLine(stamp: RunStamp): string {
  return `<!-- monitoring-action run: ${whole(stamp.runId)}.${whole(stamp.attempt)} at ${whole(stamp.startedAt)} -->`
}

/** The most a stamp's line and its line break take (counted against GitHub's limit). */
export const STAMP_BYTES =
  Buffer.byteLength(
    stampLine({ runId: Number.MAX_SAFE_INTEGER, attempt: Number.MAX_SAFE_INTEGER, startedAt: Number.MAX_SAFE_INTEGER })
  ) + 1

/** The stamp in a body; none in one written before stamps (it counts as older than any). */
export function stampIn(body: string | null | undefined): RunStamp | undefined {
  const found = STAMP.exec(body ?? '')
  return found ? { runId: Number(found[1]), attempt: Number(found[2]), startedAt: Number(found[3]) } : undefined
}

/** Was `a` written by a later run than `b`? A missing stamp is the earliest. */
export function laterRun(a: RunStamp | undefined, b: RunStamp | undefined): boolean {
  if (!a) return false
  if (!b) return true
  return a.runId !== b.runId
    ? a.runId > b.runId
    : a.attempt !== b.attempt
      ? a.attempt > b.attempt
      : a.startedAt > b.startedAt
}
