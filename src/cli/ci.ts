/**
 * The CI the command runs in, and the run's facts for incident text and
 * `{placeholders}`. Under GitHub Actions, the facts the action reads (the
 * runner's GITHUB_* variables). Elsewhere, env-ci's reading of that CI's
 * variables (some thirty CIs: commit, branch or tag, the pipeline and its
 * page, the job and its page, the project), loaded only when a fact is
 * asked for. Outside any CI every fact is empty, and the text says so.
 */
import type { CiFound } from 'env-ci'
import { loadRunContext } from '../github/run-facts.js'
import type { RunContext } from '../run/run-context.js'

export const isGitHubActions = (env: NodeJS.ProcessEnv): boolean => env.GITHUB_ACTIONS === 'true'

/** What env-ci finds in `env` (never asking git: a run outside any CI has no facts). */
async function found(env: NodeJS.ProcessEnv): Promise<CiFound | undefined> {
  const { default: envCi } = await import('env-ci')
  // env-ci falls back to git's own answers when no CI's variables are set: that is no CI.
  const ci = envCi({ env, cwd: process.cwd() })
  return ci.service ? ci : undefined
}

/** The name of the CI the command runs in ('' outside any CI). */
export async function ciName(env: NodeJS.ProcessEnv): Promise<string> {
  if (isGitHubActions(env)) return 'GitHub Actions'
  return (await found(env))?.name ?? ''
}

/**
 * The name of the pipeline (the workflow's counterpart) and of the job, from
 * the variables each CI documents for them (env-ci reads ids and pages, not
 * names); the CI's own name when it has none.
 */
const NAMES: Record<string, { pipeline?: string; job?: string }> = {
  gitlab: { pipeline: 'CI_PIPELINE_NAME', job: 'CI_JOB_NAME' },
  jenkins: { pipeline: 'JOB_NAME', job: 'STAGE_NAME' },
  circleci: { pipeline: 'CIRCLE_PROJECT_REPONAME', job: 'CIRCLE_JOB' },
  buildkite: { pipeline: 'BUILDKITE_PIPELINE_SLUG', job: 'BUILDKITE_LABEL' },
  azurePipelines: { pipeline: 'BUILD_DEFINITIONNAME', job: 'SYSTEM_JOBDISPLAYNAME' },
  bitbucket: { pipeline: 'BITBUCKET_REPO_SLUG', job: 'BITBUCKET_STEP_UUID' }
}

const EMPTY: RunContext = {
  workflow: '',
  job: '',
  repository: '',
  ref: '',
  refName: '',
  sha: '',
  shortSha: '',
  runId: '',
  runNumber: '',
  runAttempt: '',
  actor: '',
  eventName: '',
  serverUrl: '',
  runUrl: '',
  commitUrl: ''
}

/** The run's facts: the action's under GitHub Actions, env-ci's in another CI, none outside any CI. */
export async function runFactsOf(env: NodeJS.ProcessEnv): Promise<RunContext & { jobUrl?: string }> {
  if (isGitHubActions(env)) return loadRunContext(env)
  const ci = await found(env)
  if (!ci) return { ...EMPTY, ci: '' }
  const names = NAMES[ci.service ?? ''] ?? {}
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')
  const sha = text(ci.commit)
  const tag = text(ci.tag)
  // A pull request's branch is its source; the target is where it merges.
  const branch = text(ci.isPr ? (ci.prBranch ?? ci.branch) : ci.branch)
  const pageOk = (url: string) => (/^https?:\/\/[^/]+\/?.*$/.test(url) && !/undefined/.test(url) ? url : '')
  return {
    ...EMPTY,
    ci: text(ci.name),
    workflow: (names.pipeline && env[names.pipeline]) || text(ci.name),
    job: (names.job && env[names.job]) || text(ci.job),
    repository: text(ci.slug),
    ref: tag ? `refs/tags/${tag}` : branch ? `refs/heads/${branch}` : '',
    refName: tag || branch,
    sha,
    shortSha: sha.slice(0, 7),
    runId: text(ci.build),
    runNumber: text(ci.build),
    eventName: ci.isPr ? 'pull_request' : '',
    runUrl: pageOk(text(ci.buildUrl)) || pageOk(text(ci.jobUrl)),
    jobUrl: pageOk(text(ci.jobUrl)) || pageOk(text(ci.buildUrl))
  }
}
