/**
 * `npm run plant [-- NAME...]`: the one-line bugs an audit planted by hand in
 * the modules that own the trust rules (issue 41), each planted again, one at
 * a time, in a copy of the project, and run against the tests that must catch
 * it: the test named for it must fail. A bug it lets through fails the run,
 * and so does a bug whose line is no longer in its file as written here (the
 * list follows the code), or whose tests do not end within RUN_MS.
 *
 * The copy holds the tracked files and links node_modules: the project
 * itself is never edited. Each line printed names the bug and whether its
 * tests caught it; the exit status is 1 when one was not caught or could not
 * be planted.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

interface Bug {
  /** A short name to pick it by (`npm run plant -- NAME`). */
  name: string
  /** The bug as the audit wrote it. */
  bug: string
  file: string
  /** The text replaced: it must stand exactly once in the file. */
  from: string
  to: string
  /** The test files (under __tests__, without .test.ts) to run with the bug planted. */
  tests: string[]
  /** Part of the full name of the test that must fail with it (a failure elsewhere, a slow machine's, is no catch). */
  caughtBy: string
}

const BUGS: Bug[] = [
  {
    name: 'empty-status',
    bug: 'a check with an empty or missing status passes the gate',
    file: 'src/operations/gate/judge.ts',
    from: 'if (status.toLowerCase() !== rules.expectedStatus.toLowerCase()) {',
    to: "if (status !== '' && status.toLowerCase() !== rules.expectedStatus.toLowerCase()) {",
    tests: ['unit/judge-edges'],
    caughtBy: 'an empty or missing status never passes'
  },
  {
    name: 'degraded-up',
    bug: 'a degraded result counts as up in the error budget',
    file: 'src/operations/gate/budget.ts',
    from: "str(entry.status).trim().toLowerCase() === 'up'",
    to: "str(entry.status).trim().toLowerCase() !== 'down'",
    tests: ['unit/budget'],
    caughtBy: 'a degraded result is a failed one, not up'
  },
  {
    name: 'fresh-60s',
    bug: 'a result up to 60 s before the freshness line counted as fresh (the allowance raised)',
    file: 'src/operations/gate/ledger.ts',
    from: 'if (reading.at <= ledger.freshAfter) {',
    to: 'if (reading.at <= ledger.freshAfter - 60_000) {',
    tests: ['unit/ledger', 'unit/judge-edges'],
    caughtBy: 'fresh is newer than the first read showed'
  },
  {
    name: 'five-skipped',
    bug: 'exactly 5 results in the window skipped instead of judged',
    file: 'src/operations/gate/budget.ts',
    from: 'if (results < MIN_BUDGET_RESULTS) {',
    to: 'if (results <= MIN_BUDGET_RESULTS) {',
    tests: ['unit/budget'],
    caughtBy: 'exactly 5 results (the minimum) are judged'
  },
  {
    name: 'tolerance-smaller',
    bug: 'one probe counted twice: the tolerance from the smaller of the two response times',
    file: 'src/operations/gate/ledger.ts',
    from: '? Math.max(a.durationMs, b.durationMs)',
    to: '? Math.min(a.durationMs, b.durationMs)',
    tests: ['unit/ledger'],
    caughtBy: 'the tolerance is from the larger'
  },
  {
    name: 'closeness-smaller',
    bug: 'one probe counted twice: closeness as the smaller of 2 ms and 5%',
    file: 'src/operations/gate/ledger.ts',
    from: 'Math.abs(x - y) <= Math.max(2, 0.05 * Math.max(x, y))',
    to: 'Math.abs(x - y) <= Math.min(2, 0.05 * Math.max(x, y))',
    tests: ['unit/ledger'],
    caughtBy: 'close response times are within 5% of the larger'
  },
  {
    name: 'same-second',
    bug: 'two resources with the same whole-second createdAt ordered by list position, not by id',
    file: 'src/operations/names/converge.ts',
    from: 'return a.id < b.id ? -1 : a.id > b.id ? 1 : 0',
    to: 'return 0',
    tests: ['unit/list-snapshot'],
    caughtBy: 'the same whole-second createdAt proves neither older'
  },
  {
    name: 'shorter-first',
    bug: 'the shorter of two secret forms replaced first (abcd1234 shows as ***1234)',
    file: 'src/secrets/secrets.ts',
    from: '(a, b) => b.length - a.length',
    to: '(a, b) => a.length - b.length',
    tests: ['unit/secret-positions', 'unit/trust'],
    caughtBy: 'the longer of two forms is replaced first'
  },
  {
    name: 'bearer-letters',
    bug: 'Authorization: Bearer abcdefgh (letters only, under 16 characters) not masked',
    file: 'src/secrets/secret-positions.ts',
    from: '(scheme !== undefined || secretLooking(v))',
    to: 'secretLooking(v)',
    tests: ['unit/secret-positions'],
    caughtBy: 'a letters-only Bearer token under 16 characters is still masked'
  },
  {
    name: 'encoded-name',
    bug: 'a parameter named api%5Fkey not masked',
    file: 'src/secrets/secret-positions.ts',
    from: 'const decoded = decodedName(name)',
    to: 'const decoded = name',
    tests: ['unit/secret-positions'],
    caughtBy: 'a percent-encoded parameter name is decoded before it is judged'
  },
  {
    name: 'proxy-password',
    bug: 'a proxy URL with a password and no user kept',
    file: 'src/secrets/secret-positions.ts',
    from: 'if (!parsed.username && !parsed.password) return url',
    to: 'if (!parsed.username) return url',
    tests: ['unit/secret-positions'],
    caughtBy: 'a proxy URL with a password and no user'
  },
  {
    name: 'paused-upper',
    bug: 'a status PAUSED (upper case) read as running, so the post step resumes a check paused before the step',
    file: 'src/operations/names/check-targets.ts',
    from: 'export const isPaused = (c: Check) => str(c.status).toLowerCase() === PAUSED',
    to: 'export const isPaused = (c: Check) => str(c.status) === PAUSED',
    tests: ['integration/moving-lists'],
    caughtBy: 'an upper-case PAUSED is paused'
  },
  {
    name: 'failed-pause-done',
    bug: "a failed pause reported as done in the step's outputs",
    file: 'src/operations/checks/pause.ts',
    from: '{ changed: done.length > 0 }',
    to: '{ changed: true }',
    tests: ['integration/cancel-and-bounds'],
    caughtBy: 'a failed pause is never reported as done'
  }
]

/** A planted bug's tests get this long (a bug may make a wait endless): past it, the bug counts as not caught. */
const RUN_MS = 5 * 60_000

interface JestReport {
  testResults: Array<{ assertionResults: Array<{ fullName: string; status: string }> }>
}

/** The project's tracked files copied to a new directory, node_modules linked: the copy bugs are planted in. */
function copyOf(root: string, copy: string): void {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  if (listed.status !== 0) throw new Error(`git ls-files failed (exit ${listed.status}): ${listed.stderr.trim()}`)
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true })
    cpSync(join(root, file), join(copy, file))
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))
}

/** Plant `bug` in `copy`, run its tests, take the bug out: the names of the tests that failed, or why none ran. */
function failingWith(copy: string, bug: Bug): { failed: string[] } | { error: string } {
  const path = join(copy, bug.file)
  const original = readFileSync(path, 'utf8')
  const times = original.split(bug.from).length - 1
  if (times !== 1)
    return { error: `"${bug.from}" stands ${times} times in ${bug.file} (the list must follow the code)` }
  const report = join(copy, 'plant-report.json')
  rmSync(report, { force: true })
  writeFileSync(path, original.split(bug.from).join(bug.to))
  try {
    const run = spawnSync(
      process.execPath,
      [
        '--experimental-vm-modules',
        'node_modules/jest/bin/jest.js',
        '--maxWorkers=1',
        '--silent',
        '--json',
        `--outputFile=${report}`,
        ...bug.tests.map(t => `__tests__/${t}.test.ts`)
      ],
      { cwd: copy, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, timeout: RUN_MS, maxBuffer: 64 << 20 }
    )
    if (run.error) return { error: `the tests did not end: ${run.error.message}` }
    const results = (JSON.parse(readFileSync(report, 'utf8')) as JestReport).testResults
    const failed = results.flatMap(r => r.assertionResults.filter(a => a.status === 'failed').map(a => a.fullName))
    return { failed }
  } catch (error) {
    return { error: `the tests did not run: ${error instanceof Error ? error.message : String(error)}` }
  } finally {
    writeFileSync(path, original)
  }
}

function main(): void {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const asked = process.argv.slice(2)
  const unknown = asked.filter(name => !BUGS.some(b => b.name === name))
  if (unknown.length > 0) {
    console.error(`npm run plant: no bug ${unknown.join(', ')}; the bugs are ${BUGS.map(b => b.name).join(', ')}`)
    process.exit(2)
  }
  const copy = mkdtempSync(join(tmpdir(), 'plant-'))
  const cleanUp = () => rmSync(copy, { recursive: true, force: true })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      cleanUp()
      process.exit(130)
    })
  }
  let missed = 0
  try {
    copyOf(root, copy)
    for (const bug of asked.length > 0 ? BUGS.filter(b => asked.includes(b.name)) : BUGS) {
      const outcome = failingWith(copy, bug)
      const catching = 'failed' in outcome ? outcome.failed.filter(name => name.includes(bug.caughtBy)) : []
      if (catching.length > 0) {
        console.log(`caught       ${bug.name}: ${bug.bug}; failing: ${catching.join(' | ')}`)
        continue
      }
      missed++
      const why =
        'error' in outcome
          ? outcome.error
          : `no test named "${bug.caughtBy}" fails (failing: ${outcome.failed.join(' | ') || 'none'})`
      console.log(`NOT CAUGHT   ${bug.name}: ${bug.bug}: ${why}`)
    }
  } finally {
    cleanUp()
  }
  console.log(missed === 0 ? 'Every planted bug was caught.' : `${missed} planted bug(s) not caught or not planted.`)
  process.exitCode = missed === 0 ? 0 : 1
}

main()
