/**
 * monitoring-ci's pause around a command (`pause-check ... -- <command>`,
 * src/cli/wrap.ts), drawn into some rounds after everything else and from a
 * generator of its own, so a seed's other draws stay what they were (the
 * rounds the tests pin by seed draw none), and played here beside the
 * round's runs (round.ts calls playWrapped with their main steps):
 *
 * - one to three runs of `node dist/cli.js pause-check --check-id …` (or
 *   `--check-name`, a read of the checks list) around `node -e "…"`, a command
 *   that prints a line on each stream, sleeps 0.2 to 1.5 s and exits with a
 *   drawn status; the key from MONITORING_API_KEY or from `--api-key`; each
 *   over one or two checks of its own (`sim-wrap-<n>-a`, `-b`, which no other
 *   run touches), one perhaps paused by someone else before the round;
 * - faults on the PUT of one of its checks (5xx, a dropped connection, a write
 *   applied and answered 500, a hold, a write the service applies 1 to 5 s
 *   late), in force from the round's start (the pause meets them) or from the
 *   command's start (the resume meets them), beside the round's own faults;
 * - in some runs a cancel: SIGINT or SIGTERM to the wrapper while its pause is
 *   in flight (0 to 150 ms after its first PUT reaches the service, a PUT held
 *   0.4 to 1.5 s) or while the command runs.
 *
 * wrapped-rules.ts judges each run when its wrapper has ended.
 */
import type { Emulator } from '../../../emulator/server.js'
import type { Fault } from '../../../emulator/faults.js'
import { type CommandResult, runCommand } from '../command.js'
import {
  type Round,
  type Wrapped,
  type WrappedFault,
  type WrappedRun,
  type WorldCheck,
  WRAP_PREFIX,
  random,
  urlOf
} from './world.js'

/**
 * The generator's own seed is the round's, mixed with this; its last digits chosen so the rounds the tests
 * pin by seed (9259, 3020, 2456, and the feature and control rounds of e2e/simulate.test.ts) draw none.
 */
const MIX = 0x0c11a933

/**
 * The line the command writes on standard error as it starts: the player knows then that it runs. The script
 * joins it from two words, so the wrapper's own lines that show the command (`Running …`) never hold it.
 */
export const STARTED = 'sim-wrapped: started'
/** The line the command writes on standard output before the wrapper's JSON (joined likewise). */
export const WORKING = 'sim-wrapped: working'

const joined = (line: string) => `${JSON.stringify(line.split(': '))}.join(': ')`

/** The command's script: a line on each stream, a short sleep, a drawn status. */
export const commandScript = (sleepMs: number, status: number) =>
  `process.stderr.write(${joined(STARTED)}+'\\n');console.log(${joined(WORKING)});setTimeout(()=>process.exit(${status}),${sleepMs})`

/** A fault on the PUT of one check (5xx, drop, applied then 500, a hold, a late write). */
function faultOf(pick: <T>(xs: readonly T[]) => T, int: (lo: number, hi: number) => number): WrappedFault['fault'] {
  switch (pick(['5xx', 'drop', 'applied-500', 'hold', 'late'] as const)) {
    case '5xx':
      return { status: pick([500, 502, 503]), times: int(1, 3) }
    case 'drop':
      return { drop: true, times: int(1, 2) }
    case 'applied-500':
      return { after: true, status: 500, times: 1 }
    case 'hold':
      return { delayMs: int(300, 1_500), times: 1 }
    default:
      return { delayMs: int(1_000, 5_000), late: true, times: 1 }
  }
}

/** Draw the wrapped runs into `round` (their checks into its world) and say which. */
export function drawWrapped(round: Omit<Round, 'wrapped'>): Wrapped {
  const next = random((round.seed ^ MIX) >>> 0)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  const chance = (p: number) => next() < p
  if (!chance(0.35)) return { drawn: false, runs: [] }
  const runs: WrappedRun[] = []
  for (let n = 1, count = pick([1, 1, 2, 3]); n <= count; n++) {
    const held: WorldCheck[] = ['a', 'b'].slice(0, int(1, 2)).map(letter => {
      const name = `${WRAP_PREFIX}${n}-${letter}`
      return { name, url: urlOf(name), paused: false, stale: false, down: false, history: [] }
    })
    if (chance(0.25)) pick(held).paused = true
    round.world.more.push(...held)
    const checks = held.map(c => c.name)
    const sleepMs = int(200, 1_500)
    const faults: WrappedFault[] = Array.from({ length: pick([0, 1, 1, 2]) }, () => ({
      check: pick(checks),
      from: pick(['start', 'command'] as const),
      fault: faultOf(pick, int)
    }))
    const run: WrappedRun = {
      n,
      checks,
      byName: chance(0.25),
      keyByFlag: chance(0.2),
      inputs: { 'request-timeout': pick(['2s', '3s']), 'max-retries': pick(['0', '1', '2', '2']) },
      sleepMs,
      status: pick([0, 0, 0, 1, 3, 42]),
      startMs: int(0, 300),
      faults
    }
    if (chance(0.4)) {
      const during = pick(['pause', 'command'] as const)
      run.cancel = {
        signal: pick(['SIGINT', 'SIGTERM'] as const),
        during,
        afterMs: during === 'pause' ? int(0, 150) : int(0, Math.max(0, sleepMs - 150))
      }
      // The first PUT of a check it pauses is held, so the signal comes while that pause is in flight.
      const running = held.find(c => !c.paused)
      if (during === 'pause' && running)
        faults.unshift({ check: running.name, from: 'start', fault: { delayMs: int(400, 1_500), times: 1 } })
    }
    runs.push(run)
  }
  return { drawn: true, runs }
}

/** A drawn fault as the emulator takes it: on the PUT of that check's id. */
export const wrappedFault = (f: WrappedFault, id: string): Fault => ({
  ...f.fault,
  method: 'PUT',
  path: `/checks/${id}`
})

/** The wrapped runs' faults in force from the round's start (round.ts puts them after the round's own). */
export const startFaults = (wrapped: Wrapped, idOf: Map<string, string>): Fault[] =>
  wrapped.runs.flatMap(run =>
    run.faults.filter(f => f.from === 'start').map(f => wrappedFault(f, idOf.get(f.check) ?? ''))
  )

/** What one wrapped run did, as the rules judge it. */
export interface WrappedEnd {
  run: WrappedRun
  /** Its checks' ids, by name. */
  ids: Record<string, string>
  result: CommandResult
  /** Each of its checks' status at the moment the wrapper exited, by id. */
  atExit: Record<string, string>
  /** The signal sent while the wrapper ran; none when its moment did not come before the wrapper ended. */
  sent?: { signal: 'SIGINT' | 'SIGTERM'; during: 'pause' | 'command' }
  /** The command wrote its first line: it ran. */
  commandRan: boolean
  /** The longest the wrapper may take: a step's bound and the command's sleep. */
  bound: number
}

export interface WrappedSettings {
  emulator: Emulator
  key: string
  /** Each world check's id, by name. */
  idOf: Map<string, string>
  cwd: string
  /** The build of monitoring-ci to run (default dist/cli.js). */
  command?: string
  /** When the round started (ms): the run starts `startMs` after. */
  started: number
  boundMs: number
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Play one wrapped run: start the wrapper, put its `command` faults in force when the command starts, send
 * its cancel at its moment, and note its checks' status the moment it exits.
 */
export async function playWrapped(run: WrappedRun, x: WrappedSettings): Promise<WrappedEnd> {
  const ids = Object.fromEntries(run.checks.map(name => [name, x.idOf.get(name) ?? '']))
  const targets = Object.values(ids)
  await sleep(Math.max(0, x.started + run.startMs - Date.now()))
  const args = [
    'pause-check',
    ...(run.byName ? ['--check-name', run.checks.join(',')] : ['--check-id', targets.join(',')]),
    '--base-url',
    x.emulator.baseUrl,
    '--request-timeout',
    run.inputs['request-timeout'],
    '--max-retries',
    run.inputs['max-retries'],
    ...(run.keyByFlag ? ['--api-key', x.key] : []),
    '--',
    process.execPath,
    '-e',
    commandScript(run.sleepMs, run.status)
  ]
  const bound = x.boundMs + run.sleepMs
  const end: Omit<WrappedEnd, 'result'> = { run, ids, atExit: {}, commandRan: false, bound }
  const spawned = Date.now()
  const result = await runCommand(args, {
    cwd: x.cwd,
    env: run.keyByFlag ? {} : { MONITORING_API_KEY: x.key },
    file: x.command,
    timeoutMs: bound + 30_000,
    onSpawn: child => {
      let exited = false
      const send = () => {
        if (exited || !run.cancel) return
        child.kill(run.cancel.signal)
        end.sent = { signal: run.cancel.signal, during: run.cancel.during }
      }
      child.on('exit', () => {
        exited = true
        for (const id of targets) end.atExit[id] = String(x.emulator.checks.get(id)?.status)
      })
      let stderr = ''
      child.stderr?.on('data', chunk => {
        stderr += chunk
        if (end.commandRan || !stderr.split('\n').includes(STARTED)) return
        end.commandRan = true
        for (const f of run.faults.filter(f => f.from === 'command')) x.emulator.inject(wrappedFault(f, ids[f.check]))
        if (run.cancel?.during === 'command') setTimeout(send, run.cancel.afterMs)
      })
      if (run.cancel?.during !== 'pause') return
      // At its first PUT of one of its checks (the pause), then `afterMs` later.
      const paths = new Set(targets.map(id => `/checks/${id}`))
      void (async () => {
        for (let seen = 0; !exited; await sleep(5)) {
          const arrived = x.emulator.requests.slice(seen)
          seen += arrived.length
          if (arrived.some(r => r.method === 'PUT' && r.at >= spawned && paths.has(r.path.split('?')[0]))) {
            await sleep(run.cancel?.afterMs ?? 0)
            send()
            return
          }
        }
      })()
    }
  })
  return { ...end, result }
}

/** A wrapped run's end in one line (`--trace`): its status, the signal it got, its checks then, its errors. */
export function traceOf(end: WrappedEnd): string {
  const { code, signal, ms, stderr } = end.result
  const errors = stderr.split('\n').filter(line => line.startsWith('error: '))
  return [
    `wrapped run w${end.run.n}: exit ${code ?? signal} in ${ms} ms`,
    ...(end.sent ? [`after ${end.sent.signal} during the ${end.sent.during}`] : []),
    `its checks then ${JSON.stringify(end.atExit)}`,
    ...errors.map(line => JSON.stringify(line.slice(0, 200)))
  ].join('; ')
}
