/**
 * `monitoring-ci pause-check ... -- <command>`: pause, run the command with
 * the same standard streams, then resume exactly as the action's post step
 * does (the core's post stage, with the state the pause saved in this
 * process): only what the pause moved, only while still paused, a pause sent
 * without an answer watched until request-timeout. SIGINT and SIGTERM go on
 * to the command; the resume runs whatever the command did. The status is
 * the command's, or 1 when the pause or the resume failed.
 */
import type * as ChildProcesses from 'node:child_process'
import { constants } from 'node:os'
import type { RunEnd, Stage } from '../core/run.js'

export interface Wrapped {
  command: readonly string[]
  stage: (which: Stage) => Promise<RunEnd>
  signals: NodeJS.EventEmitter
  write: (line: string) => void
  /** The stop signal's status (130, 143) once one arrived, else undefined. */
  stopped: () => number | undefined
  /** Note a stop signal's status (for the command's end). */
  stop: (status: number) => void
}

export async function runWrapped(w: Wrapped): Promise<number> {
  const shown = w.command.map(word => (/^[\w./:=@%+-]+$/.test(word) ? word : JSON.stringify(word))).join(' ')
  const paused = await w.stage('main')
  if (paused === 'usage') return 2
  let status: number
  if (paused === 'failed' || w.stopped() !== undefined) {
    w.write(`The pause did not complete, so ${shown} is not run; what it paused is resumed now.`)
    status = 1
  } else {
    w.write(`Running ${shown} while the checks are paused.`)
    status = await runCommand(w, shown, await childProcesses())
    w.write(`${shown} ended with status ${status}; resuming what the pause paused.`)
  }
  const resumed = await w.stage('post')
  return resumed === 'done' ? status : 1
}

/**
 * node:child_process, read only here: the command's door is part of the action's bundle, and
 * a module imported at its top is read by every step (it reads dgram and more; the startup test
 * holds a get-check to reading none of them).
 */
async function childProcesses(): Promise<typeof ChildProcesses> {
  return process.getBuiltinModule?.('node:child_process') ?? (await import('node:child_process'))
}

/** Run the command; its exit status (128 + the signal's number when a signal ended it, 127 when it could not start). */
function runCommand(w: Wrapped, shown: string, { spawn }: typeof ChildProcesses): Promise<number> {
  return new Promise(done => {
    const child = spawn(w.command[0], w.command.slice(1), { stdio: 'inherit' })
    const forward = (signal: NodeJS.Signals, status: number) => () => {
      w.stop(status)
      child.kill(signal)
    }
    const int = forward('SIGINT', 130)
    const term = forward('SIGTERM', 143)
    w.signals.on('SIGINT', int)
    w.signals.on('SIGTERM', term)
    const end = (status: number) => {
      w.signals.off('SIGINT', int)
      w.signals.off('SIGTERM', term)
      done(status)
    }
    child.on('error', error => {
      w.write(`error: ${shown} could not be started: ${error.message}`)
      end(127)
    })
    child.on('exit', (code, signal) => end(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)))
  })
}
