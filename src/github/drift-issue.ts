/**
 * One GitHub issue about drift (sync-checks with drift-issue): opened with
 * the plan when the service differs from the checks file, updated in place
 * while it does, reopened when drift comes back, closed with a short comment
 * when the plan is empty again. Found again by a hidden marker (the
 * workflow, the checks file, the API), and only an issue this token wrote
 * counts. Shares the comment's machinery (sticky.ts); never fails the step.
 */
import { gitHubFor } from './octokit.js'
import type { Logger } from '../api/types.js'
import { GitHubError, authorTest, boundedBy, failureOf, markerOf, withinLimit } from './sticky.js'

/** Pages of the repository's issues looked through for the marker (100 a page, recently updated first). */
const MAX_PAGES = 10

export interface DriftIssueRequest {
  token: string | undefined
  /** What makes this drift issue its own: the workflow, the checks file, the API. */
  identity: string[]
  /** The issue's title (plain text). */
  title: string
  /** Drift now: the plan creates, updates or deletes something. */
  drift: boolean
  /** The issue's body below the marker (Markdown, already escaped and capped). */
  markdown: string
  /** The comment that closes it (Markdown). */
  closing: string
  log: Logger
  signal: AbortSignal
  timeoutMs: number
  env: NodeJS.ProcessEnv
}

type Found = { number: number; state: string; html_url: string }

/** Open, update, reopen or close the drift issue; its URL, or undefined when none was touched. */
export async function keepDriftIssue(req: DriftIssueRequest): Promise<string | undefined> {
  if (!req.token) {
    req.log.warning(
      'drift-issue: github-token is empty; no issue written. Leave github-token at its default (the job token).'
    )
    return undefined
  }
  try {
    const { github, octokit } = await gitHubFor(req.token, req.env)
    const { owner, repo } = github.context.repo
    const bounded = boundedBy(req.signal, req.timeoutMs, 4 + MAX_PAGES)
    const marker = markerOf(req.identity)
    const mine = await authorTest(octokit, bounded)
    let found: Found | undefined
    for (let page = 1; page <= MAX_PAGES && found === undefined; page++) {
      const listed = await octokit.rest.issues.listForRepo({
        owner,
        repo,
        state: 'all',
        sort: 'updated',
        direction: 'desc',
        per_page: 100,
        page,
        request: bounded()
      })
      // Pull requests are issues too; only an issue this token wrote, with the marker, is ours.
      found = listed.data.find(i => !i.pull_request && i.body?.startsWith(marker) && mine(i.user))
      if (!/rel="next"/.test(listed.headers.link ?? '')) break
    }
    const title = req.title.replace(/[\r\n\u2028\u2029]+/g, ' ')
    if (!req.drift) {
      if (!found || found.state !== 'open') {
        req.log.info('drift-issue: no drift, and no open drift issue: nothing to do.')
        return found?.html_url
      }
      await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: found.number,
        body: req.closing,
        request: bounded()
      })
      await octokit.rest.issues.update({
        owner,
        repo,
        issue_number: found.number,
        state: 'closed',
        state_reason: 'completed',
        request: bounded()
      })
      req.log.info(`drift-issue: no drift any more; closed ${found.html_url}`)
      return found.html_url
    }
    const body = withinLimit(marker, req.markdown, 'The plan is too long for an issue')
    const create = async () =>
      (await octokit.rest.issues.create({ owner, repo, title, body, request: bounded() })).data.html_url
    if (!found) {
      const url = await create()
      req.log.info(`drift-issue: opened ${url}`)
      return url
    }
    try {
      const reopen = found.state !== 'open'
      await octokit.rest.issues.update({
        owner,
        repo,
        issue_number: found.number,
        title,
        body,
        ...(reopen ? { state: 'open' as const } : {}),
        request: bounded()
      })
      req.log.info(`drift-issue: ${reopen ? 'drift is back; reopened' : 'updated'} ${found.html_url}`)
      return found.html_url
    } catch (error) {
      // Not ours to edit after all (GitHub says so): open a new one rather than none.
      const status = (error as GitHubError).status
      if (!(status === 403 || status === 404 || status === 410 || status === 422)) throw error
      req.log.info(`drift-issue: GitHub refused to edit issue #${found.number} (HTTP ${status}); opening a new one.`)
      const url = await create()
      req.log.info(`drift-issue: opened ${url}`)
      return url
    }
  } catch (error) {
    const { said, refused } = failureOf(error, req.signal, req.timeoutMs)
    req.log.warning(
      refused
        ? `drift-issue: GitHub refused the issue (${said}). Give the job "permissions: issues: write" (and make sure issues are enabled for the repository). The step goes on.`
        : `drift-issue: the issue could not be written (${said}). The step goes on.`
    )
    return undefined
  }
}
