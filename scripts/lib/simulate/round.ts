/**
 * Play one round against the emulator (and a fake GitHub): seed the world,
 * put the faults and views in force, start every run as the runner starts a
 * step (cancels as the runner sends them: SIGINT, SIGTERM `termAfterMs`
 * later, then the post step), let the service probe while they run, play
 * each run's later steps (FLOWS: an export's rotation and plan, a drift
 * watch's person edit, apply and second look), clear the faults, run each
 * failed write once more, and judge. A round with a shared key (shared-key.ts)
 * has the emulator's rate limit on from its start to its end; others, off. In
 * a round that draws GitHub refusing edits (refused-edits.ts), the fake GitHub
 * refuses the first drift issue of its file and/or the first comment on its
 * pull request from the round's start (FakeGitHub.refuseMade). Beside the
 * main steps, the round's wrapped runs (wrapped.ts: monitoring-ci's pause
 * around a command), each judged the moment it exits (wrapped-rules.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator, RequestRecord } from '../../../emulator/server.js'
import type { Stored } from '../../../emulator/store.js'
import type { FakeGitHub } from '../fake-github.js'
import { StepResult, runStep } from '../runner.js'
import { After, Before, Executed, Probed, violations } from './invariants.js'
import { EDITS_FILE, Kind, Round, Run, SECRET, WATCH_EVENT, WATCH_PR, WorldCheck, driftTitle } from './schedule.js'
import { shapeRules } from './shape-rules.js'
import { olderRules } from './older-rules.js'
import { judgeSharedKey } from './shared-key-rules.js'
import { twoReadersRules } from './two-readers-rules.js'
import { refusedEditsRules } from './refused-edits-rules.js'
import { unplaceable } from './shapes.js'
import { type WrappedEnd, playWrapped, startFaults, traceOf } from './wrapped.js'
import { toldPaused, wrappedRules } from './wrapped-rules.js'

export interface Settings {
  key: string
  /** The build under test: a folder with index.js and post.js. */
  distDir?: string
  /** The build of monitoring-ci the wrapped runs start (a file; default dist/cli.js). */
  command?: string
  /** SIGTERM this long after SIGINT, as the runner does (7.5 s). */
  termAfterMs: number
  /** GitHub for drift issues and pull-request comments. */
  github: FakeGitHub
  /** Told of every process as it ends (`--trace`): the run, the step, its exit and its telling outputs. */
  trace?: (line: string, result?: StepResult) => void
}

export interface Played {
  violations: string[]
  runs: number
  processes: number
  cancels: number
  faults: number
  probes: number
  /** In a round with a shared key: the requests its rate limit let through and those it refused (429). */
  rate?: { served: number; refused: number }
  /** What the rules saw and excused, worth a line (a gate stopped at its timeout short of the rate limit's wait). */
  notes: string[]
}

/** The repository every run is in, and its job token (an installation token: it writes as the bot). */
export const REPO = 'acme/sim'
export const GITHUB_TOKEN = 'ghs_simToken0123456789abcdefXYZ'
/** What a person writes above a drift issue's text between runs. */
export const PERSON_LINE = 'Looked at this on Monday, @ops is on it.'

const REQUEST_TIMEOUT_MS = 3_000
/** What any step of the simulation may take, faults and all (3 attempts of 3 s per request, and waits). */
const STEP_BOUND_MS = 60_000
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/** How long a duration input (`2s`) is, in ms. */
const msOf = (text: string | undefined) => Number(/^(\d+)s$/.exec(text ?? '')?.[1] ?? 2) * 1000

/** The longest a process may run: its own bound, or, once cancelled, until the in-flight request ends. */
function boundOf(run: Run, cancelled: boolean, settings: Settings): number {
  const gate = run.inputs.operation === 'wait-for-check'
  const own = gate ? msOf(run.inputs.timeout) + REQUEST_TIMEOUT_MS + 3_000 : STEP_BOUND_MS
  if (!cancelled || run.cancelMs === undefined) return own
  const stop = Math.min(REQUEST_TIMEOUT_MS + 3_000, settings.termAfterMs + 2_000)
  return Math.min(own, run.cancelMs + stop)
}

/**
 * Until the service answered every request (at most 10 s); `late` writes (faults that land when they land)
 * are waited for only at the round's end (`all`, at most 20 s), never before the post steps.
 */
async function quiet(emulator: Emulator, all = false): Promise<void> {
  const left = () => (all ? emulator.inFlight : emulator.unsettled)
  for (let i = 0; i < (all ? 400 : 200) && left() > 0; i++) await sleep(50)
}

/** A new value for a variable the export named, as a rotation sets it (never shown either). */
export function rotated(seed: number, variable: string): string {
  let h = 2166136261
  for (const c of `${seed}:${variable}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0
  return `new-${h.toString(36)}-R0t8`
}

/** Seed one world check with its last result and its history (newest first). */
function seedCheck(emulator: Emulator, c: WorldCheck): Stored {
  const lastAt = Date.now() - (c.stale ? 30 * 60_000 : 0)
  const last = { checkedAt: new Date(lastAt).toISOString(), status: c.down ? 'down' : 'up', responseTime: 120 }
  const stored = emulator.seedCheck({
    name: c.name,
    url: c.url,
    ...(c.fields ?? {}),
    status: c.paused ? 'paused' : last.status,
    lastCheckedAt: last.checkedAt,
    responseTime: last.responseTime
  })
  const past = c.history.map(h => ({
    checkedAt: h.form ? unplaceable(lastAt - h.agoMs, h.form) : new Date(lastAt - h.agoMs).toISOString(),
    status: h.status,
    responseTime: h.responseTime
  }))
  emulator.history.set(stored.id, [...(c.paused ? [] : [last]), ...past])
  return stored
}

/**
 * What others do beside the runs (shapes.ts): a person pauses a fleet member (its id kept when that moved it
 * from running to paused), and the service reports one probe in whole seconds, then with its milliseconds.
 */
function actOnTheSide(
  emulator: Emulator,
  round: Round,
  idOf: Map<string, string>,
  probed: Probed[]
): { ids: string[]; at: Map<string, number>; done: Promise<unknown> } {
  const ids: string[] = []
  const at = new Map<string, number>()
  const { handPause, twoPrecisions } = round.shapes
  const pausing = async () => {
    if (!handPause) return
    await sleep(handPause.atMs)
    // Right after a prefix pause reaches another member (its list read done, the last member still to come).
    const others = handPause.members.filter(name => name !== handPause.name).map(name => idOf.get(name))
    const written = () =>
      emulator.requests.some(r => others.some(id => id !== undefined && r.path.startsWith(`/checks/${id}`)))
    for (let waited = 0; handPause.afterReach && waited < 10_000 && !written(); waited += 5) await sleep(5)
    const check = emulator.checks.get(idOf.get(handPause.name) ?? '')
    if (!check || check.status === 'paused') return
    emulator.checks.set(check.id, { ...check, status: 'paused', updatedAt: new Date().toISOString() })
    ids.push(check.id)
    at.set(check.id, Date.now())
  }
  const twice = async () => {
    const id = idOf.get(twoPrecisions?.name ?? '')
    if (!twoPrecisions || id === undefined) return
    await sleep(twoPrecisions.atMs)
    if (!emulator.recordProbe(id, { status: 'up', responseTime: 40 })) return
    const precise = String(emulator.checks.get(id)?.lastCheckedAt)
    const whole = precise.replace(/\.\d+Z$/, 'Z')
    const stamp = (text: string) => {
      const check = emulator.checks.get(id)
      const head = emulator.history.get(id)?.[0]
      if (check) check.lastCheckedAt = text
      if (head) head.checkedAt = text
    }
    stamp(whole)
    probed.push({
      name: twoPrecisions.name,
      atMs: twoPrecisions.atMs,
      status: 'up',
      responseTime: 40,
      id,
      at: Date.parse(precise)
    })
    await sleep(twoPrecisions.restoreMs)
    stamp(precise)
  }
  return { ids, at, done: Promise.all([pausing(), twice()]) }
}

/**
 * The hand pauses that landed between a run's read of that check and its write
 * (its GET /checks/{id} the last request before the pause, its PUT the first
 * after): the window no client can close without conditional writes, which the
 * API does not have. A run there took the check as running, as it was when read.
 */
export function pausedBetweenReadAndWrite(requests: readonly RequestRecord[], pausedAt: Map<string, number>): string[] {
  return [...pausedAt].flatMap(([id, at]) => {
    const own = requests.filter(r => r.path.split('?')[0] === `/checks/${id}`)
    const before = own.filter(r => r.at <= at).pop()
    const after = own.find(r => r.at > at)
    return before?.method === 'GET' && after?.method === 'PUT' ? [id] : []
  })
}

/** The requests the rate limit let through (authenticated, not refused) and those it refused (an injected 429 is neither). */
function rateOf(requests: readonly RequestRecord[]): { served: number; refused: number } {
  const counted = requests.filter(r => r.authorized)
  const refused = counted.filter(r => r.status === 429).length
  return { served: counted.length - refused, refused }
}

/** What a run's later steps need: a step, the workspace, the round. */
interface Flow {
  round: Round
  workspace: string
  github: FakeGitHub
  /** Run one more step of `e` (its job) and record it. */
  step: (e: Executed, what: string, inputs: Record<string, string>, env: Record<string, string>) => Promise<StepResult>
}

/** Read the files a step wrote (exported checks file, plan file) into its record. */
function keepFiles(e: Executed, workspace: string, names: Array<string | undefined>): void {
  const last = e.steps.at(-1)
  if (!last) return
  for (const name of names) {
    if (name && existsSync(join(workspace, name)))
      last.files = { ...last.files, [name]: readFileSync(join(workspace, name), 'utf8') }
  }
}

/** The steps of a job after its main step, by kind (the main step ended, not cancelled). */
const FLOWS: Partial<Record<Kind, (x: Flow, e: Executed) => Promise<void>>> = {
  /** Export, rotate every variable it named to a new value, then plan the file as a scheduled drift watch on a PR. */
  export: async (x, e) => {
    const file = e.run.inputs['checks-file']
    keepFiles(e, x.workspace, [file])
    const text = e.steps[0].files?.[file]
    if (e.steps[0].result.code !== 0 || text === undefined) return
    // Every variable gets a new value; those the file marks `${secret:…}` are secrets (never shown).
    const env = { ...e.run.env }
    for (const [, secret, name] of text.matchAll(/(?<!\$)\$\{(secret:)?([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
      env[name] = rotated(x.round.seed, name)
      if (secret) e.secrets.push(env[name])
    }
    const prefix = e.run.inputs['name-prefix']
    const plan = `plan-${e.run.n}.json`
    await x.step(
      e,
      'sync after rotation',
      {
        'request-timeout': e.run.inputs['request-timeout'],
        'max-retries': e.run.inputs['max-retries'],
        operation: 'sync-checks',
        'checks-file': file,
        'dry-run': 'true',
        'fail-on-drift': 'true',
        'drift-issue': 'true',
        'plan-file': plan,
        'pr-comment': 'true',
        ...(prefix ? { prune: 'true', 'prune-prefix': prefix } : {})
      },
      { ...env, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: join(x.workspace, 'event.json') }
    )
    keepFiles(e, x.workspace, [plan])
  },
  /** A drift watch: the dry run (issue opened), a person edits the issue, an apply, then a second look. */
  drift: async (x, e) => {
    const file = e.run.inputs['checks-file']
    keepFiles(e, x.workspace, [e.run.inputs['plan-file']])
    for (const issue of x.github.issues.get(REPO) ?? []) {
      if (issue.title === driftTitle(file) && issue.state === 'open' && !issue.body.startsWith(PERSON_LINE))
        issue.body = `${PERSON_LINE}\n\n${issue.body}`
    }
    const apply = Object.fromEntries(
      Object.entries(e.run.inputs).filter(([name]) => name !== 'dry-run' && name !== 'fail-on-drift')
    )
    await x.step(e, 'apply', apply, e.run.env)
    keepFiles(e, x.workspace, [e.run.inputs['plan-file']])
    await x.step(e, 'second look', e.run.inputs, e.run.env)
    keepFiles(e, x.workspace, [e.run.inputs['plan-file']])
  },
  /**
   * A drift watch on a pull request (refused-edits.ts): the next scheduled looks at the same drift (two) edit
   * the issue and the comment the first one made; then, in some rounds, an apply and a last look (the drift ends).
   */
  watch: async (x, e) => {
    await x.step(e, 'next look', e.run.inputs, e.run.env)
    await x.step(e, 'third look', e.run.inputs, e.run.env)
    if (!x.round.refusedEdits.ends) return
    const apply = Object.fromEntries(
      Object.entries(e.run.inputs).filter(([name]) => name !== 'dry-run' && name !== 'fail-on-drift')
    )
    await x.step(e, 'apply', apply, e.run.env)
    await x.step(e, 'last look', e.run.inputs, e.run.env)
  }
}
/** Kinds whose post step (auto-resume) runs at the job's end. */
const WITH_POST: Kind[] = ['pause', 'prefix-pause', 'pattern-pause', 'check-api']

export async function playRound(emulator: Emulator, round: Round, settings: Settings): Promise<Played> {
  emulator.reset()
  // The key's rate limit for the whole round (its later steps too), or none (shared-key.ts).
  const key = round.sharedKey
  emulator.setRateLimit({
    rateLimit: key ? { limit: key.limit, windowMs: key.windowMs } : false,
    rateLimitHeaders: key?.headers ?? true
  })
  settings.github.reset()
  const workspace = mkdtempSync(join(tmpdir(), 'simulate-'))
  try {
    for (const [file, text] of Object.entries(round.files)) writeFileSync(join(workspace, file), text)
    writeFileSync(join(workspace, 'event.json'), JSON.stringify({ pull_request: { number: 7 }, number: 7 }))
    writeFileSync(
      join(workspace, WATCH_EVENT),
      JSON.stringify({ pull_request: { number: WATCH_PR }, number: WATCH_PR })
    )
    // GitHub refusing edits (refused-edits.ts): rules chosen before the issue or comment they refuse exists.
    const { issue: refusedIssue, comment: refusedComment } = round.refusedEdits
    if (refusedIssue)
      settings.github.refuseMade({ kind: 'issue', repo: REPO, title: driftTitle(EDITS_FILE), ...refusedIssue })
    if (refusedComment) settings.github.refuseMade({ kind: 'comment', on: `${REPO}#${WATCH_PR}`, ...refusedComment })
    const idOf = new Map<string, string>()
    for (const c of [...round.world.checks, ...round.world.more]) idOf.set(c.name, seedCheck(emulator, c).id)
    // Opened by an earlier run of the simulated workflow: its message shows it is that workflow's.
    for (const title of round.world.incidents)
      emulator.seedIncident({
        title,
        message: `Workflow "Simulate" failed in ${REPO}: seen before.`,
        status: 'investigating'
      })
    // Opened by a person of another team: a message that names no workflow (two-readers.ts).
    const foreign = round.twoReaders.foreign.map(i => emulator.seedIncident({ ...i, status: 'investigating' }).id)
    const before: Before = {
      checks: new Map([...emulator.checks].map(([id, c]) => [id, { ...c }])),
      unresolved: [...emulator.incidents.values()].map(i => ({ ...i })),
      history: new Map([...emulator.history].map(([id, h]) => [id, [...h]])),
      foreign
    }
    for (const fault of [...round.faults, ...startFaults(round.wrapped, idOf)]) emulator.inject(fault)
    emulator.views = { ...round.views }
    emulator.incidentTitles = round.older.titles ?? {}

    const runnerEnv = (run: Run) => ({
      GITHUB_WORKSPACE: workspace,
      GITHUB_REPOSITORY: REPO,
      GITHUB_WORKFLOW: 'Simulate',
      GITHUB_JOB: `run-${run.n}`,
      GITHUB_RUN_ID: String(round.seed),
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SERVER_URL: 'https://github.example.com',
      GITHUB_API_URL: settings.github.url,
      GITHUB_EVENT_NAME: 'schedule'
    })
    const step = async (
      run: Run,
      inputs: Record<string, string>,
      env: Record<string, string>,
      options: { post?: boolean; state?: Record<string, string>; cancel?: boolean; what: string }
    ) => {
      const result = await runStep(
        { 'api-key': settings.key, 'base-url': emulator.baseUrl, 'github-token': GITHUB_TOKEN, ...inputs },
        {
          cwd: workspace,
          env: { ...runnerEnv(run), ...env },
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
      if (settings.trace) {
        const told = ['passed', 'outcome', 'drift', 'changed', 'count', 'issue-url', 'comment-url', 'error']
          .filter(name => result.outputs[name] !== undefined && result.outputs[name] !== '')
          .map(name => `${name}=${JSON.stringify(result.outputs[name].slice(0, 160))}`)
        settings.trace(
          `  run ${run.n} (${run.kind}) ${options.what}: exit ${result.code ?? result.signal} in ${result.ms} ms; ${told.join(' ')}`,
          result
        )
      }
      return result
    }
    const flow: Flow = {
      round,
      workspace,
      github: settings.github,
      step: async (e, what, inputs, env) => {
        const startedAt = Date.now()
        const result = await step(e.run, inputs, env, { what })
        e.steps.push({ what, result, bound: STEP_BOUND_MS, startedAt, inputs })
        return result
      }
    }

    // The service probes while the runs run: each probe as a real one finishing at its time.
    const started = Date.now()
    const probed: Probed[] = []
    const probing = Promise.all(
      round.probes.map(async p => {
        await sleep(p.atMs)
        const id = idOf.get(p.name)
        if (id === undefined || !emulator.recordProbe(id, { status: p.status, responseTime: p.responseTime })) return
        probed.push({ ...p, id, at: Date.parse(String(emulator.checks.get(id)?.lastCheckedAt)) })
      })
    )

    const handPaused = actOnTheSide(emulator, round, idOf, probed)

    // The main steps, together, each followed by its job's later steps, beside the wrapped runs (each judged
    // the moment it exits); then, once the service is quiet, the post steps (the job's end).
    const executed: Executed[] = round.runs.map(run => ({ run, steps: [], secrets: [] }))
    const wrapped: WrappedEnd[] = []
    const { key: apiKey, command } = settings
    const wrapping = { emulator, key: apiKey, idOf, cwd: workspace, command, started, boundMs: STEP_BOUND_MS }
    await Promise.all([
      probing,
      handPaused.done,
      ...round.wrapped.runs.map(async run => {
        const end = await playWrapped(run, wrapping)
        wrapped.push(end)
        settings.trace?.(`  ${traceOf(end)}`)
      }),
      ...executed.map(async e => {
        await sleep(Math.max(0, started + e.run.startMs - Date.now()))
        const startedAt = Date.now()
        const result = await step(e.run, e.run.inputs, e.run.env, { cancel: true, what: 'main' })
        e.steps.push({ what: 'main', result, bound: boundOf(e.run, true, settings), startedAt, inputs: e.run.inputs })
        if (e.run.cancelMs === undefined) await FLOWS[e.run.kind]?.(flow, e)
        else keepFiles(e, workspace, [e.run.inputs['checks-file'], e.run.inputs['plan-file']])
      })
    ])
    await quiet(emulator)
    const midway = new Map<string, Stored>([...emulator.checks].map(([id, c]) => [id, { ...c }]))
    const postOf = async (e: Executed, main: StepResult, what: string) => {
      if (!WITH_POST.includes(e.run.kind)) return
      const startedAt = Date.now()
      const result = await step(e.run, e.run.inputs, e.run.env, { post: true, state: main.state, what })
      e.steps.push({ what, result, bound: STEP_BOUND_MS, startedAt, inputs: e.run.inputs })
    }
    await Promise.all(executed.map(e => postOf(e, e.steps[0].result, 'post')))

    // Faults cleared, each failed write runs once more, one at a time.
    emulator.clearFaults()
    emulator.views = { createdAt: true, zonelessTimes: false }
    for (const e of executed) {
      if (!e.run.writes || e.steps[0].result.code === 0) continue
      const startedAt = Date.now()
      const again = await step(e.run, e.run.inputs, e.run.env, { what: 're-run' })
      e.steps.push({
        what: 're-run',
        result: again,
        bound: boundOf(e.run, false, settings),
        startedAt,
        inputs: e.run.inputs
      })
      await postOf(e, again, 'post of re-run')
    }
    await quiet(emulator, true)

    const after: After = {
      checks: new Map<string, Stored>(emulator.checks),
      incidents: new Map<string, Stored>(emulator.incidents),
      deleted: [...emulator.deletedChecks],
      midway,
      probed,
      handPaused: handPaused.ids,
      handPausedInWindow: pausedBetweenReadAndWrite(emulator.requests, handPaused.at),
      toldPaused: toldPaused(wrapped),
      issues: settings.github.issues.get(REPO) ?? [],
      comments: [...settings.github.comments].flatMap(([on, list]) => list.map(comment => ({ ...comment, on }))),
      refused: {
        issues: new Map(
          (settings.github.issues.get(REPO) ?? []).flatMap(i => {
            const refused = settings.github.refusedOfIssue(REPO, i.number)
            return refused ? [[i.number, [...refused]]] : []
          })
        ),
        comments: new Map(
          [...settings.github.comments.values()].flat().flatMap(c => {
            const refused = settings.github.refusedOfComment(c.id)
            return refused ? [[c.id, [...refused]]] : []
          })
        )
      },
      github: settings.github.requests.map(r => r.body),
      windowStarts: [...emulator.rateWindowStarts]
    }
    const secrets = [
      { value: settings.key, what: 'the api-key' },
      { value: GITHUB_TOKEN, what: 'the github-token' },
      { value: SECRET, what: "the fleet files' API_TOKEN" },
      ...round.secrets.map(value => ({ value, what: 'a value the service held before the rotation' })),
      ...executed.flatMap(e => e.secrets.map(value => ({ value, what: 'a value set after the rotation' })))
    ]
    const shared = judgeSharedKey(round, after, executed)
    const wrappedJudged = wrappedRules(before, wrapped, settings.key)
    return {
      violations: [
        ...violations(before, after, executed, secrets),
        ...shapeRules(before, after, executed),
        ...olderRules(round, before, after, executed),
        ...twoReadersRules(round, before, after, executed),
        ...refusedEditsRules(after),
        ...shared.violations,
        ...wrappedJudged.violations
      ],
      notes: [...shared.notes, ...wrappedJudged.notes],
      runs: round.runs.length + wrapped.length,
      processes: executed.reduce((n, e) => n + e.steps.length, wrapped.length),
      cancels: round.runs.filter(r => r.cancelMs !== undefined).length + wrapped.filter(w => w.sent).length,
      faults:
        round.faults.length +
        round.wrapped.runs.reduce((n, w) => n + w.faults.length, 0) +
        (round.views.createdAt ? 0 : 1) +
        (round.views.zonelessTimes ? 1 : 0) +
        (round.views.historyStartedAt ? 1 : 0) +
        (round.views.historyWholeSeconds ? 1 : 0) +
        (round.views.slashTimes ? 1 : 0) +
        (round.views.statedTotal ? 1 : 0),
      probes: probed.length,
      ...(key ? { rate: rateOf(emulator.requests) } : {})
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}
