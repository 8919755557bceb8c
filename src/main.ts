/**
 * The action's entry (what src/index.ts opens for the runner): the core's
 * run() (core/run.ts) with the runner's dependencies (step/dependencies.ts)
 * unless a caller gives its own, and what tests and scripts take from here.
 * It holds no logic of its own: what a run does is in core/, the runner's
 * door in step/, the command's in cli/.
 */
import type { Dependencies } from './core/dependencies.js'
import { RunEnd, Stage, run as runCore } from './core/run.js'
import { defaultDependencies } from './step/dependencies.js'

export type { Dependencies, Door } from './core/dependencies.js'
export type { RunEnd, Stage } from './core/run.js'
export { makeApi } from './core/dependencies.js'
export { messageOf } from './core/message.js'
export { defaultDependencies } from './step/dependencies.js'

export function run(deps: Dependencies = defaultDependencies(), stage: Stage = 'main'): Promise<RunEnd> {
  return runCore(deps, stage)
}
