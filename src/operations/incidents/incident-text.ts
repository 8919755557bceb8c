/** The text of incidents the action writes: the run's facts, in a user's message or in the action's own. */
import type { RunContext } from '../../run/run-context.js'

/** The placeholders a user's incident text may hold. */
export const PLACEHOLDERS = [
  'workflow',
  'job',
  'repository',
  'ref',
  'ref_name',
  'sha',
  'short_sha',
  'run_id',
  'run_number',
  'run_attempt',
  'run_url',
  'job_url',
  'actor',
  'event'
]

/**
 * Replace `{workflow}`, `{repository}`, `{run_url}`... in a user's text with
 * facts of the run. `{job_url}` is the job's own page when it was found
 * (`jobUrl`), else the run's.
 */
export function fillRunFacts(text: string, run: RunContext, jobUrl?: string): string {
  const facts: Record<string, string> = {
    workflow: run.workflow,
    job: run.job,
    repository: run.repository,
    ref: run.ref,
    ref_name: run.refName,
    job_url: jobUrl || run.runUrl,
    sha: run.sha,
    short_sha: run.shortSha,
    run_id: run.runId,
    run_number: run.runNumber,
    run_attempt: run.runAttempt,
    run_url: run.runUrl,
    actor: run.actor,
    event: run.eventName
  }
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (name in facts ? facts[name] : whole))
}

/** The message of an incident opened by a failing run. */
export function failureMessage(run: RunContext): string {
  const where = [
    run.workflow ? `Workflow "${run.workflow}"` : run.ci === '' ? 'A run outside any CI' : 'A workflow',
    run.job ? `(job ${run.job})` : '',
    'failed',
    run.repository ? `in ${run.repository}` : '',
    run.ref ? `on ${run.ref}` : '',
    run.shortSha ? `at commit ${run.shortSha}` : ''
  ]
    .filter(Boolean)
    .join(' ')
  const attempt = run.runAttempt ? `, run attempt ${run.runAttempt}` : ''
  return `${where}${attempt}.${run.runUrl ? ` Run: ${run.runUrl}` : ''}`
}

/** The message of an incident resolved by a recovering run. */
export function resolvedMessage(run: RunContext): string {
  const by = [
    run.workflow ? `workflow "${run.workflow}"` : run.ci === '' ? 'a run outside any CI' : 'a workflow',
    run.repository ? `in ${run.repository}` : '',
    run.ref ? `on ${run.ref}` : '',
    run.shortSha ? `at commit ${run.shortSha}` : ''
  ]
    .filter(Boolean)
    .join(' ')
  return `Resolved: ${by} succeeded${run.runAttempt ? ` (run attempt ${run.runAttempt})` : ''}.${run.runUrl ? ` Run: ${run.runUrl}` : ''}`
}
