/**
 * What must hold after a round, whatever the faults and cancels did: each
 * rule names the promise it keeps (contract: "Precise rules", "Version 3
 * rules for trust" and "Version 4 rules").
 */
import type { Json } from '../../../emulator/http.js'
import { type Stored, storedTitle } from '../../../emulator/store.js'
import { RATE_LIMIT } from '../../../src/api/client.js'
import { WINDOW_SLACK_MS } from '../../../src/api/pacer.js'
import { formsOf } from '../../../src/secrets/secrets.js'
import type { FakeComment, FakeIssue } from '../fake-github.js'
import type { StepResult } from '../runner.js'
import { BASELINE, FILES, INJECTED, PAUSE_PREFIX, Probe, Run, SLO } from './schedule.js'
import { burnRule, checkApiRules, patternRules } from './look-ahead-rules.js'

export interface Before {
  checks: Map<string, Stored>
  unresolved: Stored[]
  /** Each check's history as seeded (real times), by id. */
  history: Map<string, Json[]>
  /** Incidents a person opened (two-readers.ts): someone else's, by id. */
  foreign?: string[]
}

/** A probe the service made during the round, with the check's id and the time it recorded (ms). */
export interface Probed extends Probe {
  id: string
  at: number
}

export interface After {
  checks: Map<string, Stored>
  incidents: Map<string, Stored>
  /** Every check deleted during the round, as it was. */
  deleted: readonly Stored[]
  /** The checks after the main steps and their later steps, before any post step. */
  midway: Map<string, Stored>
  probed: Probed[]
  /** Checks another actor moved from running to paused during the round (shapes.ts): they stay paused. */
  handPaused: string[]
  /** Of those, the ones paused between a run's read of the check and its write (round.ts): no client can tell. */
  handPausedInWindow: string[]
  /** Checks a wrapped pause said it left paused, or whose pause it said was never answered (wrapped-rules.ts). */
  toldPaused?: string[]
  /** The repository's issues on the fake GitHub. */
  issues: FakeIssue[]
  /** Every comment on the fake GitHub, with the issue or pull request it is on ("owner/repo#n"). */
  comments?: Array<FakeComment & { on: string }>
  /** The changes GitHub refuses of an issue (by number) or a comment (by id): refused-edits.ts draws them. */
  refused?: { issues: Map<number, string[]>; comments: Map<number, string[]> }
  /** Every request body sent to GitHub (issues, comments, edits). */
  github: string[]
  /** When each window of the emulator's rate limit opened (ms), in a round with a shared key (shared-key.ts). */
  windowStarts: readonly number[]
}

export interface StepRecord {
  what: string
  result: StepResult
  bound: number
  startedAt: number
  inputs: Record<string, string>
  /** Files the step wrote that people read or commit (an exported checks file, a plan file), by name. */
  files?: Record<string, string>
}

export interface Executed {
  run: Run
  /** Each process of this run in order: the main step, its later steps, its post step, the re-run (and its post step). */
  steps: StepRecord[]
  /** Values this run set as secrets (a rotation's new values). */
  secrets: string[]
}

export interface Secret {
  value: string
  what: string
}

const isResolved = (i: Stored) => String(i.status ?? '').toLowerCase() === 'resolved'
/** The same title, in any case, or as a service that changes titles stores it (older.ts). */
const sameTitle = (a: unknown, b: string) =>
  [{}, { collapseBlanks: true }, { cutAt: 40 }].some(
    form =>
      String(a ?? '')
        .trim()
        .toLowerCase() === storedTitle(b, form).trim().toLowerCase()
  )

/** Workflow commands the action itself writes; anything else at a line's start is an injection. */
const MEANT = /^::(add-mask|debug|warning|error|notice|group|endgroup)( [^:]*)?::/
/** Values no secret is: masking one hides it everywhere for the rest of the job. */
const HARMLESS = /^(true|false|yes|no|on|off|null|none|enabled|disabled|[-+]?\d+(\.\d+)?)$/i

/** Everything a step wrote that people and later jobs read (the runner consumes ::add-mask:: lines). */
function readable(result: StepResult): string {
  const stdout = result.stdout
    .split('\n')
    .filter(line => !line.startsWith('::add-mask::'))
    .join('\n')
  return [stdout, result.stderr, JSON.stringify(result.outputs), result.summary, JSON.stringify(result.state)].join(
    '\n'
  )
}

/** The first secret (and its form) that `text` holds, if any. */
function leaked(text: string, secrets: Secret[]): { secret: Secret; form: string } | undefined {
  for (const secret of secrets) {
    const form = formsOf(secret.value).find(f => text.includes(f))
    if (form !== undefined) return { secret, form }
  }
  return undefined
}

export function violations(before: Before, after: After, executed: Executed[], secrets: Secret[]): string[] {
  return [
    ...worldRules(before, after, executed),
    ...stepRules(executed, secrets),
    ...gitHubRules(after, executed, secrets),
    ...handPausedRules(before, after, executed),
    ...gateRules(before, after, executed),
    ...exportRules(executed),
    ...prefixRules(before, after, executed),
    ...patternRules(before, after, executed),
    ...checkApiRules(before, after, executed)
  ]
}

/** Deletes, duplicates, paused checks, incidents: what the service holds after the round. */
function worldRules(before: Before, after: After, executed: Executed[]): string[] {
  const out: string[] = []
  // What runs said they kept: the only excuse for two of one name (the action cannot tell, so it keeps both).
  const said = executed
    .flatMap(e => e.steps.flatMap(s => s.result.stdout.split('\n')))
    .filter(line =>
      /cannot prove|identical checks are named|identical unresolved incidents|another URL or type/.test(line)
    )
    .join('\n')

  // Nothing is deleted that no run was asked to delete: a prune deletes only names under its prefix that its
  // file does not list; convergence only checks made during the round, of a name a run was making.
  const prunes = executed
    .filter(e => e.steps.some(s => s.inputs.prune === 'true' && s.inputs['dry-run'] !== 'true'))
    .map(e => ({ prefix: e.run.inputs['prune-prefix'] ?? '', listed: FILES[e.run.inputs['checks-file']] ?? [] }))
  const prunable = (name: string) => prunes.some(p => name.startsWith(p.prefix) && !p.listed.includes(name))
  const making = new Set(
    executed.flatMap(e =>
      e.run.inputs.operation === 'upsert-check'
        ? [e.run.inputs['check-name']]
        : e.run.inputs.operation === 'sync-checks'
          ? (FILES[e.run.inputs['checks-file']] ?? [])
          : []
    )
  )
  // check-api makes and deletes one check of its own, named check-api- and a random suffix (no world name is).
  const ownCheckApi = (name: string) => executed.some(e => e.run.kind === 'check-api') && name.startsWith('check-api-')
  for (const gone of after.deleted) {
    const name = String(gone.name)
    if (prunable(name) || (ownCheckApi(name) && !before.checks.has(gone.id))) continue
    if (before.checks.has(gone.id)) {
      out.push(`check ${gone.id} (${JSON.stringify(name)}) existed before the round and was deleted`)
    } else if (!making.has(name)) {
      out.push(`check ${gone.id} (${JSON.stringify(name)}) was made during the round and deleted, and no run made it`)
    }
  }
  const resolveAsked = executed.filter(e => e.run.kind === 'resolve').map(e => e.run.inputs['incident-title'])
  for (const incident of before.unresolved) {
    const now = after.incidents.get(incident.id)
    if (now && !isResolved(now)) continue
    if (resolveAsked.some(title => sameTitle(incident.title, title))) continue
    out.push(
      `incident ${incident.id} (${JSON.stringify(incident.title)}) was unresolved before the round and is not now`
    )
  }

  // At most one check per name and one unresolved incident per title, unless a run said it kept them.
  const byName = new Map<string, Stored[]>()
  for (const check of after.checks.values())
    byName.set(String(check.name), [...(byName.get(String(check.name)) ?? []), check])
  // A create after reads that all shifted may go ahead when the run says so (contract: "Version 5 rules").
  const unproven = (name: string) =>
    executed.some(
      e =>
        making.has(name) &&
        (e.run.inputs['check-name'] === name || (FILES[e.run.inputs['checks-file']] ?? []).includes(name)) &&
        e.steps.some(s => s.result.stdout.includes('proved nothing about what is there'))
    )
  // Identical checks of a name that all existed before the round are none of the runs' doing (two-readers.ts).
  const allBefore = (list: Stored[]) => list.every(c => before.checks.has(c.id))
  for (const [name, list] of byName) {
    if (list.length > 1 && !list.every(c => said.includes(c.id)) && !unproven(name) && !allBefore(list)) {
      out.push(
        `${list.length} checks are named ${JSON.stringify(name)} (${list.map(c => c.id).join(', ')}) and no run said why`
      )
    }
  }
  const byTitle = new Map<string, Stored[]>()
  // Someone else's incident (two-readers.ts) may share a title with ours, as a service that changes titles stores both.
  for (const i of after.incidents.values()) {
    if (!isResolved(i) && !before.foreign?.includes(i.id))
      byTitle.set(String(i.title), [...(byTitle.get(String(i.title)) ?? []), i])
  }
  for (const [title, list] of byTitle) {
    if (list.length > 1 && !list.every(i => said.includes(i.id))) {
      out.push(`${list.length} unresolved incidents are titled ${JSON.stringify(title)} and no run said why`)
    }
  }

  // No check left paused that was not paused before; one someone else paused stays paused (unless a sync
  // applied a file that states it active: resuming it or keeping it paused are both the action's choice).
  const applied = (name: string) =>
    executed.some(e =>
      e.steps.some(
        s =>
          s.inputs.operation === 'sync-checks' &&
          s.inputs['dry-run'] !== 'true' &&
          (FILES[s.inputs['checks-file']] ?? []).includes(name)
      )
    )
  // A pause sent without an answer may land after anything the action can see: the contract asks only that
  // monitoring is never left off silently, so a warning naming the check that says so is the excuse (a
  // wrapped pause's words, on its standard error: toldPaused).
  const warnedLate = (id: string) =>
    executed.some(e =>
      e.steps.some(s =>
        s.result.stdout
          .split('\n')
          .some(
            line => line.startsWith('::warning::') && line.includes(`of ${id} (`) && line.includes('never answered')
          )
      )
    )
  for (const [id, check] of after.checks) {
    const was = before.checks.get(id)
    const paused = String(check.status) === 'paused'
    const told = warnedLate(id) || after.toldPaused?.includes(id)
    if (paused && was?.status !== 'paused' && !after.handPaused.includes(id) && !told)
      out.push(`check ${id} (${JSON.stringify(check.name)}) was left paused`)
    if (!paused && was?.status === 'paused' && !applied(String(check.name)))
      out.push(`check ${id} was paused by someone else and is not paused now`)
  }
  return out
}

/**
 * The wait a step's own pacing adds to its bound (pacer.ts): the client starts at most RATE_LIMIT.limit
 * requests in a window, so each further hundred waits for the window (and its slack) to pass. A step's
 * requests are its client's debug lines, one per request sent (each page, retry and hop).
 */
export function pacingAllowanceMs(stdout: string): number {
  const requests = (stdout.match(/^::debug::(?:GET|POST|PUT|PATCH|DELETE) \//gm) ?? []).length
  return Math.floor(Math.max(0, requests - 1) / RATE_LIMIT.limit) * (RATE_LIMIT.windowMs + WINDOW_SLACK_MS)
}

/** Each process: its bound, no secret anywhere it wrote, no workflow command it did not mean, true ids. */
function stepRules(executed: Executed[], secrets: Secret[]): string[] {
  const out: string[] = []
  for (const { run, steps } of executed) {
    for (const { what, result, bound: own, files } of steps) {
      const label = `run ${run.n} (${run.kind}) ${what}`
      // Every process ended within its bound, and the waits its own pacing to the rate limit adds.
      const bound = own + pacingAllowanceMs(result.stdout)
      if (result.ms > bound) out.push(`${label} took ${result.ms} ms, more than its bound of ${bound} ms`)
      // No secret in any form: today's, the service's old ones, the rotation's new ones, in the log, outputs,
      // summary, state, and the files the step wrote (a plan file, a checks file meant to be committed).
      const places: Array<[string, string]> = [
        ['its log, outputs, summary or state', readable(result)],
        ...Object.entries(files ?? {}).map(([name, text]): [string, string] => [`the file ${name}`, text])
      ]
      for (const [where, text] of places) {
        const found = leaked(text, secrets)
        if (found)
          out.push(
            `${label} wrote a secret (${found.secret.what}, ${JSON.stringify(found.form.slice(0, 6))}…) in ${where}`
          )
      }
      // A value the action masks is one it proved secret: never a word like `true` (it would hide every `true`).
      for (const line of result.stdout.split('\n')) {
        const masked = /^::add-mask::(.*)$/.exec(line)?.[1]
        if (masked !== undefined && HARMLESS.test(masked.trim()))
          out.push(`${label} masked a harmless value: ${JSON.stringify(line.slice(0, 40))}`)
      }
      // No workflow command the action did not mean, whatever ends a line.
      for (const line of result.stdout.split(/\r\n|\r|\n/)) {
        const trimmed = line.trimStart()
        const injected = trimmed.startsWith(INJECTED) || new RegExp(`^::[a-z-]+( [^:]*)?::${INJECTED}`).test(trimmed)
        if ((trimmed.startsWith('::') && !MEANT.test(trimmed)) || injected) {
          out.push(`${label} wrote a workflow command it did not mean: ${JSON.stringify(line.slice(0, 80))}`)
        }
      }
    }
  }
  return out
}

/** Drift issues and pull-request comments: no secret, one open issue per workflow and checks file. */
function gitHubRules(after: After, executed: Executed[], secrets: Secret[]): string[] {
  const out: string[] = []
  for (const body of after.github) {
    const found = leaked(body, secrets)
    if (found) {
      out.push(
        `a request to GitHub (a drift issue or a comment) holds a secret (${found.secret.what}, ${JSON.stringify(found.form.slice(0, 6))}…)`
      )
      break
    }
  }
  out.push(...driftIssueRules(after, executed))
  return out
}

/**
 * At most one open drift issue per workflow and checks file; when the last drift watch of a file found no
 * drift (and no other overlapped it), none is open, whichever is live, also one a person edited. An issue
 * GitHub refuses to close (refused-edits.ts) is none of the runs' doing and is not counted: a pile-up is
 * the others.
 */
export function driftIssueRules(after: After, executed: Executed[]): string[] {
  const out: string[] = []
  const stuck = (issue: FakeIssue) => after.refused?.issues.get(issue.number)?.includes('close') === true
  const open = new Map<string, FakeIssue[]>()
  for (const issue of after.issues) {
    if (issue.user.type === 'Bot' && issue.state === 'open' && !stuck(issue))
      open.set(issue.title, [...(open.get(issue.title) ?? []), issue])
  }
  for (const [title, list] of open) {
    if (list.length > 1)
      out.push(
        `${list.length} drift issues titled ${JSON.stringify(title)} are open (${list.map(i => `#${i.number}`).join(', ')}): one workflow and checks file keep one${refusedNote(after, title)}`
      )
  }
  // When the last drift watch of a file found no drift (and no other overlapped it), its issues are closed,
  // whichever is live, also one a person edited.
  const watches = executed.flatMap(e => e.steps.filter(s => s.inputs['drift-issue'] === 'true').map(s => ({ e, s })))
  for (const file of new Set(watches.map(w => w.s.inputs['checks-file']))) {
    const mine = watches.filter(w => w.s.inputs['checks-file'] === file)
    const end = (w: (typeof mine)[number]) => w.s.startedAt + w.s.result.ms
    const last = mine.reduce((a, b) => (end(b) > end(a) ? b : a))
    const overlapped = mine.some(w => w !== last && end(w) > last.s.startedAt)
    if (overlapped || last.s.result.code !== 0 || last.s.result.outputs.drift !== 'false') continue
    const still = (open.get(`Monitoring drift: ${file}`) ?? []).map(i => `#${i.number}`)
    if (still.length > 0)
      out.push(
        `run ${last.e.run.n} (${last.e.run.kind}) ${last.s.what} found no drift in ${file}, and drift issue ${still.join(', ')} is still open${refusedNote(after, `Monitoring drift: ${file}`)}`
      )
  }
  return out
}

/** What GitHub refuses of the issues of this title, for a violation's words: ` (#1: GitHub refuses edit, close)`. */
function refusedNote(after: After, title: string): string {
  const refused = after.issues.filter(i => i.title === title && after.refused?.issues.has(i.number))
  const what = (n: number) => (after.refused?.issues.get(n) ?? []).join(', ')
  return refused.length === 0
    ? ''
    : ` (${refused.map(i => `#${i.number}: GitHub refuses ${what(i.number)}`).join('; ')})`
}

/**
 * A dry run of a checks file reports drift while a check the file states active (no `status: paused`) is
 * paused in the service: paused by hand before the round and still paused after it (no run pauses a fleet
 * check, so it was paused all along; an apply may resume it instead, and then timing says nothing).
 */
function handPausedRules(before: Before, after: After, executed: Executed[]): string[] {
  const out: string[] = []
  const paused = [...before.checks.values()].filter(
    c => c.status === 'paused' && after.checks.get(c.id)?.status === 'paused'
  )
  for (const { run, steps } of executed) {
    for (const s of steps) {
      const listed = FILES[s.inputs['checks-file']]
      if (s.inputs['dry-run'] !== 'true' || !listed || s.result.outputs.drift !== 'false') continue
      for (const c of paused.filter(c => listed.includes(String(c.name))))
        out.push(
          `run ${run.n} (${run.kind}) ${s.what} found no drift in ${s.inputs['checks-file']}, though ${JSON.stringify(c.name)} is paused in the service and the file states it active`
        )
    }
  }
  return out
}

/** One result the gate may count: its time (ms), status and response time. */
type Result = { at: number; status: string; responseTime: number }

/**
 * A gate passes only on what the service holds: `consecutive-passes` distinct results in a row (the
 * emulator's probes and the last result from before; a miss resets the row) in the expected status, fresh
 * with require-fresh, within the baseline's limit; never with an error budget spent.
 */
function gateRules(before: Before, after: After, executed: Executed[]): string[] {
  const out: string[] = []
  for (const { run, steps } of executed) {
    const gate = steps.find(s => s.what === 'main')
    if (run.inputs.operation !== 'wait-for-check' || !gate) continue
    const name = run.inputs['check-name']
    const was = [...before.checks.values()].find(c => c.name === name)
    if (!was) continue
    const end = gate.startedAt + gate.result.ms
    if (run.inputs.slo !== undefined && run.inputs['max-burn-rate'] === undefined)
      out.push(...budgetRule(run, gate, was, before, after))
    if (run.inputs['max-burn-rate'] !== undefined) out.push(...burnRule(run, gate, was.id, before, after))
    if (gate.result.outputs.passed !== 'true') continue
    const fresh = run.inputs['require-fresh'] !== 'false'
    const results: Result[] = [
      { at: Date.parse(String(was.lastCheckedAt)), status: String(was.status), responseTime: Number(was.responseTime) },
      ...after.probed.filter(p => p.id === was.id)
      // Fresh (contract, version 5): after the step's first read, so after the process started; no allowance.
    ].filter(r => r.at <= end && (!fresh || r.at > gate.startedAt))
    const touched = executed.some(e => ['pause', 'resume'].includes(e.run.kind) && e.run.inputs['check-name'] === name)
    let limit = Infinity
    if (run.inputs.baseline !== undefined) {
      const windowEnd = statedWindowEnd(gate.result.outputs.result, 'baseline')
      if (windowEnd === undefined || windowEnd < gate.startedAt || windowEnd > end) {
        out.push(
          `run ${run.n} (gate) passed with a baseline whose window ends at ${windowEnd === undefined ? 'no stated time' : new Date(windowEnd).toISOString()}, outside the step (${new Date(gate.startedAt).toISOString()} to ${new Date(end).toISOString()})`
        )
        continue
      }
      limit = baselineLimit(was, windowEnd, before, after)
    }
    const meets = (r: Result) =>
      (touched || r.status === (run.inputs['expected-status'] ?? 'up')) && r.responseTime <= limit
    // The longest run of distinct results in a row that meet the condition (a miss resets it, as the action's count).
    let streak = 0
    let distinct = 0
    for (const at of [...new Set(results.map(r => r.at))].sort((a, b) => a - b)) {
      streak = results.filter(r => r.at === at).every(meets) ? streak + 1 : 0
      distinct = Math.max(distinct, streak)
    }
    const asked = Number(run.inputs['consecutive-passes'] ?? '1')
    const probes = after.probed.filter(p => p.id === was.id && p.at >= gate.startedAt && p.at <= end).length
    const staleBefore = !(Date.parse(String(was.lastCheckedAt)) > gate.startedAt - 5_000)
    if (fresh && distinct === 0 && staleBefore) {
      out.push(
        `run ${run.n} (gate) passed on ${JSON.stringify(name)}, whose last result (${String(was.lastCheckedAt)}) is older than the step, and none of the ${probes} probe(s) made while it ran meets its condition (TZ ${run.env.TZ})`
      )
    } else if (distinct === 0 && was.status === 'down' && !touched) {
      out.push(`run ${run.n} (gate) passed on ${JSON.stringify(name)}, which is down`)
    } else if (distinct < asked) {
      out.push(
        `run ${run.n} (gate) passed on ${JSON.stringify(name)} with at most ${distinct} distinct result(s) in a row that meet its condition (${probes} probe(s) made while it ran); consecutive-passes asks ${asked}`
      )
    }
  }
  return out
}

/**
 * Where a window the gate judged ends, as its `result` states it (`baseline.to` or `errorBudget.to`): the
 * step's start as the action took it, after the process began. The callers hold it within the process's life.
 */
export function statedWindowEnd(
  result: string | undefined,
  window: 'baseline' | 'errorBudget' | 'burnRate'
): number | undefined {
  try {
    const first = (
      JSON.parse(result ?? '') as Array<Record<string, { to?: unknown; long?: { to?: unknown } } | undefined>>
    )[0]
    // The burn rate states its long window's end (the short one ends there too).
    const to = window === 'burnRate' ? first?.[window]?.long?.to : first?.[window]?.to
    const ms = typeof to === 'string' ? Date.parse(to) : NaN
    return Number.isFinite(ms) ? ms : undefined
  } catch {
    return undefined
  }
}

/**
 * The most a result may take to meet a baseline: its window's slowest up result (no p95 is above it) plus
 * the allowed increase. Generous on purpose: a slow probe is 10 times the world's results. `start` is the
 * window's end as the action stated it; a result finished up to a second after it counts too, since a view
 * may show history times a second early (historyStartedAt) or cut to whole seconds.
 */
function baselineLimit(was: Stored, stated: number, before: Before, after: After): number {
  const start = stated + 1_000
  const from = stated - 60 * 60_000
  const times = [
    ...(before.history.get(was.id) ?? []).map(h => ({
      at: Date.parse(String(h.checkedAt)),
      status: h.status,
      responseTime: h.responseTime
    })),
    ...after.probed.filter(p => p.id === was.id)
  ]
    .filter(e => e.at >= from && e.at < start && e.status === 'up' && typeof e.responseTime === 'number')
    .map(e => Number(e.responseTime))
  return times.length < 5 ? Infinity : Math.max(...times) * (1 + BASELINE.increase)
}

/**
 * The error budget (slo): never passed when the window's history spent it; budget-exhausted only when it did.
 * The window ends where the action started (its `result` says; within the process's life), and a view may
 * show a result up to a second early: a result that close to either edge may be in or out, so each rule
 * judges only what holds either way (the best and the worst case).
 */
export function budgetRule(
  run: Run,
  gate: Executed['steps'][number],
  was: Stored,
  before: Before,
  after: After
): string[] {
  const stated = statedWindowEnd(gate.result.outputs.result, 'errorBudget')
  const end = gate.startedAt + gate.result.ms
  const known = stated !== undefined && stated >= gate.startedAt && stated <= end
  const to = known ? stated : gate.startedAt
  const from = to - 60 * 60_000
  // Without a stated end, anything up to the step's end may have been before the action's start.
  const doubtUntil = known ? to + 1_000 : end
  const all = [
    ...(before.history.get(was.id) ?? []).map(h => ({ at: Date.parse(String(h.checkedAt)), status: h.status })),
    ...after.probed.filter(p => p.id === was.id)
  ].filter(e => typeof e.status === 'string' && e.at >= from && e.at < doubtUntil)
  const doubtful = (e: { at: number }) => e.at < from + 1_000 || e.at >= to
  const sure = all.filter(e => !doubtful(e))
  const best = [...sure, ...all.filter(e => doubtful(e) && e.status === 'up')]
  const worst = [...sure, ...all.filter(e => doubtful(e) && e.status !== 'up')]
  const availability = (list: typeof all) => list.filter(e => e.status === 'up').length / list.length
  const spentIn = (list: typeof all) => list.length >= 5 && 1 - (1 - availability(list)) / (1 - SLO.objective) <= 0
  const leftIn = (list: typeof all) => list.length >= 5 && !spentIn(list)
  const surelySpent = spentIn(best) && spentIn(worst)
  const surelyLeft = leftIn(best) && leftIn(worst)
  const outcome = gate.result.outputs.outcome
  const label = `run ${run.n} (budget-gate) on ${JSON.stringify(was.name)} (availability ${(availability(sure) * 100).toFixed(1)}% of ${sure.length} sure and ${all.length - sure.length} at an edge, objective ${SLO.slo})`
  if (surelySpent && gate.result.outputs.passed === 'true') return [`${label} passed with its error budget spent`]
  if (surelyLeft && outcome === 'budget-exhausted') return [`${label} said budget-exhausted with budget left`]
  if (surelySpent && run.cancelMs === undefined && outcome !== 'budget-exhausted' && outcome !== 'error')
    return [`${label} ended ${JSON.stringify(outcome)}, not budget-exhausted, with its error budget spent`]
  return []
}

/** Export keeps what is no secret: `bypass_cache=true` stays in the file as it is. */
function exportRules(executed: Executed[]): string[] {
  const out: string[] = []
  for (const { run, steps } of executed) {
    if (run.kind !== 'export') continue
    const text = steps[0].files?.[run.inputs['checks-file']]
    if (text?.includes('sim-vault-query') && !text.includes('bypass_cache=true'))
      out.push(
        `run ${run.n} (export) lifted bypass_cache=true out of the file: a lifted value is never a harmless word`
      )
  }
  return out
}

/** When a check `was` so before the round was changed: during it (midway), after it, or neither. */
export function touchedWhen(after: After, id: string, was: Stored): Array<'during' | 'after'> {
  const moved = (now: Stored | undefined) => now?.status !== was.status || now?.updatedAt !== was.updatedAt
  return [
    ...(moved(after.midway.get(id)) ? (['during'] as const) : []),
    ...(moved(after.checks.get(id)) ? (['after'] as const) : [])
  ]
}

/** A prefix pause pauses exactly its prefix's checks (then the post step resumes them: worldRules); no other. */
function prefixRules(before: Before, after: After, executed: Executed[]): string[] {
  const out: string[] = []
  const pausers = executed.filter(e => e.run.kind === 'prefix-pause')
  if (pausers.length === 0) return out
  const ok = pausers.some(e => e.run.cancelMs === undefined && e.steps[0].result.code === 0)
  for (const [id, was] of before.checks) {
    const name = String(was.name)
    if (!name.includes(PAUSE_PREFIX.replace(/-$/, ''))) continue
    if (name.startsWith(PAUSE_PREFIX)) {
      if (ok && after.midway.get(id)?.status !== 'paused')
        out.push(`a prefix pause ended 0, and ${JSON.stringify(name)} (${PAUSE_PREFIX}…) was not paused`)
    } else {
      for (const when of touchedWhen(after, id, was))
        out.push(`a prefix pause on ${PAUSE_PREFIX} touched ${JSON.stringify(name)} (${when} the round)`)
    }
  }
  return out
}
