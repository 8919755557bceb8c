/**
 * The points the API document leaves unsaid, each judged from what check-api
 * saw (seen.ts): what this service does (`found`), what the action does about
 * it (`consequence`) and what the user may do (`advice`). One function per
 * point; a point that cannot be learnt from what was seen is `unknown`, with
 * why. Pure: the tests hold each point against each emulator profile.
 */
import { placeTime } from '../../values/values.js'
import type { Mapping } from '../../values/values.js'
import type { ListSeen, Seen } from './seen.js'

export interface Point {
  point: string
  /** What the service does; `unknown` when it could not be learnt (then `why`). */
  found: string
  consequence: string
  advice: string
  why?: string
}

const CONCURRENCY = 'give the jobs that write with this key a `concurrency:` group'
const unknown = (point: string, why: string, consequence: string, advice: string): Point => ({
  point,
  found: 'unknown',
  why,
  consequence,
  advice
})
const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`
const listed = (items: Iterable<string>) => [...items].join(', ')

/** The lists read whole (a list that failed tells its failure, not its shape). */
const whole = (seen: Seen) => seen.lists.filter(l => l.failed === undefined)

export function paging(seen: Seen): Point {
  const point = 'paging'
  const bounded = seen.lists.find((l): l is ListSeen & { failed: string } => l.failed?.includes('pages') === true)
  const cap = `the action follows a Link header, a next link in the body or a cursor, up to ${seen.maxPages} pages a list`
  if (bounded) {
    return {
      point,
      found: `${bounded.name}: ${bounded.failed}`,
      consequence: `${cap}; past that a read stops and the operation fails rather than read without end`,
      advice: 'keep each list under the cap (fewer checks an account), or ask the service why its pages never end'
    }
  }
  const paged = whole(seen).filter(l => l.pages.length > 1)
  if (paged.length === 0) {
    const most = Math.max(0, ...whole(seen).map(l => l.rows.length))
    return unknown(
      point,
      `no list had a second page (the longest held ${plural(most, 'row')} on one page)`,
      cap,
      'run check-api against an account with more checks than a page holds to learn the page size'
    )
  }
  const styles = new Set(paged.map(l => l.pages[0].next ?? 'nothing'))
  const alsoBody = paged.some(l => l.pages[0].alsoInBody) ? ' (and a next link in the body)' : ''
  const size = Math.max(...paged.map(l => l.pages[0].rows))
  return {
    point,
    found: `next page by ${listed(styles)}${alsoBody}; ${size} rows a page (${paged.map(l => `${l.name}: ${plural(l.pages.length, 'page')}`).join(', ')})`,
    consequence: `${cap}: ${seen.maxPages * size} rows at most; each page is one request of the rate limit`,
    advice: `a list over ${seen.maxPages * size} rows cannot be read whole: keep an account's checks under it`
  }
}

export function total(seen: Seen): Point {
  const point = 'total'
  const read = whole(seen)
  if (read.length === 0) return unknown(point, 'no list could be read', '', '')
  const stated = read.filter(l => l.pages.some(p => p.total !== undefined))
  if (stated.length > 0) {
    const counts = stated.map(l => `${l.name}: ${[...l.pages].reverse().find(p => p.total !== undefined)?.total}`)
    return {
      point,
      found: `stated (${counts.join(', ')})`,
      consequence:
        'a read that holds fewer rows than the stated total missed some while the list moved: the action then proves nothing by it (no create on a name it did not see, no delete by it)',
      advice: 'none needed'
    }
  }
  return {
    point,
    found: 'no total stated (no X-Total-Count, total or meta.total)',
    consequence:
      'a read that missed a row while the list moved is seen only when another row repeats; the action then proves nothing by it',
    advice: `avoid writing while another job reads the same account: ${CONCURRENCY}`
  }
}

export function rateLimit(seen: Seen): Point {
  const point = 'rate-limit headers'
  const pages = whole(seen).flatMap(l => l.pages)
  if (pages.length === 0) return unknown(point, 'no list could be read', '', '')
  const rate = pages.find(p => p.rate.sent.length > 0)?.rate
  if (!rate) {
    return {
      point,
      found: 'none (no RateLimit-* or X-RateLimit-*)',
      consequence:
        'the action paces itself to the documented 100 requests a minute, alone: jobs sharing the key cannot see what the others spend, and meet 429s (each waited out as Retry-After says, within limits)',
      advice: `give jobs that share this key a \`concurrency:\` group, or a key each`
    }
  }
  const resets = rate.resets.map(r => `${r.header} ${r.form} (${JSON.stringify(r.value)})`).join(', ')
  const limit = rate.limit ? `; limit ${rate.limit.limit} (${rate.limit.header})` : '; no limit stated'
  const other = rate.limit && rate.limit.limit !== 100 ? ` (not the documented 100 a minute)` : ''
  return {
    point,
    found: `${listed(rate.sent)}; reset ${resets || 'not stated'}${limit}${other}`,
    consequence: rate.followed
      ? 'the action follows the budget the service states, shared by every job on the key: it slows before a 429 and waits for the reset'
      : 'the action cannot follow the budget from these headers (it needs a remaining count and a reset it reads); it paces to 100 a minute alone',
    advice: rate.followed ? 'none needed' : 'give jobs that share this key a `concurrency:` group'
  }
}

/** Every check seen, each id once (its latest reading): the list's, and the writes' own. */
function checksSeen(seen: Seen): Mapping[] {
  const own = [seen.writes?.created, seen.writes?.afterPut].filter((c): c is Mapping => c !== undefined)
  const byId = new Map<unknown, Mapping>()
  for (const check of [...(seen.lists.find(l => l.name === 'checks')?.rows ?? []), ...own]) byId.set(check.id, check)
  return [...byId.values()]
}

type TimeStated = 'placed' | 'unplaced' | 'none'

/** How a field states a time: one the action places, one in a form it cannot place, or none (absent or null). */
function timeStated(value: unknown): TimeStated {
  if (value === undefined || value === null) return 'none'
  return placeTime(value) === undefined ? 'unplaced' : 'placed'
}

export function createdAt(seen: Seen): Point {
  const point = 'createdAt, updatedAt'
  const checks = checksSeen(seen)
  const consequence =
    'racing creates of one name converge on the earliest createdAt; without it on the smallest id, so a run can report an id that another run then removes'
  if (checks.length === 0)
    return unknown(
      point,
      'no check to look at',
      consequence,
      'set check-api-writes: true, or run it on an account with a check'
    )
  // Only a time the action can place ranks a create: one in another form (an epoch number) is as none.
  const count = (field: string, how: TimeStated) => checks.filter(c => timeStated(c[field]) === how).length
  const [created, updated] = [count('createdAt', 'placed'), count('updatedAt', 'placed')]
  const odd = count('createdAt', 'unplaced')
  const found = `createdAt on ${created} of ${plural(checks.length, 'check')}${odd > 0 ? ` (and on ${odd} in a form the action cannot place, as none)` : ''}, updatedAt on ${updated}`
  if (created === 0) {
    return {
      point,
      found: `no createdAt (${found})`,
      consequence: `no createdAt: ${consequence}`,
      advice: `${CONCURRENCY}, so that two creates of one name never race`
    }
  }
  return { point, found, consequence, advice: 'none needed' }
}

/** How a time is written: its precision as the action places it, and its zone. */
function formOf(value: string | number): string {
  if (typeof value === 'number') return 'a number (epoch time?), a form the action cannot place'
  const placed = placeTime(value)
  if (!placed) return 'a form the action cannot place'
  const zone = /Z$/i.test(value) ? 'UTC (Z)' : /[+-]\d\d:?\d\d$/.test(value) ? 'an offset' : 'no zone (read as UTC)'
  const precision =
    placed.precisionMs === 1
      ? 'milliseconds'
      : placed.precisionMs === 1000
        ? 'whole seconds'
        : `${placed.precisionMs} ms`
  return `${precision}, ${zone}`
}

const TIME_FIELDS = ['lastCheckedAt', 'createdAt', 'updatedAt', 'checkedAt']

export function times(seen: Seen): Point {
  const point = 'times'
  const forms = new Map<string, string | number>()
  for (const row of [...whole(seen).flatMap(l => l.rows), ...checksSeen(seen)]) {
    for (const field of TIME_FIELDS) {
      const value = row[field]
      if ((typeof value === 'string' || typeof value === 'number') && !forms.has(`${field}: ${formOf(value)}`))
        forms.set(`${field}: ${formOf(value)}`, value)
    }
  }
  const consequence =
    'the action places each time as written (no zone: UTC); a result within its precision of the step start cannot be told before or after it, so a gate waits for the next one'
  if (forms.size === 0)
    return unknown(
      point,
      'no time was seen (no check has been probed yet)',
      consequence,
      'run it once a check has results'
    )
  const found = [...forms].map(([form, example]) => `${form} (${JSON.stringify(example)})`).join('; ')
  const unplaced = [...forms.keys()].some(f => f.includes('cannot place'))
  const coarse = [...forms.keys()].some(f => f.includes('whole seconds') || f.includes('no zone'))
  return {
    point,
    found,
    consequence: unplaced
      ? `${consequence}; a time it cannot place is unknown: the error budget counts such a row against you, the gate does not count it fresh`
      : consequence,
    advice: unplaced
      ? 'tell the service owner which form; until then do not rely on gates that read history'
      : coarse
        ? 'a short gate timeout meets this more often: keep timeout a few poll intervals long'
        : 'none needed'
  }
}

/** The history read, if any. */
const historyOf = (seen: Seen): ListSeen | undefined => seen.lists.find(l => l.name === 'history')

export function history(seen: Seen): Point {
  const point = 'history'
  const read = historyOf(seen)
  if (!read)
    return unknown(point, 'no check to read the history of', '', 'run it on an account with a check that has results')
  if (read.failed) return unknown(point, read.failed, '', '')
  const fields = new Set(read.rows.flatMap(r => Object.keys(r)).sort())
  const at = read.rows.map(r => placeTime(r.checkedAt)?.ms).filter((t): t is number => t !== undefined)
  const consequenceNew = 'a history read stops at the first page older than the window it needs'
  if (at.length < 2) {
    return unknown(
      point,
      `${plural(at.length, 'entry', 'entries')} with a time: the order cannot be told (fields ${listed(fields) || 'none'})`,
      consequenceNew,
      'run it again once the check has two results or more'
    )
  }
  const newest = at.every((t, i) => i === 0 || t <= at[i - 1])
  const oldest = at.every((t, i) => i === 0 || t >= at[i - 1])
  const order = newest ? 'newest first' : oldest ? 'oldest first' : 'in no time order'
  return {
    point,
    found: `${order}; fields ${listed(fields)}`,
    consequence: newest
      ? consequenceNew
      : 'the action reads every page of a history (it cannot stop at the window): a long past costs more requests and time',
    advice: newest ? 'none needed' : 'keep slo-window and baseline short, so the history read stays small'
  }
}

const KNOWN = ['up', 'down', 'paused', 'pending']

export function statuses(seen: Seen): Point {
  const point = 'status values'
  const named = (rows: Mapping[] | undefined) =>
    new Set((rows ?? []).map(r => r.status).filter(s => typeof s === 'string'))
  const by = {
    checks: named(checksSeen(seen)),
    history: named(historyOf(seen)?.rows),
    incidents: named(seen.lists.find(l => l.name === 'incidents')?.rows)
  }
  if (by.checks.size + by.history.size + by.incidents.size === 0) return unknown(point, 'no status was seen', '', '')
  const found = Object.entries(by)
    .filter(([, set]) => set.size > 0)
    .map(([where, set]) => `${where}: ${listed(set as Set<string>)}`)
    .join('; ')
  const strange = [...by.checks, ...by.history].filter(s => !KNOWN.includes(String(s).toLowerCase()))
  return {
    point,
    found,
    consequence: `a gate passes on expected-status (default up); pause and resume send paused and up${strange.length ? `; ${listed(new Set(strange as string[]))} is not a status the action knows` : ''}`,
    advice: strange.length ? 'if one of them means up, set expected-status to it' : 'none needed'
  }
}

export function envelope(seen: Seen): Point {
  const point = 'envelope'
  const shapes = new Set(whole(seen).flatMap(l => l.pages.map(p => p.shape)))
  const one = seen.one
    ? seen.one.shape === 'data'
      ? 'one resource in {"data": {...}}'
      : 'one resource bare'
    : 'one resource: not read (no check)'
  if (shapes.size === 0) return unknown(point, 'no list could be read', '', '')
  return {
    point,
    found: `${one}; lists as ${listed(shapes)}`,
    consequence: 'the action reads either form of each ({"data"}, items or results, or bare)',
    advice: 'none needed'
  }
}

/** The points every run reports, in order. */
export function readPoints(seen: Seen): Point[] {
  return [paging, total, rateLimit, createdAt, times, history, statuses, envelope].map(p => p(seen))
}
