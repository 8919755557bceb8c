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
  RunStamp,
  authorTest,
  boundedBy,
  failureOf,
  failureWarning,
  holdsMarker,
  laterRun,
  markerOf,
  oursAfterMaking,
  stampIn,
  stampLine,
  withinLimit
} from './sticky.js'

export { MARKER_BYTES, STAMP_BYTES, markerOf } from './sticky.js'

/** The events that have a pull request to comment on. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target']
/** Pages of comments looked through for the marker (100 a page). */
const MAX_PAGES = 50

export interface CommentRequest {
  /** GitHub token (github-token input). */
  token: string | undefined
  /** What makes this step's comment its own: workflow, job, operation, target. */
  identity: string[]
  /** Which run this is: of racing runs, the comment keeps the latest one's result. */
  stamp: RunStamp
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

type Comment = { id: number; body?: string; html_url: string }

const SUBJECT = {
  label: 'pr-comment',
  thing: 'the comment',
  permission:
    'The token may not write to this pull request: give the job "permissions: pull-requests: write"; a pull request from a fork gets a read-only token (comment from a pull_request_target or workflow_run job instead).'
}

/**
 * Create or update the step's comment on the pull request; its URL, or
 * undefined when there is none (another event, no token, GitHub refused).
 * One comment, also when runs race: after creating its comment a run lists
 * them again and keeps the oldest of its own, which ends with the latest
 * run's result (sticky.ts RunStamp); the others it made are deleted.
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
    // Each attempt ends by request-timeout, all the calls by six times that (and GitHub's waits), any when the job is cancelled.
    const bounded = boundedBy(req.signal, req.timeoutMs, 6)
    const marker = markerOf(req.identity)
    const mine = await authorTest(octokit, bounded)
    const body = withinLimit(`${marker}\n${stampLine(req.stamp)}`, req.markdown, 'The result is too long for a comment')
    /** Every comment of ours with the marker, oldest first (page by page: Octokit's paginate.iterator drops the per-request signal). */
    const listOurs = async (): Promise<Comment[]> => {
      const ours: Comment[] = []
      for (let page = 1; page <= MAX_PAGES; page++) {
        const listed = await octokit.rest.issues.listComments({
          owner,
          repo,
          issue_number: number,
          per_page: 100,
          page,
          request: bounded()
        })
        // Only a comment this token wrote: anyone can post a comment that starts with the marker.
        ours.push(...listed.data.filter(comment => holdsMarker(comment.body, marker) && mine(comment.user)))
        if (!/rel="next"/.test(listed.headers.link ?? '')) break
      }
      return ours.sort((a, b) => a.id - b.id)
    }
    const create = async (): Promise<Comment> =>
      (await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: bounded() })).data

    let ours = await listOurs()
    let made: Comment | undefined
    if (ours.length === 0) {
      made = await create()
      // Racing runs may have created one each at the same time: every run keeps the oldest.
      ours = await oursAfterMaking(made, listOurs, c => c.id, bounded().signal)
    }
    const [kept, ...others] = ours
    // The kept comment shows the latest run's result: this run's, or the one a later run wrote in another of ours.
    let latest = { body, stamp: req.stamp }
    for (const comment of ours) {
      const stamp = stampIn(comment.body)
      if (stamp && laterRun(stamp, latest.stamp)) latest = { body: comment.body ?? '', stamp }
    }
    let url = kept.html_url
    if (kept.body !== latest.body) {
      try {
        await octokit.rest.issues.updateComment({
          owner,
          repo,
          comment_id: kept.id,
          body: latest.body,
          request: bounded()
        })
        req.log.info(`pr-comment: ${kept.id === made?.id ? 'wrote' : 'updated'} ${kept.html_url}`)
      } catch (error) {
        // The comment found is not ours to edit after all (GitHub says so): post a new one rather than none.
        const status = (error as GitHubError).status
        if (!(status === 403 || status === 404 || status === 422)) throw error
        req.log.info(`pr-comment: GitHub refused to edit comment ${kept.id} (HTTP ${status}); posting a new one.`)
        url = (await create()).html_url
        req.log.info(`pr-comment: wrote ${url}`)
        return url
      }
    } else if (kept.id === made?.id) {
      req.log.info(`pr-comment: wrote ${kept.html_url}`)
    } else {
      const by =
        latest.body === body ? 'this run' : `a later run (${latest.stamp.runId}, attempt ${latest.stamp.attempt})`
      req.log.info(`pr-comment: ${kept.html_url} already shows the result of ${by}; left as it is.`)
    }
    // The others are ours too (a racing run's, or one left by a run that stopped): deleted, the kept one is the comment.
    for (const other of others) {
      try {
        await octokit.rest.issues.deleteComment({ owner, repo, comment_id: other.id, request: bounded() })
        req.log.info(
          `pr-comment: deleted ${other.html_url}, a second comment of this step (a racing run's, or one left by a run that stopped); the comment is ${url}`
        )
      } catch (error) {
        // Another run deleted it first: as good.
        if ((error as GitHubError).status === 404) continue
        const { said } = failureOf(error, req.signal, req.timeoutMs)
        req.log.warning(
          `pr-comment: ${other.html_url}, a second comment of this step, could not be deleted (${said}); the comment is ${url}.`
        )
      }
    }
    return url
  } catch (error) {
    req.log.warning(failureWarning(SUBJECT, failureOf(error, req.signal, req.timeoutMs)))
    return undefined
  }
}
