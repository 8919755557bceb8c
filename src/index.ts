import { basename } from 'node:path'
import { defaultDependencies, run } from './main.js'

// Three doors into one bundle. dist/cli.js (the command, monitoring-ci) marks the process before it
// imports the bundle, and the command's door is loaded only then. The runner starts dist/index.js for the
// main step and dist/post.js for the post step (action.yml runs.post); dist/post.js only imports this
// file. The stage comes from the file the runner started, never from the environment.
const DOOR = Symbol.for('monitoring-ci.door')
if ((globalThis as Record<symbol, unknown>)[DOOR] === 'command') {
  void import('./cli/entry.js').then(door => door.startCommand())
} else {
  void run(defaultDependencies(), basename(process.argv[1] ?? '') === 'post.js' ? 'post' : 'main')
}
