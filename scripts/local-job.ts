/**
 * `npm run local -- WORKFLOW.yml [options]` (scripts/local-action.sh sends a
 * .yml or .yaml argument here): run one job of a workflow locally, the steps
 * of this action from the committed bundle (dist/), against an emulator and a
 * fake GitHub started in this process, then their post steps. `--then`
 * runs the job again (or another job, with its own options) against the same
 * emulator, fake GitHub and workspace: a re-run, a pull request closed after it
 * opened. Exits 0 when the last run's job succeeded (or was skipped by its if:),
 * 1 when it failed, 2 on a mistake in the command.
 */
import { resolve } from 'node:path'
import { parseOverride } from './lib/local-job/context.js'
import { LocalJobOptions, UsageError, runLocalJob } from './lib/local-job/local.js'
import { startLocalService } from './lib/local-job/service.js'
import { emptyWorld, readWorldOption } from './lib/local-job/world.js'

const USAGE = `npm run local -- WORKFLOW.yml [--job NAME] [--fail-step NAME] [--run-steps] [--github PATH=VALUE]... [--with STEP.INPUT=VALUE]... [--workspace DIR] [--no-seed] [world options] [--then [WORKFLOW.yml] [options]]...

Runs one job of the workflow: its steps in order, then the post steps of this action's steps (last first).
  --job NAME          the job (its id or name); default: the first job with a step of this action
  --fail-step NAME    this step (its id or name) fails as if it exited 1, so that the failure paths run
  --run-steps         run the run: steps too, with bash in the workspace (default: shown, not run)
  --github PATH=VALUE a value of the github context: event_name=push, ref=refs/heads/hotfix/x,
                      event.action=closed, event.pull_request.merged=true (VALUE is JSON when it parses)
  --with STEP.INPUT=VALUE an input of a step of this action (its id or name), as if its with: said it:
                      --with gate.timeout=30s sees a 10-minute gate time out in 30 s
  --workspace DIR     copy DIR as the workspace (default: the workflow's folder, so examples/ for an example)
  --no-seed           start the emulator empty (default: it has the checks the job's steps name)
  --then              then run again (the same workflow unless another is named, with the options that
                      follow) against the same emulator, fake GitHub and workspace: a re-run
                      (--github run_attempt=2), a pull request closed (--github event.action=closed)
The world the job starts in (each option may be given again; with --then, before that run):
  --check NAME=down|slow    the check is probed down (503), or up but slow (3000 ms), from now on
  --budget NAME=spent|burning  the check's past: its error budget spent (not burning now), or left but
                      burning (77 times the rate of 99.9% over 1h); not probed during the job
  --drift NAME        the service holds the checks of the job's checks-file, NAME changed by hand
  --seed-checks N|FILE  the account starts with N checks made by hand (shop-by-hand-1...), or a checks file's
Secrets and vars other than the API's key and root are read from environment variables of their names.`

function parseArgs(args: string[], previous?: LocalJobOptions): LocalJobOptions {
  const cwd = process.env.INIT_CWD ?? process.cwd()
  const options: Partial<LocalJobOptions> & Required<Pick<LocalJobOptions, 'github' | 'world' | 'inputs'>> = {
    github: [],
    world: emptyWorld(),
    inputs: []
  }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const value = () => {
      const next = args[++i]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${arg} needs a value`)
      return next
    }
    if (arg === '--job') options.job = value()
    else if (arg === '--fail-step') options.failStep = value()
    else if (arg === '--run-steps') options.runSteps = true
    else if (arg === '--no-seed') options.seed = false
    else if (arg === '--workspace') options.workspaceFrom = resolve(cwd, value())
    else if (arg === '--github') {
      try {
        options.github.push(parseOverride(value()))
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
    } else if (arg === '--with') options.inputs.push(parseInputOverride(value()))
    else if (worldOption(arg, value, options.world, cwd)) continue
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`)
    else if (options.file === undefined) options.file = resolve(cwd, arg)
    else throw new UsageError(`one workflow file at a time (${arg} too)`)
  }
  options.file ??= previous?.file
  if (options.file === undefined) throw new UsageError('name a workflow file')
  return options as LocalJobOptions
}

/** `STEP.INPUT=VALUE`: the step (its id or name) is before the last dot of what precedes the first `=`. */
function parseInputOverride(text: string): [step: string, input: string, value: string] {
  const at = text.indexOf('=')
  const key = at > 0 ? text.slice(0, at) : ''
  const dot = key.lastIndexOf('.')
  if (dot <= 0 || !/^[a-z][a-z0-9-]*$/.test(key.slice(dot + 1))) {
    throw new UsageError(`--with takes STEP.INPUT=VALUE (gate.timeout=30s), got ${JSON.stringify(text)}`)
  }
  return [key.slice(0, dot), key.slice(dot + 1), text.slice(at + 1)]
}

function worldOption(...args: Parameters<typeof readWorldOption>): boolean {
  try {
    return readWorldOption(...args)
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError((error as Error).message)
  }
}

/** The runs the command asks for: its arguments cut at each --then. */
function parseRuns(args: string[]): LocalJobOptions[] {
  const runs: LocalJobOptions[] = []
  let from = 0
  for (let i = 0; i <= args.length; i++) {
    if (i < args.length && args[i] !== '--then') continue
    runs.push(parseArgs(args.slice(from, i), runs.at(-1)))
    from = i + 1
  }
  return runs
}

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE)
  process.exit(0)
}
for (const name of ['LOCAL_BASE_URL', 'LOCAL_PORT']) {
  if (process.env[name]) console.error(`${name} is for the single-step form: a job runs against an emulator of its own`)
}
try {
  const runs = parseRuns(args)
  // One run starts and stops its own service; several share one, and the first run's workspace.
  const service = runs.length > 1 ? await startLocalService() : undefined
  try {
    let workspace: string | undefined
    for (const [i, run] of runs.entries()) {
      if (i > 0) console.log(`\n--then (run ${i + 1} of ${runs.length}, the same emulator, fake GitHub and workspace)`)
      const seed = i === 0 ? run.seed : (run.seed ?? false)
      const result = await runLocalJob({ ...run, seed, service, workspace: run.workspaceFrom ? undefined : workspace })
      workspace ??= result.workspace
      process.exitCode = result.status === 'failure' ? 1 : 0
    }
  } finally {
    await service?.stop()
  }
} catch (error) {
  if (!(error instanceof UsageError)) throw error
  console.error(`npm run local: ${error.message}\n\n${USAGE}`)
  process.exitCode = 2
}
