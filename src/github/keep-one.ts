/**
 * One comment, one issue: which of the action's writings is kept (the
 * oldest GitHub lets this run bring up to date, or a new one when it refuses
 * every one found) and what becomes of the others (deleted, edited into a
 * pointer, closed), after a race and after a refused edit alike. The comment
 * (pr-comment.ts) and the drift issue (drift-issue.ts) both call keepOne;
 * what each does to one of its kind is given in `Writings`.
 */
import type { Logger } from '../api/types.js'
import { causeOf } from './limits.js'
import { type GitHubError, failureOf } from './sticky.js'

/** The waits before each read of the list after a create, until it shows what was made (about 8 s in all). */
const SETTLE_WAITS_MS = [0, 250, 500, 1000, 2000, 4000]

/**
 * Racing runs may each have made one (a comment, an issue): after making its
 * own, a run lists its own again, and every run keeps the same one, the oldest
 * (the smallest id). GitHub's lists lag a create by a moment, so the list is
 * read again until it shows the one this run made (and with it any made
 * before it), for about 8 s at most. Returns all of ours, oldest first, the
 * one made included even when the list never showed it.
 */
export async function oursAfterMaking<T>(
  made: T,
  listOurs: () => Promise<T[]>,
  idOf: (item: T) => number,
  signal: AbortSignal
): Promise<T[]> {
  let ours: T[] = []
  const shown = () => ours.some(item => idOf(item) === idOf(made))
  for (const wait of SETTLE_WAITS_MS) {
    if (wait > 0) await sleep(wait, signal)
    ours = await listOurs()
    if (shown()) break
  }
  if (!shown()) ours = [...ours, made]
  return ours.sort((a, b) => idOf(a) - idOf(b))
}

/** A wait that ends early, rejecting, when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error)
    const done = () => {
      signal.removeEventListener('abort', stop)
      resolve()
    }
    const timer = setTimeout(done, ms)
    const stop = () => {
      clearTimeout(timer)
      reject(signal.reason as Error)
    }
    signal.addEventListener('abort', stop, { once: true })
  })
}

/**
 * GitHub refusing to change one of ours, in its own words (`HTTP 403: Resource not accessible by
 * integration`): a 403 that is no rate limit, a 404 (gone, or hidden from this token), a 410 (an
 * issue deleted), a 422 (GitHub will not take the change). Undefined for any other failure.
 */
export function refusalOf(error: unknown): string | undefined {
  const { status, message, response } = error as GitHubError
  if (!(status === 403 || status === 404 || status === 410 || status === 422)) return undefined
  if (causeOf(status, response?.headers, message, Date.now()).kind === 'rate limit') return undefined
  return `HTTP ${status}${message ? `: ${message}` : ''}`
}

/** One kind of the action's writings (the comment, the issue), as keepOne and tidy handle it. */
export interface Writings<T> {
  /** Who writes them, for the log ('pr-comment'). */
  label: string
  /** What one is called: 'comment', 'issue'. */
  noun: string
  idOf: (item: T) => number
  /** Where a person finds one (its URL). */
  nameOf: (item: T) => string
  /** Every one of ours, oldest first. */
  listOurs: () => Promise<T[]>
  make: () => Promise<T>
  /** Brings the kept one up to date (its body, its state), given all of ours and the one this run made; GitHub's refusal thrown as it came. */
  update: (candidate: T, ours: T[], made: T | undefined) => Promise<void>
  /** Is this one already out of the way (a closed issue)? */
  retired: (item: T) => boolean
  /** Takes another of ours out of the way, pointing to the kept one; says what it did, or throws GitHub's answer. */
  retire: (other: T, kept: T) => Promise<string>
  /** What taking one out of the way is, for a warning: 'deleted or edited into a pointer', 'closed'. */
  retiring: string
  log: Logger
  signal: AbortSignal
  timeoutMs: number
}

/**
 * Which of ours is kept, on every run and whatever the order of racing runs: the oldest that
 * GitHub lets this run bring up to date. A run that finds none makes one, then lists again
 * (oursAfterMaking: racing runs may each have made one). When GitHub refuses the edit of every
 * one found (refusalOf), the run makes a new one and keeps as after a race: the oldest it may
 * edit, which a later run edits in place. Every other of ours is taken out of the way (tidy).
 * Returns the kept one; any other failure, or a refusal of the one just made, is thrown.
 */
export async function keepOne<T>(w: Writings<T>): Promise<T> {
  const settled = (made: T) => oursAfterMaking(made, w.listOurs, w.idOf, w.signal)
  const refused = new Set<number>()
  /** The oldest of `ours` not refused before that GitHub lets this run bring up to date. */
  const upToDate = async (ours: T[], made: T | undefined): Promise<T | undefined> => {
    for (const candidate of ours.filter(item => !refused.has(w.idOf(item)))) {
      try {
        await w.update(candidate, ours, made)
        return candidate
      } catch (error) {
        const said = refusalOf(error)
        if (said === undefined || (made !== undefined && w.idOf(candidate) === w.idOf(made))) throw error
        refused.add(w.idOf(candidate))
        w.log.info(`${w.label}: GitHub refused to edit ${w.nameOf(candidate)} (${said}); another ${w.noun} is kept.`)
      }
    }
    return undefined
  }
  let ours = await w.listOurs()
  let kept = await upToDate(ours, undefined)
  if (kept === undefined) {
    // None found, or GitHub refused the edit of every one: a new one, kept as after a race.
    const made = await w.make()
    ours = await settled(made)
    kept = (await upToDate(ours, made)) ?? made
  }
  const keeping: T = kept
  const others = ours.filter(item => w.idOf(item) !== w.idOf(keeping) && !w.retired(item))
  await tidy(w, others, other => w.retire(other, keeping), keeping)
  return keeping
}

/**
 * Takes each of `others` out of the way (`retire`, which says what it did). One already gone
 * (404: another run's tidy-up got there first) is as good; any other failure is a warning that
 * names GitHub's answer (and where the live one is, `kept`), and the rest are still tidied.
 * Returns those taken out of the way.
 */
export async function tidy<T>(
  w: Writings<T>,
  others: T[],
  retire: (other: T) => Promise<string>,
  kept: T | undefined
): Promise<T[]> {
  const done: T[] = []
  for (const other of others) {
    try {
      w.log.info(`${w.label}: ${await retire(other)}`)
      done.push(other)
    } catch (error) {
      if ((error as GitHubError).status === 404) continue
      const { said } = failureOf(error, w.signal, w.timeoutMs)
      const live = kept === undefined ? '' : `; the ${w.noun} is ${w.nameOf(kept)}`
      w.log.warning(
        `${w.label}: ${w.nameOf(other)}, ${kept === undefined ? 'one' : 'another'} of this step's ${w.noun}s, could not be ${w.retiring} (${said})${live}. The step goes on.`
      )
    }
  }
  return done
}
