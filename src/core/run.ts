/**
 * run(): read inputs -> config -> perform the operation -> outputs and summary.
 * One try/catch/finally; every thrown value becomes one clear failure. The
 * core both doors call, given its dependencies by the door (dependencies.ts:
 * step/ for the runner, cli/ for the command): the context an operation gets
 * (context.ts), how a failure is told (failure.ts), and the GitHub side
 * (github.ts) are beside it.
 */
import type { Config } from '../run/config.js'
import { failOnErrorOf, loadParsers, parseConfig, readInputs } from '../inputs/read.js'
import { InputError } from '../inputs/table.js'
import { expectedStatusWarning, gateTimeoutNotice, inputsNotApplying } from '../inputs/warnings.js'
import { OperationName, entryOf, isOperationName } from '../operations/registry.js'
import type { Outputs, Summary } from '../operations/types.js'
import { OperationError } from '../operations/types.js'
import { ActionLog, actionLog } from '../report/log.js'
import { writeOutputs } from '../report/outputs.js'
import { renderSummary } from '../report/summary.js'
import { redact } from '../secrets/secrets.js'
import { secretsIn } from '../secrets/secret-positions.js'
import type { Dependencies } from './dependencies.js'
import { messageOf } from './message.js'
import { addFoundSecret, addSecret, contextFor, onCancel } from './context.js'
import { RunnerFileError, debugStack, failureSummary, hintFor, placeOf } from './failure.js'
import { GitHubSide, gitHubSide } from './github.js'

/**
 * Which stage of the step this process is: the runner starts dist/index.js
 * for the main step and dist/post.js for the post step (action.yml). Never
 * read from the environment or the saved state: a workflow's `env:` can set
 * STATE_* variables, and must not turn a gate into a silent no-op.
 */
export type Stage = 'main' | 'post'

/**
 * How a run ended, for a door that turns it into an exit status (the command):
 * `done` (what was asked was done, or an error that fail-on-error false let
 * pass), `failed` (the step fails), `usage` (an input could not be read:
 * nothing was sent). The runner's door needs none: the step's failure is set.
 */
export type RunEnd = 'done' | 'failed' | 'usage'

export async function run(deps: Dependencies, stage: Stage = 'main'): Promise<RunEnd> {
  const runner = deps.core
  const startedAt = deps.clock.now()
  const secrets: string[] = []
  const log = actionLog(runner, secrets, deps.drained)
  const controller = new AbortController()
  const stopListening = onCancel(deps, log, controller)
  let failOnError = true
  let jobSummary = true
  let operation = 'unknown'
  let config: Config<OperationName> | undefined
  let summary: Summary | undefined
  let outputs: Outputs = {}
  let github: GitHubSide | undefined
  let end: RunEnd = 'done'
  // The outputs file (GITHUB_OUTPUT) fails once, told once: after that no output is tried again.
  let outputsBroken: RunnerFileError | undefined
  const setOutputs = (values: Outputs) => {
    if (outputsBroken) return
    try {
      writeOutputs(runner.setOutput, values, secrets)
    } catch (error) {
      throw (outputsBroken = new RunnerFileError('GITHUB_OUTPUT', deps.env, error))
    }
  }
  try {
    const raw = readInputs(name => runner.getInput(name))
    // The key and the GitHub token are masked before anything else can print them:
    // also each line of one pasted with line breaks, so no line of it is ever shown.
    for (const key of [raw['api-key'] ?? '', raw['github-token'] ?? '']) {
      for (const line of new Set([key, ...key.split(/\r?\n|\r/).map(part => part.trim())])) {
        addSecret(runner, secrets, line)
      }
    }
    failOnError = failOnErrorOf(raw)
    jobSummary = raw['job-summary']?.trim().toLowerCase() !== 'false'
    const named = raw.operation?.trim() ?? ''
    // Only a known name reaches the summary: the input itself could hold anything.
    operation = isOperationName(named) ? named : 'unknown'

    if (stage === 'post') {
      summary = await post(deps, raw, log, controller.signal, secrets)
      return end
    }

    await loadParsers(raw)
    config = parseConfig(raw)
    // Values in a secret position of the step's own specs (a URL's token, an Authorization header) are
    // secrets from now on, in every form: a server that echoes one percent-encoded cannot show it.
    for (const value of [...secretsIn(config.check), ...secretsIn(config.incident)]) {
      if (typeof value === 'string') addFoundSecret(runner, secrets, value)
    }
    github = gitHubSide({
      config,
      env: deps.env,
      runContext: deps.runContext,
      log,
      signal: controller.signal,
      secrets,
      startedAt
    })
    jobSummary = config.jobSummary
    for (const unused of inputsNotApplying(raw, config.operation)) log.warning(`${unused}.`)
    const statusWarning = expectedStatusWarning(config)
    if (statusWarning) log.warning(`${statusWarning}.`)
    const timeoutNotice = gateTimeoutNotice(raw, config)
    if (timeoutNotice) log.notice(`${timeoutNotice}.`)
    const ctx = contextFor(deps, config, log, controller.signal, startedAt, secrets, github)
    if (config.dryRun) log.info('dry-run: writes are printed, not sent.')
    const entry = entryOf(config.operation)
    const result = await entry.run(ctx)
    outputs = result.outputs
    summary = result.summary
    log.info([summary.title, ...summary.lines].join(' - '))
    if (entry.writes && outputs.changed === undefined) outputs.changed = false
    if (result.gateClosed) outputs.error = result.gateClosed
    setOutputs(outputs)
    if (result.gateClosed) {
      log.fail(result.gateClosed)
      end = 'failed'
    }
  } catch (error) {
    const hint = hintFor(error, deps.env, config, deps.door)
    let message = redact(hint ? messageOf(error).replace(/\.$/, '') + hint : messageOf(error), secrets)
    debugStack(log, error)
    const known = error instanceof OperationError ? error.outputs : {}
    const fallback = isOperationName(operation) ? (entryOf(operation).errorOutputs ?? {}) : {}
    outputs = { ...fallback, ...outputs, ...known, error: message }
    try {
      setOutputs(outputs)
    } catch (broken) {
      message = redact(`${message.replace(/\.$/, '')}. Also, ${messageOf(broken)}`, secrets)
    }
    summary = error instanceof OperationError && error.summary ? error.summary : failureSummary(message, error)
    // A runner's file that cannot be written fails the step, whatever fail-on-error says: the outputs are lost.
    if (failOnError || outputsBroken || error instanceof RunnerFileError) {
      log.fail(message, placeOf(error))
      end = 'failed'
    } else log.warning(`${message} (fail-on-error is false: the step continues)`, placeOf(error))
    // An input that could not be read is how the run was asked, not what it met: a usage error whatever fail-on-error says.
    if (error instanceof InputError) end = 'usage'
  } finally {
    // The job summary first, then the comment: a cancel during the comment (the signals are still
    // heard, and abort it) cannot lose the summary.
    if (jobSummary && summary) {
      try {
        const text = renderSummary(summary, operation, secrets)
        await runner.summary
          .addRaw(text)
          .write()
          .catch((error: unknown) => Promise.reject(new RunnerFileError('GITHUB_STEP_SUMMARY', deps.env, error)))
      } catch (error) {
        // The runner's file is named by its variable (RunnerFileError); anything else is said as it is.
        log.warning(
          error instanceof RunnerFileError
            ? `${messageOf(error)}. The step goes on.`
            : `The job summary could not be written: ${messageOf(error)}`
        )
      }
    }
    if (config?.prComment && summary && github) {
      try {
        const url = await github.comment(summary)
        if (url) setOutputs({ 'comment-url': url })
      } catch (error) {
        log.warning(`pr-comment: the comment could not be written (${messageOf(error)}). The step goes on.`)
      }
    }
    if (config?.driftIssue && entryOf(config.operation).reportsDrift && summary && github) {
      try {
        if (typeof outputs.drift !== 'boolean') {
          log.info(
            'drift-issue: the plan was not made (the step failed before it), so the drift issue is left as it is.'
          )
        } else {
          const url = await github.driftIssue(summary, outputs.drift, outputs.error !== undefined)
          if (url) setOutputs({ 'issue-url': url })
        }
      } catch (error) {
        log.warning(`drift-issue: the issue could not be written (${messageOf(error)}). The step goes on.`)
      }
    }
    stopListening()
  }
  return end
}

/**
 * The post step (runs.post), run when the job ends whatever its outcome: the
 * operation's registered post step, with the state its main step saved (for
 * pause-check with auto-resume: resume the checks it paused). Quiet when
 * there is nothing to do.
 */
async function post(
  deps: Dependencies,
  raw: ReturnType<typeof readInputs>,
  log: ActionLog,
  signal: AbortSignal,
  secrets: string[]
): Promise<Summary | undefined> {
  const named = raw.operation?.trim() ?? ''
  const step = isOperationName(named) ? entryOf(named).post : undefined
  if (!step) return undefined
  const saved = Object.fromEntries(step.states.map(name => [name, deps.core.getState(name)]))
  if (Object.values(saved).every(value => value === '')) return undefined
  await loadParsers(raw)
  const config = parseConfig(raw)
  const startedAt = deps.clock.now()
  const github = gitHubSide({ config, env: deps.env, runContext: deps.runContext, log, signal, secrets, startedAt })
  const ctx = contextFor(deps, config, log, signal, startedAt, secrets, github)
  return step.run(ctx, saved)
}
