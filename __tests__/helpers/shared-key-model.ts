/**
 * Many jobs sharing one key, in virtual time: each job is the action's own
 * Pacer and retry decision (src/api/pacer.ts, src/api/retry.ts) sending its
 * requests one after another to a model of the service's rate limit (one
 * fixed window per key, as the emulator's rate-limit.ts keeps it), with a
 * network delay each way. Minutes of contention run in milliseconds, so the
 * pacing's behaviour under 10 or 25 jobs can be tested and tuned; the
 * integration test and the bench then run real processes against the emulator.
 */
import { Clock, Pacer } from '../../src/api/pacer.js'
import { decide, serverBudget } from '../../src/api/retry.js'
import { RATE_LIMIT } from '../../src/api/client.js'

/** A clock whose time moves only when every job is waiting. */
export class VirtualClock implements Clock {
  /** Virtual time starts at a real-looking instant, so that reset headers can state Unix seconds. */
  private t = 1_700_000_000_000
  readonly epoch = this.t
  private timers: { at: number; seq: number; resolve: () => void }[] = []
  private seq = 0
  now = (): number => this.t
  sleep = (ms: number): Promise<void> =>
    new Promise(resolve => {
      this.timers.push({ at: this.t + Math.max(0, ms), seq: this.seq++, resolve })
    })

  /** Run until nothing is waiting (or `limitMs` of virtual time has passed). */
  async run(limitMs: number): Promise<void> {
    for (;;) {
      for (let i = 0; i < 20; i++) await Promise.resolve()
      await new Promise(resolve => setImmediate(resolve))
      if (this.timers.length === 0) return
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq)
      const next = this.timers.shift() as (typeof this.timers)[number]
      if (next.at > limitMs) return
      this.t = next.at
      next.resolve()
    }
  }
}

/** The service's limit: one fixed window per key, refused requests not counted (as the emulator). */
export class ModelServer {
  private start = Number.NEGATIVE_INFINITY
  private count = 0
  served = 0
  refused = 0
  constructor(
    private readonly clock: VirtualClock,
    readonly limit: number,
    readonly windowMs: number,
    private readonly headers: boolean
  ) {}

  /** A request arriving now: its status and answer headers. */
  arrive(): { status: number; headers: Record<string, string> } {
    const now = this.clock.now()
    if (now >= this.start + this.windowMs) {
      this.start = now
      this.count = 0
    }
    const resetAt = this.start + this.windowMs
    const seconds = String(Math.max(1, Math.ceil((resetAt - now) / 1000)))
    const budget = (remaining: number): Record<string, string> =>
      this.headers
        ? {
            'ratelimit-limit': String(this.limit),
            'ratelimit-remaining': String(remaining),
            'ratelimit-reset': seconds,
            'x-ratelimit-limit': String(this.limit),
            'x-ratelimit-remaining': String(remaining),
            'x-ratelimit-reset': String(Math.ceil(resetAt / 1000))
          }
        : {}
    if (this.count >= this.limit) {
      this.refused++
      return { status: 429, headers: { 'retry-after': seconds, ...budget(0) } }
    }
    this.count++
    this.served++
    return { status: 200, headers: budget(this.limit - this.count) }
  }
}

export interface ModelJob {
  name: string
  /** Requests sent one after another; `thinkMs` between them (a gate's poll interval). */
  requests: number
  thinkMs?: number
  /** Requests in flight at once (sync-checks applies its plan with 4). */
  concurrency?: number
  /** When the job starts (process start-up differs). */
  startMs?: number
}

export interface JobResult {
  name: string
  finishedMs: number
  limited: number
  failed?: string
}

/** Run the jobs against one key; resolves with each job's finish time and its 429s. */
export async function runShared(
  jobs: ModelJob[],
  options: { headers: boolean; latencyMs?: number; limit?: number; windowMs?: number; maxRetries?: number }
): Promise<{ results: JobResult[]; server: ModelServer; clock: VirtualClock }> {
  const clock = new VirtualClock()
  const server = new ModelServer(
    clock,
    options.limit ?? RATE_LIMIT.limit,
    options.windowMs ?? RATE_LIMIT.windowMs,
    options.headers
  )
  const half = (options.latencyMs ?? 50) / 2
  const maxRetries = options.maxRetries ?? 3
  const one = async (job: ModelJob): Promise<JobResult> => {
    const result: JobResult = { name: job.name, finishedMs: 0, limited: 0 }
    await clock.sleep(job.startMs ?? 0)
    const pacer = new Pacer(RATE_LIMIT.limit, RATE_LIMIT.windowMs, clock)
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < job.requests) {
        const i = next++
        if (i > 0 && job.thinkMs) await clock.sleep(job.thinkMs)
        for (let attempt = 1; ; attempt++) {
          const ticket = await pacer.take()
          await clock.sleep(half)
          const answer = server.arrive()
          await clock.sleep(half)
          pacer.settle(ticket, serverBudget(answer.headers, clock.now()))
          if (answer.status === 200) break
          result.limited++
          const decision = decide('GET', attempt, maxRetries, answer, clock.now())
          if (!decision.retry) throw new Error(`gave up after ${attempt} attempts (${decision.reason})`)
          await clock.sleep(pacer.pause(decision.waitMs))
        }
      }
    }
    try {
      await Promise.all(Array.from({ length: job.concurrency ?? 1 }, worker))
    } catch (error) {
      result.failed = error instanceof Error ? error.message : String(error)
    }
    result.finishedMs = clock.now() - clock.epoch
    return result
  }
  const running = Promise.all(jobs.map(one))
  await clock.run(clock.epoch + 60 * 60_000)
  return { results: await running, server, clock }
}

/** The least time the service's limit needs for `served` requests: the start of the window the last one falls in. */
export function floorMs(served: number, limit = RATE_LIMIT.limit, windowMs = RATE_LIMIT.windowMs): number {
  return Math.floor((served - 1) / limit) * windowMs
}
