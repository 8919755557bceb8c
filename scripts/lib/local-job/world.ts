/**
 * The world a local job starts in, when its options shape one: the service as
 * a release would meet it on a bad day, so that each example's failure path
 * can be seen on the laptop. A check reported down or slow from now on
 * (`--check NAME=down|slow`); a check whose error budget is spent or burning
 * (`--budget NAME=spent|burning`: a made-up past, and no probe during the job,
 * so the windows read are exactly that past); the service as the job's checks
 * file says but one check changed by hand (`--drift NAME`); an account that
 * starts with checks made by hand (`--seed-checks N`, or the entries of a
 * checks file). Each is applied through the emulator's own seeding, before
 * the job runs, and said in the run's header.
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import type { Json } from '../../../emulator/http.js'
import { parseChecksFileLoading } from '../../../src/operations/sync/checks-file.js'
import { PROBE_MS, type LocalService } from './service.js'

export const CHECK_STATES = ['down', 'slow'] as const
export const BUDGET_STATES = ['spent', 'burning'] as const
export type CheckState = (typeof CHECK_STATES)[number]
export type BudgetState = (typeof BUDGET_STATES)[number]

/** A slow check's response time: over any max-response-time below 3 s. */
export const SLOW_MS = 3000
/** The most checks --seed-checks makes up. */
const MAX_SEEDED = 500

export interface World {
  checks: Array<[name: string, state: CheckState]>
  budgets: Array<[name: string, state: BudgetState]>
  /** Checks of the job's checks file changed by hand. */
  drift: string[]
  /** Checks the account starts with: a count made up, or the path of a checks file. */
  seedChecks?: number | string
}

export const emptyWorld = (): World => ({ checks: [], budgets: [], drift: [] })

export const worldIsEmpty = (world: World): boolean =>
  world.checks.length + world.budgets.length + world.drift.length === 0 && world.seedChecks === undefined

/** `NAME=STATE` of one of `states`; an Error says the form. */
function named<S extends string>(option: string, text: string, states: readonly S[]): [string, S] {
  const at = text.lastIndexOf('=')
  const name = at > 0 ? text.slice(0, at).trim() : ''
  const state = text.slice(at + 1).trim() as S
  if (name === '' || !states.includes(state)) {
    throw new Error(`${option} takes NAME=${states.join('|')} (a check's name), got ${JSON.stringify(text)}`)
  }
  return [name, state]
}

/**
 * One world option into `world`: true when `option` is one (its value read
 * by `value()`), false when it is not. An Error says what is wrong with it.
 */
export function readWorldOption(option: string, value: () => string, world: World, cwd: string): boolean {
  if (option === '--check') world.checks.push(named(option, value(), CHECK_STATES))
  else if (option === '--budget') world.budgets.push(named(option, value(), BUDGET_STATES))
  else if (option === '--drift') world.drift.push(value())
  else if (option === '--seed-checks') {
    const text = value()
    if (/^\d+$/.test(text)) {
      const count = Number(text)
      if (count < 1 || count > MAX_SEEDED) throw new Error(`--seed-checks takes 1 to ${MAX_SEEDED} checks, got ${text}`)
      world.seedChecks = count
    } else world.seedChecks = resolve(cwd, text)
  } else return false
  return true
}

const HOUR_MS = 3_600_000
const MINUTE_MS = 60_000

const entry = (now: number, agoMs: number, status: 'up' | 'down'): Json => ({
  checkedAt: new Date(now - agoMs).toISOString(),
  status,
  responseTime: status === 'up' ? PROBE_MS : 30_000
})

/**
 * A past whose budget is spent and not burning now: two days of a result every
 * 10 minutes, the ones 6 to 8 hours ago down (12 of 288, 4.2%: spent under any
 * objective above 95.8%), none in the last 6 hours (no burn over a burn-window
 * of up to 6h).
 */
export function spentPast(now: number): Json[] {
  return Array.from({ length: 288 }, (_, i) => {
    const ago = (i + 1) * 10 * MINUTE_MS
    return entry(now, ago, ago > 6 * HOUR_MS && ago <= 8 * HOUR_MS ? 'down' : 'up')
  })
}

/**
 * A past whose budget is left but burning: 2000 results over about 27 days, one
 * of them down, 2 minutes ago (0.05%: half the budget of 99.9% left). The last
 * 6 hours hold a result every 5 minutes, so the down one is 1 of 14 in the
 * last hour (a burn rate of 77 under 99.9%, over 14.4) and 1 of 73 in the last
 * 6 hours (13.7, over 6); the newest, 30 s ago, is up.
 */
export function burningPast(now: number): Json[] {
  const recent = [
    entry(now, 30_000, 'up'),
    entry(now, 2 * MINUTE_MS, 'down'),
    ...Array.from({ length: 72 }, (_, i) => entry(now, (i + 1) * 5 * MINUTE_MS, 'up'))
  ]
  const older = Array.from({ length: 2000 - recent.length }, (_, i) =>
    entry(now, 6 * HOUR_MS + (i + 1) * 20 * MINUTE_MS, 'up')
  )
  return [...recent, ...older]
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/** Checks made by hand: shop-by-hand-1..N, the first with a token in its URL (export-checks lifts it). */
export function madeUpChecks(count: number): Json[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `shop-by-hand-${i + 1}`,
    url: `https://shop.example.com/page-${i + 1}${i === 0 ? '?token=made-by-hand-0123456789' : ''}`,
    interval: 60,
    alertChannels: ['email']
  }))
}

/** The entries of a checks file, each as the service would hold it after a sync (status up unless the file says). */
async function fileChecks(file: string, env: NodeJS.ProcessEnv): Promise<Json[]> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new Error(`no checks file ${file}`)
  }
  // As the action reads one: the YAML parser is loaded when the file needs it (an error's place, say).
  return (await parseChecksFileLoading(text, file, { env })).map(spec => ({ ...spec }) as Json)
}

export interface ShapeOptions {
  /** The job's checks file (the checks-file of its sync-checks step), relative to the workspace; for --drift. */
  checksFile?: string
  workspace: string
  /** Where `${NAME}` in a checks file is read from. */
  env: NodeJS.ProcessEnv
  now?: number
}

/** Shape the service as `world` says; returns the header's lines. An Error says what cannot be done. */
export async function shapeWorld(service: LocalService, world: World, options: ShapeOptions): Promise<string[]> {
  const { emulator } = service
  const now = options.now ?? Date.now()
  const notes: string[] = []
  const byName = (name: string) => [...emulator.checks.values()].find(check => check.name === name)
  const add = (fields: Json) => byName(String(fields.name)) ?? emulator.seedCheck({ status: 'up', ...fields })

  if (world.seedChecks !== undefined) {
    const checks =
      typeof world.seedChecks === 'number'
        ? madeUpChecks(world.seedChecks)
        : await fileChecks(world.seedChecks, options.env)
    for (const check of checks) add(check)
    notes.push(
      `--seed-checks: ${checks.length} check${checks.length === 1 ? '' : 's'} made by hand on the account (${checks
        .slice(0, 3)
        .map(check => JSON.stringify(check.name))
        .join(', ')}${checks.length > 3 ? ', ...' : ''})`
    )
  }
  if (world.drift.length > 0) {
    if (options.checksFile === undefined) {
      throw new Error('--drift needs a step of this action with a checks-file in the job: none has one')
    }
    const file = isAbsolute(options.checksFile) ? options.checksFile : join(options.workspace, options.checksFile)
    const checks = await fileChecks(file, options.env)
    for (const check of checks) add(check)
    for (const name of world.drift) {
      const check = byName(name)
      if (!checks.some(c => c.name === name) || !check) {
        throw new Error(
          `--drift ${JSON.stringify(name)}: no such check in ${options.checksFile}; its checks: ${checks.map(c => JSON.stringify(c.name)).join(', ')}`
        )
      }
      const before = typeof check.interval === 'number' ? check.interval : 60
      check.interval = before * 2
      check.updatedAt = new Date(now).toISOString()
      notes.push(
        `--drift: the service holds the checks of ${options.checksFile}, ${JSON.stringify(name)} changed by hand (interval ${before} -> ${before * 2})`
      )
    }
  }
  for (const [name, state] of world.checks) {
    const check = byName(name) ?? add({ name, url: `https://${slugOf(name)}.seeded.invalid/health`, interval: 60 })
    const play =
      state === 'down'
        ? { status: 'down', responseTime: PROBE_MS, statusCode: 503 }
        : { status: 'up', responseTime: SLOW_MS, statusCode: 200 }
    service.plays.set(String(check.id), play)
    emulator.recordProbe(String(check.id), play)
    notes.push(
      `--check: ${JSON.stringify(name)} probed ${state === 'down' ? 'down (503)' : `up but slow (${SLOW_MS} ms)`} from now on`
    )
  }
  for (const [name, state] of world.budgets) {
    const check = byName(name) ?? add({ name, url: `https://${slugOf(name)}.seeded.invalid/health`, interval: 60 })
    const past = state === 'spent' ? spentPast(now) : burningPast(now)
    const id = String(check.id)
    emulator.history.set(id, past)
    Object.assign(check, {
      status: past[0].status,
      responseTime: past[0].responseTime,
      lastCheckedAt: past[0].checkedAt
    })
    service.plays.set(id, null)
    notes.push(
      state === 'spent'
        ? `--budget: ${JSON.stringify(name)} has two days of results, 4.2% down 6 to 8 hours ago: its budget is spent (any slo above 95.8%), not burning now; not probed during the job`
        : `--budget: ${JSON.stringify(name)} has 2000 results over 27 days, one down 2 minutes ago: half its 99.9% budget left, burning (1 of 13 results down in the last hour: 77 times the rate of 99.9%); not probed during the job`
    )
  }
  return notes
}
