/**
 * One sticky comment on the pull request: found again by a hidden marker
 * (the workflow, job, operation and target), edited in place on re-runs.
 * Through @actions/github's Octokit, so GITHUB_API_URL (GitHub Enterprise)
 * and the runner's proxy settings apply. A comment is a courtesy: nothing here
 * ever fails the step; GitHub refusing it (a fork's read-only token) is a
 * warning that names the fix.
 */
import { gitHubFor } from './octokit.js'
import type { Logger } from '../api/types.js'
import {
  GitHubError,
  authorTest,
  boundedBy,
  failureOf,
  failureWarning,
  holdsMarker,
  markerOf,
  withinLimit
} from './sticky.js'

export { MARKER_BYTES, markerOf } from './sticky.js'

/** The events that have a pull request to comment on. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target']
/** Pages of comments looked through for the marker (100 a page). */
const MAX_PAGES = 50

export interface CommentRequest {
  /** GitHub token (github-token input). */
  token: string | undefined
  /** What makes this step's comment its own: workflow, job, operation, target. */
  identity: string[]
  /** The Markdown to show (already escaped and capped). */
  markdown: string
  log: Logger & { notice: (message: string) => void }
  signal: AbortSignal
  /** Bound on each request to GitHub. */
  timeoutMs: number
  /** When every wait for GitHub (a rate limit, a 5xx) must have ended: a minute from the step's first call, and the step's timeout. */
  waitsEndBy: () => number
  env: NodeJS.ProcessEnv
}

const SUBJECT = {
  label: 'pr-comment',
  thing: 'the comment',
  permission:
    'The token may not write to this pull request: give the job "permissions: pull-requests: write"; a pull request from a fork gets a read-only token (comment from a pull_request_target or workflow_run job instead).'
}

/**
 * Create or update the step's comment on the pull request; its URL, or
 * undefined when there is none (another event, no token, GitHub refused).
 */
export async function commentOnPullRequest(req: CommentRequest): Promise<string | undefined> {
  const event = req.env.GITHUB_EVENT_NAME ?? ''
  if (!PULL_REQUEST_EVENTS.includes(event)) {
    req.log.notice(
      `pr-comment: this is a ${event || 'run without an event'}, not a pull_request event; no comment written.`
    )
    return undefined
  }
  if (!req.token) {
    req.log.warning(
      'pr-comment: github-token is empty; no comment written. Leave github-token at its default (the job token) or pass a token that may write pull-request comments.'
    )
    return undefined
  }
  try {
    const { github, octokit } = await gitHubFor(req.token, req.env, {
      timeoutMs: req.timeoutMs,
      waitsEndBy: req.waitsEndBy,
      log: req.log,
      label: 'pr-comment'
    })
    const number = github.context.payload.pull_request?.number
    if (typeof number !== 'number') {
      req.log.warning('pr-comment: the event payload names no pull request; no comment written.')
      return undefined
    }
    const { owner, repo } = github.context.repo
    // Each attempt ends by request-timeout, all of them by three times that (and GitHub's waits), any when the job is cancelled.
    const bounded = boundedBy(req.signal, req.timeoutMs, 3)
    const marker = markerOf(req.identity)
    const mine = await authorTest(octokit, bounded)
    const body = withinLimit(marker, req.markdown, 'The result is too long for a comment')
    // Page by page (Octokit's paginate.iterator drops the per-request signal): until the marker or the last page.
    let existing: number | undefined
    for (let page = 1; page <= MAX_PAGES && existing === undefined; page++) {
      const listed = await octokit.rest.issues.listComments({
        owner,
        repo,
        issue_number: number,
        per_page: 100,
        page,
        request: bounded()
      })
      // Only a comment this token wrote: anyone can post a comment that starts with the marker.
      existing = listed.data.find(comment => holdsMarker(comment.body, marker) && mine(comment.user))?.id
      if (!/rel="next"/.test(listed.headers.link ?? '')) break
    }
    const create = async () =>
      (await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: bounded() })).data
    let written: { html_url: string }
    let edited = existing !== undefined
    try {
      written =
        existing === undefined
          ? await create()
          : (await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing, body, request: bounded() }))
              .data
    } catch (error) {
      // The comment found is not ours to edit after all (GitHub says so): post a new one rather than none.
      const status = (error as GitHubError).status
      if (existing === undefined || !(status === 403 || status === 404 || status === 422)) throw error
      req.log.info(`pr-comment: GitHub refused to edit comment ${existing} (HTTP ${status}); posting a new one.`)
      written = await create()
      edited = false
    }
    req.log.info(`pr-comment: ${edited ? 'updated' : 'wrote'} ${written.html_url}`)
    return written.html_url
  } catch (error) {
    req.log.warning(failureWarning(SUBJECT, failureOf(error, req.signal, req.timeoutMs)))
    return undefined
  }
}
