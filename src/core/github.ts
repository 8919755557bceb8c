/**
 * The step's GitHub side, behind one object: the job's page (for an
 * incident's `{job_url}`) and the pull-request comment. Both go through
 * src/github/ (Octokit), only when asked, and never fail the step.
 */
import type { Config } from '../run/config.js'
import { OperationName, entryOf } from '../operations/registry.js'
import type { Summary } from '../operations/types.js'
import type { ActionLog } from '../report/log.js'
import { PR_COMMENT, markdownValue, renderSummary } from '../report/summary.js'
import { redact } from '../secrets/secrets.js'
import { findJobUrl } from '../github/job-url.js'
import { keepDriftIssue } from '../github/drift-issue.js'
import { waitsEndBy } from '../github/limits.js'
import { MARKER_BYTES, STAMP_BYTES, commentOnPullRequest } from '../github/pr-comment.js'
import { APPLIES_TO } from '../inputs/warnings.js'
import type { RunContext } from '../run/run-context.js'

export interface GitHubSide {
  /** The job's page on GitHub: asked once, and only when something wants it. */
  jobUrl: () => Promise<string | undefined>
  /** pr-comment: `summary` as the one sticky comment of this step; its URL, or undefined when none was written. */
  comment: (summary: Summary) => Promise<string | undefined>
  /** drift-issue: keep the one drift issue of this workflow and checks file; its URL, or undefined. */
  driftIssue: (summary: Summary, drift: boolean, failed: boolean) => Promise<string | undefined>
}

export interface GitHubFacts {
  config: Config<OperationName>
  env: NodeJS.ProcessEnv
  runContext: () => Promise<RunContext>
  log: ActionLog
  signal: AbortSignal
  /** The step's secrets (growing), redacted from the comment. */
  secrets: string[]
  /** When the step started: its `timeout` counts from then. */
  startedAt: number
}

export function gitHubSide(facts: GitHubFacts): GitHubSide {
  let jobUrl: Promise<string | undefined> | undefined
  const { config, env, log, signal } = facts
  // Every wait for GitHub ends within a minute of the step's first call, and by the step's timeout where it has one.
  const deadline = APPLIES_TO.timeout?.includes(config.operation) ? facts.startedAt + config.timeoutMs : undefined
  let endBy: number | undefined
  const waits = { waitsEndBy: () => (endBy ??= waitsEndBy(Date.now(), deadline)) }
  return {
    jobUrl: () =>
      (jobUrl ??= findJobUrl({
        token: config.githubToken,
        env,
        signal,
        timeoutMs: config.requestTimeoutMs,
        log,
        ...waits
      })),
    comment: summary => pullRequestComment({ ...facts, ...waits }, summary),
    driftIssue: (summary, drift, failed) => driftIssue({ ...facts, ...waits }, summary, drift, failed)
  }
}

type Waits = { waitsEndBy: () => number }

/** A link to the run, in words a person reads (the workflow's name as a Markdown value): "the Deploy run". */
function runLink(run: RunContext, secrets: readonly string[]): string {
  const name = markdownValue(run.workflow || 'the workflow', secrets, 1024)
  return run.runUrl ? `[${name} run](${encodeURI(run.runUrl).replace(/\)/g, '%29')})` : `${name} run`
}

/**
 * drift-issue: the plan as the body of one issue, opened or updated while
 * the service differs from the checks file, closed when it does not.
 */
async function driftIssue(
  facts: GitHubFacts & Waits,
  summary: Summary,
  drift: boolean,
  failed: boolean
): Promise<string | undefined> {
  const { config, env, log, signal, secrets } = facts
  if (signal.aborted) return undefined
  const run = await facts.runContext()
  const file = config.checksFile ?? ''
  const where = `the checks file \`${file.replace(/`/g, "'")}\``
  const api = markdownValue(config.baseUrl, secrets, 2048)
  const seen = `The monitoring service (${api}) differs from ${where}, as found by the ${runLink(run, secrets)}.`
  const intro = config.dryRun
    ? `${seen} Run sync-checks to put the file's values back, or change the file to keep the service's. This issue is updated while the drift lasts and closed when it is gone.\n\n`
    : failed
      ? `${seen} Its sync did not apply the whole plan (refused, or stopped half-way: see each change's outcome below), so the drift may remain. This issue is closed when a sync finds no drift.\n\n`
      : `The monitoring service (${api}) differed from ${where} when the ${runLink(run, secrets)} planned the sync below, which then put the file's values back. Someone or something changed the service outside the file: change the file to keep such a change. This issue is closed when a sync finds no drift.\n\n`
  const footer = `\n<sub>Written by the ${runLink(run, secrets)}.</sub>\n`
  const room = PR_COMMENT.maxBytes - Buffer.byteLength(intro) - Buffer.byteLength(footer) - MARKER_BYTES
  return keepDriftIssue({
    token: config.githubToken,
    identity: ['drift-issue', env.GITHUB_WORKFLOW ?? '', file, config.baseUrl],
    title: redact(`Monitoring drift: ${file}`, secrets),
    drift,
    // Every value is redacted as it goes in; the whole once more, in the form it is written (escaped, defused).
    markdown: redact(
      intro + renderSummary(summary, config.operation, secrets, { ...PR_COMMENT, maxBytes: room }) + footer,
      secrets
    ),
    closing: redact(
      `No drift any more: the service matches \`${file.replace(/`/g, "'")}\` again, as found by the ${runLink(run, secrets)}. Closing.`,
      secrets
    ),
    log,
    signal,
    timeoutMs: config.requestTimeoutMs,
    waitsEndBy: facts.waitsEndBy,
    env
  })
}

/**
 * pr-comment: the step's summary as one sticky comment on the pull request
 * (sync-checks' plan, the gate's result), written whatever the outcome so the
 * reviewer sees a refusal too. Never fails the step.
 */
async function pullRequestComment(facts: GitHubFacts & Waits, summary: Summary): Promise<string | undefined> {
  const { config, env, log, signal, secrets } = facts
  const target = entryOf(config.operation).commentTarget
  if (!target) {
    log.warning(`pr-comment applies to sync-checks and wait-for-check, not ${config.operation}; no comment written.`)
    return undefined
  }
  if (signal.aborted) return undefined
  const run = await facts.runContext()
  const footer = run.runUrl ? `\n<sub>Written by ${runLink(run, secrets)}.</sub>\n` : ''
  // GitHub counts the whole body against its 65,536 characters: the marker, the run's stamp and the footer too.
  const room = PR_COMMENT.maxBytes - Buffer.byteLength(footer) - MARKER_BYTES - STAMP_BYTES
  return commentOnPullRequest({
    token: config.githubToken,
    // The API too: matrix legs of one job that sync one file to two services keep a comment each.
    identity: [env.GITHUB_WORKFLOW ?? '', env.GITHUB_JOB ?? '', config.operation, target(config), config.baseUrl],
    stamp: {
      runId: Number(env.GITHUB_RUN_ID ?? 0),
      attempt: Number(env.GITHUB_RUN_ATTEMPT ?? 0),
      startedAt: facts.startedAt
    },
    markdown: redact(
      renderSummary(summary, config.operation, secrets, { ...PR_COMMENT, maxBytes: room }) + footer,
      secrets
    ),
    log,
    signal,
    timeoutMs: config.requestTimeoutMs,
    waitsEndBy: facts.waitsEndBy,
    env
  })
}
