/**
 * One round of the simulation, drawn from a seed and nothing else: the world
 * before the round (checks with their history, paused ones, checks holding
 * secrets in secret positions, open incidents), 2 to 6 concurrent runs of
 * the action, the probes the service makes while they run, the faults in
 * force and the cancels (and, drawn after, issue 37's shapes, issue 40's
 * conditions, in some rounds a rate-limited key the runs share, and issue
 * 50's shapes with, in some of those rounds, GitHub refusing edits; in some
 * rounds, runs of monitoring-ci's pause around a command: wrapped.ts). The
 * same seed always draws the same round (timing aside: processes still race).
 *
 * A run's kind is one row of KINDS: how it is drawn. How a kind is played
 * (its steps after the main one) is in round.ts (FLOWS). Kinds that wait for
 * a feature not yet in the action are listed in FUTURE_KINDS and drawn only
 * when enabled (`--enable KIND`, or FUTURE_KINDS_ENABLED, which holds both
 * today: their features are in the bundle).
 */
import type { Fault } from '../../../emulator/faults.js'
import { drawOlder } from './older.js'
import { drawShapes } from './shapes.js'
import { drawSharedKey } from './shared-key.js'
import { drawTwoReaders } from './two-readers.js'
import { WATCH_ENV, drawRefusedEdits, watchInputs } from './refused-edits.js'
import { drawWrapped } from './wrapped.js'
import {
  type FutureKind,
  type Kind,
  type PastResult,
  type Probe,
  type Round,
  type Run,
  type WorldCheck,
  FUTURE_KINDS,
  FUTURE_KINDS_ENABLED,
  FLEET_FILES,
  INJECTED,
  PAUSE_PREFIX,
  PRUNE_PREFIX,
  SECRET,
  BASELINE,
  SLO,
  BURN,
  PATTERN,
  random,
  urlOf
} from './world.js'

export * from './world.js'

/** Names of checks that exist before a round (upsert and the gate use these too); some hostile. */
const WORLD_NAMES = [
  'sim-shop',
  'sim-api',
  `sim-evil\n::error::${INJECTED}`,
  `sim-cr\r::warning::${INJECTED}`,
  '<img src=x>|sim-html'
]
/** Names only upsert creates (a race on one name between runs of one step). */
const UPSERT_NAMES = ['sim-new', `sim-new-evil\n::error::${INJECTED}`]
/** Beside the fleet: one prune may delete (its prefix, in no file), two it must not (no prefix). */
const PRUNE_DECOYS = ['sim-fleet-old', 'sim-fleetwood', 'x-sim-fleet-9']
const TITLES = ['Deploy failed', `sim incident\n::error::${INJECTED}`]

function fileText(names: string[]): string {
  return names
    .map(n => `- name: ${JSON.stringify(n)}\n  url: "${urlOf(n)}?token=\${API_TOKEN}"\n  interval: 60\n`)
    .join('')
}

/** Checks holding a secret in each position the contract names (export lifts them; rotation changes them). */
function vaultChecks(old: (tag: string) => string): Array<Pick<WorldCheck, 'name' | 'url' | 'fields'>> {
  return [
    {
      name: 'sim-vault-query',
      url: `https://vault-query.example.com/health?bypass_cache=true&token=${old('tok')}`
    },
    { name: 'sim-vault-user', url: `https://ops:${old('pw')}@vault-user.example.com/health` },
    { name: 'sim-vault-fragment', url: `https://vault-fragment.example.com/app#access_token=${old('frag')}` },
    {
      name: 'sim-vault-header',
      url: 'https://vault-header.example.com/health',
      fields: { headers: { Authorization: `Bearer ${old('hdr')}` } }
    },
    { name: 'sim-vault-jwt', url: `https://vault-jwt.example.com/health?a=1;token=${old('semi')}&jwt=${old('jwt')}` }
  ]
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

/** What drawing a run may use: the seeded choices and the world drawn so far. */
interface Draw {
  /** The run's number in the round (its own files are named by it). */
  n: number
  int: (lo: number, hi: number) => number
  pick: <T>(xs: readonly T[]) => T
  chance: (p: number) => boolean
  checks: WorldCheck[]
  /** Names a list input can hold (no line break), not paused / any. */
  running: string[]
  gateable: string[]
  /** The service's probes of `name` for as long as a gate of `timeoutMs` polls it. */
  probe: (name: string, timeoutMs: number, slow: boolean) => void
  /** Give a world check this past (the error budget's window). */
  giveHistory: (name: string, history: PastResult[]) => void
  env: Record<string, string>
}

type Drawn = { inputs: Record<string, string>; writes: boolean; kind?: Kind }

/** How each kind is drawn (weights in WEIGHTS). Adding a kind: a row here, its weight, and, if it has more steps than one, a row in round.ts's FLOWS. */
const KINDS: Record<Kind, (d: Draw) => Drawn> = {
  upsert: d => {
    const name = d.pick([...UPSERT_NAMES, ...d.checks.map(c => c.name)])
    return { inputs: { operation: 'upsert-check', 'check-name': name, 'check-url': urlOf(name) }, writes: true }
  },
  sync: d => {
    d.env.API_TOKEN = SECRET
    return { inputs: { operation: 'sync-checks', 'checks-file': d.pick(Object.keys(FLEET_FILES)) }, writes: true }
  },
  pause: d => ({
    inputs: { operation: 'pause-check', 'check-name': d.pick(d.running), 'auto-resume': 'true' },
    writes: true
  }),
  resume: d => ({ inputs: { operation: 'resume-check', 'check-name': d.pick(d.running) }, writes: true }),
  open: d => ({
    inputs: { operation: 'open-incident', 'incident-title': d.pick(TITLES), 'incident-message': 'a run failed' },
    writes: true
  }),
  resolve: d => ({ inputs: { operation: 'resolve-incident', 'incident-title': d.pick(TITLES) }, writes: true }),
  gate: d => {
    // When every name holds a line break, the gate waits for one that is not there (an error, no write).
    const name = d.gateable.length > 0 ? d.pick(d.gateable) : WORLD_NAMES[0]
    const passes = d.pick([1, 1, 2, 3])
    const baseline = d.chance(0.3)
    const long = passes > 1 || baseline
    const timeoutMs = long ? 6_000 : 2_000
    // The service probes while the gate polls: always for a gate that needs more than one result.
    if (long || d.chance(0.5)) d.probe(name, timeoutMs, baseline)
    return {
      inputs: {
        operation: 'wait-for-check',
        'check-name': name,
        timeout: `${timeoutMs / 1000}s`,
        'poll-interval': '500ms',
        'require-fresh': long || d.chance(0.7) ? 'true' : 'false',
        'consecutive-passes': String(passes),
        ...(baseline ? { baseline: BASELINE.window, 'max-response-time-increase': `${BASELINE.increase * 100}%` } : {})
      },
      writes: false
    }
  },
  export: d => ({
    // Exported to the run's own file, then (round.ts) the variables rotated and the file planned.
    inputs: {
      operation: 'export-checks',
      'checks-file': `export-${d.n}.yml`,
      ...(d.chance(0.5) ? { 'name-prefix': 'sim-vault-' } : {})
    },
    writes: false
  }),
  drift: d => {
    d.env.API_TOKEN = SECRET
    return {
      inputs: {
        operation: 'sync-checks',
        'checks-file': d.pick(Object.keys(FLEET_FILES)),
        'dry-run': 'true',
        'fail-on-drift': 'true',
        'drift-issue': 'true',
        'plan-file': `plan-${d.n}.json`
      },
      writes: false
    }
  },
  prune: d => {
    d.env.API_TOKEN = SECRET
    return {
      inputs: {
        operation: 'sync-checks',
        'checks-file': d.pick(Object.keys(FLEET_FILES)),
        prune: 'true',
        'prune-prefix': PRUNE_PREFIX
      },
      writes: true
    }
  },
  'prefix-pause': () => ({
    inputs: { operation: 'pause-check', 'name-prefix': PAUSE_PREFIX, 'auto-resume': 'true' },
    writes: true
  }),
  /** check-api with writes (no weight: drawCheckApi adds it, from a generator of its own). */
  'check-api': () => ({ inputs: { operation: 'check-api', 'check-api-writes': 'true' }, writes: true }),
  'pattern-pause': () => ({
    inputs: {
      operation: 'pause-check',
      'name-pattern': PATTERN.pattern,
      exclude: PATTERN.exclude,
      'auto-resume': 'true'
    },
    writes: true
  }),
  'burn-gate': d => {
    const target = d.checks.find(c => !c.paused && !/[\r\n]/.test(c.name))
    if (!target) return { ...KINDS.gate(d), kind: 'gate' }
    const shape = d.pick(['none', 'recent', 'old', 'both'] as const)
    const down = (i: number) =>
      ((shape === 'recent' || shape === 'both') && i < 4) ||
      ((shape === 'old' || shape === 'both') && i >= 15 && i < 26)
    // Away from every window's edge but the 5-minute one (an up result there): see BURN.
    const recent = Array.from({ length: 40 }, (_, i) => ({
      agoMs: (i + 1) * 50_000,
      status: down(i) ? 'down' : 'up',
      responseTime: 100 + i
    }))
    const older = Array.from({ length: 200 }, (_, i) => ({
      agoMs: 35 * 60_000 + i * 5 * 60_000,
      status: 'up',
      responseTime: 120
    }))
    d.giveHistory(target.name, [...recent, ...older])
    target.down = false
    target.stale = false
    return {
      inputs: {
        operation: 'wait-for-check',
        'check-name': target.name,
        slo: BURN.slo,
        'slo-window': BURN.sloWindow,
        'max-burn-rate': BURN.max,
        'burn-window': BURN.window,
        timeout: '3s',
        'poll-interval': '500ms',
        'require-fresh': 'false'
      },
      writes: false
    }
  },
  /** A drift watch on a pull request that looks three times (refused-edits.ts draws it; no weight: never drawn here). */
  watch: d => {
    Object.assign(d.env, WATCH_ENV)
    return { inputs: watchInputs(true, true), writes: false }
  },
  'budget-gate': d => {
    const target = d.checks.find(c => !c.paused && !/[\r\n]/.test(c.name))
    if (!target) return { ...KINDS.gate(d), kind: 'gate' }
    // 20 results in the window, `down` of them down: 0 or 1 leave budget, 4 or 8 spend it (2 would be the edge).
    const down = d.pick([0, 1, 4, 8])
    d.giveHistory(
      target.name,
      Array.from({ length: 19 }, (_, i) => ({
        agoMs: (i + 1) * 2 * 60_000,
        status: i < down ? 'down' : 'up',
        responseTime: 100 + i
      }))
    )
    // Its last result fresh and up: the window holds all 20, none near its edge.
    target.down = false
    target.stale = false
    return {
      inputs: {
        operation: 'wait-for-check',
        'check-name': target.name,
        slo: SLO.slo,
        'slo-window': SLO.window,
        timeout: '2s',
        'poll-interval': '500ms',
        'require-fresh': 'false'
      },
      writes: false
    }
  }
}

/** How often each kind is drawn, relative to the others. */
const WEIGHTS: Array<[Kind, number]> = [
  ['upsert', 2],
  ['sync', 2],
  ['pause', 1],
  ['resume', 1],
  ['open', 2],
  ['resolve', 1],
  ['gate', 3],
  ['export', 1],
  ['drift', 1],
  ['prune', 1],
  ['prefix-pause', 1],
  ['budget-gate', 1],
  ['burn-gate', 1],
  ['pattern-pause', 1]
]

export interface DrawOptions {
  /** Future kinds to draw besides FUTURE_KINDS_ENABLED. */
  enable?: readonly FutureKind[]
}

/** The round that `seed` draws. */
export function drawRound(seed: number, options: DrawOptions = {}): Round {
  const next = random(seed)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  const chance = (p: number) => next() < p
  const enabled = new Set<Kind>([...FUTURE_KINDS_ENABLED, ...(options.enable ?? [])])
  const tag = seed.toString(36)
  const secrets: string[] = []
  /** A value the service holds in a secret position, from before the round. */
  const old = (what: string) => {
    const value = `old${what}-${tag}-Qx7v${int(100, 999)}`
    secrets.push(value)
    return value
  }

  const past = (): PastResult[] =>
    Array.from({ length: 8 }, (_, i) => ({ agoMs: (i + 1) * 5 * 60_000, status: 'up', responseTime: int(100, 200) }))
  const checkOf = (name: string, url = urlOf(name)): WorldCheck => ({
    name,
    url,
    paused: false,
    stale: chance(0.3),
    down: chance(0.2),
    history: past()
  })
  const handPaused = (list: WorldCheck[]) => {
    if (list.length > 0 && chance(0.5)) pick(list).paused = true
    return list
  }
  const checks = WORLD_NAMES.filter(() => chance(0.7)).map(n => checkOf(n))
  if (checks.length === 0) checks.push(checkOf(WORLD_NAMES[0]))
  if (checks.length > 1 && chance(0.5)) pick(checks).paused = true
  const quiet = (c: WorldCheck): WorldCheck => ({ ...c, stale: false, down: false })
  const more: WorldCheck[] = [
    // Secrets in every position (export lifts them, a rotation changes them); at least one each round.
    ...vaultChecks(old)
      .filter((_, i) => i === 0 || chance(0.6))
      .map(v => ({ ...quiet(checkOf(v.name, v.url)), ...(v.fields ? { fields: v.fields } : {}) })),
    // Fleet checks synced before the API token was rotated (the file's token is new now), one perhaps
    // paused by hand though the file states it active (drift must say so).
    ...handPaused(
      chance(0.5)
        ? [...new Set(Object.values(FLEET_FILES).flat())]
            .filter(() => chance(0.5))
            .map(n => quiet(checkOf(n, `${urlOf(n)}?token=${old('fleet')}`)))
        : []
    ),
    ...PRUNE_DECOYS.filter(() => chance(0.6)).map(n => quiet(checkOf(n)))
  ]
  if (enabled.has('prefix-pause') || enabled.has('pattern-pause')) {
    // The prefix's fleet (one perhaps paused by someone else), and two names it must not touch.
    const fleet = ['sim-pp-1', 'sim-pp-2', 'sim-pp-3'].map(n => quiet(checkOf(n)))
    if (chance(0.3)) pick(fleet).paused = true
    more.push(...fleet, ...['sim-pp', 'x-sim-pp-4'].map(n => quiet(checkOf(n))))
  }
  const incidents = [...TITLES, 'sim older incident'].filter(() => chance(0.5))
  // pause-check, resume-check and the gate take a list of names, and a line break splits a list (contract:
  // "Targeting"): a name holding one cannot be targeted there, so those runs pick among the others.
  const listable = (names: string[]) => names.filter(name => !/[\r\n]/.test(name))
  const running = listable(checks.filter(c => !c.paused).map(c => c.name))
  const gateable = listable(checks.map(c => c.name))

  const probes: Probe[] = []
  const common = { 'request-timeout': '3s', 'max-retries': '2' }
  const runs: Run[] = []
  const weighted = WEIGHTS.filter(([k]) => !(FUTURE_KINDS as readonly Kind[]).includes(k) || enabled.has(k)).flatMap(
    ([k, w]) => Array<Kind>(w).fill(k)
  )
  const count = int(2, 6)
  for (let n = 1; n <= count; n++) {
    let kind = pick(weighted)
    if ((kind === 'pause' || kind === 'resume') && running.length === 0) kind = 'upsert'
    const startMs = int(0, 200)
    // Self-hosted runners are often not on UTC: zone-less times from the service must still mean UTC.
    const env: Record<string, string> = { TZ: pick(['UTC', 'America/New_York', 'Asia/Tokyo']) }
    const draw: Draw = {
      n,
      int,
      pick,
      chance,
      checks,
      running,
      gateable,
      env,
      probe: (name, timeoutMs, slow) => {
        // Probes close together, or more than a second apart (then a history that records the probe's start
        // puts it after the previous probe's end: one probe seen twice, unless counted once).
        const [lo, hi] = pick([
          [400, 1000],
          [1150, 1700]
        ])
        for (let at = startMs + int(100, 700); at < startMs + timeoutMs + 500; at += int(lo, hi)) {
          probes.push({
            name,
            atMs: at,
            status: chance(0.85) ? 'up' : 'down',
            responseTime: slow && chance(0.25) ? int(2500, 4000) : int(20, 90)
          })
        }
      },
      giveHistory: (name, history) => {
        const target = checks.find(c => c.name === name)
        if (target) target.history = history
      }
    }
    const drawn = KINDS[kind](draw)
    runs.push({
      n,
      kind: drawn.kind ?? kind,
      startMs,
      writes: drawn.writes,
      inputs: { ...common, ...drawn.inputs },
      env,
      ...(chance(0.15) ? { cancelMs: int(50, 1500) } : {})
    })
  }
  const faults = Array.from({ length: int(0, 3) }, () => faultOf(pick, int))
  const views = {
    createdAt: !chance(0.3),
    zonelessTimes: chance(0.3),
    // A history that records when a probe started, or in whole seconds (one probe must count once).
    historyStartedAt: probes.length > 0 && chance(0.5),
    historyWholeSeconds: probes.length > 0 && chance(0.3),
    // Times in another zone-less form (`2026/11/24 03:30:00`): UTC too, whatever the runner's zone.
    slashTimes: chance(0.15)
  }
  const files = Object.fromEntries(Object.entries(FLEET_FILES).map(([file, names]) => [file, fileText(names)]))
  probes.sort((a, b) => a.atMs - b.atMs)
  const round = { seed, world: { checks, more, incidents }, runs, probes, faults, views, files, secrets }
  const shaped = { ...round, shapes: drawShapes({ ...round, shapes: { drawn: false, harmless: {} } }) }
  const older = { ...shaped, older: drawOlder(shaped) }
  const sharedKey = drawSharedKey(older)
  const keyed = sharedKey ? { ...older, sharedKey } : older
  const twoReaders = drawTwoReaders(keyed)
  const read = { ...keyed, twoReaders }
  const edits = { ...read, refusedEdits: drawRefusedEdits(read) }
  const wrapped = { ...edits, wrapped: drawWrapped(edits) }
  const api = drawCheckApi(seed, runs.length + 1)
  return api ? { ...wrapped, runs: [...runs, api] } : wrapped
}

/**
 * Issue 53: `check-api` with writes beside the round's writers, on the same account (its own check,
 * `check-api-` and a random suffix, never one of theirs; deleted whatever happens, by the post step
 * after a cancel). Drawn from a generator of its own, after everything else, so every other draw of
 * a seed is what it was before it.
 */
function drawCheckApi(seed: number, n: number): Run | undefined {
  const next = random(seed * 7919 + 53)
  if (next() >= 0.2) return undefined
  const cancelled = next() < 0.3
  return {
    n,
    kind: 'check-api',
    startMs: Math.floor(next() * 200),
    writes: true,
    inputs: { 'request-timeout': '3s', 'max-retries': '2', operation: 'check-api', 'check-api-writes': 'true' },
    env: { TZ: 'UTC' },
    ...(cancelled ? { cancelMs: 100 + Math.floor(next() * 1400) } : {})
  }
}
