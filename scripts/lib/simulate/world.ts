/**
 * The words of a simulated round, shared by the parts that draw it
 * (schedule.ts, shapes.ts, older.ts, shared-key.ts, wrapped.ts...), play it (round.ts) and
 * judge it (invariants.ts and the *-rules.ts): its runs, its world of checks,
 * its probes and shapes, the seeded generator and the fixed names. Data
 * only: it imports none of them.
 */
import type { Fault } from '../../../emulator/faults.js'
import type { TitleForm } from '../../../emulator/store.js'

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

export type Kind =
  | 'upsert'
  | 'sync'
  | 'pause'
  | 'resume'
  | 'open'
  | 'resolve'
  | 'gate'
  | 'export'
  | 'drift'
  | 'prune'
  | 'watch'
  | 'check-api'
  | FutureKind

/**
 * Kinds for features other branches add (issue 32): `name-prefix` on pause-check, `slo` on wait-for-check;
 * (issue 52) `max-burn-rate` on wait-for-check, `name-pattern` and `exclude` on pause-check.
 */
export type FutureKind = 'prefix-pause' | 'budget-gate' | 'burn-gate' | 'pattern-pause'
export const FUTURE_KINDS: readonly FutureKind[] = ['prefix-pause', 'budget-gate', 'burn-gate', 'pattern-pause']
/** Future kinds drawn by default: turn one on here once its feature is in the bundle. */
export const FUTURE_KINDS_ENABLED: readonly FutureKind[] = ['prefix-pause', 'budget-gate', 'burn-gate', 'pattern-pause']

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

/** A result the service recorded before the round, `agoMs` before the world was seeded. */
export interface PastResult {
  agoMs: number
  status: string
  responseTime: number
  /** Its time written in a form the action cannot place (shapes.ts), else ISO 8601. */
  form?: 'month-first' | 'rfc1123'
}

export interface WorldCheck {
  name: string
  url: string
  paused: boolean
  /** Its last result is 30 minutes old. */
  stale: boolean
  /** Its last result is down. */
  down: boolean
  /** Writable fields beyond name and url (a credential header). */
  fields?: Record<string, unknown>
  /** Results before the last one, newest first (the last one is in the history too, unless paused). */
  history: PastResult[]
}

/** A probe the service makes during the round: `atMs` after the round starts, of the check so named. */
export interface Probe {
  name: string
  atMs: number
  status: 'up' | 'down'
  responseTime: number
}

export interface Round {
  seed: number
  world: {
    /** Checks every kind may target. */
    checks: WorldCheck[]
    /** Checks only some kinds reach: secrets in secret positions, prune decoys, a prefix's fleet. */
    more: WorldCheck[]
    incidents: string[]
  }
  runs: Run[]
  /** The service's probes while the runs run (each gate's target, while it polls). */
  probes: Probe[]
  faults: Fault[]
  views: {
    createdAt: boolean
    zonelessTimes: boolean
    historyStartedAt: boolean
    historyWholeSeconds: boolean
    slashTimes: boolean
    /** Collections state their total (set with a reorder: shapes.ts). */
    statedTotal?: boolean
  }
  /** The checks files the sync runs read, by name. */
  files: Record<string, string>
  /** Values in secret positions that the service holds before the round (to be rotated): never shown. */
  secrets: string[]
  /** The shapes that broke main ff43772 (issue 37): shapes.ts. */
  shapes: Shapes
  /** Issue 40's conditions (a write that lands late, a service that changes titles): older.ts. */
  older: Older
  /** A small rate limit the round's runs share (issue 38): shared-key.ts; absent, the limit is off. */
  sharedKey?: SharedKey
  /** The shapes of rules with two readers (issue 50): two-readers.ts. */
  twoReaders: TwoReaders
  /** GitHub refusing the edit of a drift issue or a comment the round's runs make (issue 50): refused-edits.ts. */
  refusedEdits: RefusedEdits
  /** Runs of monitoring-ci's pause around a command (dist/cli.js pause-check ... -- command): wrapped.ts. */
  wrapped: Wrapped
}

/** A marker that must never start a line of the log (it would be a workflow command). */
export const INJECTED = 'INJECTED'
/** The templated secret the sync runs hold: a quote, a backslash, a tab, a line break, an @. */
export const SECRET = 'sim"se\\cr\tet\np@ss-4242'
/** The prefix prune runs may delete under. */
export const PRUNE_PREFIX = 'sim-fleet-'
/** The prefix a prefix pause targets. */
export const PAUSE_PREFIX = 'sim-pp-'
/** The drift issue's title for a checks file (grouped by it: one workflow, so one issue per file). */
export const driftTitle = (file: string) => `Monitoring drift: ${file}`
/** A gate's baseline window and allowed increase (the world's results take 100-200 ms, a slow probe 2.5-4 s). */
export const BASELINE = { window: '1h', increase: 0.5 }
/** The error budget's objective and window (future kind): 20 results, so 2 down spend it. */
export const SLO = { slo: '90%', window: '1h', objective: 0.9 }
/**
 * The burn-rate gate's objective and windows: a day of budget at 95%, burning over 1.5 times its rate in
 * the last hour and its last 5 minutes. 40 results 50 s apart, then 200 five minutes apart: 4 recent
 * failures burn (13 and 1.8) with budget left; 11 older ones burn only over the hour; both spend the day.
 */
export const BURN = { slo: '95%', sloWindow: '1d', objective: 0.95, max: '1.5', window: '1h', windowMs: 3_600_000 }
/** The pattern pause: the prefix's fleet by a glob, one member excluded (it must never be touched). */
export const PATTERN = { pattern: 'sim-pp-*', exclude: 'sim-pp-2' }

/** Issue 40's conditions (older.ts). */
export interface Older {
  /** A check's PUT held this long and applied then (a `late` fault), or none. */
  lateWrite?: Fault
  /** How the service stores incident titles, or as sent. */
  titles?: TitleForm
}

/** The key's rate limit in a shared-key round (shared-key.ts): a minute's 100 scaled down to a few seconds. */
export interface SharedKey {
  /** Requests per window, every run's together. */
  limit: number
  windowMs: number
  /** Answers carry X-RateLimit-* and RateLimit-* (else only a 429 and its Retry-After say it). */
  headers: boolean
}

export interface Shapes {
  /** Half the rounds draw the shapes; the others stay as they were drawn before them. */
  drawn: boolean
  /** Another actor pauses this check `atMs` after the round starts (a prefix pause is running). */
  handPause?: { name: string; atMs: number; members: string[]; afterReach: boolean }
  /** A probe of `name` at `atMs`, reported in whole seconds until `restoreMs` later, then with its milliseconds. */
  twoPrecisions?: { name: string; atMs: number; restoreMs: number }
  /** Values the checks files' variables hold that no one may mask. */
  harmless: Record<string, string>
}

/**
 * The shapes of rules that two readers read apart (issue 50; two-readers.ts):
 * a URL the parser reads with a userinfo that a second grammar missed, a
 * title that matches ours loosely on someone else's incident, a Retry-After
 * that `Date.parse` reads and the standard does not, identical duplicates a
 * sync's plan must change alike.
 */
export interface TwoReaders {
  /** Some rounds draw them; the others stay as they were drawn before them. */
  drawn: boolean
  /** Checks the service holds before the round whose URL has a userinfo in a form without `://` (or a capital scheme). */
  forms: string[]
  /** Unresolved incidents a person opened, titled as a looser match of FOREIGN_OURS (as the service stores it). */
  foreign: Array<{ title: string; message: string }>
  /** A Retry-After no standard form reads, on every answer of `status` the round's faults give (and no other fault gives it). */
  retryAfter?: { value: string; status: number; path: string }
  /** A name one fleet file lists, whose check the service holds `copies` times, identical. */
  duplicated?: { name: string; copies: number }
}

/**
 * GitHub refusing edits (issue 50, break 6; refused-edits.ts): a drift watch on a pull request looks
 * three times at a drift (the later looks edit what the first made), and GitHub refuses the edit of the
 * first drift issue of its file and/or the first comment on its pull request, sometimes their closing
 * or deletion too; perhaps the drift then ends (an apply, a last look).
 */
export interface RefusedEdits {
  /** Some rounds that draw issue 50's shapes draw it; the others stay as they were drawn before it. */
  drawn: boolean
  /** The first drift issue of EDITS_FILE: its edits refused with `status`, and its closing too with 'close'. */
  issue?: { status: number; refused: Array<'edit' | 'close'> }
  /** The first comment on pull request WATCH_PR: its edits refused with `status`, and its deletion too with 'delete'. */
  comment?: { status: number; refused: Array<'edit' | 'delete'> }
  /** After its two looks the watch applies the file and looks once more: the drift ends. */
  ends: boolean
}

/**
 * monitoring-ci's pause around a command (wrapped.ts): runs of `dist/cli.js pause-check ... -- node -e ...`
 * beside the round's runs, each over checks of its own, under faults on their PUTs and sometimes a cancel.
 */
export interface Wrapped {
  /** Some rounds draw them; the others stay as they were drawn before them. */
  drawn: boolean
  runs: WrappedRun[]
}

export interface WrappedRun {
  /** Its number in the round (`w1`, `w2`...). */
  n: number
  /** Its checks, by name (the world holds them; no other run touches them): WRAP_PREFIX, n, a letter. */
  checks: string[]
  /** Targeted by --check-name (a read of the checks list) rather than --check-id. */
  byName: boolean
  /** The key from --api-key rather than MONITORING_API_KEY. */
  keyByFlag: boolean
  inputs: { 'request-timeout': string; 'max-retries': string }
  /** The command prints a line on each stream, sleeps this long, and exits with `status`. */
  sleepMs: number
  status: number
  /** Start this long after the round starts. */
  startMs: number
  /** Faults on the PUT of one of its checks, put in force at the round's start or when the command starts. */
  faults: WrappedFault[]
  /** A signal to the wrapper `afterMs` after its first PUT reaches the service (`pause`) or the command starts. */
  cancel?: { signal: 'SIGINT' | 'SIGTERM'; during: 'pause' | 'command'; afterMs: number }
}

export interface WrappedFault {
  check: string
  /** `start`: from the round's start (its pause meets it); `command`: from the command's start (its resume). */
  from: 'start' | 'command'
  /** The fault, but for its method and path (PUT /checks/{that check's id}). */
  fault: Omit<Fault, 'method' | 'path'>
}

/** The prefix of the checks only wrapped runs pause (no prefix another run reads or prunes begins so). */
export const WRAP_PREFIX = 'sim-wrap-'

/** The checks file the watch of refused-edits.ts reads (no other run reads it), and the pull request it comments on. */
export const EDITS_FILE = 'edits.yml'
export const EDITS_NAMES = ['sim-edit-1', 'sim-edit-2']
export const WATCH_PR = 8
/** The event file of a pull_request run on WATCH_PR (round.ts writes it beside event.json, whose pull request is 7). */
export const WATCH_EVENT = `event-${WATCH_PR}.json`

/** The title the runs open and resolve beside someone else's incident of a looser match (two-readers.ts). */
export const FOREIGN_OURS = 'Deploy failed: payments-api production EU'
/** What a person wrote on their own incident: nothing that names the simulated workflow or repository. */
export const FOREIGN_MESSAGE = 'Payments on-call is looking into it; updates in the status channel.'
/** The checks file that syncs the URL forms (two-readers.ts), and the names it lists. */
export const FORMS_FILE = 'forms.yml'
/** The checks whose URL holds a userinfo in a form Node's URL accepts, and each form (`u` the userinfo). */
export const URL_FORMS: Record<string, (userinfo: string) => string> = {
  'sim-form-slash': u => `https:/${u}@form-slash.example.com/health`,
  'sim-form-triple': u => `https:///${u}@form-triple.example.com/health`,
  'sim-form-back': u => `https:\\\\${u}@form-back.example.com/health`,
  'sim-form-bare': u => `http:${u}@form-bare.example.com/health`,
  'sim-form-caps': u => `HTTPS://${u}@form-caps.example.com/health`
}
/** The variable the forms file's userinfo passwords come from. */
export const FORM_VARIABLE = 'FORM_PASS'

/** Names only the fleet's checks files hold: two overlapping files, drawn for the sync kinds. */
export const FLEET_FILES: Record<string, string[]> = {
  'fleet-a.yml': ['sim-fleet-1', 'sim-fleet-2', `sim-fleet-evil\n::error::${INJECTED}`],
  'fleet-b.yml': ['sim-fleet-2', 'sim-fleet-3']
}
/** Every checks file a run may read, and the names each lists: the fleet's, the URL forms' (two-readers.ts), the watch's (refused-edits.ts). */
export const FILES: Record<string, string[]> = {
  ...FLEET_FILES,
  [FORMS_FILE]: Object.keys(URL_FORMS),
  [EDITS_FILE]: EDITS_NAMES
}

const slug = (name: string) =>
  name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase() || 'x'
export const urlOf = (name: string) => `https://${slug(name)}.example.com/health`
