/**
 * A status write (a pause or a resume) the step sent and never saw answered
 * may still land: the service can apply it later than any client waits. This
 * module owns that rule. The main step records each write before sending it
 * and clears it once the service answered; what is left when the step ends
 * (cancelled, or the connection failed) the post step watches and reports.
 */
import type { Check } from '../../api/schemas.js'
import type { AttemptWatch } from '../../api/types.js'
import { ApiError } from '../../api/errors.js'
import { PAUSED, isPaused } from '../names/check-targets.js'
import { str } from '../common.js'
import type { OperationContext } from '../types.js'

/** State name under which the main step keeps its unanswered writes, for the post step. */
export const UNANSWERED_STATE = 'unanswered-writes'

/** A write sent and not answered: the check, the status it sets, and when it was sent (ms since the epoch). */
export interface Unanswered {
  id: string
  name: string
  status: string
  sentAt: number
}

/** Between two reads of a check whose write may still land. */
const WATCH_EVERY_MS = 1_000

/**
 * Send status writes, each recorded for the post step from the moment its
 * first attempt is sent (in the client, right before the request leaves)
 * until the service answered it. `write` is given the watch to pass to the
 * client: each attempt moves the record's time to when it was sent. A write
 * never sent (cancelled or refused while waiting for its turn) is never
 * recorded. An answer clears the record, unless an earlier attempt got none
 * (it may land after this one); so does a refusal (a 4xx: it will not land).
 * No answer, or a server error, leaves it recorded.
 */
export function sendTracked(ctx: OperationContext, pending: Unanswered[]) {
  const save = () => ctx.remember(UNANSWERED_STATE, pending.length > 0 ? JSON.stringify(pending) : '')
  return async <T>(check: Check, status: string, write: (watch: AttemptWatch) => Promise<T>): Promise<T> => {
    const entry: Unanswered = { id: check.id, name: str(check.name), status, sentAt: 0 }
    let lost = false
    const sent = () => pending.includes(entry)
    const settle = (mayLand: boolean) => {
      if (!sent() || mayLand || lost) return
      pending.splice(pending.indexOf(entry), 1)
      save()
    }
    const watch: AttemptWatch = {
      sent: at => {
        if (lost) return
        entry.sentAt = at
        if (!sent()) pending.push(entry)
        save()
      },
      unanswered: at => {
        lost = true
        entry.sentAt = at
        if (!sent()) pending.push(entry)
        save()
      }
    }
    try {
      const answer = await write(watch)
      settle(false)
      return answer
    } catch (error) {
      settle(mayStillLand(error))
      throw error
    }
  }
}

/** Whether a failed write may still land: no answer came, or the server failed while handling it. */
function mayStillLand(error: unknown): boolean {
  return !(error instanceof ApiError && error.status !== undefined && error.status >= 400 && error.status < 500)
}

/** The writes recorded in UNANSWERED_STATE; anything unreadable is no write. */
export function recordedUnanswered(text: string): Unanswered[] {
  try {
    // No state is '' (not JSON); of anything else, what has no id is no write (a number's, a string's id is undefined).
    const value: unknown = JSON.parse(text)
    if (!Array.isArray(value)) return []
    return value.filter(
      (w): w is Unanswered =>
        w !== null &&
        typeof w.id === 'string' &&
        w.id !== '' &&
        typeof w.status === 'string' &&
        Number.isFinite(w.sentAt)
    )
  } catch {
    return []
  }
}

/** One write in words: `the pause of chk_1 ("shop") sent at 2026-…Z`. */
function writeText(w: Unanswered): string {
  const what =
    w.status === 'up' ? 'resume' : w.status === 'paused' ? 'pause' : `write of status ${JSON.stringify(w.status)}`
  return `the ${what} of ${w.id} (${JSON.stringify(w.name)}) sent at ${new Date(w.sentAt).toISOString()}`
}

/** Whether the post step watches this unanswered write: a pause of a check it is to undo (`toUndo`). */
export const watchedWrite = (w: Unanswered, toUndo: ReadonlySet<string>): boolean =>
  w.status === PAUSED && toUndo.has(w.id)

/**
 * The post step's watch over unanswered pauses it is to undo: each check is
 * read until the main step's request timeout has passed since its pause was
 * sent, and resumed whenever it reads paused (a retry's pause, then the late
 * one). Every unanswered write, watched or
 * not, gets a warning that names the check and says what was seen. Returns
 * the checks resumed here and the lines for the summary; `resume` sends one
 * resume (its failure is the caller's to report).
 */
export async function watchUnanswered(
  ctx: OperationContext,
  writes: Unanswered[],
  toUndo: ReadonlySet<string>,
  resume: (check: Check) => Promise<Check>
): Promise<{ resumed: Check[]; lines: string[]; failed: string[] }> {
  const resumed: Check[] = []
  const lines: string[] = []
  const failed: string[] = []
  const say = (line: string) => {
    ctx.log.warning(line)
    lines.push(line)
  }
  const watched = writes.filter(w => watchedWrite(w, toUndo))
  for (const w of writes.filter(w => !watched.includes(w)))
    say(
      `${writeText(w)} was never answered (the step was cancelled or the connection failed): the service may still apply it. Check ${w.id}'s status.`
    )
  const deadlineOf = (w: Unanswered) => w.sentAt + ctx.config.requestTimeoutMs
  const resumedOnce = new Set<string>()
  let pending = [...watched]
  // Each round reads what is pending; the loop's one end is below (nothing pending, or cancelled).
  for (;;) {
    const next: Unanswered[] = []
    for (const w of pending) {
      let check: Check | null
      try {
        check = await ctx.api.getCheck(w.id)
      } catch (error) {
        failed.push(
          `${w.id} (its pause was never answered, and it could not be read to see whether it landed): ${error instanceof Error ? error.message : String(error)}`
        )
        continue
      }
      if (!check) {
        say(`${writeText(w)} was never answered, and ${w.id} no longer exists: nothing to resume.`)
        continue
      }
      if (isPaused(check)) {
        try {
          const again = resumedOnce.has(w.id)
          const done = await resume(check)
          if (!again) resumed.push(done)
          resumedOnce.add(w.id)
          ctx.log.info(`auto-resume: ${w.id} was paused${again ? ' again' : ''}: resumed.`)
        } catch (error) {
          failed.push(`${w.id}: ${error instanceof Error ? error.message : String(error)}`)
          continue
        }
      }
      if (ctx.clock.now() >= deadlineOf(w)) {
        say(
          resumedOnce.has(w.id)
            ? `${writeText(w)} was never answered; ${w.id} was paused, and the post step resumed it, watching it until the request timeout (${ctx.config.requestTimeoutMs / 1000} s) had passed since. A service may still apply such a write later: if ${w.id} is paused again, resume it.`
            : `${writeText(w)} was never answered, and ${w.id} was not paused when the request timeout (${ctx.config.requestTimeoutMs / 1000} s) had passed since: a service may still apply it later. Check ${w.id}'s status, and resume it if it is paused.`
        )
        continue
      }
      next.push(w)
    }
    pending = next
    if (pending.length === 0 || ctx.signal.aborted) break
    const wait = Math.min(WATCH_EVERY_MS, Math.min(...pending.map(deadlineOf)) - ctx.clock.now())
    await ctx.clock.sleep(Math.max(0, wait), ctx.signal)
  }
  for (const w of pending)
    say(
      `${writeText(w)} was never answered, and the post step was cancelled before it could tell whether it landed. Check ${w.id} by hand.`
    )
  return { resumed, lines, failed }
}
