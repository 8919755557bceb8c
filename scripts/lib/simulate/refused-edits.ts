/**
 * GitHub refusing edits (issue 50, break 6: "a refused edit piles up"),
 * drawn into half the rounds that draw issue 50's shapes (two-readers.ts),
 * after everything else and from a generator of its own, so a seed's other
 * draws stay what they were (the rounds the tests pin by seed draw none):
 *
 * - a drift watch on a pull request (`sync-checks` of edits.yml, whose checks
 *   the service does not hold, with dry-run, fail-on-drift, a plan file,
 *   drift-issue and/or pr-comment), a run of kind `watch` that looks three
 *   times at the drift, so the later looks edit the issue and the comment the
 *   first one made (a build that posts another at each refused edit leaves
 *   two beside the refused one); in some rounds it then applies the file and
 *   looks once more (the drift ends);
 * - the fake GitHub refuses (403, 404, 410 or 422 for the issue; 403, 404 or
 *   422 for the comment, the statuses GitHub answers an edit of either with)
 *   the edit of the first drift issue of edits.yml, of the first comment on
 *   the watch's pull request, or both, and sometimes the closing of that
 *   issue or the deletion of that comment too. The rule is chosen before the
 *   issue or comment exists (FakeGitHub.refuseMade), as round.ts plays it.
 */
import {
  type RefusedEdits,
  type Round,
  type Run,
  EDITS_FILE,
  EDITS_NAMES,
  WATCH_EVENT,
  random,
  urlOf
} from './world.js'

/**
 * The generator's own seed is the round's, mixed with this (issue 50, break 6); drawn only where
 * two-readers.ts drew, so the rounds the tests pin by seed (9259, 3020, 2456, and the calm ones) draw none.
 */
const MIX = 0x50060006

/** The statuses GitHub refuses an edit of an issue with, and of a comment (GitHub has no 410 for a comment). */
export const ISSUE_REFUSALS = [403, 404, 410, 422]
export const COMMENT_REFUSALS = [403, 404, 422]

/** The watch's checks file: checks the service does not hold, so every look finds drift until an apply. */
export function editsFileText(): string {
  return EDITS_NAMES.map(
    name => `- name: ${JSON.stringify(name)}\n  url: ${JSON.stringify(urlOf(name))}\n  interval: 60\n`
  ).join('')
}

/** A watch's inputs: a dry run of edits.yml that fails on drift and writes a plan file, with the issue and/or the comment. */
export function watchInputs(issue: boolean, comment: boolean): Record<string, string> {
  return {
    operation: 'sync-checks',
    'checks-file': EDITS_FILE,
    'dry-run': 'true',
    'fail-on-drift': 'true',
    'plan-file': 'plan-edits.json',
    ...(issue ? { 'drift-issue': 'true' } : {}),
    ...(comment ? { 'pr-comment': 'true' } : {})
  }
}

/** Where a watch runs: a pull_request event on WATCH_PR (its event file in the workspace). */
export const WATCH_ENV = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: WATCH_EVENT }

/** Draw the shape into `round` (its runs and files) and say what GitHub refuses. */
export function drawRefusedEdits(round: Omit<Round, 'refusedEdits' | 'wrapped'>): RefusedEdits {
  const next = random((round.seed ^ MIX) >>> 0)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  const chance = (p: number) => next() < p
  const drawn = round.twoReaders.drawn && chance(0.5)
  if (!drawn) return { drawn: false, ends: false }
  const target = pick(['issue', 'comment', 'both'] as const)
  const shape: RefusedEdits = { drawn, ends: chance(0.5) }
  if (target !== 'comment')
    shape.issue = { status: pick(ISSUE_REFUSALS), refused: chance(0.5) ? ['edit', 'close'] : ['edit'] }
  if (target !== 'issue')
    shape.comment = { status: pick(COMMENT_REFUSALS), refused: chance(0.5) ? ['edit', 'delete'] : ['edit'] }
  // Each of the issue and the comment the watch writes even when GitHub refuses nothing of it: half the time.
  const issue = shape.issue !== undefined || chance(0.5)
  const comment = shape.comment !== undefined || chance(0.5)
  round.files[EDITS_FILE] = editsFileText()
  const run: Run = {
    n: round.runs.length + 1,
    kind: 'watch',
    inputs: { 'request-timeout': '3s', 'max-retries': '2', ...watchInputs(issue, comment) },
    env: { TZ: pick(['UTC', 'America/New_York', 'Asia/Tokyo']), ...WATCH_ENV },
    startMs: int(0, 200),
    writes: false
  }
  round.runs.push(run)
  return shape
}
