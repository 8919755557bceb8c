/**
 * The shapes that broke main ff43772 (issue 37), drawn into a round after
 * everything else and from a generator of their own, so a seed's other draws
 * stay what they were:
 *
 * - a list that reorders while it is read (the named check moves to the head
 *   after the first page; some rounds for the whole round), the check a run
 *   targets by name or a member of the prefix it targets, sometimes with a
 *   stated total;
 * - a fleet gate by prefix over a down member that reorder hides;
 * - another actor pausing a fleet member while a prefix pause runs;
 * - checks with a header string, a `{name, value}` header, a parameter value
 *   holding `?`, `/` and `=`, and names that contain but do not end with a
 *   secret word; checks files whose variables (`AUTH_MODE`, `KEYWORD`...)
 *   hold short harmless values;
 * - budget gates whose history holds identical failed rows, times the action
 *   cannot place (`Nov 25 2026 10:00:00`), or HTTP dates (placeable: GMT);
 * - one probe reported in whole seconds, then with its milliseconds, under a
 *   gate asking 2 passes;
 * - a checks file written as people write a fleet's: a `defaults:` holder
 *   (its `owner` from a variable) that each entry merges (`<<: *defaults`).
 */
import type { Fault } from '../../../emulator/faults.js'
import {
  type PastResult,
  type Round,
  type Run,
  type Shapes,
  type WorldCheck,
  PAUSE_PREFIX,
  random,
  urlOf
} from './world.js'

/** A time as a service may write it: one the action cannot place (month first, no zone), or an HTTP date (RFC 1123). */
export function unplaceable(ms: number, form: 'month-first' | 'rfc1123'): string {
  const d = new Date(ms)
  if (form === 'rfc1123') return d.toUTCString()
  const month = d.toUTCString().slice(8, 11)
  return `${month} ${d.getUTCDate()} ${d.getUTCFullYear()} ${d.toISOString().slice(11, 19)}`
}

/** The harmless values a checks file's variables hold (names that contain a secret word and do not end with one). */
const HARMLESS_VARIABLES = { AUTH_MODE: 'main', KEYCLOAK_REGION: 'europe', KEYWORD: 'healthy', AUTH_PORT: '8443' }
/** The prefix fleet's members (schedule.ts seeds them when prefix pauses are drawn). */
const FLEET = ['sim-pp-1', 'sim-pp-2', 'sim-pp-3']
/** The variable the merge-key shape's `defaults:` holder reads its `owner` from (shape-rules.ts looks for it). */
export const MERGED_OWNER = 'SIM_OWNER'

/**
 * A checks file's entries (`- name: ...`, two-space fields) as people write a
 * fleet's: their `interval: 60` in a `defaults:` holder each entry merges,
 * beside an `owner` the holder alone sets, from the variable MERGED_OWNER.
 */
export function withMergeKeys(text: string): string {
  const entries = text
    .replaceAll('  interval: 60\n', '')
    .replace(/^- /gm, '- <<: *defaults\n  ')
    .split('\n')
    .map(line => (line === '' ? line : `  ${line}`))
    .join('\n')
  return `defaults: &defaults\n  interval: 60\n  owner: \${${MERGED_OWNER}}\nchecks:\n${entries}`
}

/** The check whose one probe is reported at two precisions. */
export const TWICE = 'sim-twice'

/** Draw the shapes into `round` (its runs, world, faults, views, files and secrets) and say which. */
export function drawShapes(round: Omit<Round, 'older' | 'twoReaders' | 'refusedEdits' | 'wrapped'>): Shapes {
  const next = random((round.seed ^ 0x37373737) >>> 0)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  const chance = (p: number) => next() < p
  const shapes: Shapes = { drawn: chance(0.5), harmless: {} }
  if (!shapes.drawn) return shapes
  const { world, runs } = round
  const all = () => [...world.checks, ...world.more]
  const find = (name: string) => all().find(c => c.name === name)
  const secret = (what: string) => {
    const value = `old${what}-${round.seed.toString(36)}-Zq${int(100, 999)}`
    round.secrets.push(value)
    return value
  }
  const addRun = (kind: Run['kind'], inputs: Record<string, string>, writes = false): Run => {
    const run: Run = {
      n: runs.length + 1,
      kind,
      inputs: { 'request-timeout': '3s', 'max-retries': '2', ...inputs },
      env: { TZ: pick(['UTC', 'America/New_York', 'Asia/Tokyo']) },
      startMs: int(0, 200),
      writes
    }
    runs.push(run)
    return run
  }
  const fleet = FLEET.map(find).filter((c): c is WorldCheck => c !== undefined)

  // A fleet gate by prefix over a down member.
  if (fleet.length > 0 && chance(0.3)) {
    const hidden = pick(fleet)
    hidden.down = true
    // Hidden from every read of the round (a list sorted by recent activity, the down member checked last).
    round.faults.push({ method: 'GET', path: '/checks', shift: 'reorder', moved: hidden.name, times: -1 })
    addRun('gate', {
      operation: 'wait-for-check',
      'name-prefix': PAUSE_PREFIX,
      timeout: '2s',
      'poll-interval': '500ms',
      'require-fresh': 'false'
    })
  }

  // Another actor pauses a running fleet member while a prefix pause runs.
  const pauser = runs.find(r => r.kind === 'prefix-pause')
  const running = fleet.filter(c => !c.paused)
  if (pauser && running.length > 0 && chance(0.6)) {
    // Right after the prefix pause first reaches a member (after its list read), or at a time drawn.
    const afterReach = chance(0.7)
    const atMs = pauser.startMs + (afterReach ? 0 : int(150, 1200))
    // After a write, the member the prefix pause reaches last (the fleet is listed in order).
    const name = afterReach ? running[running.length - 1].name : pick(running).name
    shapes.handPause = { name, atMs, members: FLEET, afterReach }
  }

  // Secrets in the new positions, names that only contain a secret word; an export that reads them.
  if (chance(0.5)) {
    const vault = (name: string, url: string, fields?: Record<string, unknown>): WorldCheck => ({
      name,
      url,
      paused: false,
      stale: false,
      down: false,
      ...(fields ? { fields } : {}),
      history: []
    })
    world.more.push(
      vault('sim-vault-hstr', urlOf('vault-hstr'), { headers: [`Authorization: Bearer ${secret('hs')}`] }),
      vault('sim-vault-hpair', urlOf('vault-hpair'), { headers: [{ name: 'X-Api-Key', value: secret('hp') }] }),
      vault('sim-vault-qmark', `${urlOf('vault-qmark')}?token=abc?${secret('qt')}/x=y&page=2`),
      vault('sim-vault-words', `${urlOf('vault-words')}?author=ann&keyword=healthy&region=europe`)
    )
    if (chance(0.6)) addRun('export', { operation: 'export-checks', 'checks-file': `export-${runs.length + 1}.yml` })
  }

  // A checks file's variables named like secrets without being secrets, holding short harmless values.
  if (chance(0.4)) {
    shapes.harmless = { ...HARMLESS_VARIABLES }
    const extra = '&mode=${AUTH_MODE}&region=${KEYCLOAK_REGION}&kw=${KEYWORD}&port=${AUTH_PORT}'
    for (const file of Object.keys(round.files))
      round.files[file] = round.files[file].replaceAll('?token=${API_TOKEN}', `?token=\${API_TOKEN}${extra}`)
    for (const run of runs) if (run.inputs.operation === 'sync-checks') Object.assign(run.env, HARMLESS_VARIABLES)
  }

  // Budget gates over identical failed rows (spent only if each counts) or over times the action cannot place.
  for (const run of runs.filter(r => r.inputs.slo !== undefined)) {
    const target = find(run.inputs['check-name'])
    if (!target || !chance(0.7)) continue
    if (chance(0.5)) {
      // 17 up and 3 failed at one instant from three places: 85%, under the 90% objective.
      const row = (i: number): PastResult => ({ agoMs: (i + 1) * 2 * 60_000, status: 'up', responseTime: 100 + i })
      const failed: PastResult = { agoMs: 3 * 60_000 + 500, status: 'down', responseTime: 30_000 }
      target.history = [failed, failed, failed, ...Array.from({ length: 16 }, (_, i) => row(i))]
    } else {
      const form = pick(['month-first', 'rfc1123'] as const)
      target.history = target.history.map(h => ({ ...h, status: 'up', form }))
    }
  }

  // One probe seen at two precisions by a gate asking 2 passes on a check whose last result is old.
  if (chance(0.3)) {
    world.more.push({
      name: TWICE,
      url: urlOf(TWICE),
      paused: false,
      stale: true,
      down: false,
      history: Array.from({ length: 8 }, (_, i) => ({ agoMs: (i + 1) * 5 * 60_000, status: 'up', responseTime: 120 }))
    })
    const gate = addRun('gate', {
      operation: 'wait-for-check',
      'check-name': TWICE,
      timeout: '6s',
      'poll-interval': '500ms',
      'require-fresh': 'true',
      'consecutive-passes': '2'
    })
    shapes.twoPrecisions = { name: TWICE, atMs: gate.startMs + int(1200, 2500), restoreMs: int(700, 1400) }
  }

  // A list that reorders while read: the moved row a check a run targets by name, or a member of its prefix.
  const targets = runs
    .flatMap(r => (r.inputs['name-prefix'] === PAUSE_PREFIX ? FLEET : [r.inputs['check-name'] ?? '']))
    .filter(name => find(name) !== undefined && !/[\r\n]/.test(name))
  if (targets.length > 0 && chance(0.6)) {
    const fault: Fault = {
      method: 'GET',
      path: '/checks',
      shift: 'reorder',
      moved: pick(targets),
      times: pick([6, -1, -1])
    }
    round.faults.push(fault)
    round.views.statedTotal = chance(0.5)
  }

  // A checks file whose entries merge a `defaults:` holder; every run of it gives the holder's variable.
  if (chance(0.5)) {
    const file = pick(Object.keys(round.files).sort())
    round.files[file] = withMergeKeys(round.files[file])
    for (const run of runs) if (run.inputs['checks-file'] === file) run.env[MERGED_OWNER] = 'sim-merged'
  }
  return shapes
}
