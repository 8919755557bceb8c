/**
 * What must hold of monitoring-ci's pause around a command (wrapped.ts;
 * docs/guides/any-ci.md, "Pause around a command"), judged of each wrapped
 * run the moment its wrapper exited, whatever the faults and the cancel did:
 *
 * - every check it was to pause that was running before is not paused then,
 *   unless the wrapper's status is not 0 and an `error:` line of its standard
 *   error names that check as left paused (the resume failed: "they stay
 *   paused until resumed by hand"). A pause sent without an answer that the service applied after
 *   the wrapper had watched it until its request timeout is a note, not a
 *   breach, when a warning named it (the contract's words for a write that may
 *   land later);
 * - a check paused before the round is paused then;
 * - the status: 130 after SIGINT, 143 after SIGTERM; without a signal, the
 *   command's own when it ran and no error was told, else 1 with an error told;
 * - standard output ends with one JSON object, after the command's own line;
 * - the key, in any form, on neither stream;
 * - the wrapper ended within its bound.
 *
 * For the round's end (invariants.ts, "no check left paused"), toldPaused
 * lists the checks a wrapper said it left paused, or whose pause it said was
 * never answered: the same excuses, as the action's are its warnings.
 */
import { formsOf } from '../../../src/secrets/secrets.js'
import type { Before } from './invariants.js'
import { WORKING, type WrappedEnd } from './wrapped.js'

/** Standard error's lines that start with `error: ` or `warning: ` (no terminal: no colour). */
const told = (end: WrappedEnd, word: 'error' | 'warning') =>
  end.result.stderr.split('\n').filter(line => line.startsWith(`${word}: `))

/** Words that say a check is left paused (auto-resume's error: "they stay paused until resumed by hand"). */
const LEFT_PAUSED = /\b(stays?|left|remains?|still) paused\b/i

/** The wrapper failed and said it left the check paused (its resume failed, or its pause could not be checked). */
const saidLeftPaused = (end: WrappedEnd, id: string) =>
  end.result.code !== 0 && told(end, 'error').some(line => line.includes(id) && LEFT_PAUSED.test(line))

/** A warning said the check's pause was sent without an answer (the service may still apply it). */
const saidUnanswered = (end: WrappedEnd, id: string) =>
  told(end, 'warning').some(line => line.includes(`of ${id} (`) && line.includes('never answered'))

/** The checks the wrappers said they left paused, or whose pause they said was never answered. */
export function toldPaused(ends: WrappedEnd[]): string[] {
  return ends.flatMap(end => Object.values(end.ids).filter(id => saidLeftPaused(end, id) || saidUnanswered(end, id)))
}

const labelOf = ({ run, ids }: WrappedEnd) =>
  `wrapped run w${run.n} (pause-check ${Object.values(ids).join(',')} -- a command ending ${run.status}${run.cancel ? `, ${run.cancel.signal} during the ${run.cancel.during}` : ''})`

export function wrappedRules(
  before: Before,
  ends: WrappedEnd[],
  key: string
): { violations: string[]; notes: string[] } {
  const violations: string[] = []
  const notes: string[] = []
  for (const end of ends) {
    const found = [
      ...resumedRule(before, end, notes),
      ...statusRule(end),
      ...outputRule(end),
      ...keyRule(end, key),
      ...(end.result.ms > end.bound ? [`took ${end.result.ms} ms, more than its bound of ${end.bound} ms`] : [])
    ]
    violations.push(...found.map(v => `${labelOf(end)} ${v}`))
  }
  return { violations, notes }
}

/** Its checks when it exited: running again if running before, unless it failed naming them; paused if paused before. */
export function resumedRule(before: Before, end: WrappedEnd, notes: string[]): string[] {
  const out: string[] = []
  for (const [name, id] of Object.entries(end.ids)) {
    const was = String(before.checks.get(id)?.status)
    const now = end.atExit[id]
    const check = `${id} (${JSON.stringify(name)})`
    if (was === 'paused' && now !== 'paused')
      out.push(`ended with ${check} ${now}, which someone else had paused before: it resumed what it did not pause`)
    if (was === 'paused' || now !== 'paused' || saidLeftPaused(end, id)) continue
    if (saidUnanswered(end, id))
      notes.push(
        `wrapped run w${end.run.n}: ${check}'s pause, sent without an answer, landed after the wrapper had watched it until its request timeout (a warning named it)`
      )
    else
      out.push(
        `ended ${end.result.code ?? end.result.signal} with ${check} paused, which was running before, and ${end.result.code === 0 ? 'a status of 0' : 'no error line naming it'}: a check left paused without a word`
      )
  }
  return out
}

/** 130 or 143 after a signal; else the command's status when it ran and no error was told, else 1 and an error. */
export function statusRule(end: WrappedEnd): string[] {
  const { code, signal } = end.result
  const errors = told(end, 'error')
  if (end.sent) {
    const wanted = end.sent.signal === 'SIGINT' ? 130 : 143
    return code === wanted
      ? []
      : [`got ${end.sent.signal} during the ${end.sent.during} and ended ${code ?? `by ${signal}`}, not ${wanted}`]
  }
  if (code === null) return [`was ended by ${signal} (no signal was sent to it)`]
  if (end.commandRan && errors.length === 0)
    return code === end.run.status
      ? []
      : [`ran the command (status ${end.run.status}), told no error, and ended ${code}: not the command's status`]
  if (code === 1 && errors.length > 0) return []
  const why = end.commandRan ? `told an error (${JSON.stringify(errors[0].slice(0, 120))})` : 'did not run the command'
  return [
    `${why} and ended ${code}${errors.length === 0 ? ' without an error line' : ''}, where a failed pause or resume ends 1 and says why`
  ]
}

/** Standard output: the command's line passed through, then one JSON object last. */
export function outputRule(end: WrappedEnd): string[] {
  const out: string[] = []
  const last = end.result.stdout.trimEnd().split('\n').pop() ?? ''
  let parsed: unknown
  try {
    parsed = JSON.parse(last)
  } catch {
    parsed = undefined
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    out.push(`ended its standard output with ${JSON.stringify(last.slice(0, 80))}, not one JSON object`)
  if (end.commandRan && !end.result.stdout.split('\n').includes(WORKING))
    out.push(`ran the command, whose line on standard output is not on the wrapper's`)
  return out
}

/** The key in no form (raw, JSON-escaped, percent-encoded) on either stream. */
export function keyRule(end: WrappedEnd, key: string): string[] {
  const streams: Array<[string, string]> = [
    ['standard output', end.result.stdout],
    ['standard error', end.result.stderr]
  ]
  return streams.flatMap(([where, text]) => {
    const form = formsOf(key).find(f => text.includes(f))
    return form === undefined ? [] : [`wrote the key (${JSON.stringify(form.slice(0, 6))}…) on ${where}`]
  })
}
