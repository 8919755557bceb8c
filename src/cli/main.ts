/**
 * The command's door into the core: `monitoring-ci <operation> [flags] [-- command]`.
 * The core (run() in core/run.ts) does what the step does; this door only says
 * where inputs come from (flags, MONITORING_*), where the log goes (standard
 * error), and turns the outputs into one JSON object on standard output (and
 * `--dotenv`, `--summary`) and the end into an exit status:
 * 0 done, 1 failed, 2 a usage error (nothing sent), 130 and 143 stopped by
 * SIGINT and SIGTERM. The post stage runs after the main one, as the runner's
 * post step does (quiet when the main stage saved nothing for it). Around a
 * command, pause-check pauses, runs it, and then resumes in that post stage
 * (wrap.ts).
 */
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { realClock } from '../api/pacer.js'
import { RunEnd, Stage, run } from '../core/run.js'
import { makeApi, stdoutDrained } from '../core/dependencies.js'
import type { Dependencies } from '../core/dependencies.js'
import { INPUTS } from '../inputs/table.js'
import { messageOf } from '../core/message.js'
import { UsageError, envName, flagAndVariable, readInvocation } from './args.js'
import type { Invocation } from './args.js'
import { dotenvReport } from './dotenv.js'
import { helpText } from './help.js'
import { commandHost } from './host.js'
import type { CommandHost } from './host.js'
import { ciName, isGitHubActions, runFactsOf } from './ci.js'
import { runWrapped } from './wrap.js'

/** What the command is given of its process: tests give their own. */
export interface CommandIo {
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WriteStream | NodeJS.WritableStream
  /** Where SIGINT and SIGTERM arrive. */
  signals: NodeJS.EventEmitter
}

/** Inputs only a GitHub Actions run can serve. */
const GITHUB_ONLY = ['pr-comment', 'drift-issue', 'github-token'] as const

/** The exit status of a run's end. */
const STATUS: Record<RunEnd, number> = { done: 0, failed: 1, usage: 2 }

/** Run the command; resolves with its exit status. */
export async function command(io: CommandIo): Promise<number> {
  const write = (text: string, newline = true) => void io.stderr.write(newline ? `${text}\n` : text)
  let invocation: Invocation
  try {
    invocation = readInvocation(io.argv, io.env)
    if (invocation.help || invocation.operation === undefined) {
      io.stdout.write(await helpText(invocation.operation))
      return invocation.help ? 0 : usage(io, write, 'name an operation: monitoring-ci <operation> [flags]')
    }
    await checkInvocation(invocation, io.env)
  } catch (error) {
    if (error instanceof UsageError) return usage(io, write, error.message)
    throw error
  }
  if (invocation.fromFlags.has('api-key')) {
    write(
      `warning: --api-key on the command line can be read by other users of this machine in its list of processes; set ${envName('api-key')} instead.`
    )
  }
  const terminal = 'isTTY' in io.stderr && io.stderr.isTTY === true
  const colour = terminal && !io.env.NO_COLOR
  const host = commandHost({ inputs: invocation.inputs, write, debug: invocation.debug, colour, terminal })
  // SIGINT and SIGTERM: the core aborts what it is doing (onCancel); the command ends with 130 or 143 after the clean-up.
  let stoppedBy: number | undefined
  const noteInt = () => void (stoppedBy ??= 130)
  io.signals.on('SIGINT', noteInt)
  let facts: ReturnType<typeof runFactsOf> | undefined
  const runFacts = () => (facts ??= runFactsOf(io.env))
  const deps: Dependencies = {
    core: host,
    clock: realClock,
    env: io.env,
    runContext: runFacts,
    makeApi,
    signals: io.signals,
    // The core ends a step at once on SIGTERM; the command first cleans up (a wrapped pause is resumed), then ends 143.
    exit: code => void (stoppedBy ??= code),
    drained: 'writableNeedDrain' in io.stderr ? stdoutDrained(io.stderr as NodeJS.WriteStream) : undefined,
    door: 'command',
    // Another CI's job page is among its facts; under GitHub Actions the action's own search finds the job.
    ...(isGitHubActions(io.env) ? {} : { jobUrl: async () => (await runFacts()).jobUrl || undefined })
  }
  const stage = async (which: Stage): Promise<RunEnd> => {
    const before = host.outputs.get('error')
    const end = await run(deps, which)
    // One JSON object for both stages: the post stage's failure follows the main stage's, never replaces it.
    const after = host.outputs.get('error')
    if (which === 'post' && before !== undefined && after !== before) {
      host.outputs.set('error', `${before.replace(/\.$/, '')}. Then the clean-up failed: ${after}`)
    }
    return end
  }
  let status: number
  try {
    if (invocation.command.length > 0) {
      status = await runWrapped({
        command: invocation.command,
        stage,
        signals: io.signals,
        write: line => host.info(line),
        stopped: () => stoppedBy,
        stop: code => void (stoppedBy ??= code)
      })
    } else {
      status = STATUS[await stage('main')]
      // As the runner runs the post step when the job ends, whatever its outcome: quiet unless the main stage
      // saved work for it (check-api's own check after a cancel, a status write sent without an answer).
      if (status !== STATUS.usage && (await stage('post')) === 'failed') status = 1
    }
  } finally {
    io.signals.off('SIGINT', noteInt)
  }
  // After the run, the door's own lines go through the host too (a terminal's progress line is cleared first).
  const say = (line: string) => host.info(line)
  finish(io, host, say, status === STATUS.usage)
  if (!writeFiles(host, invocation, say) && status === 0) status = 1
  return stoppedBy ?? status
}

/** A usage error: told on standard error naming what to fix, the JSON's `error`, exit 2. */
function usage(io: CommandIo, write: (line: string) => void, message: string): number {
  write(`error: ${message}`)
  io.stdout.write(`${JSON.stringify({ error: message })}\n`)
  return STATUS.usage
}

/** What the door itself refuses before anything is sent. */
async function checkInvocation(invocation: Invocation, env: NodeJS.ProcessEnv): Promise<void> {
  if (!isGitHubActions(env)) {
    for (const name of GITHUB_ONLY) {
      const value = invocation.inputs[name]?.trim()
      if (value && value.toLowerCase() !== 'false') {
        const ci = await ciName(env)
        throw new UsageError(
          `${flagAndVariable(name)} needs GitHub Actions (a pull request, an issue, the job's token), and this runs ${ci ? `in ${ci}` : 'outside any CI'}: leave it out here`
        )
      }
    }
  }
  const autoResume = invocation.inputs['auto-resume']?.trim().toLowerCase()
  if (invocation.command.length === 0 && autoResume === 'true') {
    throw new UsageError(
      `${flagAndVariable('auto-resume')} needs a command to run while the checks are paused, as the command's post stage runs when it ends, not at the job's end: monitoring-ci pause-check --check-name shop -- ./deploy.sh (pauses, runs ./deploy.sh, then resumes what it paused)`
    )
  }
  if (invocation.command.length > 0) {
    if (invocation.operation?.trim() !== 'pause-check') {
      throw new UsageError(
        `a command after -- runs only around pause-check (pause, run it, resume); ${JSON.stringify(invocation.operation)} takes no command`
      )
    }
    if (autoResume === 'false') {
      throw new UsageError(
        `${flagAndVariable('auto-resume')} is false, but a command after -- is wrapped to be resumed after; leave auto-resume out`
      )
    }
    invocation.inputs['auto-resume'] = 'true'
  }
  for (const [flag, path] of [
    ['dotenv', invocation.dotenv],
    ['summary', invocation.summary]
  ] as const) {
    if (path === undefined) continue
    const folder = dirname(resolve(path))
    if (path.trim() === '' || !existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new UsageError(`--${flag} ${JSON.stringify(path)}: its folder ${JSON.stringify(folder)} does not exist`)
    }
    if (existsSync(path) && statSync(path).isDirectory()) {
      throw new UsageError(`--${flag} ${JSON.stringify(path)} is a folder; name a file`)
    }
  }
}

/** The failure told once on standard error (a usage error naming the flag and its variable), and the JSON on standard output. */
function finish(io: CommandIo, host: CommandHost, write: (line: string) => void, isUsage: boolean): void {
  for (const failure of host.failures()) {
    const input = isUsage ? INPUTS.find(name => failure.startsWith(`${name} `)) : undefined
    const named =
      input === undefined
        ? failure
        : input === 'operation'
          ? `the operation (the first word, or ${envName('operation')})${failure.slice(input.length)}`
          : `${flagAndVariable(input)}${failure.slice(input.length)}`
    write(`error: ${named}`)
  }
  io.stdout.write(`${JSON.stringify(Object.fromEntries(host.outputs))}\n`)
}

/** `--dotenv` and `--summary`; false when one could not be written (told, and the command fails). */
function writeFiles(host: CommandHost, invocation: Invocation, write: (line: string) => void): boolean {
  let written = true
  const attempt = (flag: string, path: string, text: string) => {
    try {
      writeFileSync(path, text)
    } catch (error) {
      written = false
      write(`error: --${flag} ${JSON.stringify(path)} could not be written: ${messageOf(error)}`)
    }
  }
  if (invocation.dotenv !== undefined) {
    const report = dotenvReport(host.outputs)
    for (const { name, why } of report.leftOut) {
      write(`warning: --dotenv: ${name} is left out of the report: ${why}. It is in the JSON on standard output.`)
    }
    attempt('dotenv', invocation.dotenv, report.text)
  }
  if (invocation.summary !== undefined) attempt('summary', invocation.summary, host.summaryText())
  return written
}
