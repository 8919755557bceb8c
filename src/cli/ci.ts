/**
 * The CI the command runs in, and the run's facts for incident text and
 * `{placeholders}`. Under GitHub Actions, the facts the action reads (the
 * runner's GITHUB_* variables); elsewhere none yet: every fact is empty.
 */
import { RunContext, loadRunContext } from '../run-context.js'

export interface CiFound {
  /** The CI's name (empty: none found). */
  name: string
  isGitHubActions: boolean
}

export function ciOf(env: NodeJS.ProcessEnv): CiFound {
  const isGitHubActions = env.GITHUB_ACTIONS === 'true'
  return { name: isGitHubActions ? 'GitHub Actions' : '', isGitHubActions }
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

/** The run's facts: the action's under GitHub Actions, else empty. */
export async function runFactsOf(env: NodeJS.ProcessEnv): Promise<RunContext> {
  return ciOf(env).isGitHubActions ? loadRunContext(env) : { ...EMPTY }
}
