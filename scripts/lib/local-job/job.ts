/**
 * One job of a workflow, run locally as the runner runs it: its steps in
 * order, each `if:` read against the job's status so far (success(),
 * failure(), always(), continue-on-error), the steps of this action run from
 * the committed bundle (dist/index.js, as scripts/lib/runner.ts starts it:
 * INPUT_* with action.yml's defaults, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * GITHUB_STATE), then the post steps of the ones that ran, last first, each
 * with the state its main step saved (dist/post.js, under action.yml's
 * `post-if`). A `run:` step runs with bash only when asked; another action
 * never runs. What is decided for each step is decided in `decide()`.
 */
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT, parseCommandFile, runStep } from '../runner.js'
import { CannotEvaluate, Contexts, JobStatus, condition, interpolate } from './expressions.js'
import { Masks, logLines, outputLines, summaryText } from './print.js'
import { Job, Step, stepTitle } from './workflow.js'

/** What happens to one step (the one rule: `decide`). */
export type Decision =
  /** This action's main step: dist/index.js. */
  | { kind: 'action' }
  /** A `run:` step, run with bash (--run-steps). */
  | { kind: 'shell' }
  /** --fail-step: fails as if it exited 1 at once (a step of this action still gets its post step, with no state). */
  | { kind: 'fail' }
  /** A `run:` step without --run-steps, or another action: shown, not run, taken as succeeded. */
  | { kind: 'not-run'; why: string }
  /** Its `if:` is false. */
  | { kind: 'skip'; why: string }
  /** Its `if:` (or a value it needs) cannot be evaluated here: skipped rather than guessed. */
  | { kind: 'cannot'; why: string }

export interface DecideInput {
  step: Step
  /** The `if:`'s value, or why it cannot be had. */
  holds: boolean | CannotEvaluate
  failStep?: Step
  runSteps: boolean
}

export function decide({ step, holds, failStep, runSteps }: DecideInput): Decision {
  if (holds instanceof CannotEvaluate)
    return { kind: 'cannot', why: `its if: cannot be evaluated here (${holds.message})` }
  if (!holds) return { kind: 'skip', why: `if: ${step.if ?? 'success()'} is false` }
  if (step === failStep) return { kind: 'fail' }
  if (step.thisAction) return { kind: 'action' }
  if (step.run !== undefined) {
    return runSteps
      ? { kind: 'shell' }
      : { kind: 'not-run', why: 'a run: step, shown and not run (--run-steps runs it); taken as succeeded' }
  }
  return { kind: 'not-run', why: `another action (${step.uses}), not run locally; taken as succeeded` }
}

export type Outcome = 'success' | 'failure' | 'skipped'

export interface StepRun {
  step: Step
  decision: Decision
  /** Whether its post step runs (a step of this action that started). */
  post: boolean
  outcome: Outcome
  /** The outcome, except that a failure under continue-on-error concludes as success. */
  conclusion: Outcome
  outputs: Record<string, string>
  summary: string
  state: Record<string, string>
  inputs: Record<string, string>
  env: Record<string, string>
}

export interface PostRun {
  step: Step
  outcome: Outcome
  summary: string
}

export interface JobResult {
  job: string
  status: JobStatus | 'skipped'
  steps: StepRun[]
  posts: PostRun[]
  /** Steps that ran: this action's (a --fail-step one too) and run: steps run with --run-steps. */
  ran: number
}

export interface RunJobOptions {
  job: Job
  /** The workflow's own env. */
  workflowEnv: Record<string, string>
  /** github, vars, secrets, inputs, needs, runner (context.ts). */
  contexts: Omit<Contexts, 'env' | 'steps' | 'job'>
  /** The runner's GITHUB_* variables of every step (context.ts runnerEnv). */
  runnerEnv: NodeJS.ProcessEnv
  workspace: string
  /** A folder for the run's own files (run: scripts and their command files). */
  runDir: string
  failStep?: Step
  /** Inputs given on the command line (--with), by step: over what its with: says. */
  inputOverrides?: Map<Step, Record<string, string>>
  runSteps: boolean
  /** Secret values: masked in every line shown. */
  secrets: string[]
  debug: boolean
  print: (line: string) => void
}

interface ActionYml {
  inputs: Record<string, { default?: unknown }>
  runs: { 'post-if'?: string }
}

const readActionYml = () => parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml

/** The names of action.yml's inputs. */
export const actionInputs = (): string[] => Object.keys(readActionYml().inputs)

/** action.yml's input defaults (an expression among them, e.g. `${{ github.token }}`) and post-if. */
function actionYml(): { defaults: Record<string, string>; postIf: string } {
  const action = readActionYml()
  const defaults = Object.fromEntries(
    Object.entries(action.inputs).flatMap(([name, input]) =>
      input.default === undefined ? [] : [[name, String(input.default)]]
    )
  )
  return { defaults, postIf: action.runs['post-if'] ?? 'always()' }
}

/** Evaluate each value of a mapping; the first that cannot be evaluated throws CannotEvaluate, named. */
function evaluateAll(
  values: Record<string, string>,
  where: string,
  contexts: Contexts,
  status: JobStatus
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => {
      try {
        return [key, interpolate(value, contexts, status)]
      } catch (error) {
        if (error instanceof CannotEvaluate) throw new CannotEvaluate(`${where}.${key}: ${error.message}`)
        throw error
      }
    })
  )
}

interface Ran {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  state: Record<string, string>
  env: Record<string, string>
  ms: number
}

/** A run: step with bash (or sh), in the workspace, with the runner's command files. */
function runShell(
  step: Step,
  script: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  dir: string,
  timeoutMs: number
): Promise<Ran> {
  const files = {
    GITHUB_OUTPUT: join(dir, `step-${step.number}.output`),
    GITHUB_ENV: join(dir, `step-${step.number}.env`),
    GITHUB_STEP_SUMMARY: join(dir, `step-${step.number}.summary`),
    GITHUB_PATH: join(dir, `step-${step.number}.path`)
  }
  for (const file of Object.values(files)) writeFileSync(file, '')
  const file = join(dir, `step-${step.number}.sh`)
  writeFileSync(file, script)
  const [shell, args] =
    step.shell === 'sh' ? ['sh', ['-e', file]] : ['bash', ['--noprofile', '--norc', '-eo', 'pipefail', file]]
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(shell, args, { cwd, env: { ...env, ...files } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => (stdout += d))
    child.stderr.on('data', d => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', code => {
      clearTimeout(timer)
      const read = (f: string) => readFileSync(f, 'utf8')
      resolve({
        code,
        stdout,
        stderr,
        outputs: parseCommandFile(read(files.GITHUB_OUTPUT)),
        summary: read(files.GITHUB_STEP_SUMMARY),
        state: {},
        env: parseCommandFile(read(files.GITHUB_ENV)),
        ms: Date.now() - started
      })
    })
  })
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The job's last line: its result, the steps that ran and the post steps. */
export function resultLine(result: JobResult): string {
  return `job ${result.job}: ${result.status} (${plural(result.ran, 'step')}, ${plural(result.posts.length, 'post step')})`
}

/** A step's values, evaluated when it comes: its env, its inputs (with action.yml's defaults), its script. */
interface StepValues {
  env: Record<string, string>
  inputs: Record<string, string>
  script: string
}

function valuesOf(
  step: Step,
  baseEnv: Record<string, string>,
  contextsWith: (env: Record<string, string>) => Contexts,
  status: JobStatus,
  defaults: Record<string, string>,
  overrides: Record<string, string> = {}
): StepValues {
  const env = { ...baseEnv, ...evaluateAll(step.env, 'env', contextsWith(baseEnv), status) }
  let inputs: Record<string, string> = {}
  if (step.thisAction) {
    const given = evaluateAll(step.with, 'with', contextsWith(env), status)
    const unset = Object.fromEntries(Object.entries(defaults).filter(([name]) => !(name in given)))
    inputs = { ...evaluateAll(unset, 'default', contextsWith(env), status), ...given, ...overrides }
  }
  const script = step.run === undefined ? '' : interpolate(step.run, contextsWith(env), status)
  return { env, inputs, script }
}

/** What a step printed, its outputs and its summary, as lines to show. */
function reportLines(
  r: { stdout: string; stderr: string; outputs: Record<string, string>; summary: string },
  masks: Masks,
  debug: boolean
): string[] {
  return [
    ...logLines(r.stdout, masks, debug),
    ...logLines(r.stderr, masks, debug),
    ...outputLines(r.outputs, masks),
    ...summaryText(r.summary)
  ]
}

const quoted = (values: Record<string, string>, names: string[]) =>
  names.map(name => `${name}=${JSON.stringify(values[name] ?? '')}`).join(', ')

export async function runJob(options: RunJobOptions): Promise<JobResult> {
  const { job, print } = options
  const masks = new Masks()
  for (const secret of options.secrets) masks.add(secret)
  const show = (line: string) => print(masks.apply(line))
  const { defaults, postIf } = actionYml()
  const steps: Contexts['steps'] = {}
  /** Variables a run: step added through GITHUB_ENV: in every later step's env. */
  const added: Record<string, string> = {}
  let status: JobStatus = 'success'
  const contextsWith = (env: Record<string, string>): Contexts => ({ ...options.contexts, env, steps, job: { status } })
  // The workflow's env, then the job's (each may use the one before).
  let jobEnv: Record<string, string>
  try {
    const workflowEnv = evaluateAll(options.workflowEnv, 'env', contextsWith({}), status)
    jobEnv = { ...workflowEnv, ...evaluateAll(job.env, `jobs.${job.id}.env`, contextsWith(workflowEnv), status) }
  } catch (error) {
    if (!(error instanceof CannotEvaluate)) throw error
    show(`The job's env cannot be evaluated here (${error.message}): the job is not run.`)
    return { job: job.id, status: 'skipped', steps: [], posts: [], ran: 0 }
  }
  const runs: StepRun[] = []
  let ran = 0

  for (const step of job.steps) {
    const baseEnv = { ...jobEnv, ...added }
    let holds: boolean | CannotEvaluate
    try {
      holds = condition(step.if, contextsWith(baseEnv), status)
    } catch (error) {
      if (!(error instanceof CannotEvaluate)) throw error
      holds = error
    }
    let decision = decide({ step, holds, failStep: options.failStep, runSteps: options.runSteps })
    let values: StepValues = { env: baseEnv, inputs: {}, script: step.run ?? '' }
    let unevaluated: string | undefined
    if (decision.kind !== 'skip' && decision.kind !== 'cannot') {
      try {
        values = valuesOf(step, baseEnv, contextsWith, status, defaults, options.inputOverrides?.get(step))
      } catch (error) {
        if (!(error instanceof CannotEvaluate)) throw error
        unevaluated = error.message
        // A step --fail-step fails is not run: what it would be given does not matter.
        if (decision.kind !== 'not-run' && decision.kind !== 'fail')
          decision = { kind: 'cannot', why: `${error.message}: not run` }
      }
    }
    if (decision.kind === 'shell' && step.shell !== undefined && !['bash', 'sh'].includes(step.shell)) {
      decision = { kind: 'cannot', why: `shell: ${step.shell} is not run locally (bash and sh are)` }
    }

    const { env, inputs, script } = values
    const operation = step.thisAction ? ` [this action: ${inputs.operation ?? step.with.operation ?? '?'}]` : ''
    show('')
    show(`== ${step.number}. ${stepTitle(step)}${operation}`)
    const given = Object.keys(options.inputOverrides?.get(step) ?? {})
    if (decision.kind === 'action') {
      show(`  with: ${quoted(inputs, [...new Set([...Object.keys(step.with), ...given])])}`)
      if (given.length > 0) show(`  (--with: ${given.join(', ')})`)
    }
    if (step === options.failStep && decision.kind === 'skip') {
      show(`  --fail-step names this step, but its if: is false: it does not run, so it cannot fail`)
    }
    if (
      step.run !== undefined &&
      (decision.kind === 'shell' || decision.kind === 'not-run' || decision.kind === 'fail')
    ) {
      if (unevaluated) show(`  (its values cannot be evaluated here: ${unevaluated})`)
      else if (Object.keys(step.env).length > 0) show(`  env: ${quoted(env, Object.keys(step.env))}`)
      for (const line of script.trimEnd().split('\n')) show(`  $ ${line}`)
    }

    let outcome: Outcome
    let result: Ran | undefined
    const timeoutMs = (step.timeoutMinutes ?? job.timeoutMinutes ?? 360) * 60_000
    const processEnv = { ...options.runnerEnv, ...env }
    switch (decision.kind) {
      case 'action':
        result = { ...(await runStep(inputs, { env: processEnv, cwd: options.workspace, timeoutMs })), env: {} }
        outcome = result.code === 0 ? 'success' : 'failure'
        break
      case 'shell':
        result = await runShell(
          step,
          script,
          { ...process.env, ...processEnv },
          options.workspace,
          options.runDir,
          timeoutMs
        )
        outcome = result.code === 0 ? 'success' : 'failure'
        Object.assign(added, result.env)
        break
      case 'fail':
        outcome = 'failure'
        break
      case 'not-run':
        show(`  ${decision.why}`)
        outcome = 'success'
        break
      case 'skip':
      case 'cannot':
        show(`  skipped: ${decision.why}`)
        outcome = 'skipped'
        break
    }
    if (result) for (const line of reportLines(result, masks, options.debug)) show(line)
    let continues = false
    if (outcome === 'failure' && step.continueOnError !== undefined) {
      try {
        continues = interpolate(step.continueOnError, contextsWith(env), status).trim() === 'true'
      } catch (error) {
        if (!(error instanceof CannotEvaluate)) throw error
        show(`  continue-on-error cannot be evaluated here (${error.message}): taken as false`)
      }
    }
    const conclusion: Outcome = outcome === 'failure' && continues ? 'success' : outcome
    if (result || decision.kind === 'fail') {
      ran++
      const how = result
        ? `exit ${result.code ?? 'killed'}, ${result.ms} ms`
        : '--fail-step: as if it exited 1; not run'
      show(`  -> ${outcome}${continues ? ' (continue-on-error: the job goes on as succeeded)' : ''} (${how})`)
    }
    if (conclusion === 'failure') status = 'failure'
    const run: StepRun = {
      step,
      decision,
      post: step.thisAction && (decision.kind === 'action' || decision.kind === 'fail'),
      outcome,
      conclusion,
      outputs: result?.outputs ?? {},
      summary: result?.summary ?? '',
      state: result?.state ?? {},
      inputs,
      env
    }
    runs.push(run)
    if (step.id) steps[step.id] = { outputs: run.outputs, outcome, conclusion }
  }

  const posts: PostRun[] = []
  for (const run of [...runs].reverse().filter(r => r.post)) {
    show('')
    show(`== Post ${run.step.number}. ${stepTitle(run.step)} [this action: ${run.inputs.operation ?? '?'}]`)
    let holds: boolean
    try {
      holds = condition(postIf, contextsWith(run.env), status)
    } catch (error) {
      if (!(error instanceof CannotEvaluate)) throw error
      show(`  skipped: action.yml's post-if cannot be evaluated here (${error.message})`)
      continue
    }
    if (!holds) {
      show(`  skipped: post-if ${postIf} is false`)
      continue
    }
    const saved = Object.keys(run.state).filter(name => run.state[name] !== '')
    show(`  state saved by its main step: ${saved.length > 0 ? saved.join(', ') : 'none'}`)
    const r = await runStep(run.inputs, {
      env: { ...options.runnerEnv, ...run.env },
      cwd: options.workspace,
      state: run.state,
      timeoutMs: 10 * 60_000
    })
    for (const line of reportLines(r, masks, options.debug)) show(line)
    const outcome: Outcome = r.code === 0 ? 'success' : 'failure'
    show(`  -> ${outcome} (exit ${r.code ?? 'killed'}, ${r.ms} ms)`)
    if (outcome === 'failure') status = 'failure'
    posts.push({ step: run.step, outcome, summary: r.summary })
  }
  return { job: job.id, status, steps: runs, posts, ran }
}
