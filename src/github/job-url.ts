/**
 * `{job_url}`: the job's own page. The runner does not say which job it is
 * running, but a runner runs one job at a time: the job of this run attempt
 * that is in progress on this runner (RUNNER_NAME) is this one. Found through
 * the GitHub API with the job's token (`actions: read`); when that cannot be
 * done (no token, no permission, no answer in time) the run's page is used.
 */
import { deadline, gitHubFor } from './octokit.js'
import type { Logger } from '../api/types.js'

export interface JobUrlRequest {
  token: string | undefined
  env: NodeJS.ProcessEnv
  signal: AbortSignal
  timeoutMs: number
  /** When every wait for GitHub (a rate limit, a 5xx) must have ended; this lookup also ends within request-timeout in all. */
  waitsEndBy: () => number
  log: Logger
}

export async function findJobUrl(req: JobUrlRequest): Promise<string | undefined> {
  const { RUNNER_NAME, GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT, GITHUB_REPOSITORY, GITHUB_API_URL } = req.env
  if (!req.token || !RUNNER_NAME || !GITHUB_RUN_ID || !GITHUB_REPOSITORY?.includes('/') || !GITHUB_API_URL) {
    const unset = Object.entries({ 'github-token': req.token, RUNNER_NAME, GITHUB_RUN_ID, GITHUB_API_URL })
      .filter(([, value]) => !value)
      .map(([name]) => name)
    if (!GITHUB_REPOSITORY?.includes('/')) unset.push('GITHUB_REPOSITORY (owner/repo)')
    req.log.debug(
      `{job_url}: ${unset.join(', ')} not set, so this job's page cannot be asked for; the run's page is used`
    )
    return undefined
  }
  // All pages (a big matrix has more than 100 jobs), within one request-timeout in all.
  const lookup = deadline(req.timeoutMs, req.signal)
  try {
    const { octokit } = await gitHubFor(req.token, req.env, {
      timeoutMs: req.timeoutMs,
      waitsEndBy: req.waitsEndBy,
      log: req.log,
      label: '{job_url}'
    })
    const [owner, repo] = GITHUB_REPOSITORY.split('/')
    const { signal } = lookup
    const matches: Array<{ html_url: string | null }> = []
    for (let page = 1; page <= 10; page++) {
      const { data } = await octokit.rest.actions.listJobsForWorkflowRunAttempt({
        owner,
        repo,
        run_id: Number(GITHUB_RUN_ID),
        attempt_number: Number(GITHUB_RUN_ATTEMPT || 1),
        per_page: 100,
        page,
        request: { signal }
      })
      matches.push(...data.jobs.filter(j => j.runner_name === RUNNER_NAME && j.status === 'in_progress'))
      if (data.jobs.length < 100) break
    }
    // Only one job in progress on this runner can be this one; otherwise the run's page.
    if (matches.length !== 1 || !matches[0].html_url) {
      req.log.debug(`{job_url}: ${matches.length} jobs in progress on runner ${RUNNER_NAME}; the run's page is used`)
      return undefined
    }
    return matches[0].html_url
  } catch (error) {
    const { status, message } = error as { status?: number; message?: string }
    req.log.debug(
      `{job_url}: the job's page could not be found (${status ? `HTTP ${status}: ` : ''}${message ?? 'no answer'}; it needs permissions: actions: read); the run's page is used`
    )
    return undefined
  } finally {
    lookup.end()
  }
}
