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
  stampIn,
  stampLine,
  withinLimit
} from './sticky.js'
import { keepOne, refusalOf } from './keep-one.js'

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
 * One comment, also when runs race or GitHub refuses an edit (sticky.ts
 * keepOne): the one kept ends with the latest run's result (sticky.ts
 * RunStamp); the others it made are deleted, or edited into a pointer.
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
    const edit = (comment: Comment, text: string) =>
      octokit.rest.issues.updateComment({ owner, repo, comment_id: comment.id, body: text, request: bounded() })

    const kept = await keepOne<Comment>({
      label: 'pr-comment',
      noun: 'comment',
      idOf: comment => comment.id,
      nameOf: comment => comment.html_url,
      listOurs,
      make: create,
      // The kept comment shows the latest run's result: this run's, or the one a later run wrote in another of ours.
      update: async (comment, ours, made) => {
        let latest = { body, stamp: req.stamp }
        for (const one of ours) {
          const stamp = stampIn(one.body)
          if (stamp && laterRun(stamp, latest.stamp)) latest = { body: one.body ?? '', stamp }
        }
        if (comment.body !== latest.body) {
          await edit(comment, latest.body)
          req.log.info(`pr-comment: ${comment.id === made?.id ? 'wrote' : 'updated'} ${comment.html_url}`)
        } else if (comment.id === made?.id) {
          req.log.info(`pr-comment: wrote ${comment.html_url}`)
        } else {
          const by =
            latest.body === body ? 'this run' : `a later run (${latest.stamp.runId}, attempt ${latest.stamp.attempt})`
          req.log.info(`pr-comment: ${comment.html_url} already shows the result of ${by}; left as it is.`)
        }
      },
      retired: () => false,
      // Another of ours (a racing run's, one left by a run that stopped, one GitHub would not edit): deleted,
      // or, where GitHub refuses that, edited into a pointer without the marker, which no run finds again.
      retire: async (other, keeping) => {
        try {
          await octokit.rest.issues.deleteComment({ owner, repo, comment_id: other.id, request: bounded() })
          return `deleted ${other.html_url}, a second comment of this step; the comment is ${keeping.html_url}`
        } catch (error) {
          const said = refusalOf(error)
          if (said === undefined || (error as GitHubError).status === 404) throw error
          await edit(other, `This step's comment is now ${keeping.html_url}.`)
          return `GitHub refused to delete ${other.html_url} (${said}); it now points to ${keeping.html_url}`
        }
      },
      retiring: 'deleted or edited into a pointer',
      log: req.log,
      signal: bounded().signal,
      timeoutMs: req.timeoutMs
    })
    return kept.html_url
  } catch (error) {
    req.log.warning(failureWarning(SUBJECT, failureOf(error, req.signal, req.timeoutMs)))
    return undefined
  }
}
