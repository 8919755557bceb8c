/**
 * The runner's door: what run() is given when the Actions runner starts the
 * step (the interface is the core's, core/dependencies.ts): @actions/core,
 * the clock, the environment, the run's facts as GitHub Actions gives them,
 * the process's signals and exit, and the wait for the runner to read stdout.
 */
import * as core from '@actions/core'
import { realClock } from '../api/pacer.js'
import { Dependencies, makeApi, stdoutDrained } from '../core/dependencies.js'
import { loadRunContext } from '../github/run-facts.js'

export function defaultDependencies(): Dependencies {
  return {
    core,
    clock: realClock,
    env: process.env,
    runContext: () => loadRunContext(),
    makeApi,
    signals: process,
    exit: code => process.exit(code),
    drained: stdoutDrained(process.stdout)
  }
}
