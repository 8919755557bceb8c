/**
 * `npm run local -- WORKFLOW.yml`, as a function: read the workflow, pick the
 * job, make a temporary workspace (a copy of the workflow's folder, or of
 * --workspace), start the emulator and the fake GitHub (or use the ones
 * given), seed the checks the job's steps name, say which local values stand
 * for GitHub's, run the job (job.ts), say what the fake GitHub was given,
 * and end with the job's result line.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'
import { parseList } from '../../../src/values/parse.js'
import { entryOf, isOperationName } from '../../../src/operations/registry.js'
import { CannotEvaluate, Contexts, condition, interpolate } from './expressions.js'
import { GithubOverride, localValues, runnerEnv } from './context.js'
import { JobResult, actionInputs, resultLine, runJob } from './job.js'
import { LocalService, PROBE_EVERY_MS, PROBE_MS, gitHubLines, startLocalService } from './service.js'
import { Job, Step, findStep, pickJob, readWorkflow, stepTitle } from './workflow.js'
import { World, shapeWorld, worldIsEmpty } from './world.js'

/** A mistake in what was asked (a job or step that is not there): exit status 2. */
export class UsageError extends Error {}

export interface LocalJobOptions {
  file: string
  /** A job's id or name (default: the first job with a step of this action). */
  job?: string
  /** A step's id or name: it fails as if it exited 1. */
  failStep?: string
  runSteps?: boolean
  github?: GithubOverride[]
  /** Inputs of steps of this action given here (`--with STEP.INPUT=VALUE`): step, input, value. */
  inputs?: Array<[step: string, input: string, value: string]>
  /** The world the job starts in (world.ts): checks down or slow, budgets, drift, checks made by hand. */
  world?: World
  /** The folder copied as the workspace (default: the workflow's own folder). */
  workspaceFrom?: string
  /** Run in this folder as it is, copying nothing (a test runs two jobs in one workspace). */
  workspace?: string
  /** Seed the checks the job's steps name (default true). */
  seed?: boolean
  /** Use this emulator and fake GitHub (default: start them, and stop them at the end). */
  service?: LocalService
  /** The folder the run's own temporary folder goes under (default: the system's, TMPDIR). */
  tmpDir?: string
  /** Where other secrets and vars are read from (default process.env). */
  env?: NodeJS.ProcessEnv
  print?: (line: string) => void
}

export interface LocalJobResult extends JobResult {
  workspace: string
}

/** The check names of the steps of this action that target existing checks (the registry's `targets`). */
function namedChecks(job: Job, contexts: Contexts): string[] {
  return job.steps.flatMap(step => {
    if (!step.thisAction || step.with['check-name'] === undefined) return []
    try {
      const operation = interpolate(step.with.operation ?? '', contexts, 'success').trim()
      if (!isOperationName(operation)) return []
      const targets = entryOf(operation).targets
      const names = interpolate(step.with['check-name'], contexts, 'success')
      return targets === 'several' ? parseList(names) : targets === 'one' ? [names.trim()] : []
    } catch (error) {
      if (error instanceof CannotEvaluate) return []
      throw error
    }
  })
}

/** The checks-file of the job's first step of this action that has one, evaluated (for --drift). */
function checksFileOf(job: Job, contexts: Contexts): string | undefined {
  for (const step of job.steps) {
    const file = step.thisAction ? step.with['checks-file'] : undefined
    if (file === undefined) continue
    try {
      return interpolate(file, contexts, 'success').trim()
    } catch (error) {
      if (!(error instanceof CannotEvaluate)) throw error
    }
  }
  return undefined
}

/** --with: each step (of this action) and the inputs given for it. */
function inputOverrides(job: Job, given: NonNullable<LocalJobOptions['inputs']>): Map<Step, Record<string, string>> {
  const known = new Set(actionInputs())
  const overrides = new Map<Step, Record<string, string>>()
  for (const [named, input, value] of given) {
    const step = findStep(job, named)
    if (!step.thisAction)
      throw new Error(`--with ${named}.${input}: step ${stepTitle(step)} is not a step of this action`)
    if (!known.has(input)) throw new Error(`--with ${named}.${input}: this action has no input ${input}`)
    overrides.set(step, { ...overrides.get(step), [input]: value })
  }
  return overrides
}

const SKIPPED_FOLDERS = new Set(['node_modules', '.git'])

export async function runLocalJob(options: LocalJobOptions): Promise<LocalJobResult> {
  const print = options.print ?? ((line: string) => console.log(line))
  if (!existsSync(options.file)) throw new UsageError(`no such workflow file: ${options.file}`)
  let workflow
  try {
    workflow = readWorkflow(options.file)
  } catch (error) {
    throw new UsageError(`${options.file}: ${(error as Error).message}`)
  }
  let job: Job
  let failStep
  let overrides
  try {
    job = pickJob(workflow, options.job)
    failStep = options.failStep === undefined ? undefined : findStep(job, options.failStep)
    overrides = inputOverrides(job, options.inputs ?? [])
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const shown = relative(process.cwd(), options.file) || options.file
  const from = options.workspaceFrom ?? dirname(options.file)
  if (options.workspace === undefined && !statSync(from, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--workspace ${from}: no such folder`)
  }

  const runDir = mkdtempSync(join(options.tmpDir ?? tmpdir(), 'monitoring-action-job.'))
  const runnerTemp = join(runDir, 'temp')
  mkdirSync(runnerTemp)
  let workspace = options.workspace
  if (workspace === undefined) {
    workspace = join(runDir, 'workspace')
    cpSync(from, workspace, { recursive: true, filter: source => !SKIPPED_FOLDERS.has(basename(source)) })
  }

  const service = options.service ?? (await startLocalService())
  try {
    const { contexts, notes } = localValues(workflow, job, {
      overrides: options.github ?? [],
      env: options.env ?? process.env,
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      githubUrl: service.githubUrl,
      workspace,
      runnerTemp
    })
    const eventPath = join(runDir, 'event.json')
    writeFileSync(eventPath, JSON.stringify(contexts.github.event, null, 2))
    const initial: Contexts = { ...contexts, env: {}, steps: {}, job: { status: 'success' } }
    let holds: boolean | CannotEvaluate
    try {
      holds = condition(job.if, initial, 'success')
    } catch (error) {
      if (!(error instanceof CannotEvaluate)) throw error
      holds = error
    }
    const seeded = options.seed === false || holds !== true ? [] : service.seed(namedChecks(job, initial))
    let shaped: string[] = []
    if (options.world && !worldIsEmpty(options.world)) {
      try {
        shaped = await shapeWorld(service, options.world, {
          checksFile: checksFileOf(job, initial),
          workspace,
          env: options.env ?? process.env
        })
      } catch (error) {
        throw new UsageError((error as Error).message)
      }
    }

    const actionSteps = job.steps.filter(step => step.thisAction).length
    print(
      `Workflow ${shown}${workflow.name ? ` ("${workflow.name}")` : ''}, job ${job.id}: ${job.steps.length} steps, ${actionSteps} of this action (run from this repository's dist/, whatever version uses: names)`
    )
    for (const note of notes) print(`  ${note}`)
    print(
      `  emulator: ${service.baseUrl} (key ${service.apiKey}); every check probed up in ${PROBE_MS} ms every ${PROBE_EVERY_MS} ms, no URL fetched`
    )
    if (seeded.length > 0) {
      print(
        `  seeded: ${seeded.map(name => JSON.stringify(name)).join(', ')} (checks the job's steps name; each with a day of hourly up results)`
      )
    }
    for (const note of shaped) print(`  ${note}`)
    for (const [step, inputs] of overrides) {
      print(
        `  --with: ${stepTitle(step)} given ${Object.entries(inputs)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(', ')}`
      )
    }
    print(`  GitHub: a fake on ${service.githubUrl} (GITHUB_API_URL): comments and issues stay there`)
    print(
      `  workspace: ${workspace}${options.workspace === undefined ? ` (a copy of ${relative(process.cwd(), from) || '.'})` : ''}`
    )

    let result: JobResult
    if (holds !== true) {
      print('')
      print(
        holds instanceof CannotEvaluate
          ? `The job's if: cannot be evaluated here (${holds.message}): the job is skipped.`
          : `The job's if: ${job.if} is false for this event: the job is skipped (--github PATH=VALUE changes the event).`
      )
      result = { job: job.id, status: 'skipped', steps: [], posts: [], ran: 0 }
    } else {
      result = await runJob({
        job,
        workflowEnv: workflow.env,
        contexts,
        runnerEnv: runnerEnv(contexts.github, eventPath, runnerTemp),
        workspace,
        runDir,
        failStep,
        inputOverrides: overrides,
        runSteps: options.runSteps ?? false,
        secrets: Object.values(contexts.secrets).filter(value => value !== ''),
        debug: (options.env ?? process.env).ACTIONS_STEP_DEBUG === 'true',
        print
      })
    }
    const github = gitHubLines(service.github)
    print('')
    if (github.length > 0) print('The fake GitHub was given:')
    for (const line of github) print(line)
    print(`Workspace (left for you to look at): ${workspace}`)
    print(resultLine(result))
    return { ...result, workspace }
  } finally {
    if (!options.service) await service.stop()
  }
}
