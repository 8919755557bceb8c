/**
 * One GitHub issue about drift (sync-checks with drift-issue): opened with
 * the plan when the service differs from the checks file, updated in place
 * while it does, reopened when drift comes back, closed with a short comment
 * when the plan is empty again. Found again by a hidden marker (the
 * workflow, the checks file, the API) wherever it stands in the body (a
 * person's edit above or below it keeps it the one issue), and only an issue
 * this token wrote counts. Shares the comment's machinery (sticky.ts); never fails the step.
 */
import { gitHubFor } from './octokit.js'
import type { Logger } from '../api/types.js'
import { authorTest, boundedBy, failureOf, failureWarning, holdsMarker, markerOf, withinLimit } from './sticky.js'
import { type Writings, keepOne, tidy } from './keep-one.js'

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
  /** When every wait for GitHub (a rate limit, a 5xx) must have ended: a minute from the step's first call. */
  waitsEndBy: () => number
  env: NodeJS.ProcessEnv
}

const SUBJECT = {
  label: 'drift-issue',
  thing: 'the issue',
  permission: 'Give the job "permissions: issues: write" (and make sure issues are enabled for the repository).'
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
    const { github, octokit } = await gitHubFor(req.token, req.env, {
      timeoutMs: req.timeoutMs,
      waitsEndBy: req.waitsEndBy,
      log: req.log,
      label: 'drift-issue'
    })
    const { owner, repo } = github.context.repo
    const bounded = boundedBy(req.signal, req.timeoutMs, 2 * MAX_PAGES + 8)
    const marker = markerOf(req.identity)
    const mine = await authorTest(octokit, bounded)
    /** Every issue of ours with the marker, oldest first (racing runs may each have opened one). */
    const listOurs = async (): Promise<Found[]> => {
      const ours: Found[] = []
      for (let page = 1; page <= MAX_PAGES; page++) {
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
        ours.push(...listed.data.filter(i => !i.pull_request && holdsMarker(i.body, marker) && mine(i.user)))
        if (!/rel="next"/.test(listed.headers.link ?? '')) break
      }
      return ours.sort((a, b) => a.number - b.number)
    }
    /** Closes an issue (first, so a refused close posts nothing), then says why in a comment. */
    const close = async (issue: Found, reason: 'completed' | 'not_planned', comment: string) => {
      await octokit.rest.issues.update({
        owner,
        repo,
        issue_number: issue.number,
        state: 'closed',
        state_reason: reason,
        request: bounded()
      })
      await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: issue.number,
        body: comment,
        request: bounded()
      })
    }
    const title = req.title.replace(/[\r\n\u2028\u2029]+/g, ' ')
    const body = withinLimit(marker, req.markdown, 'The plan is too long for an issue')
    const writings: Writings<Found> = {
      label: 'drift-issue',
      noun: 'issue',
      idOf: issue => issue.number,
      nameOf: issue => issue.html_url,
      listOurs,
      make: async () => {
        const { data } = await octokit.rest.issues.create({ owner, repo, title, body, request: bounded() })
        req.log.info(`drift-issue: opened ${data.html_url}`)
        return { number: data.number, state: 'open', html_url: data.html_url }
      },
      // The one this run opened shows this run's plan already; any other is given it (and reopened).
      update: async (issue, _ours, made) => {
        if (issue.number === made?.number) return
        const reopen = issue.state !== 'open'
        await octokit.rest.issues.update({
          owner,
          repo,
          issue_number: issue.number,
          title,
          body,
          ...(reopen ? { state: 'open' as const } : {}),
          request: bounded()
        })
        req.log.info(`drift-issue: ${reopen ? 'drift is back; reopened' : 'updated'} ${issue.html_url}`)
      },
      retired: issue => issue.state !== 'open',
      // Another of ours still open (a racing run's, one left by a run that stopped, one GitHub would not edit).
      retire: async (other, kept) => {
        await close(other, 'not_planned', `Duplicate of #${kept.number}: the drift is tracked there.`)
        return `closed ${other.html_url} as a duplicate of #${kept.number}`
      },
      retiring: 'closed',
      log: req.log,
      signal: bounded().signal,
      timeoutMs: req.timeoutMs
    }
    if (req.drift) return (await keepOne(writings)).html_url
    // No drift: every open one of ours is closed, whichever is live; one GitHub will not close is a warning.
    const ours = await listOurs()
    const open = ours.filter(issue => issue.state === 'open')
    if (open.length === 0) {
      req.log.info('drift-issue: no drift, and no open drift issue: nothing to do.')
      return ours[0]?.html_url
    }
    const closed = await tidy(
      writings,
      open,
      async issue => {
        await close(issue, 'completed', req.closing)
        return `no drift any more; closed ${issue.html_url}`
      },
      undefined
    )
    return closed[0]?.html_url
  } catch (error) {
    req.log.warning(failureWarning(SUBJECT, failureOf(error, req.signal, req.timeoutMs)))
    return undefined
  }
}
