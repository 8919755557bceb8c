/**
 * A failure, told so a user can act on it: a hint where its one line
 * (core/message.ts, messageOf) would leave them guessing, the place in a
 * file to annotate, the stack of an unexpected error in the debug log, the
 * summary of a step that failed, and a runner's file that could not be written.
 */
import { statSync } from 'node:fs'
import { ApiError } from '../api/errors.js'
import type { Config } from '../run/config.js'
import { InputError } from '../inputs/table.js'
import { quote } from '../values/parse.js'
import type { FilePlace, Summary } from '../operations/types.js'
import { OperationError } from '../operations/types.js'
import { ChecksFileError } from '../operations/sync/checks-file-entries.js'
import type { ActionLog } from '../report/log.js'
import type { Door } from './dependencies.js'
import { messageOf } from './message.js'
import { workspaceOf } from './workspace.js'

/**
 * What the user can do about an error, when the message alone would leave
 * them guessing: an empty key (an unset or withheld secret), a key refused
 * (how to pass one, as this door reads it), a checks file not there (a
 * checkout missing, or where a relative path starts), a base URL
 * without its version segment or going past it (`.../v1/checks`), a name
 * not found in a list of names split on commas (a name that holds one).
 */
export function hintFor(
  error: unknown,
  env: NodeJS.ProcessEnv,
  config: Config | undefined,
  door: Door = 'runner'
): string {
  if (error instanceof InputError && error.message.startsWith('api-key is required') && door === 'command') {
    const subject = error.message.includes('base-url is required') ? 'api-key' : 'It'
    return `. ${subject} is empty: set MONITORING_API_KEY in the job's environment from your CI's secret variables (a masked, protected variable), or pass --api-key (which other users of the machine can read in the list of processes). Keys are created in the service's account settings (API access)`
  }
  if (error instanceof InputError && error.message.startsWith('api-key is required')) {
    const event = env.GITHUB_EVENT_NAME ?? ''
    if (event.startsWith('pull_request') || env.GITHUB_ACTOR === 'dependabot[bot]') {
      return ". Secrets are not passed to a workflow run for a pull request from a fork, nor to one Dependabot triggers, so the key is empty here. Skip the step there (if: github.event.pull_request.head.repo.fork != true && github.actor != 'dependabot[bot]'), or give Dependabot the secret under Settings > Secrets and variables > Dependabot"
    }
    // The runner passes an unset secret as an empty string: say which secret it could be, and where keys come from.
    // After base-url's own "It is empty: ..." (both unset), say which input this is about.
    const subject = error.message.includes('base-url is required') ? 'api-key' : 'It'
    return `. ${subject} is empty: the secret it reads is not set in this repository, or is withheld from this run (secrets are not passed to a workflow run for a pull request from a fork, nor to one Dependabot triggers). Store the key as a secret (Settings > Secrets and variables > Actions) and pass it: api-key: \${{ secrets.MONITORING_API_KEY }}. Keys are created in the service's account settings (API access)`
  }
  if (error instanceof ApiError && error.status === 401) {
    return door === 'command'
      ? "; set MONITORING_API_KEY in the job's environment from your CI's secret variables (or pass --api-key)"
      : '; pass it from a secret as the api-key input: api-key: ${{ secrets.MONITORING_API_KEY }}'
  }
  if (error instanceof ChecksFileError && error.code === 'ENOENT') {
    return door === 'command'
      ? `; a relative path is relative to ${workspaceOf(env).from}`
      : '; is the repository checked out? Add `- uses: actions/checkout@v4` before this step (a relative path is relative to GITHUB_WORKSPACE)'
  }
  if (error instanceof ApiError && error.status === 404 && config) {
    const base = config.baseUrl.replace(/\/+$/, '')
    const root = apiRootOf(base)
    if (root.past) {
      return `. The base-url ${base} goes past the API root (its path continues after the version segment), and the API answered 404: did you mean ${root.url}?`
    }
    if (!root.versioned) {
      return `. The base-url ${base} has no version segment, and the API answered 404: did you mean ${root.url}/v1?`
    }
  }
  if (error instanceof OperationError && /^no check named /.test(error.message) && config?.checkNamesByComma) {
    const names = config.checkNames.map(quote)
    const read =
      names.length > 6
        ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`
        : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
    return `. check-name is a list for this operation: without a line break it splits on commas, so ${quote(config.checkNamesByComma)} was read as the names ${read}. Put names that hold a comma one per line (check-name: |)`
  }
  return ''
}

/** The API's resources: a base-url path that reaches one of them went past the root. */
const RESOURCES = new Set(['checks', 'incidents', 'status-pages'])

/**
 * The API root a base-url means: up to its version segment (`/v1`) when its path goes on past it
 * (`.../v1/checks`); else without a resource path (`.../checks`), to which `/v1` is to be added.
 */
function apiRootOf(base: string): { url: string; versioned: boolean; past: boolean } {
  const url = new URL(base)
  const segments = url.pathname.split('/').filter(Boolean)
  const version = segments.findIndex(segment => /^v\d+$/.test(segment))
  if (version >= 0) {
    const past = version < segments.length - 1
    return { url: `${url.origin}/${segments.slice(0, version + 1).join('/')}`, versioned: true, past }
  }
  const resource = segments.findIndex(segment => RESOURCES.has(segment))
  const kept = resource >= 0 ? segments.slice(0, resource) : segments
  return { url: `${url.origin}${kept.map(segment => `/${segment}`).join('')}`, versioned: false, past: false }
}

/** Where an error is in a file of the repository (a checks file's line), to annotate the failure there. */
export function placeOf(error: unknown): FilePlace | undefined {
  const place = (error as { place?: unknown } | undefined)?.place
  return place && typeof place === 'object' && typeof (place as FilePlace).file === 'string'
    ? (place as FilePlace)
    : undefined
}

/**
 * An unexpected error (a bug, not an API or input problem) leaves its stack in
 * the debug log (ACTIONS_STEP_DEBUG). The bundle's positions map to the source
 * only when the step sets NODE_OPTIONS=--enable-source-maps: the map is never
 * parsed otherwise, so starts and failures stay fast.
 */
export function debugStack(log: ActionLog, error: unknown): void {
  if (!(error instanceof Error) || error instanceof ApiError || error instanceof InputError) return
  // Errors the action raises on purpose (about a file, a plan) say all there is: no stack.
  if (error instanceof OperationError || !error.stack || /^(ChecksFile|PlanFile|RunnerFile)Error$/.test(error.name))
    return
  log.debug('unexpected error; its stack (NODE_OPTIONS=--enable-source-maps maps it to the source):')
  for (const line of error.stack.split('\n')) log.debug(line)
}

export function failureSummary(message: string, error: unknown): Summary {
  const title = error instanceof InputError ? 'Bad input: nothing was sent' : 'The operation failed'
  return { title, lines: [message], tables: [] }
}

/** The runner's files the step writes, by the variable that names each. */
const RUNNER_FILES = {
  GITHUB_OUTPUT: "the step's outputs",
  GITHUB_STEP_SUMMARY: 'the job summary',
  GITHUB_STATE: 'the state the post step reads'
}
export type RunnerFile = keyof typeof RUNNER_FILES

/**
 * A runner's file that could not be written, told once and naming its
 * variable (not the library's own words, nor its stack): it fails the step
 * whatever fail-on-error says, as the step cannot report what it did.
 */
export class RunnerFileError extends Error {
  constructor(variable: RunnerFile, env: NodeJS.ProcessEnv, cause: unknown) {
    super(runnerFileMessage(variable, env, cause))
    this.name = 'RunnerFileError'
  }
}

/** Why `variable`'s file could not be written: unset, missing, a directory, or not writable. */
export function runnerFileMessage(variable: RunnerFile, env: NodeJS.ProcessEnv, cause: unknown): string {
  const path = env[variable]
  const problem = path ? `names ${JSON.stringify(path)}, ${fileProblem(path, cause)}` : 'is not set'
  return `${variable} ${problem}: ${RUNNER_FILES[variable]} could not be written. The runner creates this file for each step; an env: that sets ${variable}, or a step that removed the file or its folder, breaks it`
}

function fileProblem(path: string, cause: unknown): string {
  try {
    return statSync(path).isDirectory() ? 'a directory' : `which the step cannot write (${messageOf(cause)})`
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? ''
    return ['ENOENT', 'ENOTDIR'].includes(code) ? 'which does not exist' : `which the step cannot reach (${code})`
  }
}
