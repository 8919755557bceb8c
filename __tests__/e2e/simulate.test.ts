/**
 * The seeded simulation (`npm run simulate`): a fixed set of rounds that
 * reaches every feature (gates with consecutive passes and a baseline while
 * the service probes, exports under rotation, drift watches with an issue a
 * person edits, prune) finds no violation in the committed bundle, the same
 * seed draws the same rounds, and deliberately broken builds are caught, so
 * the invariants can say no.
 */
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FILES, FOREIGN_OURS, FORMS_FILE, Kind, Round, drawRound } from '../../scripts/lib/simulate/schedule.js'
import { MERGED_OWNER } from '../../scripts/lib/simulate/shapes.js'
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

/** Runs the real step, then prints the key it was given (a leak) and masks `true` (hiding every `true`). */
const buildThatLeaks = () =>
  brokenBuild(
    'leak',
    `${REAL_MAIN}process.on('exit', () => process.stdout.write('key ' + process.env['INPUT_API-KEY'] + '\\n::add-mask::true\\n'))\n`,
    REAL_POST
  )

/** The post step is the real one, without the main step's record of writes sent without an answer. */
const buildThatForgetsUnansweredWrites = () =>
  brokenBuild(
    'late',
    REAL_MAIN,
    `delete process.env['STATE_unanswered-writes']\nawait import(${JSON.stringify(join(ROOT, 'dist/post.js'))})\n`
  )

/** The gate counts one result as enough whatever consecutive-passes asks (a probe counted twice looks so). */
const buildThatCountsOnePass = () =>
  brokenBuild(
    'passes',
    `process.env['INPUT_CONSECUTIVE-PASSES'] = '1'\nawait import(${JSON.stringify(join(ROOT, 'dist/index.js'))})\n`,
    REAL_POST
  )

/** A prune whose prefix lost its last character: \`sim-fleet\` also covers sim-fleetwood, which no file lists. */
const buildThatPrunesWider = () =>
  brokenBuild(
    'prune',
    `if (process.env['INPUT_PRUNE-PREFIX']) process.env['INPUT_PRUNE-PREFIX'] = process.env['INPUT_PRUNE-PREFIX'].slice(0, -1)\nawait import(${JSON.stringify(join(ROOT, 'dist/index.js'))})\n`,
    REAL_POST
  )

/** The gate ignores freshness (require-fresh forced off): a stale result passes. */
const buildThatTrustsStaleResults = () =>
  brokenBuild(
    'gate',
    `process.env['INPUT_REQUIRE-FRESH'] = 'false'\nawait import(${JSON.stringify(join(ROOT, 'dist/index.js'))})\n`,
    REAL_POST
  )

/** monitoring-ci that ends at once on SIGTERM (143), before resuming what its pause paused (wrapped.ts). */
function commandThatQuitsOnTerm(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'broken-cli-')), 'cli.mjs')
  writeFileSync(
    file,
    `process.prependListener('SIGTERM', () => process.exit(143))\nawait import(${JSON.stringify(join(ROOT, 'dist/cli.js'))})\n`
  )
  return file
}

/** The first seed whose round has what a test needs (the draw is a pure function of the seed). */
function seedWhere(wanted: (round: Round) => boolean): number {
  // Calm rounds are rare since issue 52's kinds joined the draws: some wanted ones lie past seed 5000.
  for (let seed = 1; seed < 40_000; seed++) if (wanted(drawRound(seed))) return seed
  throw new Error('no seed under 40,000 draws such a round')
}

/** A run of the round that is not cancelled and is so. */
const has = (round: Round, wanted: (run: Round['runs'][number]) => boolean) =>
  round.runs.some(run => run.cancelMs === undefined && wanted(run))
/** Kinds that touch no check holding a secret in the service, no drift issue. */
const PLAIN: Kind[] = [
  'gate',
  'upsert',
  'open',
  'resolve',
  'pause',
  'resume',
  'sync',
  'prefix-pause',
  'budget-gate',
  'burn-gate',
  'pattern-pause',
  'check-api'
]
/**
 * A round whose only trouble is what a control breaks: no fault, no times in another zone-less form, plain
 * kinds, no fleet check that holds an old token (a sync's plan would show it changed), none of issue 37's
 * shapes (shapes.ts), no shared rate-limited key (shared-key.ts), none of issue 50's shapes (two-readers.ts), so
 * the real bundle keeps every invariant there.
 */
const calm = (round: Round) =>
  !round.shapes.drawn &&
  !round.twoReaders.drawn &&
  round.sharedKey === undefined &&
  round.faults.length === 0 &&
  !round.views.slashTimes &&
  round.runs.every(run => PLAIN.includes(run.kind)) &&
  !round.world.more.some(c => c.name.startsWith('sim-fleet-') && c.url.includes('token='))

/** A gate whose target the service probes while it polls (not paused before, nor by a run). */
const probed = (round: Round, run: Round['runs'][number]) => {
  const target = round.world.checks.find(c => c.name === run.inputs['check-name'])
  return (
    run.kind === 'gate' &&
    target !== undefined &&
    !target.paused &&
    round.probes.filter(p => p.name === target.name).length >= 3 &&
    !round.runs.some(other => other.kind === 'pause' && other.inputs['check-name'] === target.name)
  )
}

/** Whether every probe of `name` in the round comes at least `ms` after the one before. */
const probesApart = (round: Round, name: string, ms: number) => {
  const at = round.probes.filter(p => p.name === name).map(p => p.atMs)
  return at.length >= 3 && at.every((t, i) => i === 0 || t - at[i - 1] >= ms)
}

/** Three runs or more that are not cancelled, one of them reading or writing many checks (a sync, prune, drift watch or export). */
const sharingBulk = (round: Round) =>
  round.runs.filter(run => run.cancelMs === undefined).length >= 3 &&
  has(round, run => ['sync', 'prune', 'drift', 'export'].includes(run.kind))

/** What the fixed rounds must reach, each by at least one run that is not cancelled. */
const FEATURES: Record<string, (round: Round) => boolean> = {
  'a gate asking 3 passes while probed, the history recording when a probe started': r =>
    r.views.historyStartedAt && has(r, run => probed(r, run) && run.inputs['consecutive-passes'] === '3'),
  'a gate asking 2 or 3 passes while probed, beside a whole-second history': r =>
    r.views.historyWholeSeconds && has(r, run => probed(r, run) && Number(run.inputs['consecutive-passes']) > 1),
  'a gate with a baseline while probed': r => has(r, run => probed(r, run) && run.inputs.baseline !== undefined),
  'an export by name-prefix, rotated and planned': r =>
    has(r, run => run.kind === 'export' && run.inputs['name-prefix'] !== undefined),
  'an export of every check, rotated and planned': r =>
    has(r, run => run.kind === 'export' && run.inputs['name-prefix'] === undefined),
  'a drift watch whose issue a person edits': r => has(r, run => run.kind === 'drift'),
  'a prune under a prefix': r => has(r, run => run.kind === 'prune'),
  // Issue 37's shapes (shapes.ts).
  'one probe reported at two precisions under a gate asking 2 passes': r =>
    r.shapes.twoPrecisions !== undefined && has(r, run => run.inputs['check-name'] === r.shapes.twoPrecisions?.name),
  // Issue 40's conditions (older.ts).
  'a pause whose PUT the service applies seconds late': r =>
    r.older.lateWrite !== undefined && r.runs.some(run => run.kind === 'pause'),
  'an open or resolve of a title the service changes, over its incident from before': r =>
    r.older.titles !== undefined &&
    r.world.incidents.some(t => t.toLowerCase().startsWith('deploy') && t !== 'Deploy failed') &&
    has(r, run => ['open', 'resolve'].includes(run.kind)),
  'a sync of a checks file whose entries merge a defaults: holder': r =>
    has(r, run => run.kind === 'sync' && run.env[MERGED_OWNER] !== undefined),
  // Issue 50's shapes (two-readers.ts).
  'checks whose userinfo stands in a form without //, synced from a file and exported': r =>
    r.twoReaders.forms.length > 0 &&
    has(r, run => run.inputs['checks-file'] === FORMS_FILE) &&
    has(r, run => run.kind === 'export'),
  "an open or resolve beside someone else's incident whose title loosely matches": r =>
    r.twoReaders.foreign.length > 0 && has(r, run => run.inputs['incident-title'] === FOREIGN_OURS),
  'a Retry-After no standard form reads': r => r.twoReaders.retryAfter !== undefined,
  'a sync of a file over identical duplicates of a name it lists': r =>
    r.twoReaders.duplicated !== undefined &&
    has(
      r,
      run =>
        run.kind === 'sync' && (FILES[run.inputs['checks-file']] ?? []).includes(r.twoReaders.duplicated?.name ?? '')
    ),
  // Issue 52's gates and fleets: a burn-rate gate whose check failed in the last five minutes, a pattern pause.
  'a burn-rate gate over a check that failed in its last five minutes': r =>
    has(r, run => {
      const target = r.world.checks.find(c => c.name === run.inputs['check-name'])
      return run.kind === 'burn-gate' && (target?.history.slice(0, 4).some(h => h.status === 'down') ?? false)
    }),
  'a pattern pause with an exclude, its post step resuming': r => has(r, run => run.kind === 'pattern-pause'),
  // Issue 53: check-api with writes beside other writers on the account, and one cancelled half-way.
  'check-api with writes beside a run that writes checks': r =>
    has(r, run => run.kind === 'check-api') && has(r, run => run.writes && run.kind !== 'check-api'),
  'check-api cancelled half-way (its post step deletes its own check)': r =>
    r.runs.some(run => run.kind === 'check-api' && run.cancelMs !== undefined),
  // Issue 38's condition (shared-key.ts): bulk work and others on one small rate limit, both ways.
  'several runs, one of them bulk, sharing a rate-limited key that states its budget': r =>
    r.sharedKey?.headers === true && sharingBulk(r),
  'several runs, one of them bulk, sharing a rate-limited key that says only 429 and Retry-After': r =>
    r.sharedKey?.headers === false && sharingBulk(r)
}

/**
 * Few seeds whose rounds reach every feature: of the first 5000, each time the one that reaches the most
 * features not yet reached (the lowest seed of those), until all are.
 */
function featureSeeds(): number[] {
  const wanted = Object.values(FEATURES)
  const reached = Array.from({ length: 5000 }, (_, i) => {
    const round = drawRound(i + 1)
    return { seed: i + 1, features: wanted.map((_, f) => f).filter(f => wanted[f](round)) }
  })
  const left = new Set(wanted.map((_, f) => f))
  const seeds: number[] = []
  while (left.size > 0) {
    let best = reached[0]
    for (const r of reached)
      if (r.features.filter(f => left.has(f)).length > best.features.filter(f => left.has(f)).length) best = r
    if (!best.features.some(f => left.has(f))) throw new Error('no seed under 5000 reaches every feature')
    seeds.push(best.seed)
    for (const f of best.features) left.delete(f)
  }
  return seeds
}

describe('npm run simulate', () => {
  it('draws the same rounds from the same seed', () => {
    expect(JSON.stringify(drawRound(1234))).toBe(JSON.stringify(drawRound(1234)))
    expect(JSON.stringify(drawRound(1234))).not.toBe(JSON.stringify(drawRound(1235)))
    const round = drawRound(99)
    expect(round.runs.length).toBeGreaterThanOrEqual(2)
    expect(round.runs.length).toBeLessThanOrEqual(6)
  })

  it('reaches every new feature in a few fixed rounds, each a pure function of its seed', () => {
    const seeds = featureSeeds()
    expect(seeds.length).toBeLessThanOrEqual(6)
    for (const [feature, wanted] of Object.entries(FEATURES)) {
      expect([feature, seeds.some(seed => wanted(drawRound(seed)))]).toEqual([feature, true])
    }
    // The service probes while those gates poll, and the rounds hold secrets to rotate.
    expect(seeds.some(seed => drawRound(seed).probes.length >= 3)).toBe(true)
    expect(seeds.every(seed => drawRound(seed).secrets.length > 0)).toBe(true)
  })

  // Red on the bundle of 417c0be (issue 30's breaks: old secrets in plans and issues, a probe counted twice,
  // an edited drift issue orphaned, `::add-mask::true`); green once its fixes are merged and dist/ rebuilt.
  // Likewise red on the bundle of 1cf6920 (issue 50's shapes: someone else's incident resolved, a URL form's
  // password shown, a retry at once after `Retry-After: 1.`, one duplicate synced) until dist/ is rebuilt.
  it('finds no violation in the committed bundle over the rounds that reach every feature', async () => {
    const seeds = featureSeeds()
    const r = await simulate(['--seeds', seeds.join(','), '--term-after', '2000'])
    expect(r.stdout).toMatch(
      new RegExp(
        `${seeds.length} rounds, \\d+ runs \\(\\d+ processes\\), \\d+ faults, \\d+ cancels, \\d+ probes, 0 violations`
      )
    )
    expect(r.code).toBe(0)
  }, 120_000)

  it('catches a build whose post step resumes nothing (a check is left paused), and prints the replay', async () => {
    const seed = seedWhere(
      round => round.runs.some(run => run.kind === 'pause') && !round.runs.some(run => run.kind === 'resume')
    )
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildWithoutPostStep()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: check \S+ \(.*\) was left paused/)
    expect(r.stdout).toContain(`replay: npm run simulate -- --seed ${seed} --rounds 1`)
    expect(r.stdout).toContain(`schedule: {"seed":${seed}`)
  }, 60_000)

  it('catches a post step that forgets a pause sent without an answer (it lands after the job, silently)', async () => {
    // Seed 61887: its one fault (older.ts) holds the PUT of a pause the job cancels 1.4 s in for 12.4 s, so
    // the pause lands after every later step; no other run writes a check. (Seed 9259 drew this round until
    // issue 52's kinds changed the draws: a search of 400,000 seeds found four such rounds.)
    const seed = 61887
    const round = drawRound(seed)
    const pause = round.runs.find(run => run.kind === 'pause')
    expect(round.faults).toEqual([round.older.lateWrite])
    expect(round.older.lateWrite?.delayMs).toBeGreaterThan(11_000)
    expect(pause?.cancelMs).toBeGreaterThan(900)
    expect(
      round.runs.filter(run =>
        ['upsert', 'sync', 'prefix-pause', 'pattern-pause', 'resume', 'prune'].includes(run.kind)
      )
    ).toEqual([])
    const good = await simulate(['--seed', String(seed), '--rounds', '1', '--term-after', '2000'])
    expect(good.stdout).toContain('0 violations')
    const r = await simulate([
      '--seed',
      String(seed),
      '--rounds',
      '1',
      '--term-after',
      '2000',
      '--action',
      buildThatForgetsUnansweredWrites()
    ])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: check \S+ \(.*\) was left paused/)
  }, 90_000)

  it('catches a build that prints its key, and one that masks a harmless word', async () => {
    const seed = seedWhere(
      round => round.runs.length === 2 && round.runs.every(run => ['open', 'upsert'].includes(run.kind))
    )
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildThatLeaks()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: run \d+ \(\w+\) main wrote a secret \(the api-key/)
    expect(r.stdout).toMatch(/VIOLATION: run \d+ \(\w+\) main masked a harmless value: "::add-mask::true"/)
  }, 60_000)

  it('catches a build whose gate passes on a stale result', async () => {
    const seed = seedWhere(
      round =>
        calm(round) &&
        round.runs.some(run => {
          const target = round.world.checks.find(c => c.name === run.inputs['check-name'])
          return (
            run.kind === 'gate' &&
            run.cancelMs === undefined &&
            run.inputs['require-fresh'] === 'true' &&
            run.inputs['consecutive-passes'] === '1' &&
            run.inputs.baseline === undefined &&
            target !== undefined &&
            !round.probes.some(p => p.name === target.name) &&
            target.stale &&
            !target.down &&
            !target.paused &&
            !round.runs.some(other => other.kind === 'pause' && other.inputs['check-name'] === target.name)
          )
        })
    )
    const good = await simulate(['--seed', String(seed), '--rounds', '1'])
    expect(good.stdout).toContain('0 violations')
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildThatTrustsStaleResults()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/VIOLATION: run \d+ \(gate\) passed on .*whose last result .* is older than the step/)
  }, 60_000)

  it('rounds that once found a gate passing over a miss pass now (a down probe between polls whose history time read as before the last result)', async () => {
    // Seed 3020: a history stamped a second before each probe finished, a down probe 9 ms before an up one;
    // seed 2456: whole-second history times, a slow probe in the same second as the result before it.
    for (const seed of [3020, 2456]) {
      const r = await simulate(['--seed', String(seed), '--rounds', '1'])
      expect(r.stdout).toContain('0 violations')
    }
  }, 60_000)

  it('catches a gate that passes on fewer results in a row than consecutive-passes asks', async () => {
    const seed = seedWhere(
      round =>
        calm(round) &&
        round.runs.length <= 3 &&
        !round.views.historyStartedAt &&
        !round.views.historyWholeSeconds &&
        has(round, run => {
          const target = round.world.checks.find(c => c.name === run.inputs['check-name'])
          return (
            run.inputs['consecutive-passes'] === '3' &&
            run.inputs.baseline === undefined &&
            target !== undefined &&
            !target.paused &&
            !round.runs.some(other => other.kind === 'pause' && other.inputs['check-name'] === target.name) &&
            // Probes more than a second apart: a gate that passes on its first fresh result has met at most
            // two by then, even when a loaded machine takes a second or two to start it.
            probesApart(round, target.name, 1_150)
          )
        })
    )
    const good = await simulate(['--seed', String(seed), '--rounds', '1'])
    expect(good.stdout).not.toMatch(/consecutive-passes asks/)
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildThatCountsOnePass()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(
      /VIOLATION: run \d+ \(gate\) passed on .* with at most [012] distinct result\(s\) in a row that meet its condition \(\d+ probe\(s\) made while it ran\); consecutive-passes asks 3/
    )
  }, 60_000)

  it('catches a wrapped pause whose command ends on SIGTERM before the resume (checks left paused, without a word)', async () => {
    // A wrapped run by id, SIGTERM while its command runs, over a check running before; no fault on its pause.
    const seed = seedWhere(
      round =>
        round.runs.length <= 3 &&
        !round.faults.some(f => f.path === 're:^/checks/[^/]+$') &&
        round.wrapped.runs.some(
          w =>
            w.cancel?.signal === 'SIGTERM' &&
            w.cancel.during === 'command' &&
            !w.byName &&
            w.faults.every(f => f.from === 'command') &&
            round.world.more.some(c => w.checks.includes(c.name) && !c.paused)
        )
    )
    const wrapped = /VIOLATION: (wrapped run|check \S+ \("sim-wrap-)/
    const good = await simulate(['--seed', String(seed), '--rounds', '1'])
    expect(good.stdout).toMatch(/wrapped!/)
    expect(good.stdout).not.toMatch(wrapped)
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--command', commandThatQuitsOnTerm()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(
      /VIOLATION: wrapped run w\d \(.*SIGTERM during the command\) ended 143 with \S+ \("sim-wrap-\d-[ab]"\) paused, which was running before, and no error line naming it/
    )
    expect(r.stdout).toMatch(/VIOLATION: check \S+ \("sim-wrap-\d-[ab]"\) was left paused/)
  }, 60_000)

  it('catches a prune that deletes a check its prefix does not cover', async () => {
    const seed = seedWhere(
      round =>
        round.faults.length === 0 &&
        round.runs.every(run => ['prune', 'upsert', 'open', 'resolve'].includes(run.kind)) &&
        round.world.more.some(c => c.name === 'sim-fleetwood') &&
        has(round, run => run.kind === 'prune') &&
        !round.runs.some(run => run.kind === 'prune' && run.cancelMs !== undefined)
    )
    const deleted = /VIOLATION: check \S+ \("sim-fleetwood"\) existed before the round and was deleted/
    const good = await simulate(['--seed', String(seed), '--rounds', '1'])
    expect(good.stdout).not.toMatch(deleted)
    const r = await simulate(['--seed', String(seed), '--rounds', '1', '--action', buildThatPrunesWider()])
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(deleted)
  }, 60_000)
})
