/**
 * `npm run simulate`: a seeded simulation of whole runs (after Jepsen and
 * FoundationDB's simulation testing). Each round draws, from its seed, 2 to 6
 * concurrent runs of the action (dist/index.js, as the runner starts it),
 * faults and cancels, plays them against the emulator, re-runs the failed
 * writes with the faults cleared, and checks the invariants. A violation
 * prints the round's schedule and the command exits 1.
 *
 *   npm run simulate -- [--seed S] [--rounds N] [--action DIR] [--term-after MS] [--json]
 *
 * Round i of `--seed S` has the seed S+i, printed with it: `--seed <that> --rounds 1` replays it.
 */
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { Emulator } from '../emulator/server.js'
import { playRound } from './lib/simulate/round.js'
import { drawRound } from './lib/simulate/schedule.js'

const KEY = 'sim-key-0123456789abcdef'

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      rounds: { type: 'string' },
      action: { type: 'string' },
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
  const distDir = values.action === undefined ? undefined : resolve(values.action)
  console.log(`simulate: seed ${seed}, ${rounds} round(s)${distDir ? `, build ${distDir}` : ''}`)
  const emulator = new Emulator({ apiKeys: [KEY], rateLimit: false, pageSize: 2 })
  await emulator.start()
  const totals = { rounds: 0, runs: 0, processes: 0, faults: 0, cancels: 0, violations: 0 }
  const started = Date.now()
  try {
    for (let i = 0; i < rounds; i++) {
      const round = drawRound((seed + i) >>> 0)
      const played = await playRound(emulator, round, { key: KEY, distDir, termAfterMs })
      totals.rounds++
      totals.runs += played.runs
      totals.processes += played.processes
      totals.faults += played.faults
      totals.cancels += played.cancels
      totals.violations += played.violations.length
      const kinds = round.runs.map(r => r.kind + (r.cancelMs !== undefined ? '!' : '')).join(' ')
      console.log(
        `round ${i + 1} (seed ${round.seed}): ${kinds}; ${played.faults} fault(s); ${played.violations.length} violation(s)`
      )
      if (played.violations.length > 0) {
        for (const v of played.violations) console.log(`  VIOLATION: ${v}`)
        console.log(`  schedule: ${JSON.stringify(round)}`)
        console.log(`  replay: npm run simulate -- --seed ${round.seed} --rounds 1`)
      }
    }
  } finally {
    await emulator.stop()
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  const line = `${totals.rounds} rounds, ${totals.runs} runs (${totals.processes} processes), ${totals.faults} faults, ${totals.cancels} cancels, ${totals.violations} violations in ${seconds} s`
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
