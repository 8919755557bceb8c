/**
 * The contexts of a local run, each value local and said: `github` (the event
 * of the workflow's first `on:` entry, or `--github event_name=...`, with a
 * made-up payload; `acme/shop` at `refs/heads/main`; a fake token for the
 * fake GitHub), `vars` and `secrets` (the API's root and key are the
 * emulator's; any other is taken from the environment variable of its name,
 * else empty), `inputs` (workflow_dispatch defaults), `needs` (each job
 * needed taken as succeeded, without outputs) and `runner`.
 */
import { readFileSync } from 'node:fs'
import type { Contexts } from './expressions.js'
import type { Job, Workflow } from './workflow.js'

export const LOCAL_SHA = '0123456789abcdef0123456789abcdef01234567'
/** An installation token's form (`ghs_`): the fake GitHub writes as the job's bot with it, as GitHub does. */
export const LOCAL_TOKEN = 'ghs_localRunToken0123456789abcdef'
export const LOCAL_REPOSITORY = 'acme/shop'

/** One `--github PATH=VALUE`: a dotted path into the github context, and a value (JSON when it parses as JSON). */
export type GithubOverride = [path: string, value: unknown]

export function parseOverride(text: string): GithubOverride {
  const at = text.indexOf('=')
  const path = at > 0 ? text.slice(0, at).trim() : ''
  if (!/^[A-Za-z_][\w-]*(\.[\w-]+)*$/.test(path)) {
    throw new Error(
      `--github takes PATH=VALUE (event_name=push, event.pull_request.merged=true), got ${JSON.stringify(text)}`
    )
  }
  const raw = text.slice(at + 1)
  try {
    return [path, JSON.parse(raw)]
  } catch {
    return [path, raw]
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let at = target
  for (const key of keys.slice(0, -1)) {
    const next = at[key]
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[key] = {}
    at = at[key] as Record<string, unknown>
  }
  at[keys[keys.length - 1]] = value
}

const first = (value: unknown): string | undefined =>
  Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

/** A made-up payload of the event, as GitHub would send it for this repository. */
function payloadOf(event: string, filters: Record<string, unknown>, inputs: Record<string, unknown>) {
  const [owner, name] = LOCAL_REPOSITORY.split('/')
  const repository = { full_name: LOCAL_REPOSITORY, name, owner: { login: owner } }
  if (event === 'pull_request' || event === 'pull_request_target') {
    return {
      action: first(filters.types) ?? 'opened',
      number: 1,
      pull_request: {
        number: 1,
        title: 'A local change',
        merged: false,
        labels: [],
        head: { ref: 'local-change', sha: LOCAL_SHA },
        base: { ref: 'main', sha: 'fedcba9876543210fedcba9876543210fedcba98' },
        merge_commit_sha: LOCAL_SHA,
        html_url: `https://github.com/${LOCAL_REPOSITORY}/pull/1`
      },
      repository
    }
  }
  if (event === 'push') return { ref: 'refs/heads/main', after: LOCAL_SHA, head_commit: { id: LOCAL_SHA }, repository }
  if (event === 'workflow_dispatch') return { inputs, ref: 'refs/heads/main', repository }
  return { repository }
}

/** `refs/heads/x` -> x (branch), `refs/tags/v1` -> v1 (tag), `refs/pull/1/merge` -> 1/merge. */
function refParts(ref: string): { ref_name: string; ref_type: string } {
  const m = /^refs\/(heads|tags|pull)\/(.+)$/.exec(ref)
  return { ref_name: m ? m[2] : ref, ref_type: m?.[1] === 'tags' ? 'tag' : 'branch' }
}

export interface LocalValues {
  contexts: Omit<Contexts, 'env' | 'steps' | 'job'>
  /** What each local value is, one line each, for the run's header. */
  notes: string[]
}

export interface LocalValuesOptions {
  overrides: GithubOverride[]
  /** Where other secrets and vars come from (process.env). */
  env: NodeJS.ProcessEnv
  baseUrl: string
  apiKey: string
  githubUrl: string
  workspace: string
  runnerTemp: string
}

/** Every `secrets.NAME` / `vars.NAME` the file names, in order, once. */
function named(text: string, context: 'secrets' | 'vars'): string[] {
  return [...new Set([...text.matchAll(new RegExp(`\\b${context}\\.([A-Za-z_][A-Za-z0-9_]*)`, 'g'))].map(m => m[1]))]
}

export function localValues(workflow: Workflow, job: Job, options: LocalValuesOptions): LocalValues {
  const overrides = new Map(options.overrides)
  const eventName = String(overrides.get('event_name') ?? workflow.events[0]?.name ?? 'push')
  const filters = workflow.events.find(e => e.name === eventName)?.filters ?? {}
  const dispatchDefaults = Object.fromEntries(
    Object.entries(workflow.dispatchInputs).map(([name, input]) => [name, input.default ?? ''])
  )
  const pullRequest = eventName === 'pull_request' || eventName === 'pull_request_target'
  const [owner] = LOCAL_REPOSITORY.split('/')
  const github: Record<string, unknown> = {
    event_name: eventName,
    event: payloadOf(eventName, filters, dispatchDefaults),
    repository: LOCAL_REPOSITORY,
    repository_owner: owner,
    ref: pullRequest ? 'refs/pull/1/merge' : 'refs/heads/main',
    sha: LOCAL_SHA,
    head_ref: pullRequest ? 'local-change' : '',
    base_ref: pullRequest ? 'main' : '',
    workflow: workflow.name ?? workflow.file,
    job: job.id,
    run_id: '1',
    run_number: '1',
    run_attempt: '1',
    actor: 'local',
    triggering_actor: 'local',
    server_url: 'https://github.com',
    api_url: options.githubUrl,
    graphql_url: `${options.githubUrl}/graphql`,
    token: LOCAL_TOKEN,
    workspace: options.workspace,
    action: '',
    retention_days: '90'
  }
  for (const [path, value] of overrides) setPath(github, path, value)
  const ref = String(github.ref)
  github.ref_name ??= refParts(ref).ref_name
  github.ref_type ??= refParts(ref).ref_type
  const given = (github.event as Record<string, unknown>).inputs
  const inputs = { ...dispatchDefaults, ...(typeof given === 'object' && given !== null ? given : {}) }

  const text = readFileSync(workflow.file, 'utf8')
  // The secret and variable this action's steps take as api-key and base-url: the emulator's.
  const fromSteps = (input: string, context: 'secrets' | 'vars') =>
    job.steps.flatMap(step => (step.thisAction ? named(step.with[input] ?? '', context) : []))
  const keySecrets = new Set(['MONITORING_API_KEY', ...fromSteps('api-key', 'secrets')])
  const urlVars = new Set(['MONITORING_BASE_URL', ...fromSteps('base-url', 'vars')])
  const secrets: Record<string, string> = { GITHUB_TOKEN: LOCAL_TOKEN }
  const vars: Record<string, string> = {}
  const fromEnv: string[] = []
  const empty: string[] = []
  for (const [context, names, local, value, into] of [
    ['secrets', named(text, 'secrets'), keySecrets, options.apiKey, secrets],
    ['vars', named(text, 'vars'), urlVars, options.baseUrl, vars]
  ] as const) {
    for (const name of names) {
      if (name === 'GITHUB_TOKEN') continue
      if (local.has(name)) into[name] = value
      else if (options.env[name] !== undefined) {
        into[name] = options.env[name] ?? ''
        fromEnv.push(`${context}.${name}`)
      } else {
        into[name] = ''
        empty.push(`${context}.${name}`)
      }
    }
  }
  const needs = Object.fromEntries(job.needs.map(id => [id, { result: 'success', outputs: {} }]))

  const eventNote = overrides.size > 0 ? ` (--github: ${[...overrides.keys()].join(', ')})` : ''
  const notes = [
    `github: event ${eventName}${eventNote}, ${LOCAL_REPOSITORY} at ${ref}, sha ${LOCAL_SHA.slice(0, 7)}, run 1, actor local; github.token is a fake token for the fake GitHub`,
    `vars/secrets: ${[...[...urlVars].map(n => `vars.${n}`), ...[...keySecrets].map(n => `secrets.${n}`)].join(', ')} are the emulator's` +
      (fromEnv.length > 0 ? `; ${fromEnv.join(', ')} from the environment` : '') +
      (empty.length > 0 ? `; ${empty.join(', ')} empty (set an environment variable of that name to give one)` : '')
  ]
  if (Object.keys(inputs).length > 0) {
    notes.push(
      `inputs: ${Object.entries(inputs)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ')}`
    )
  }
  if (job.needs.length > 0) notes.push(`needs: ${job.needs.join(', ')} taken as succeeded, without outputs (not run)`)
  return {
    contexts: {
      github,
      vars,
      secrets,
      inputs,
      needs,
      runner: { os: 'Linux', arch: 'X64', name: 'local', temp: options.runnerTemp, environment: 'self-hosted' }
    },
    notes
  }
}

/** The runner's GITHUB_* and RUNNER_* variables of every step, from the github context. */
export function runnerEnv(github: Record<string, unknown>, eventPath: string, runnerTemp: string): NodeJS.ProcessEnv {
  const s = (key: string) => String(github[key] ?? '')
  return {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKFLOW: s('workflow'),
    GITHUB_JOB: s('job'),
    GITHUB_REPOSITORY: s('repository'),
    GITHUB_REPOSITORY_OWNER: s('repository_owner'),
    GITHUB_REF: s('ref'),
    GITHUB_REF_NAME: s('ref_name'),
    GITHUB_REF_TYPE: s('ref_type'),
    GITHUB_HEAD_REF: s('head_ref'),
    GITHUB_BASE_REF: s('base_ref'),
    GITHUB_SHA: s('sha'),
    GITHUB_RUN_ID: s('run_id'),
    GITHUB_RUN_NUMBER: s('run_number'),
    GITHUB_RUN_ATTEMPT: s('run_attempt'),
    GITHUB_ACTOR: s('actor'),
    GITHUB_TRIGGERING_ACTOR: s('triggering_actor'),
    GITHUB_SERVER_URL: s('server_url'),
    GITHUB_API_URL: s('api_url'),
    GITHUB_GRAPHQL_URL: s('graphql_url'),
    GITHUB_EVENT_NAME: s('event_name'),
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: s('workspace'),
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_TEMP: runnerTemp
  }
}
