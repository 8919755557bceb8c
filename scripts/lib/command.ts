/**
 * Run the committed command (dist/cli.js) the way a shell in another CI
 * does: arguments, MONITORING_* variables, standard output read as the one
 * JSON object it prints last, standard error as its log.
 */
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { ROOT, runNode } from './runner.js'

export const COMMAND = join(ROOT, 'dist', 'cli.js')

export interface CommandResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** The JSON object on standard output's last line ({} when there is none). */
  json: Record<string, string>
  ms: number
}

export interface CommandOptions {
  /** The environment beside PATH and HOME (no GITHUB_* unless given: a shell outside GitHub Actions). */
  env?: NodeJS.ProcessEnv
  cwd?: string
  timeoutMs?: number
  onSpawn?: (child: ChildProcess) => void
  node?: string
  /** The build of the command to run (default: COMMAND, the committed dist/cli.js). */
  file?: string
}

export async function runCommand(args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...(options.env ?? {}) }
  const ran = await runNode([options.file ?? COMMAND, ...args], { ...options, env })
  const last = ran.stdout.trimEnd().split('\n').pop() ?? ''
  let json: Record<string, string>
  try {
    json = last.startsWith('{') ? (JSON.parse(last) as Record<string, string>) : {}
  } catch {
    json = {}
  }
  return { ...ran, json }
}
