/**
 * The runner's door: what run() is given when the Actions runner starts the
 * step (the interface is the core's, core/dependencies.ts): @actions/core,
 * the clock, the environment, the run's facts as GitHub Actions gives them,
 * the process's signals and exit, and the wait for the runner to read stdout.
 * Without an outputs file (GITHUB_OUTPUT), @actions/core writes each output
 * with the deprecated ::set-output command: the first output says so, as a
 * warning, rather than leave later steps to find them empty in silence.
 */
import * as core from '@actions/core'
import { realClock } from '../api/pacer.js'
import { Dependencies, makeApi, stdoutDrained } from '../core/dependencies.js'
import { loadRunContext } from '../github/run-facts.js'
import type { CoreLike } from '../run/runner.js'

export const OUTPUTS_UNSET =
  "GITHUB_OUTPUT is not set: the step's outputs go to the deprecated ::set-output command instead of the outputs file, and a runner that no longer reads that command drops them (later steps see them empty). A runner sets GITHUB_OUTPUT for each step; an env: that sets it to empty, or a tool that runs the action without it, loses it"

/** @actions/core; without an outputs file, its first output is preceded by the warning OUTPUTS_UNSET. */
export function runnerCore(env: NodeJS.ProcessEnv, actions: CoreLike = core): CoreLike {
  if (env.GITHUB_OUTPUT) return actions
  let told = false
  return {
    ...actions,
    setOutput: (name, value) => {
      if (!told) actions.warning(OUTPUTS_UNSET)
      told = true
      actions.setOutput(name, value)
    }
  }
}

export function defaultDependencies(): Dependencies {
  return {
    core: runnerCore(process.env),
    clock: realClock,
    env: process.env,
    runContext: () => loadRunContext(),
    makeApi,
    signals: process,
    exit: code => process.exit(code),
    drained: stdoutDrained(process.stdout)
  }
}
