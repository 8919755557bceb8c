/**
 * Play one round against the emulator: seed the world, put the faults and
 * views in force, start every run as the runner starts a step (cancels as
 * the runner sends them: SIGINT, SIGTERM `termAfterMs` later, then the post
 * step), clear the faults, run each failed write once more, and judge.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../../emulator/server.js'
import type { Stored } from '../../../emulator/store.js'
import { StepResult, runStep } from '../runner.js'
import { Before, Executed, violations } from './invariants.js'
import { Round, Run, SECRET } from './schedule.js'

export interface Settings {
  key: string
  /** The build under test: a folder with index.js and post.js. */
  distDir?: string
  /** SIGTERM this long after SIGINT, as the runner does (7.5 s). */
  termAfterMs: number
}

export interface Played {
  violations: string[]
  runs: number
  processes: number
  cancels: number
  faults: number
}

const REQUEST_TIMEOUT_MS = 3_000
/** What any step of the simulation may take, faults and all (3 attempts of 3 s per request, and waits). */
const STEP_BOUND_MS = 60_000
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/** The longest a process may run: its own bound, or, once cancelled, until the in-flight request ends. */
function boundOf(run: Run, cancelled: boolean, settings: Settings): number {
  const own = run.kind === 'gate' ? 2_000 + REQUEST_TIMEOUT_MS + 3_000 : STEP_BOUND_MS
  if (!cancelled || run.cancelMs === undefined) return own
  const stop = Math.min(REQUEST_TIMEOUT_MS + 3_000, settings.termAfterMs + 2_000)
  return Math.min(own, run.cancelMs + stop)
}

async function quiet(emulator: Emulator): Promise<void> {
  for (let i = 0; i < 200 && emulator.inFlight > 0; i++) await sleep(50)
}

export async function playRound(emulator: Emulator, round: Round, settings: Settings): Promise<Played> {
  emulator.reset()
  const workspace = mkdtempSync(join(tmpdir(), 'simulate-'))
  try {
    for (const [file, text] of Object.entries(round.files)) writeFileSync(join(workspace, file), text)
    for (const c of round.world.checks) {
      emulator.seedCheck({
        name: c.name,
        url: c.url,
        status: c.paused ? 'paused' : c.down ? 'down' : 'up',
        lastCheckedAt: new Date(Date.now() - (c.stale ? 30 * 60_000 : 0)).toISOString()
      })
    }
    for (const title of round.world.incidents)
      emulator.seedIncident({ title, message: 'seen before', status: 'investigating' })
    const before: Before = {
      checks: new Map([...emulator.checks].map(([id, c]) => [id, { ...c }])),
      unresolved: [...emulator.incidents.values()].map(i => ({ ...i }))
    }
    for (const fault of round.faults) emulator.inject(fault)
    emulator.views = { ...round.views }

    const step = (run: Run, options: { post?: boolean; state?: Record<string, string>; cancel?: boolean }) =>
      runStep(
        { 'api-key': settings.key, 'base-url': emulator.baseUrl, ...run.inputs },
        {
          cwd: workspace,
          env: { GITHUB_WORKSPACE: workspace, ...run.env },
          post: options.post ?? false,
          state: options.state,
          distDir: settings.distDir,
          timeoutMs: 120_000,
          onSpawn: child => {
            if (!options.cancel || run.cancelMs === undefined) return
            const int = setTimeout(() => child.kill('SIGINT'), run.cancelMs)
            const term = setTimeout(() => child.kill('SIGTERM'), run.cancelMs + settings.termAfterMs)
            child.on('exit', () => (clearTimeout(int), clearTimeout(term)))
          }
        }
      )

    // The main steps, together; then, once the service is quiet, the post steps (the job's end).
    const executed: Executed[] = round.runs.map(run => ({ run, steps: [] }))
    await Promise.all(
      executed.map(async e => {
        await sleep(e.run.startMs)
        const startedAt = Date.now()
        const result = await step(e.run, { cancel: true })
        e.steps.push({ what: 'main', result, bound: boundOf(e.run, true, settings), startedAt })
      })
    )
    await quiet(emulator)
    const postOf = async (e: Executed, main: StepResult, what: string) => {
      if (e.run.kind !== 'pause') return
      const startedAt = Date.now()
      const result = await step(e.run, { post: true, state: main.state })
      e.steps.push({ what, result, bound: STEP_BOUND_MS, startedAt })
    }
    await Promise.all(executed.map(e => postOf(e, e.steps[0].result, 'post')))

    // Faults cleared, each failed write runs once more, one at a time.
    emulator.clearFaults()
    emulator.views = { createdAt: true, zonelessTimes: false }
    for (const e of executed) {
      if (!e.run.writes || e.steps[0].result.code === 0) continue
      const startedAt = Date.now()
      const again = await step(e.run, {})
      e.steps.push({ what: 're-run', result: again, bound: boundOf(e.run, false, settings), startedAt })
      await postOf(e, again, 'post of re-run')
    }
    await quiet(emulator)

    const after = {
      checks: new Map<string, Stored>(emulator.checks),
      incidents: new Map<string, Stored>(emulator.incidents)
    }
    return {
      violations: violations(before, after, executed, { key: settings.key, templated: SECRET }),
      runs: round.runs.length,
      processes: executed.reduce((n, e) => n + e.steps.length, 0),
      cancels: round.runs.filter(r => r.cancelMs !== undefined).length,
      faults: round.faults.length + (round.views.createdAt ? 0 : 1) + (round.views.zonelessTimes ? 1 : 0)
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}
