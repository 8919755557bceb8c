/**
 * What must hold over the shapes of rules with two readers (two-readers.ts;
 * contract: "Version 6 rules: nothing of anyone else's, nothing shown"),
 * beside invariants.ts, whose secret rule already judges the URL forms (their
 * old, new, pruned and upserted passwords are among the round's secrets):
 *
 * - an export lifts a userinfo in every form the URL parser reads: it never
 *   refuses one of those checks (its error never names one), and when it
 *   ends well each is in its file behind a `${secret:…}` variable;
 * - someone else's incident (a person's message, a title that only loosely
 *   matches ours) is never resolved, and its title and message never change;
 * - a retry after an answer whose Retry-After no standard form reads says it
 *   could not read that value, and waits at least what back-off waits after
 *   that attempt (the round's only answers of that status carry it);
 * - once a sync of the file that lists a duplicated name ended well, every
 *   check of that name holds the same values, none of them an old one
 *   (judged where no read of the checks list shifted: a row such a read
 *   hides is one no client can change).
 */
import type { Stored } from '../../../emulator/store.js'
import type { After, Before, Executed } from './invariants.js'
import { FORM_GONE } from './two-readers.js'
import { FILES, type Round, URL_FORMS } from './world.js'

export function twoReadersRules(round: Round, before: Before, after: After, executed: Executed[]): string[] {
  return [
    ...exportFormsRule(round, executed),
    ...foreignIncidentRule(before, after),
    ...retryAfterRule(round, executed),
    ...duplicatesRule(round, after, executed)
  ]
}

/** The host of a form's check (the text after its userinfo): how its line in an exported file is found. */
const hostOf = (name: string) => /@([^/]+)/.exec(URL_FORMS[name]('u:p'))?.[1] ?? name
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * An export of checks whose userinfo stands in a form without `://` lifts each into a variable: its error
 * never names one (a refusal), and a file it wrote holds each behind `${secret:…}`.
 */
export function exportFormsRule(round: Round, executed: Executed[]): string[] {
  const out: string[] = []
  for (const { run, steps } of executed) {
    const main = steps.find(s => s.what === 'main')
    if (run.kind !== 'export' || run.cancelMs !== undefined || !main) continue
    const prefix = run.inputs['name-prefix'] ?? ''
    const scope = round.twoReaders.forms.filter(name => name.startsWith(prefix))
    const label = `run ${run.n} (export${prefix ? ` of ${prefix}` : ''})`
    if (main.result.code !== 0) {
      const error = [
        main.result.outputs.error ?? '',
        ...main.result.stdout.split('\n').filter(l => l.startsWith('::error'))
      ].join('\n')
      const refused = [...scope, FORM_GONE].filter(name => error.includes(name))
      if (refused.length > 0)
        out.push(
          `${label} refused ${refused.map(n => JSON.stringify(n)).join(', ')}, whose userinfo stands in a form the URL parser reads: ${JSON.stringify(error.slice(0, 160))}`
        )
      continue
    }
    const file = main.files?.[run.inputs['checks-file']] ?? ''
    for (const name of scope) {
      if (!new RegExp(`\\$\\{secret:[A-Za-z0-9_]+\\}@${escaped(hostOf(name))}`).test(file))
        out.push(`${label} ended 0, and its file does not hold ${JSON.stringify(name)}'s userinfo as a \${secret:…}`)
    }
  }
  return out
}

/** Someone else's incident (a person's message, a title only loosely ours) is never resolved nor changed. */
export function foreignIncidentRule(before: Before, after: After): string[] {
  const out: string[] = []
  for (const was of before.unresolved.filter(i => before.foreign?.includes(i.id))) {
    const now = after.incidents.get(was.id)
    const label = `incident ${was.id} (${JSON.stringify(was.title)}), someone else's (its message names no workflow)`
    if (!now) out.push(`${label} was deleted`)
    else if (String(now.status).toLowerCase() === 'resolved') out.push(`${label} was resolved by a run`)
    if (now && now.message !== was.message)
      out.push(`${label} had its message changed to ${JSON.stringify(String(now.message).slice(0, 80))}`)
    if (now && now.title !== was.title) out.push(`${label} had its title changed to ${JSON.stringify(now.title)}`)
  }
  return out
}

/** A retry's line: `GET /checks: HTTP 503; retry 1 of 2 in 0.4 s (could not read Retry-After "1.": backing off)`. */
const RETRY_LINE =
  /^(GET|POST|PUT|DELETE) (\S+): (?:rate limited \(HTTP 429\)|HTTP (\d{3})); retry (\d+) of (\d+) in (\d+(?:\.\d+)?) s(.*)$/

/** The least back-off waits after failed attempt `attempt` (retry.ts: half of 500 ms doubled each attempt, at most 20 s). */
export const leastBackoffMs = (attempt: number) => Math.min(20_000, 500 * 2 ** (attempt - 1)) / 2

/**
 * Every retry of an answer whose Retry-After no standard form reads (the round's only answers of that
 * status) says it could not read that value, quoted, and waits at least back-off's least wait (the log
 * shows tenths of a second: 50 ms allowed).
 */
export function retryAfterRule(round: Round, executed: Executed[]): string[] {
  const malformed = round.twoReaders.retryAfter
  if (!malformed) return []
  const out: string[] = []
  const said = `could not read Retry-After ${JSON.stringify(malformed.value)}`
  for (const { run, steps } of executed) {
    for (const { what, result } of steps) {
      for (const line of result.stdout.split('\n')) {
        const m = RETRY_LINE.exec(line.trim())
        if (!m || (m[3] === undefined ? 429 : Number(m[3])) !== malformed.status) continue
        const [attempt, waitMs] = [Number(m[4]), Number(m[6]) * 1000]
        const label = `run ${run.n} (${run.kind}) ${what} retried ${m[1]} ${m[2]} after HTTP ${malformed.status} with Retry-After ${JSON.stringify(malformed.value)}`
        if (!m[7].includes(said)) out.push(`${label} without saying it could not read it: ${JSON.stringify(line)}`)
        if (waitMs + 50 < leastBackoffMs(attempt))
          out.push(
            `${label} ${m[6]} s later, sooner than back-off waits after attempt ${attempt} (${leastBackoffMs(attempt)} ms)`
          )
      }
    }
  }
  return out
}

/** What a sync writes of a check: every field but those the service owns. */
const writable = (check: Stored) =>
  JSON.stringify(
    Object.entries(check)
      .filter(([k]) => !['id', 'status', 'lastCheckedAt', 'responseTime', 'createdAt', 'updatedAt'].includes(k))
      .sort(([a], [b]) => (a < b ? -1 : 1))
  )

/**
 * Once a sync (not a dry run) of the file that lists the duplicated name ended well, every check of that
 * name holds the same values, and none an old value of the round's. Not judged when a read of the checks
 * list shifted (a row it hides is one no client can change).
 */
export function duplicatesRule(round: Round, after: After, executed: Executed[]): string[] {
  const duplicated = round.twoReaders.duplicated
  if (!duplicated || round.faults.some(f => f.shift !== undefined && f.path === '/checks')) return []
  const { name } = duplicated
  const applied = executed.flatMap(({ run, steps }) =>
    steps
      .filter(
        s =>
          s.inputs.operation === 'sync-checks' &&
          s.inputs['dry-run'] !== 'true' &&
          (FILES[s.inputs['checks-file']] ?? []).includes(name) &&
          s.result.code === 0
      )
      .map(s => `run ${run.n} (${run.kind}) ${s.what}`)
  )
  if (applied.length === 0) return []
  const held = [...after.checks.values()].filter(c => c.name === name)
  const out: string[] = []
  const kinds = new Set(held.map(writable))
  if (kinds.size > 1)
    out.push(
      `${applied[0]} synced ${JSON.stringify(name)} and ended 0, yet its ${held.length} identical checks now differ in ${kinds.size} ways (${held.map(c => c.id).join(', ')})`
    )
  for (const check of held) {
    const old = round.secrets.find(value => String(check.url).includes(value))
    if (old !== undefined)
      out.push(
        `${applied[0]} synced ${JSON.stringify(name)} and ended 0, yet ${check.id} still holds a value from before the round`
      )
  }
  return out
}
