/**
 * A workflow file, read as far as a local run of one job needs: its events,
 * env and jobs; each job's `if:`, `needs:`, env and steps; each step's id,
 * name, `uses:` or `run:`, `with:`, `env:`, `if:`, `continue-on-error:`,
 * `shell:` and `timeout-minutes:`. Values stay as written (expressions
 * included): job.ts evaluates them when the step comes.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { isThisAction } from '../this-action.js'

export interface Step {
  /** 1-based, in the job's order. */
  number: number
  id?: string
  name?: string
  uses?: string
  run?: string
  with: Record<string, string>
  env: Record<string, string>
  /** The `if:` as written (a YAML boolean becomes `true` / `false`). */
  if?: string
  /** `continue-on-error:` as written: `true`, `false` or an expression. */
  continueOnError?: string
  shell?: string
  timeoutMinutes?: number
  /** Whether `uses:` names this action. */
  thisAction: boolean
}

export interface Job {
  id: string
  name?: string
  if?: string
  needs: string[]
  env: Record<string, string>
  timeoutMinutes?: number
  steps: Step[]
}

/** A `workflow_dispatch` input as declared (its default feeds the `inputs` context). */
export interface DispatchInput {
  default?: string
}

export interface Workflow {
  file: string
  name?: string
  /** The events of `on:`, in the file's order, with their filters (`types:`, `branches:`...) as written. */
  events: Array<{ name: string; filters: Record<string, unknown> }>
  dispatchInputs: Record<string, DispatchInput>
  env: Record<string, string>
  jobs: Job[]
}

type Mapping = Record<string, unknown>
const isMapping = (value: unknown): value is Mapping =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A scalar as the runner reads it: a string; YAML's numbers and booleans as written. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}

function strings(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (!isMapping(value)) throw new Error(`${where} must be a mapping`)
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, text(v) ?? '']))
}

function eventsOf(on: unknown): Workflow['events'] {
  if (typeof on === 'string') return [{ name: on, filters: {} }]
  if (Array.isArray(on)) return on.map(name => ({ name: String(name), filters: {} }))
  if (isMapping(on)) {
    return Object.entries(on).map(([name, filters]) => ({ name, filters: isMapping(filters) ? filters : {} }))
  }
  throw new Error('on: names no event')
}

function stepOf(raw: unknown, index: number, job: string, file: string): Step {
  const where = `jobs.${job}.steps[${index}]`
  if (!isMapping(raw)) throw new Error(`${where} must be a mapping`)
  const uses = text(raw.uses)
  const run = text(raw.run)
  if ((uses === undefined) === (run === undefined)) throw new Error(`${where} needs either uses: or run:`)
  const timeout = raw['timeout-minutes']
  return {
    number: index + 1,
    id: text(raw.id),
    name: text(raw.name),
    uses,
    run,
    with: strings(raw.with, `${where}.with`),
    env: strings(raw.env, `${where}.env`),
    if: text(raw.if),
    continueOnError: text(raw['continue-on-error']),
    shell: text(raw.shell),
    timeoutMinutes: typeof timeout === 'number' ? timeout : undefined,
    thisAction: uses !== undefined && isThisAction(uses, file)
  }
}

function jobOf(id: string, raw: unknown, file: string): Job {
  if (!isMapping(raw)) throw new Error(`jobs.${id} must be a mapping`)
  const needs = raw.needs === undefined ? [] : Array.isArray(raw.needs) ? raw.needs.map(String) : [String(raw.needs)]
  const steps = raw.steps === undefined ? [] : raw.steps
  if (!Array.isArray(steps)) throw new Error(`jobs.${id}.steps must be a list`)
  const timeout = raw['timeout-minutes']
  return {
    id,
    name: text(raw.name),
    if: text(raw.if),
    needs,
    env: strings(raw.env, `jobs.${id}.env`),
    timeoutMinutes: typeof timeout === 'number' ? timeout : undefined,
    steps: steps.map((step, index) => stepOf(step, index, id, file))
  }
}

/** Read a workflow file; a file that is no workflow throws, saying where. */
export function readWorkflow(file: string): Workflow {
  const raw: unknown = parse(readFileSync(file, 'utf8'))
  if (!isMapping(raw)) throw new Error('not a workflow: the file is no mapping')
  if (!isMapping(raw.jobs)) throw new Error('not a workflow: no jobs:')
  const events = eventsOf(raw.on)
  const dispatch = events.find(event => event.name === 'workflow_dispatch')?.filters.inputs
  const dispatchInputs = isMapping(dispatch)
    ? Object.fromEntries(
        Object.entries(dispatch).map(([name, spec]) => [
          name,
          { default: isMapping(spec) ? text(spec.default) : undefined }
        ])
      )
    : {}
  return {
    file,
    name: text(raw.name),
    events,
    dispatchInputs,
    env: strings(raw.env, 'env'),
    jobs: Object.entries(raw.jobs).map(([id, job]) => jobOf(id, job, file))
  }
}

/**
 * The job to run: the one named (by its id or its name), else the first job
 * with a step of this action. An Error says why none is, naming the jobs.
 */
export function pickJob(workflow: Workflow, named?: string): Job {
  const list = workflow.jobs.map(job => job.id).join(', ')
  if (named !== undefined) {
    const job = workflow.jobs.find(j => j.id === named) ?? workflow.jobs.find(j => j.name === named)
    if (!job) throw new Error(`no job ${JSON.stringify(named)} in this workflow; its jobs: ${list}`)
    return job
  }
  const job = workflow.jobs.find(j => j.steps.some(step => step.thisAction))
  if (!job) throw new Error(`no job of this workflow has a step that uses this action; its jobs: ${list}`)
  return job
}

/** How a step is called in the log: its name, else what it runs (as GitHub shows it). */
export function stepTitle(step: Step): string {
  if (step.name) return step.name
  if (step.uses) return step.uses
  const first = (step.run ?? '').trim().split('\n')[0]
  return `Run ${first}`
}

/** The step `--fail-step` names, by its id or its name (or its title, for a step without a name). */
export function findStep(job: Job, named: string): Step {
  const matches = job.steps.filter(step => step.id === named || step.name === named || stepTitle(step) === named)
  if (matches.length === 1) return matches[0]
  const known = job.steps.map(step => (step.id ? `${step.id} (${stepTitle(step)})` : stepTitle(step))).join('; ')
  if (matches.length === 0) throw new Error(`no step ${JSON.stringify(named)} in job ${job.id}; its steps: ${known}`)
  throw new Error(`${matches.length} steps of job ${job.id} are called ${JSON.stringify(named)}: name it by its id`)
}
