/**
 * `npm run lint:workflows [-- PATH...]`: lint GitHub Actions workflows with
 * actionlint (v1.7.7, which knows `vars`) and GitHub's own workflow parser,
 * and hold every step that uses this action to its action.yml. Without a
 * path: this project's .github/workflows/ and examples/. A path is a workflow
 * file or a folder of them, relative to where npm was run. Exits 1 on any
 * finding, 2 on a path that does not exist.
 */
import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { PROJECT_WORKFLOW_DIRS, lintWorkflow, workflowFiles } from './lib/workflow-lint.js'

// npm runs scripts from the package's folder; INIT_CWD is where the user typed the command.
const cwd = process.env.INIT_CWD ?? process.cwd()
const args = process.argv.slice(2)
let files: string[]
try {
  files = workflowFiles(args.length > 0 ? args.map(path => resolve(cwd, path)) : PROJECT_WORKFLOW_DIRS)
} catch (error) {
  console.error(`lint:workflows: ${(error as Error).message}`)
  process.exit(2)
}
if (files.length === 0) {
  console.error('lint:workflows: no .yml or .yaml file there')
  process.exit(2)
}
let problems = 0
for (const file of files) {
  const shown = relative(cwd, file) || file
  for (const f of await lintWorkflow(readFileSync(file, 'utf8'), shown)) {
    problems++
    console.log(`${f.file}:${f.line}:${f.column}: ${f.message} [${f.by}]`)
  }
}
console.log(
  `lint:workflows: ${files.length} workflow file(s), ${problems} problem(s) (actionlint 1.7.7 and GitHub's workflow parser)`
)
process.exit(problems > 0 ? 1 : 0)
