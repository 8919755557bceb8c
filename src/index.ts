import { basename } from 'node:path'
import { defaultDependencies, run } from './main.js'
import { startCommand } from './cli/entry.js'

// Three doors into one bundle. dist/cli.js (the command, monitoring-ci) marks the process before it
// imports the bundle, and the command's door is opened only then. The door is in the bundle, not a
// chunk loaded when needed: a chunk that imports the core makes the bundler keep the core's modules
// apart, each whole, and the action's start-up bundle grew by a fifth (docs/benchmarks.md). The
// runner starts dist/index.js for the main step and dist/post.js for the post step (action.yml
// runs.post); dist/post.js only imports this file. The stage comes from the file the runner started, never from the environment.
const DOOR = Symbol.for('monitoring-ci.door')
if ((globalThis as Record<symbol, unknown>)[DOOR] === 'command') {
  void startCommand()
} else {
  void run(defaultDependencies(), basename(process.argv[1] ?? '') === 'post.js' ? 'post' : 'main')
}
