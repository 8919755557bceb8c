import { basename } from 'node:path'
import { defaultDependencies, run } from './main.js'

// The runner starts dist/post.js for the post step (action.yml runs.post); dist/post.js only imports
// this file. The stage comes from the file the runner started, never from the environment.
void run(defaultDependencies(), basename(process.argv[1] ?? '') === 'post.js' ? 'post' : 'main')
