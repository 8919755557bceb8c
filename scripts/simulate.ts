/**
 * `npm run simulate`: a seeded simulation of whole runs (after Jepsen and
 * FoundationDB's simulation testing). Each round draws, from its seed, 2 to 6
 * concurrent runs of the action (dist/index.js, as the runner starts it),
 * faults and cancels (in one round in four, a small rate limit the runs
 * share), plays them against the emulator, re-runs the failed
 * writes with the faults cleared, and checks the invariants. In some rounds,
 * runs of monitoring-ci's pause around a command (dist/cli.js pause-check ...
 * -- command) play beside them (wrapped.ts). A violation prints the round's
 * schedule and the command exits 1.
 *
 *   npm run simulate -- [--seed S] [--rounds N | --seeds A,B,C] [--action DIR] [--command FILE]
 *                       [--term-after MS] [--enable prefix-pause,budget-gate] [--trace] [--json]
 *
 * Round i of `--seed S` has the seed S+i, printed with it: `--seed <that> --rounds 1` replays it.
 * `--seeds` plays exactly those seeds. `--enable` draws step kinds that wait for features not yet in
 * the action (schedule.ts, FUTURE_KINDS); a replay needs the same `--enable`. `--command` runs
 * another build of monitoring-ci for the wrapped runs (a file node runs; default dist/cli.js). `--trace` prints
 * each process as it ends: its exit and telling outputs (passed, outcome, drift, error...).
 */
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { Emulator } from '../emulator/server.js'
import { FakeGitHub } from './lib/fake-github.js'
import { playRound } from './lib/simulate/round.js'
import { FUTURE_KINDS, FutureKind, drawRound } from './lib/simulate/schedule.js'

const KEY = 'sim-key-0123456789abcdef'

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      rounds: { type: 'string' },
      seeds: { type: 'string' },
      enable: { type: 'string' },
      trace: { type: 'boolean' },
      action: { type: 'string' },
      command: { type: 'string' },
      'term-after': { type: 'string' },
      json: { type: 'boolean' }
    }
  })
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)
  const rounds = Number(values.rounds ?? 10)
  const termAfterMs = Number(values['term-after'] ?? 7_500)
  for (const [flag, n] of [
    ['--seed', seed],
    ['--rounds', rounds],
    ['--term-after', termAfterMs]
  ] as const) {
    if (!Number.isInteger(n) || n < 0) {
      console.error(`${flag} must be a whole number, got ${JSON.stringify(n)}`)
      return 2
    }
  }
  const seeds =
    values.seeds === undefined
      ? Array.from({ length: rounds }, (_, i) => (seed + i) >>> 0)
      : values.seeds.split(',').map(s => Number(s.trim()))
  if (seeds.some(s => !Number.isInteger(s) || s < 0)) {
    console.error(`--seeds must be whole numbers separated by commas, got ${JSON.stringify(values.seeds)}`)
    return 2
  }
  const enable = (values.enable ?? '').split(',').filter(Boolean) as FutureKind[]
  const unknown = enable.filter(k => !FUTURE_KINDS.includes(k))
  if (unknown.length > 0) {
    console.error(`--enable takes ${FUTURE_KINDS.join(', ')}; not ${unknown.join(', ')}`)
    return 2
  }
  const distDir = values.action === undefined ? undefined : resolve(values.action)
  const command = values.command === undefined ? undefined : resolve(values.command)
  console.log(
    `simulate: ${values.seeds === undefined ? `seed ${seed}, ${rounds} round(s)` : `seeds ${seeds.join(', ')}`}${enable.length ? `, enabled ${enable.join(', ')}` : ''}${distDir ? `, build ${distDir}` : ''}${command ? `, command ${command}` : ''}`
  )
  // No rate limit, but in a round that draws a shared key (round.ts sets it for that round).
  const emulator = new Emulator({ apiKeys: [KEY], rateLimit: false, pageSize: 2 })
  await emulator.start()
  const github = new FakeGitHub()
  await github.start()
  const totals = { rounds: 0, runs: 0, processes: 0, faults: 0, cancels: 0, probes: 0, violations: 0, notes: 0 }
  const started = Date.now()
  try {
    for (const [i, roundSeed] of seeds.entries()) {
      const round = drawRound(roundSeed, { enable })
      const trace = values.trace ? (line: string) => console.log(line) : undefined
      const played = await playRound(emulator, round, { key: KEY, distDir, command, termAfterMs, github, trace })
      totals.rounds++
      totals.runs += played.runs
      totals.processes += played.processes
      totals.faults += played.faults
      totals.cancels += played.cancels
      totals.probes += played.probes
      totals.violations += played.violations.length
      totals.notes += played.notes.length
      const kinds = [
        ...round.runs.map(r => r.kind + (r.cancelMs !== undefined ? '!' : '')),
        ...round.wrapped.runs.map(w => `wrapped${w.cancel ? '!' : ''}`)
      ].join(' ')
      const key = round.sharedKey
      const shared = key
        ? `; a shared key of ${key.limit}/${key.windowMs / 1000} s ${key.headers ? 'with' : 'without'} headers (${played.rate?.served} served, ${played.rate?.refused} refused)`
        : ''
      console.log(
        `round ${i + 1} (seed ${round.seed}): ${kinds}; ${played.faults} fault(s)${shared}; ${played.probes} probe(s); ${played.violations.length} violation(s)`
      )
      for (const note of played.notes) console.log(`  note: ${note}`)
      if (played.violations.length > 0) {
        for (const v of played.violations) console.log(`  VIOLATION: ${v}`)
        // A world check's past results are many and dull: their count is enough (the seed draws them again).
        const short = (key: string, value: unknown) =>
          key === 'history' && Array.isArray(value) ? `${value.length} result(s)` : value
        console.log(`  schedule: ${JSON.stringify(round, short)}`)
        const flag = enable.length ? ` --enable ${enable.join(',')}` : ''
        console.log(`  replay: npm run simulate -- --seed ${round.seed} --rounds 1${flag}`)
      }
    }
  } finally {
    await emulator.stop()
    await github.stop()
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  const line = `${totals.rounds} rounds, ${totals.runs} runs (${totals.processes} processes), ${totals.faults} faults, ${totals.cancels} cancels, ${totals.probes} probes, ${totals.violations} violations${totals.notes ? `, ${totals.notes} note(s)` : ''} in ${seconds} s`
  console.log(values.json ? JSON.stringify({ seed, ...totals, seconds: Number(seconds) }) : line)
  return totals.violations > 0 ? 1 : 0
}

main().then(
  code => process.exit(code),
  error => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
    process.exit(2)
  }
)
