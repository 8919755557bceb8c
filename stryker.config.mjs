/**
 * Mutation testing of the modules that own the trust rules: `npm run mutate`
 * (scripts/mutate.ts runs one group at a time). Each group names the modules
 * it mutates and the tests that judge them: the unit tests of those rules and
 * the integration tests that drive them through the emulator. The e2e suite
 * runs the committed bundle, which mutation does not touch.
 *
 * The groups are in mutation-groups.json; MUTATE_GROUP picks one (default: the
 * first). docs/reasoning/mutation.md has the scores and the equivalent mutants.
 */
import { readFileSync } from 'node:fs'

/** The groups: { name: { mutate: [modules], tests: [test files under __tests__, without .test.ts] } }. */
const GROUPS = JSON.parse(readFileSync(new URL('./mutation-groups.json', import.meta.url), 'utf8'))

const name = process.env.MUTATE_GROUP ?? Object.keys(GROUPS)[0]
const chosen = GROUPS[name]
if (!chosen) throw new Error(`MUTATE_GROUP: no group ${name}; the groups are ${Object.keys(GROUPS).join(', ')}`)
// MUTATE_UNIT=1 (npm run mutate -- --unit): the group's unit tests only, the quick run CI makes.
const unitOnly = process.env.MUTATE_UNIT === '1'
const group = { ...chosen, tests: unitOnly ? chosen.tests.filter(test => test.startsWith('unit/')) : chosen.tests }
if (group.tests.length === 0) throw new Error(`MUTATE_GROUP ${name} has no unit tests for MUTATE_UNIT=1`)
const report = `reports/mutation/${name}${unitOnly ? '.unit' : ''}`

/**
 * A group's module, or `FILE@NAME`: only the declaration of NAME in FILE (`export const NAME` on one
 * line, or `export function NAME` to its closing brace at the line's start), as Stryker's line range.
 * A rule a trust module shares from a ground-floor file (values.ts NUMERIC) is mutated with its group.
 */
function mutateRange(entry) {
  const [file, declared] = entry.split('@')
  if (declared === undefined) return entry
  const lines = readFileSync(new URL(`./${file}`, import.meta.url), 'utf8').split('\n')
  const start = lines.findIndex(line => new RegExp(`^export (const|function) ${declared}\\b`).test(line))
  if (start < 0) throw new Error(`mutation-groups.json: ${file} declares no ${declared}`)
  const end = lines[start].trimEnd().endsWith('{')
    ? lines.findIndex((line, i) => i > start && line.startsWith('}'))
    : start
  return `${file}:${start + 1}-${end + 1}`
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  jest: {
    configFile: 'jest.config.js',
    config: { testMatch: group.tests.map(test => `<rootDir>/__tests__/${test}.test.ts`) },
    enableFindRelatedTests: false
  },
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'perTest',
  mutate: group.mutate.map(mutateRange),
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `${report}.json` },
  // Kept in the repository (mutation/), so that CI's reduced run re-tests only what changed since.
  incrementalFile: `mutation/${name}${unitOnly ? '.unit' : ''}.incremental.json`,
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always'
}
