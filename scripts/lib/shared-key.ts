/**
 * Many jobs of one organisation sharing one API key, as real processes: each
 * job runs the committed bundle (dist/index.js) the way the runner does,
 * against one emulator whose rate limit all of them spend. What the bench
 * reports (time against the floor the service's own limit sets, 429s per
 * job, the slowest job against the median, when a gate among them answered)
 * and what the integration test asserts come from here.
 *
 * The mix is what teams run together: sync-checks jobs creating checks from
 * a checks file in the examples' shape, upsert-check jobs, and one release
 * gate started a little after the others, while they contend.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { CONCURRENCY } from '../../src/operations/sync/sync.js'
import { StepResult, runStep } from './runner.js'

export interface SharedKeyMix {
  /** Jobs in all: one gate, a fifth upserts, the rest syncs. */
  jobs: number
  /** Checks each sync creates. */
  creates: number
  /** When the gate starts, after the others (ms). */
  gateAfterMs: number
  /** The gate's `timeout`. */
  gateTimeout: string
}

export interface SharedJob {
  kind: 'sync' | 'upsert' | 'gate'
  name: string
  /** From the common start to the process's end (ms). */
  finishedMs: number
  /** From the job's own start (ms). */
  tookMs: number
  /** 429s the job met (its log's retry lines, and a last one it gave up on). */
  limited: number
  result: StepResult
}

export interface SharedKeyRun {
  jobs: SharedJob[]
  /** Requests the service served, and refused with a 429, while the jobs ran. */
  served: number
  refused: number
  /** The least time the service's own limit needs for the requests served: the start of the window the last one falls in. */
  floorMs: number
  /** The last job's end (ms from the common start). */
  lastMs: number
  medianMs: number
}

/** The most requests one job has in flight: as many as sync-checks applies a plan with. */
export const IN_FLIGHT = CONCURRENCY

/**
 * The most 429s one job may meet on a key it shares, with the rate-limit
 * headers, while its requests reach the server as soon as its pacer lets them
 * go (virtual time, where the tests set the schedule): one, when it joins a
 * window the others have spent.
 */
export const LIMITED_KEEPING_UP = 1

/**
 * The most 429s one job may meet on a key it shares, having lived through
 * `windowEnds` ends of the service's window, in any schedule of the machine.
 *
 * With the headers the pacer keeps LIMITED_KEEPING_UP while the machine keeps
 * up. A real process can be held up between its pacer's go and its request's
 * arrival (descheduled on a loaded machine, a timer that fires late) for as
 * long as the machine pleases, and no rule that lets a request go at all can
 * exclude that the others spend the window meanwhile: each request the job
 * then has in flight may be refused. After that 429 the pacer holds every
 * request to the reset the answer states and sends one at a time, so each
 * later 429 falls in a later window: one for each window end it lives
 * through, however late it is.
 *
 * Without the headers nothing in a 2xx answer says the budget runs out: at
 * the first window end the job meets, each request it has in flight may be
 * refused; it goes one at a time after that, and may meet two at each later
 * end: one at the end, and one at the start of the next window, spent by the
 * jobs that came back before it (each resumes when its Retry-After, rounded
 * up to a whole second from its own answer's moment, has passed).
 */
export function limitedBound(headers: boolean, windowEnds: number): number {
  return headers ? IN_FLIGHT + windowEnds : IN_FLIGHT + 2 * Math.max(0, windowEnds - 1)
}

/** The kind of job number `i` (of `n`): job 0 is the gate, every fifth an upsert, the rest syncs. */
export function kindOf(i: number): SharedJob['kind'] {
  return i === 0 ? 'gate' : i % 5 === 1 ? 'upsert' : 'sync'
}

/** A checks file in the examples' shape: the `checks:` key, quoted and plain strings, a flow list. */
function checksFile(dir: string, name: string, creates: number): string {
  const lines = ['# checks of one service, as examples/monitoring/checks.yml writes them', 'checks:']
  for (let i = 0; i < creates; i++) {
    lines.push(`  - name: "${name}-${i}"`, `    url: https://${name}.example.com/health/${i}`)
    lines.push('    interval: 60', '    alertChannels: [email]')
  }
  const file = `${name}.yml`
  writeFileSync(join(dir, file), lines.join('\n') + '\n')
  return file
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** The step failed and its error names the rate limit: it gave up on a 429, or on a wait for one. */
export function gaveUpOnRateLimit(result: StepResult): boolean {
  return result.code !== 0 && /rate.limit/i.test(result.outputs.error ?? '')
}

/**
 * 429s a step met: each retry after one is a log line; a step that gave up on one says so in its error
 * (`was rate limited (HTTP 429)`). A step that stopped short of a wait for the rate limit (its next slot
 * past its time limit, or the limit's waits too long in all) met no 429 there.
 */
export function limitedIn(result: StepResult): number {
  const retried = result.stdout.split('\n').filter(line => line.includes('rate limited (HTTP 429); retry')).length
  return retried + (gaveUpOnRateLimit(result) && (result.outputs.error ?? '').includes('(HTTP 429)') ? 1 : 0)
}

/** Run the mix against `emulator` (its rate limit set by the caller) with `key`; `dir` holds the checks files. */
export async function runSharedKey(
  emulator: Emulator,
  key: string,
  dir: string,
  mix: SharedKeyMix
): Promise<SharedKeyRun> {
  mkdirSync(dir, { recursive: true })
  emulator.seedCheck({ name: 'shared-gate', url: 'https://gate.example.com/health', status: 'up' })
  const before = emulator.requests.length
  const started = Date.now()
  const one = async (i: number): Promise<SharedJob> => {
    const kind = kindOf(i)
    const name = `${kind}-${i}`
    const inputs: Record<string, string> =
      kind === 'sync'
        ? { operation: 'sync-checks', 'checks-file': checksFile(dir, name, mix.creates) }
        : kind === 'upsert'
          ? { operation: 'upsert-check', 'check-name': name, 'check-url': `https://${name}.example.com/health` }
          : {
              operation: 'wait-for-check',
              'check-name': 'shared-gate',
              'expected-status': 'up',
              'require-fresh': 'false',
              timeout: mix.gateTimeout
            }
    if (kind === 'gate') await new Promise(resolve => setTimeout(resolve, mix.gateAfterMs))
    const own = Date.now()
    const result = await runStep(
      { 'api-key': key, 'base-url': emulator.baseUrl, ...inputs },
      { cwd: dir, timeoutMs: 15 * 60_000 }
    )
    const end = Date.now()
    return { kind, name, finishedMs: end - started, tookMs: end - own, limited: limitedIn(result), result }
  }
  const jobs = await Promise.all(Array.from({ length: mix.jobs }, (_, i) => one(i)))
  const during = emulator.requests.slice(before)
  const served = during.filter(r => r.status !== 429).length
  const rate = emulator.options.rateLimit
  const floorMs = rate ? Math.floor((served - 1) / rate.limit) * rate.windowMs : 0
  const finished = jobs.map(j => j.finishedMs)
  return {
    jobs,
    served,
    refused: during.length - served,
    floorMs,
    lastMs: Math.max(...finished),
    medianMs: median(finished)
  }
}
