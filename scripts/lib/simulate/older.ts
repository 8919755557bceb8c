/**
 * Issue 40's conditions ("older promises under hostile conditions"), drawn
 * into a round after everything else and from a generator of their own, so a
 * seed's other draws stay what they were:
 *
 * - a write the service applies seconds after it arrived, answered or not (a
 *   `late` fault on a check's PUT): after a cancel it lands while the post
 *   step runs or after the job; after a request timeout, after the retry that
 *   was answered;
 * - a service that stores incident titles in its own form: blanks collapsed,
 *   lower-cased, or cut (the world's titles are long enough for a cut to be
 *   told from another title, and some hold runs of blanks).
 */
import { type TitleForm, storedTitle } from '../../../emulator/store.js'
import { type Older, type Round, random } from './world.js'

/** The title that stands for 'Deploy failed' when the service changes titles: blanks, capitals, 60 characters. */
export const LONG_TITLE = 'Deploy  failed on main: Checkout returned HTTP 502 in smoke'

/** Draw issue 40's conditions for `round` (its faults get the late write). */
export function drawOlder(round: Omit<Round, 'older' | 'twoReaders' | 'refusedEdits' | 'wrapped'>): Older {
  const next = random((round.seed ^ 0x40404040) >>> 0)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const chance = (p: number) => next() < p
  const older: Older = {}
  if (chance(0.25)) {
    older.lateWrite = { method: 'PUT', path: 're:^/checks/[^/]+$', delayMs: int(2_000, 15_000), late: true, times: 1 }
    round.faults.push(older.lateWrite)
  }
  if (chance(0.3)) {
    const form = int(0, 2)
    const titles: TitleForm =
      form === 0 ? { collapseBlanks: true } : form === 1 ? { collapseBlanks: true, lowerCase: true } : { cutAt: 40 }
    older.titles = titles
    // The runs send the long title; an incident from before the round holds it as the service stored it.
    for (const run of round.runs)
      if (run.inputs['incident-title'] === 'Deploy failed') run.inputs['incident-title'] = LONG_TITLE
    round.world.incidents = round.world.incidents.map(t =>
      t === 'Deploy failed' ? storedTitle(LONG_TITLE, titles) : t
    )
  }
  return older
}
