/**
 * `npm run local`'s entry point for @github/local-action: the action's run(),
 * with the step's result kept as the process's exit code. local-action's
 * setFailed only records a failure (its process exits 0), so a failed step
 * would look like a success to a shell or a test.
 */
import { defaultDependencies, run as runAction } from '../src/main.js'

export async function run(): Promise<void> {
  const deps = defaultDependencies()
  let failed = false
  const core = {
    ...deps.core,
    setFailed: (message: string) => {
      failed = true
      deps.core.setFailed(message)
    }
  }
  await runAction({ ...deps, core })
  if (failed) process.exitCode = 1
}
