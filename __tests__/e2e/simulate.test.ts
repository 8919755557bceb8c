/**
 * The seeded simulation (`npm run simulate`): a fixed-seed budget finds no
 * violation in the committed bundle, the same seed draws the same rounds, and
 * deliberately broken builds are caught, so the invariants can say no.
 */
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Round, drawRound, touches } from '../../scripts/lib/simulate/schedule.js'
import { ROOT } from '../helpers/runner.js'

function simulate(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise(resolve => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/simulate.ts'), ...args],
      { cwd: ROOT, timeout: 170_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout })
    )
  })
}

const REAL_MAIN = `import ${JSON.stringify(join(ROOT, 'dist/index.js'))}\n`
const REAL_POST = `import ${JSON.stringify(join(ROOT, 'dist/post.js'))}\n`

/** A build (a folder with index.js and post.js, as --action takes) broken on purpose. */
function brokenBuild(name: string, main: string, post: string): string {
  const dir = mkdtempSync(join(tmpdir(), `broken-${name}-`))
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n')
  writeFileSync(join(dir, 'index.js'), main)
  writeFileSync(join(dir, 'post.js'), post)
  return dir
}

/** The main step is the real one; the post step does nothing: auto-resume broken. */
const buildWithoutPostStep = () => brokenBuild('post', REAL_MAIN, '// the post step resumes nothing\n')

/** Runs the real step, then prints the key it was given: a leak. */
const buildThatLeaks = () =>
  brokenBuild(
    'leak',
    `${REAL_MAIN}process.on('exit', () => process.stdout.write('key ' + process.env['INPUT_API-KEY'] + '\\n'))\n`,
    REAL_POST
  )

/** The gate ignores freshness (require-fresh forced off): a stale result passes. */
const buildThatTrustsStaleResults = () =>
  brokenBuild(
    'gate',
    `process.env['INPUT_REQUIRE-FRESH'] = 'false'\nawait import(${JSON.stringify(join(ROOT, 'dist/index.js'))})\n`,
    REAL_POST
  )

/** The first seed whose round has what a test needs (the draw is a pure function of the seed). */
function seedWhere(wanted: (round: Round) => boolean): number {
  for (let seed = 1; seed < 1000; seed++) if (wanted(drawRound(seed))) return seed
  throw new Error('no seed under 1000 draws such a round')
}

describe('npm run simulate', () => {
  it('draws the same rounds from the same seed', () => {
    expect(JSON.stringify(drawRound(1234))).toBe(JSON.stringify(drawRound(1234)))
    expect(JSON.stringify(drawRound(1234))).not.toBe(JSON.stringify(drawRound(1235)))
    const round = drawRound(99)
    expect(round.runs.length).toBeGreaterThanOrEqual(2)
    expect(round.runs.length).toBeLessThanOrEqual(6)
  })

  it('finds no violation in the committed bundle over a fixed-seed budget', async () => {
    const r = await simulate(['--seed', '1', '--rounds', '12', '--term-after', '2000'])
    expect(r.stdout).toMatch(/12 rounds, \d+ runs \(\d+ processes\), \d+ faults, \d+ cancels, 0 violations/)
    expect(r.code).toBe(0)
  })

  it('catches a build whose post step resumes nothing (a check is left paused), and prints the replay', async () => {
    const seed = seedWhere(
      round => round.runs.some(run => run.kind === 'pause') && !round.runs.some(run => run.kind === 'resume')
    )
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildWithoutPostStep()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: check \S+ \(.*\) was left paused/)
    expect(r.stdout).toContain(`replay: npm run simulate -- --seed ${seed} --rounds 1`)
    expect(r.stdout).toContain(`schedule: {"seed":${seed}`)
  })

  it('catches a build that prints its key', async () => {
    const r = await simulate(['--seed', '1', '--rounds', '1', '--action', buildThatLeaks()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: run \d+ \(\w+\) main wrote a secret/)
  })

  it('catches a build whose gate passes on a stale result', async () => {
    const seed = seedWhere(
      round =>
        round.faults.length === 0 &&
        round.runs.some(run => {
          const target = round.world.checks.find(c => c.name === run.inputs['check-name'])
          return (
            run.kind === 'gate' &&
            run.cancelMs === undefined &&
            run.inputs['require-fresh'] === 'true' &&
            target !== undefined &&
            target.stale &&
            !target.down &&
            !target.paused &&
            !round.runs.some(other => other.kind === 'pause' && touches(other, target.name))
          )
        })
    )
    const good = await simulate(['--seed', String(seed), '--rounds', '1'])
    expect(good.stdout).toContain('0 violations')
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildThatTrustsStaleResults()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: run \d+ \(gate\) passed on .*whose last result .* is older than the step/)
  })
})
