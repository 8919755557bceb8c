/**
 * Run the committed bundle (dist/index.js) the way the Actions runner does:
 * INPUT_* variables (upper-cased, hyphens kept), GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY and GITHUB_STATE files, STATE_* for the post step.
 * Asynchronous, so an emulator in the test process can answer it.
 */
import { ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const BUNDLE = join(ROOT, 'dist', 'index.js')
/** The post step's entry, as action.yml names it. */
export const POST_BUNDLE = join(ROOT, 'dist', 'post.js')

export interface StepResult {
  code: number | null
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  state: Record<string, string>
  ms: number
  /** Everything the step printed or wrote. */
  all: string
}

/** Parse the runner's `name<<delimiter` file format (GITHUB_OUTPUT, GITHUB_STATE). */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i])
    if (m) {
      const value: string[] = []
      for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i])
      out[m[1]] = value.join('\n')
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=')
      out[lines[i].slice(0, at)] = lines[i].slice(at + 1)
    }
  }
  return out
}

export interface StepOptions {
  env?: NodeJS.ProcessEnv
  /** State saved by the main step (STATE_* variables); given, this run is the post step unless `post` says otherwise. */
  state?: Record<string, string>
  /** Run the post step's entry (dist/post.js), as the runner does; default: when `state` is given. */
  post?: boolean
  /** Another build's folder holding index.js and post.js (default: this repository's dist/). */
  distDir?: string
  node?: string
  /** Options for node before the bundle (e.g. `--import hook.mjs`). */
  nodeArgs?: string[]
  cwd?: string
  timeoutMs?: number
  /** Called with the child process once it started (to send it signals, as the runner does on cancel). */
  onSpawn?: (child: ChildProcess) => void
}

export async function runStep(inputs: Record<string, string>, options: StepOptions = {}): Promise<StepResult> {
  const dir = mkdtempSync(join(tmpdir(), 'step-'))
  const files = {
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
    GITHUB_STATE: join(dir, 'state')
  }
  for (const f of Object.values(files)) writeFileSync(f, '')
  // The runner's temporary folder, of this step alone (dist/index.js keeps Node's compile cache there).
  const temp = join(dir, 'temp')
  mkdirSync(temp)
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: options.cwd ?? ROOT,
    RUNNER_TEMP: temp,
    ...files,
    ...(options.env ?? {})
  }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  for (const [name, value] of Object.entries(options.state ?? {})) env[`STATE_${name}`] = value
  const script = join(
    options.distDir ?? join(ROOT, 'dist'),
    (options.post ?? options.state !== undefined) ? 'post.js' : 'index.js'
  )
  const ran = await runNode([...(options.nodeArgs ?? []), script], { ...options, env })
  const read = (f: string) => readFileSync(f, 'utf8')
  const outputs = parseCommandFile(read(files.GITHUB_OUTPUT))
  const summary = read(files.GITHUB_STEP_SUMMARY)
  const state = parseCommandFile(read(files.GITHUB_STATE))
  rmSync(dir, { recursive: true, force: true })
  return {
    ...ran,
    outputs,
    summary,
    state,
    all: [ran.stdout, ran.stderr, JSON.stringify(outputs), summary, JSON.stringify(state)].join('\n')
  }
}

/** A node process as a step or a shell starts it: its streams read whole, its time, killed past `timeoutMs` (60 s). */
export interface NodeRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  ms: number
}

export function runNode(
  args: readonly string[],
  options: {
    env: NodeJS.ProcessEnv
    cwd?: string
    node?: string
    timeoutMs?: number
    onSpawn?: (child: ChildProcess) => void
  }
): Promise<NodeRun> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, args, { env: options.env, cwd: options.cwd ?? ROOT })
    options.onSpawn?.(child)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => (stdout += d))
    child.stderr.on('data', d => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started })
    })
  })
}
