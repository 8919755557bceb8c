/**
 * What the comment and the drift issue share (src/github/sticky.ts), as pure
 * functions: which body holds the marker, which author is this token, the
 * body kept within GitHub's limit, the bound on a run of calls, and the one
 * warning a failure becomes (its cause named: rate limit, permission, not
 * found, cancelled, no answer).
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import type { Octokit } from '../../src/github/octokit.js'
import {
  ACTIONS_BOT,
  MARKER_BYTES,
  MAX_COMMENT_CHARACTERS,
  type Subject,
  authorTest,
  boundedBy,
  failureOf,
  failureWarning,
  holdsMarker,
  markerOf,
  withinLimit
} from '../../src/github/sticky.js'

const MARKER = markerOf(['Deploy', 'deploy', 'sync-checks', 'checks.yml'])
const never = new AbortController().signal

describe('the marker in a body', () => {
  it('is found on any line (a person may add a line above or below it), never in another step’s marker', () => {
    expect(holdsMarker(MARKER, MARKER)).toBe(true)
    expect(holdsMarker(`Edited by a person.\n\n${MARKER}\n### Plan`, MARKER)).toBe(true)
    expect(holdsMarker(`### Plan\n${MARKER}`, MARKER)).toBe(true)
    expect(holdsMarker(`${markerOf(['Deploy', 'deploy', 'sync-checks', 'other.yml'])}\n### Plan`, MARKER)).toBe(false)
    expect(holdsMarker(MARKER.slice(0, -4), MARKER)).toBe(false)
    expect(holdsMarker('', MARKER)).toBe(false)
    expect(holdsMarker(null, MARKER)).toBe(false)
    expect(holdsMarker(undefined, MARKER)).toBe(false)
  })

  it('takes MARKER_BYTES with its line break, whatever the identity', () => {
    expect(MARKER_BYTES).toBe(Buffer.byteLength(MARKER) + 1)
    expect(MARKER_BYTES).toBe(Buffer.byteLength(markerOf(['é'.repeat(500), '→'])) + 1)
  })
})

describe('a body within GitHub’s limit', () => {
  const head = `${MARKER}\n<!-- stamp -->`
  const fill = (total: number) => 'x'.repeat(total - head.length - 1)

  it('is sent whole up to exactly 65,536 characters (marker and line break counted)', () => {
    const markdown = fill(MAX_COMMENT_CHARACTERS)
    const body = withinLimit(head, markdown, 'Too long')
    expect(body).toBe(`${head}\n${markdown}`)
    expect(body.length).toBe(65_536)
  })

  it('one character more is never sent: the marker kept, a short note naming both sizes instead', () => {
    const body = withinLimit(head, fill(MAX_COMMENT_CHARACTERS + 1), 'The result is too long for a comment')
    expect(body).toBe(
      `${head}\nThe result is too long for a comment (65537 characters; GitHub takes 65536). See the job summary.`
    )
    expect(holdsMarker(body, MARKER)).toBe(true)
  })

  it('counts characters as GitHub does, not bytes', () => {
    const markdown = '€'.repeat(MAX_COMMENT_CHARACTERS - head.length - 1)
    expect(withinLimit(head, markdown, 'Too long')).toBe(`${head}\n${markdown}`)
  })
})

describe('whose comment or issue it is', () => {
  const calls: Array<{ signal: AbortSignal }> = []
  const bound = { signal: new AbortController().signal }
  const octokit = (answer: () => Promise<{ data: { login: string } }>) =>
    ({
      rest: {
        users: {
          getAuthenticated: (options: { request: { signal: AbortSignal } }) => {
            calls.push(options.request)
            return answer()
          }
        }
      }
    }) as unknown as Octokit

  it('a token that says who it is (a personal one): only that login’s, whatever its type', async () => {
    const mine = await authorTest(
      octokit(async () => ({ data: { login: 'octo-pat' } })),
      () => bound
    )
    expect(calls.at(-1)).toBe(bound) // asked within the step's bounds
    expect(mine({ login: 'octo-pat', type: 'User' })).toBe(true)
    expect(mine({ login: 'octo-pat' })).toBe(true)
    expect(mine({ login: ACTIONS_BOT, type: 'Bot' })).toBe(false)
    expect(mine({ login: 'someone', type: 'User' })).toBe(false)
    expect(mine(null)).toBe(false)
    expect(mine(undefined)).toBe(false)
  })

  it('a token that cannot say (the job’s, GET /user refused): only github-actions[bot], a Bot', async () => {
    const mine = await authorTest(
      octokit(async () => {
        throw Object.assign(new Error('Resource not accessible by integration'), { status: 403 })
      }),
      () => bound
    )
    expect(ACTIONS_BOT).toBe('github-actions[bot]')
    expect(mine({ login: 'github-actions[bot]', type: 'Bot' })).toBe(true)
    // a user who named themselves so cannot exist, but a body with the marker proves nothing: the type must say Bot
    expect(mine({ login: 'github-actions[bot]', type: 'User' })).toBe(false)
    expect(mine({ login: 'github-actions[bot]' })).toBe(false)
    expect(mine({ login: 'other-app[bot]', type: 'Bot' })).toBe(false)
    expect(mine({ type: 'Bot' })).toBe(false)
    expect(mine(null)).toBe(false)
  })
})

describe('the bound on a run of calls to GitHub', () => {
  afterEach(() => {
    jest.useRealTimers()
  })

  it('ends them all after `calls` request-timeouts and the minute GitHub’s waits may take, not before', () => {
    jest.useFakeTimers()
    const bounded = boundedBy(never, 1_000, 6)
    const { signal } = bounded()
    expect(bounded().signal).toBe(signal) // one bound for every call of the run
    jest.advanceTimersByTime(6 * 1_000 + 60_000 - 1)
    expect(signal.aborted).toBe(false)
    jest.advanceTimersByTime(1)
    expect(signal.aborted).toBe(true)
    expect((signal.reason as Error).name).toBe('TimeoutError')
  })

  it('ends them at once when the job is cancelled, with the cancel’s reason', () => {
    const job = new AbortController()
    const { signal } = boundedBy(job.signal, 1_000, 6)()
    expect(signal.aborted).toBe(false)
    const reason = new Error('cancelled')
    job.abort(reason)
    expect(signal.aborted).toBe(true)
    expect(signal.reason).toBe(reason)
  })
})

describe('a failed call to GitHub, in words', () => {
  const answer = (status: number, message: string, headers: Record<string, string> = {}) =>
    Object.assign(new Error(message), { status, response: { headers } })

  it('GitHub’s answer: its status and message, and the cause read from them', () => {
    expect(failureOf(answer(403, 'Resource not accessible by integration'), never, 1000)).toEqual({
      said: 'HTTP 403: Resource not accessible by integration',
      cause: { kind: 'permission' }
    })
    expect(failureOf(answer(404, ''), never, 1000)).toEqual({ said: 'HTTP 404', cause: { kind: 'not found' } })
    expect(
      failureOf(answer(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' }), never, 1000).cause
    ).toEqual({ kind: 'rate limit', limit: 'primary' })
    expect(failureOf(answer(502, 'Server Error'), never, 1000)).toEqual({
      said: 'HTTP 502: Server Error',
      cause: { kind: 'other' }
    })
    expect(failureOf(new Error('socket hang up'), never, 1000)).toEqual({
      said: 'no answer: socket hang up',
      cause: { kind: 'other' }
    })
    expect(failureOf({}, never, 1000)).toEqual({ said: 'no answer', cause: { kind: 'other' } })
  })

  const timedOut = [
    ['a TimeoutError', Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
    ['an AbortError', Object.assign(new Error('x'), { name: 'AbortError' })],
    [
      'Octokit’s 500 caused by an abort',
      Object.assign(new Error('fetch failed'), { status: 500, cause: { name: 'AbortError' } })
    ],
    [
      'Octokit’s 500 caused by a timeout',
      Object.assign(new Error('fetch failed'), { status: 500, cause: { name: 'TimeoutError' } })
    ],
    [
      'a message saying the operation was aborted',
      Object.assign(new Error('This Operation Was Aborted'), { status: 500 })
    ]
  ] as const

  it.each(timedOut)('%s, the job still running: no answer within request-timeout', (_, error) => {
    expect(failureOf(error, never, 1500)).toEqual({
      said: 'no answer within request-timeout (1500 ms)',
      cause: { kind: 'stopped' }
    })
  })

  it.each(timedOut)('%s, the job cancelled: the job was cancelled', (_, error) => {
    const job = new AbortController()
    job.abort()
    expect(failureOf(error, job.signal, 1500)).toEqual({ said: 'the job was cancelled', cause: { kind: 'stopped' } })
  })

  it('another error name or cause is no stop', () => {
    const error = Object.assign(new Error('fetch failed'), { status: 500, name: 'HttpError', cause: { name: 'Error' } })
    expect(failureOf(error, never, 1500).said).toBe('HTTP 500: fetch failed')
  })
})

describe('the one warning for a failure', () => {
  const subject: Subject = { label: 'pr-comment', thing: 'the comment', permission: 'Give it write.' }

  it('a primary rate limit, with GitHub’s wait: a rate limit, not a permission problem', () => {
    expect(
      failureWarning(subject, {
        said: 'HTTP 403: API rate limit exceeded',
        cause: { kind: 'rate limit', limit: 'primary', waitSeconds: 1800 }
      })
    ).toBe(
      "pr-comment: the comment was not written: a rate limit, not a permission problem. GitHub's rate limit for this token is used up (HTTP 403: API rate limit exceeded); GitHub asked to wait 1800 s, and the action waits for GitHub at most a minute in all (never past the step's timeout). The step goes on."
    )
  })

  it('a secondary rate limit without a wait named', () => {
    expect(failureWarning(subject, { said: 'HTTP 429', cause: { kind: 'rate limit', limit: 'secondary' } })).toBe(
      "pr-comment: the comment was not written: a rate limit, not a permission problem. GitHub's secondary rate limit (too many requests at once) stopped it (HTTP 429), and the action waits for GitHub at most a minute in all (never past the step's timeout). The step goes on."
    )
  })

  it('a permission problem names the fix', () => {
    expect(failureWarning(subject, { said: 'HTTP 403: Forbidden', cause: { kind: 'permission' } })).toBe(
      'pr-comment: GitHub refused the comment (HTTP 403: Forbidden): a permission problem. Give it write. The step goes on.'
    )
  })

  it('not found says GitHub hides what a token may not see, and names the fix', () => {
    expect(failureWarning(subject, { said: 'HTTP 404: Not Found', cause: { kind: 'not found' } })).toBe(
      'pr-comment: GitHub refused the comment (HTTP 404: Not Found): not found (GitHub also answers 404 for what a token may not see). Give it write. The step goes on.'
    )
  })

  it('anything else (a 422, a 5xx that lasted, a cancel) is said as it happened, without a fix that does not apply', () => {
    expect(failureWarning(subject, { said: 'HTTP 422: Validation Failed', cause: { kind: 'other' } })).toBe(
      'pr-comment: the comment could not be written (HTTP 422: Validation Failed). The step goes on.'
    )
    expect(failureWarning(subject, { said: 'the job was cancelled', cause: { kind: 'stopped' } })).toBe(
      'pr-comment: the comment could not be written (the job was cancelled). The step goes on.'
    )
  })
})
