/**
 * The run's facts, whatever the CI: for incident text, `{placeholders}` and
 * summaries. GitHub Actions is one CI among others: the step reads its facts
 * from the runner (github/run-facts.ts); the command reads them there under
 * GitHub Actions, from another CI's variables elsewhere (cli/ci.ts), and
 * has none outside any CI (every fact empty).
 */

export interface RunContext {
  /** The workflow, or another CI's pipeline (its name; the CI's own name when it has none). */
  workflow: string
  /** The job, as the CI names it. */
  job: string
  /** The repository or project (`owner/name`). */
  repository: string
  /** The full ref (`refs/heads/main`, `refs/tags/v1`). */
  ref: string
  /** The branch or tag name (the ref without refs/heads/ or refs/tags/). */
  refName: string
  sha: string
  shortSha: string
  /** The run's (or pipeline's) id. */
  runId: string
  runNumber: string
  runAttempt: string
  /** Who started the run, where the CI says. */
  actor: string
  /** What started it (`push`, `pull_request`), where the CI says. */
  eventName: string
  /** The CI's server, where a page of the run is built from it (GitHub's, GitHub Enterprise Server's). */
  serverUrl: string
  /** Link to the run: built from the server URL under GitHub Actions; another CI's pipeline or job page. */
  runUrl: string
  commitUrl: string
  /** The CI the run is in, when not GitHub Actions (its name; '' outside any CI); absent under GitHub Actions. */
  ci?: string
}
