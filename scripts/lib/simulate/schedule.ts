/**
 * One round of the simulation, drawn from a seed and nothing else: the world
 * before the round (checks, paused ones, open incidents), 2 to 6 concurrent
 * runs of the action, the faults in force and the cancels. The same seed
 * always draws the same round (timing aside: processes still race).
 */
import type { Fault } from '../../../emulator/faults.js'

/** A small, fast, seedable generator (mulberry32): the schedule is a pure function of the seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Kind = 'upsert' | 'sync' | 'pause' | 'resume' | 'open' | 'resolve' | 'gate'

export interface Run {
  n: number
  kind: Kind
  inputs: Record<string, string>
  /** Environment beyond the runner's (a checks file's template variables). */
  env: Record<string, string>
  /** Start this long after the round starts. */
  startMs: number
  /** SIGINT this long after the start (SIGTERM after `termAfterMs` more, if still running). */
  cancelMs?: number
  /** Writes something: a failed one is run again once after the faults are cleared. */
  writes: boolean
}

export interface Round {
  seed: number
  world: {
    /** `stale`: its last result is 30 minutes old; `down`: it reports down (no probe runs in a round). */
    checks: Array<{ name: string; url: string; paused: boolean; stale: boolean; down: boolean }>
    incidents: string[]
  }
  runs: Run[]
  faults: Fault[]
  views: { createdAt: boolean; zonelessTimes: boolean }
  /** The checks files the sync runs read, by name. */
  files: Record<string, string>
}

/** A marker that must never start a line of the log (it would be a workflow command). */
export const INJECTED = 'INJECTED'
/** The templated secret the sync runs hold: a quote, a backslash, a tab, a line break, an @. */
export const SECRET = 'sim"se\\cr\tet\np@ss-4242'

const slug = (name: string) =>
  name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase() || 'x'
export const urlOf = (name: string) => `https://${slug(name)}.example.com/health`

/** Names of checks that exist before a round (upsert and the gate use these too); some hostile. */
const WORLD_NAMES = [
  'sim-shop',
  'sim-api',
  `sim-evil\n::error::${INJECTED}`,
  `sim-cr\r::warning::${INJECTED}`,
  '<img src=x>|sim-html'
]
/** The prefix a fleet pause selects by (name-prefix): most names of the world, the upserts' and the files'. */
const FLEET_PREFIX = 'sim-'

/** Whether a pause or resume run may have changed the check named `name` (by its name, or by name-prefix). */
export function touches(run: Run, name: string): boolean {
  if (run.kind !== 'pause' && run.kind !== 'resume') return false
  const prefix = run.inputs['name-prefix']
  return run.inputs['check-name'] === name || (prefix !== undefined && name.startsWith(prefix))
}

/** Names only upsert creates (a race on one name between runs of one step). */
const UPSERT_NAMES = ['sim-new', `sim-new-evil\n::error::${INJECTED}`]
/** Names only the checks files hold: two overlapping files. */
const FILES: Record<string, string[]> = {
  'fleet-a.yml': ['sim-fleet-1', 'sim-fleet-2', `sim-fleet-evil\n::error::${INJECTED}`],
  'fleet-b.yml': ['sim-fleet-2', 'sim-fleet-3']
}
const TITLES = ['Deploy failed', `sim incident\n::error::${INJECTED}`]

function fileText(names: string[]): string {
  return names
    .map(n => `- name: ${JSON.stringify(n)}\n  url: "${urlOf(n)}?token=\${API_TOKEN}"\n  interval: 60\n`)
    .join('')
}

function faultOf(pick: <T>(xs: T[]) => T, int: (lo: number, hi: number) => number): Fault {
  const path = pick(['/checks', 're:^/checks/[^/]+$', '/incidents', 're:^/incidents/'])
  // Lists that shift are drawn twice as often: with two rows a page, they meet every operation by name.
  switch (
    pick([
      '5xx',
      'reset',
      'applied-500',
      'applied-cut',
      '429',
      'latency',
      'trickle',
      'repeat',
      'skip',
      'repeat',
      'skip'
    ])
  ) {
    case '5xx':
      return { path, status: pick([500, 502, 503]), times: int(1, 3) }
    case 'reset':
      return { path, drop: true, times: int(1, 2) }
    case 'applied-500':
      return { method: 'POST', path: pick(['/checks', '/incidents']), after: true, status: 500, times: 1 }
    case 'applied-cut':
      return { method: 'POST', path: pick(['/checks', '/incidents']), after: true, drop: true, times: 1 }
    case '429':
      return { path, status: 429, headers: { 'Retry-After': '1' }, times: int(1, 2) }
    case 'latency':
      return { path, delayMs: int(200, 1500), times: int(1, 3) }
    case 'trickle':
      return { path, trickle: 'body', trickleIntervalMs: 100, trickleForMs: int(300, 1500), times: 1 }
    case 'repeat':
      return { method: 'GET', path: pick(['/checks', '/incidents']), shift: 'repeat', times: int(2, 8) }
    default:
      return { method: 'GET', path: pick(['/checks', '/incidents']), shift: 'skip', times: int(2, 6) }
  }
}

/** The round that `seed` draws. */
export function drawRound(seed: number): Round {
  const next = random(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]
  const chance = (p: number) => next() < p

  const checkOf = (name: string) => ({ name, url: urlOf(name), paused: false, stale: chance(0.3), down: chance(0.2) })
  const checks = WORLD_NAMES.filter(() => chance(0.7)).map(checkOf)
  if (checks.length === 0) checks.push(checkOf(WORLD_NAMES[0]))
  if (checks.length > 1 && chance(0.5)) pick(checks).paused = true
  const incidents = [...TITLES, 'sim older incident'].filter(() => chance(0.5))
  // pause-check, resume-check and the gate take a list of names, and a line break splits a list (contract:
  // "Targeting"): a name holding one cannot be targeted there, so those runs pick among the others.
  const listable = (names: string[]) => names.filter(name => !/[\r\n]/.test(name))
  const running = listable(checks.filter(c => !c.paused).map(c => c.name))
  const gateable = listable(checks.map(c => c.name))

  const common = { 'request-timeout': '3s', 'max-retries': '2' }
  const runs: Run[] = []
  const count = int(2, 6)
  for (let n = 1; n <= count; n++) {
    let kind = pick<Kind>(['upsert', 'upsert', 'sync', 'sync', 'pause', 'resume', 'open', 'open', 'resolve', 'gate'])
    if ((kind === 'pause' || kind === 'resume') && running.length === 0) kind = 'upsert'
    const base = { n, kind, startMs: int(0, 200), writes: kind !== 'gate' }
    let inputs: Record<string, string>
    // Self-hosted runners are often not on UTC: zone-less times from the service must still mean UTC.
    const env: Record<string, string> = { TZ: pick(['UTC', 'America/New_York', 'Asia/Tokyo']) }
    switch (kind) {
      case 'upsert': {
        const name = pick([...UPSERT_NAMES, ...checks.map(c => c.name)])
        inputs = { operation: 'upsert-check', 'check-name': name, 'check-url': urlOf(name) }
        break
      }
      case 'sync':
        inputs = { operation: 'sync-checks', 'checks-file': pick(Object.keys(FILES)) }
        env.API_TOKEN = SECRET
        break
      case 'pause':
        // A fleet by prefix too: every check named sim-... at the step's start, hostile names included.
        inputs = chance(0.3)
          ? { operation: 'pause-check', 'name-prefix': FLEET_PREFIX, 'auto-resume': 'true' }
          : { operation: 'pause-check', 'check-name': pick(running), 'auto-resume': 'true' }
        break
      case 'resume':
        inputs = { operation: 'resume-check', 'check-name': pick(running) }
        break
      case 'open':
        inputs = { operation: 'open-incident', 'incident-title': pick(TITLES), 'incident-message': 'a run failed' }
        break
      case 'resolve':
        inputs = { operation: 'resolve-incident', 'incident-title': pick(TITLES) }
        break
      default:
        inputs = {
          operation: 'wait-for-check',
          // When every name holds a line break, the gate waits for one that is not there (an error, no write).
          'check-name': gateable.length > 0 ? pick(gateable) : WORLD_NAMES[0],
          timeout: '2s',
          'poll-interval': '500ms',
          'require-fresh': chance(0.7) ? 'true' : 'false'
        }
    }
    runs.push({ ...base, inputs: { ...common, ...inputs }, env, ...(chance(0.15) ? { cancelMs: int(50, 1500) } : {}) })
  }
  const faults = Array.from({ length: int(0, 3) }, () => faultOf(pick, int))
  const views = { createdAt: !chance(0.3), zonelessTimes: chance(0.3) }
  const files = Object.fromEntries(Object.entries(FILES).map(([file, names]) => [file, fileText(names)]))
  return { seed, world: { checks, incidents }, runs, faults, views, files }
}
