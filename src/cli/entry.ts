/**
 * The command's start (dist/cli.js, the package's `monitoring-ci`): the
 * process's arguments, environment, streams and signals, handed to the
 * command; its status becomes the process's exit code.
 */
import { command } from './main.js'

export async function startCommand(): Promise<void> {
  process.exitCode = await command({
    argv: process.argv.slice(2),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    signals: process
  })
}
