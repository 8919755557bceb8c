/**
 * The run's facts under GitHub Actions (run/run-context.ts: the facts, whatever
 * the CI), for incident text and summaries. Read from `@actions/github`'s
 * context (the runner's GITHUB_* variables).
 */
import type * as github from '@actions/github'
import { getProxyUrl } from '@actions/http-client'
import { load } from '../lazy/modules.cjs'
import type { RunContext } from '../run/run-context.js'

type ContextLike = Pick<
  typeof github.context,
  'workflow' | 'job' | 'ref' | 'sha' | 'runId' | 'runNumber' | 'runAttempt' | 'actor' | 'eventName' | 'serverUrl'
>

/**
 * The run's facts under GitHub Actions. `@actions/github` (and its Octokit) is loaded only when an
 * operation asks for them, which keeps every other step's start-up fast.
 */
export async function loadRunContext(env: NodeJS.ProcessEnv = process.env): Promise<RunContext> {
  const { context } = await importGithub(env)
  return runContextOf(context, env)
}

/**
 * `@actions/github`, a chunk of its own. Its import builds Octokit's fetch for
 * the GitHub API, which reads undici's ProxyAgent when a proxy applies to that
 * URL: undici is loaded first then, and only then (evaluating it costs about
 * as much as the rest of the start).
 */
export async function importGithub(env: NodeJS.ProcessEnv = process.env): Promise<typeof github> {
  if (getProxyUrl(env.GITHUB_API_URL || 'https://api.github.com')) await load('undici')
  return import('@actions/github')
}

export function runContextOf(ctx: ContextLike, env: NodeJS.ProcessEnv = process.env): RunContext {
  const serverUrl = (ctx.serverUrl || env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  const repository = env.GITHUB_REPOSITORY ?? ''
  const runId = ctx.runId ? String(ctx.runId) : ''
  const runAttempt = ctx.runAttempt ? String(ctx.runAttempt) : (env.GITHUB_RUN_ATTEMPT ?? '')
  const sha = ctx.sha ?? ''
  return {
    workflow: ctx.workflow ?? '',
    job: ctx.job ?? '',
    repository,
    ref: ctx.ref ?? '',
    refName: env.GITHUB_REF_NAME || (ctx.ref ?? '').replace(/^refs\/(heads|tags)\//, ''),
    sha,
    shortSha: sha.slice(0, 7),
    runId,
    runNumber: ctx.runNumber ? String(ctx.runNumber) : '',
    runAttempt,
    actor: ctx.actor ?? '',
    eventName: ctx.eventName ?? '',
    serverUrl,
    runUrl:
      repository && runId
        ? `${serverUrl}/${repository}/actions/runs/${runId}${runAttempt ? `/attempts/${runAttempt}` : ''}`
        : '',
    commitUrl: repository && sha ? `${serverUrl}/${repository}/commit/${sha}` : ''
  }
}
