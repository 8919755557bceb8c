/**
 * The step's GitHub side, behind one object: the job's page (for an
 * incident's `{job_url}`) and the pull-request comment. Both go through
 * src/github/ (Octokit), only when asked, and never fail the step.
 */
import type { Config } from '../config.js'
import { OperationName, entryOf } from '../operations/registry.js'
import type { Summary } from '../operations/types.js'
import type { ActionLog } from '../report/log.js'
import { PR_COMMENT, renderSummary } from '../report/summary.js'
import { defused, markdownText } from '../report/text.js'
import { findJobUrl } from '../github/job-url.js'
import { MARKER_BYTES, commentOnPullRequest } from '../github/pr-comment.js'
import type { RunContext } from '../run-context.js'

export interface GitHubSide {
  /** The job's page on GitHub: asked once, and only when something wants it. */
  jobUrl: () => Promise<string | undefined>
  /** pr-comment: `summary` as the one sticky comment of this step; its URL, or undefined when none was written. */
  comment: (summary: Summary) => Promise<string | undefined>
}

export interface GitHubFacts {
  config: Config<OperationName>
  env: NodeJS.ProcessEnv
  runContext: () => Promise<RunContext>
  log: ActionLog
  signal: AbortSignal
  /** The step's secrets (growing), redacted from the comment. */
  secrets: string[]
}

export function gitHubSide(facts: GitHubFacts): GitHubSide {
  let jobUrl: Promise<string | undefined> | undefined
  const { config, env, log, signal } = facts
  return {
    jobUrl: () =>
      (jobUrl ??= findJobUrl({ token: config.githubToken, env, signal, timeoutMs: config.requestTimeoutMs, log })),
    comment: summary => pullRequestComment(facts, summary)
  }
}

/**
 * pr-comment: the step's summary as one sticky comment on the pull request
 * (sync-checks' plan, the gate's result), written whatever the outcome so the
 * reviewer sees a refusal too. Never fails the step.
 */
async function pullRequestComment(facts: GitHubFacts, summary: Summary): Promise<string | undefined> {
  const { config, env, log, signal, secrets } = facts
  const target = entryOf(config.operation).commentTarget
  if (!target) {
    log.warning(`pr-comment applies to sync-checks and wait-for-check, not ${config.operation}; no comment written.`)
    return undefined
  }
  if (signal.aborted) return undefined
  const run = await facts.runContext()
  const footer = run.runUrl
    ? `\n<sub>Written by [${defused(markdownText(run.workflow || 'the workflow'))} run](${encodeURI(run.runUrl).replace(/\)/g, '%29')}).</sub>\n`
    : ''
  // GitHub counts the whole body against its 65,536 characters: the marker and the footer too.
  const room = PR_COMMENT.maxBytes - Buffer.byteLength(footer) - MARKER_BYTES
  return commentOnPullRequest({
    token: config.githubToken,
    // The API too: matrix legs of one job that sync one file to two services keep a comment each.
    identity: [env.GITHUB_WORKFLOW ?? '', env.GITHUB_JOB ?? '', config.operation, target(config), config.baseUrl],
    markdown: renderSummary(summary, config.operation, secrets, { ...PR_COMMENT, maxBytes: room }) + footer,
    log,
    signal,
    timeoutMs: config.requestTimeoutMs,
    env
  })
}
