/**
 * The shapes of rules with two readers (issue 50), drawn into a round after
 * everything else and from a generator of their own, so a seed's other draws
 * stay what they were (the rounds the tests pin by seed draw none):
 *
 * - URLs whose userinfo stands in a form Node's URL accepts without `://`
 *   (`https:/u:p@h`, `https:///u:p@h`, `https:\\u:p@h`, `http:u:p@h`) or
 *   behind a scheme in capitals: checks the service holds with an old
 *   password, a checks file that syncs them with a new one (applied, watched
 *   for drift, or pruned under `sim-form-`, where `sim-form-gone` is no
 *   entry), an upsert of one, an export of them;
 * - someone else's unresolved incident, its message written by a person,
 *   whose title is a looser match (a cut, the case, blanks) of the title the
 *   runs open and resolve, as the service stores it (as sent, or changed);
 * - a Retry-After no standard form reads (`1.`, `.5`, `-5`, `soon`) on 429
 *   or 503 answers, the only faults of that status in the round (a 429 only
 *   without a shared key, whose own 429s would stand beside them);
 * - two or three identical checks of a name one fleet file lists, and a sync
 *   of that file.
 */
import { storedTitle } from '../../../emulator/store.js'
import {
  type Round,
  type Run,
  type TwoReaders,
  type WorldCheck,
  FILES,
  FOREIGN_MESSAGE,
  FOREIGN_OURS,
  FORM_VARIABLE,
  FORMS_FILE,
  SECRET,
  URL_FORMS,
  random,
  urlOf
} from './world.js'
import { MERGED_OWNER } from './shapes.js'

/**
 * The generator's own seed is the round's, mixed with this: issue 50's number, which also leaves
 * the rounds the tests pin by seed (9259, 3020, 2456: e2e/simulate.test.ts) without any of these shapes.
 */
const MIX = 0x50505050

/** The prefix a forms file's prune runs under, and the check it may delete (no entry of the file). */
export const FORMS_PREFIX = 'sim-form-'
export const FORM_GONE = 'sim-form-gone'
/** The Retry-After values the standard does not read (`Date.parse` reads the first three as days of 2001). */
export const UNREADABLE_RETRY_AFTER = ['1.', '.5', '-5', 'soon']
/** The names a duplicated check may take: each listed by one fleet file only, so no other file writes it. */
const DUPLICABLE = ['sim-fleet-1', 'sim-fleet-3']

/** The looser forms of our title a person's title may take: a cut, the case, blanks. */
export const FOREIGN_TITLES = [
  'Deploy failed: payments-api production',
  'deploy failed: payments-api production eu',
  'Deploy  failed:  payments-api production EU '
]

/** A forms file: each form with its userinfo from FORM_VARIABLE. */
export function formsFileText(): string {
  return Object.entries(URL_FORMS)
    .map(
      ([name, form]) =>
        `- name: ${JSON.stringify(name)}\n  url: ${JSON.stringify(form(`ops:\${${FORM_VARIABLE}}`))}\n  interval: 60\n`
    )
    .join('')
}

/** Draw the shapes into `round` (its world, runs, faults, files and secrets) and say which. */
export function drawTwoReaders(round: Omit<Round, 'twoReaders' | 'refusedEdits' | 'wrapped'>): TwoReaders {
  const next = random((round.seed ^ MIX) >>> 0)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  const chance = (p: number) => next() < p
  const shapes: TwoReaders = { drawn: chance(0.5), forms: [], foreign: [] }
  if (!shapes.drawn) return shapes
  const { world, runs } = round
  const tag = round.seed.toString(36)
  const secret = (what: string) => {
    const value = `${what}-${tag}-Wk${int(100, 999)}`
    round.secrets.push(value)
    return value
  }
  const addRun = (kind: Run['kind'], inputs: Record<string, string>, env: Record<string, string>, writes: boolean) => {
    runs.push({
      n: runs.length + 1,
      kind,
      inputs: { 'request-timeout': '3s', 'max-retries': '2', ...inputs },
      env: { TZ: pick(['UTC', 'America/New_York', 'Asia/Tokyo']), ...env },
      startMs: int(0, 200),
      writes,
      ...(chance(0.1) ? { cancelMs: int(50, 1500) } : {})
    })
  }
  const quiet = (name: string, url: string): WorldCheck => ({
    name,
    url,
    paused: false,
    stale: false,
    down: false,
    history: []
  })
  const [urlForms, foreign, retryAfter, duplicates] = [chance(0.5), chance(0.5), chance(0.5), chance(0.5)]

  // URL forms: held with an old password, synced from a file with a new one, upserted, exported.
  if (urlForms || !(foreign || retryAfter || duplicates)) {
    const old = secret('oldform')
    const held = Object.keys(URL_FORMS).filter((_, i) => i === 0 || chance(0.6))
    shapes.forms = held
    for (const name of held) world.more.push(quiet(name, URL_FORMS[name](`ops:${old}`)))
    world.more.push(quiet(FORM_GONE, URL_FORMS[pick(held)](`ops:${secret('goneform')}`)))
    round.files[FORMS_FILE] = formsFileText()
    const env = { [FORM_VARIABLE]: secret('formpw') }
    const file = { operation: 'sync-checks', 'checks-file': FORMS_FILE }
    switch (pick(['sync', 'drift', 'prune'] as const)) {
      case 'sync':
        addRun('sync', file, env, true)
        break
      case 'drift':
        addRun(
          'drift',
          {
            ...file,
            'dry-run': 'true',
            'fail-on-drift': 'true',
            'drift-issue': 'true',
            'plan-file': 'plan-forms.json'
          },
          env,
          false
        )
        break
      default:
        addRun('prune', { ...file, prune: 'true', 'prune-prefix': FORMS_PREFIX }, env, true)
    }
    if (chance(0.5)) {
      const url = URL_FORMS[pick(Object.keys(URL_FORMS))](`ci:${secret('upform')}`).replace('@form-', '@form-up-')
      addRun('upsert', { operation: 'upsert-check', 'check-name': 'sim-form-up', 'check-url': url }, {}, true)
    }
    if (chance(0.7)) {
      const n = runs.length + 1
      addRun(
        'export',
        {
          operation: 'export-checks',
          'checks-file': `export-${n}.yml`,
          ...(chance(0.7) ? { 'name-prefix': FORMS_PREFIX } : {})
        },
        {},
        false
      )
    }
  }

  // Someone else's incident, a looser match of the title the runs open and resolve.
  if (foreign) {
    const form = round.older.titles ?? {}
    // A person's title as the service stores it; never one that became ours exactly (blanks a service collapses).
    const titles = FOREIGN_TITLES.map(t => storedTitle(t, form)).filter(t => t !== FOREIGN_OURS)
    shapes.foreign = [{ title: pick(titles), message: FOREIGN_MESSAGE }]
    const kinds = pick([['open'], ['resolve'], ['open', 'resolve'], ['resolve', 'open']] as const)
    for (const kind of kinds)
      addRun(
        kind,
        kind === 'open'
          ? { operation: 'open-incident', 'incident-title': FOREIGN_OURS, 'incident-message': 'a run failed' }
          : { operation: 'resolve-incident', 'incident-title': FOREIGN_OURS },
        {},
        true
      )
  }

  // A Retry-After no standard form reads: the only answers of its status in the round.
  if (retryAfter) {
    const status = round.sharedKey ? 503 : pick([429, 503])
    const value = pick(UNREADABLE_RETRY_AFTER)
    const path = pick(['/checks', '/checks', 're:^/checks/[^/]+$', '/incidents', 're:^/incidents/'])
    shapes.retryAfter = { value, status, path }
    // In place: the round's other parts hold this list.
    const others = round.faults.filter(f => f.status !== status)
    round.faults.splice(0, round.faults.length, ...others)
    round.faults.push({ path, status, headers: { 'Retry-After': value }, times: int(1, 3) })
  }

  // Identical checks of a name one fleet file lists, and a sync of that file.
  if (duplicates) {
    const name = pick(DUPLICABLE)
    const file = Object.keys(round.files).find(f => FILES[f]?.includes(name)) ?? 'fleet-a.yml'
    const held = world.more.find(c => c.name === name)
    const copies = held ? int(1, 2) : int(2, 3)
    const model = held ?? quiet(name, `${urlOf(name)}?token=${secret('oldfleet')}`)
    world.more.push(...Array.from({ length: copies }, () => ({ ...model, history: [...model.history] })))
    shapes.duplicated = { name, copies: copies + (held ? 1 : 0) }
    if (!runs.some(r => r.inputs['checks-file'] === file && r.inputs['dry-run'] !== 'true')) {
      const env: Record<string, string> = { API_TOKEN: SECRET, ...round.shapes.harmless }
      if (round.files[file].includes(MERGED_OWNER)) env[MERGED_OWNER] = 'sim-merged'
      addRun('sync', { operation: 'sync-checks', 'checks-file': file }, env, true)
    }
  }
  return shapes
}
