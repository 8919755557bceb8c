/**
 * The points only writes can learn, judged from what check-api's own check
 * showed (own-check.ts): the fields a create echoes, whether PUT replaces or
 * merges, and the statuses a resume and a pause show. Pure, like points.ts.
 */
import { str } from '../common.js'
import type { Point } from './points.js'
import type { WritesSeen } from './seen.js'

/** The interval check-api's own check is created with: not the emulator's nor a usual default, so a PUT that drops it shows. */
export const OWN_INTERVAL = 3600

const stoppedBefore = (writes: WritesSeen, point: string, consequence: string): Point => ({
  point,
  found: 'unknown',
  why: writes.failed ? `the writes stopped at ${writes.failed.at}: ${writes.failed.why}` : 'not reached',
  consequence,
  advice: 'run check-api again'
})

export function createEcho(writes: WritesSeen): Point {
  const point = 'create echo'
  const consequence = 'the action reads the created check from the answer; a field not echoed is read back when needed'
  const created = writes.created
  if (!created) return stoppedBefore(writes, point, consequence)
  const missing = Object.keys(writes.sent).filter(k => created[k] === undefined)
  const has = typeof created.createdAt === 'string' ? `createdAt ${JSON.stringify(created.createdAt)}` : 'no createdAt'
  const status = str(created.status)
  return {
    point,
    found: `${missing.length ? `sent but not echoed: ${missing.join(', ')}` : 'every field sent was echoed'}; ${has}; status ${JSON.stringify(status)}`,
    consequence,
    advice:
      status.toLowerCase() === 'paused'
        ? 'none needed'
        : 'the service did not take status paused on create: a check made paused runs until a PUT pauses it'
  }
}

export function putSemantics(writes: WritesSeen): Point {
  const point = 'PUT'
  const consequence =
    'update-check, pause-check and resume-check send the whole check back (every field read), so nothing is lost either way'
  const after = writes.afterPut
  if (!after) return stoppedBefore(writes, point, consequence)
  if (writes.created?.interval !== OWN_INTERVAL) {
    return {
      point,
      found: 'unknown',
      why: `the create did not keep the interval sent (${OWN_INTERVAL}), so a PUT without it shows nothing`,
      consequence,
      advice: 'none'
    }
  }
  const merges = after.interval === OWN_INTERVAL
  return {
    point,
    found: merges
      ? `merges (a PUT without interval kept ${OWN_INTERVAL})`
      : `replaces (a PUT without interval left ${JSON.stringify(after.interval ?? null)})`,
    consequence,
    advice: merges
      ? 'none needed'
      : 'a PUT of some fields (by hand, by another tool) clears the others: send whole checks, as the action does'
  }
}

export function pauseResume(writes: WritesSeen): Point {
  const point = 'pause and resume'
  const consequence =
    'pause-check sends status paused and resume-check status up; a check counts as paused when it shows paused, as running when it shows up, down or pending'
  if (writes.resumed === undefined || writes.paused === undefined) return stoppedBefore(writes, point, consequence)
  const odd = writes.paused.toLowerCase() !== 'paused'
  return {
    point,
    found: `after a resume (status up) it showed ${JSON.stringify(writes.resumed)}; after a pause, ${JSON.stringify(writes.paused)}`,
    consequence,
    advice: odd ? 'the service does not show a pause as paused: auto-resume cannot tell what it paused' : 'none needed'
  }
}

export function writePoints(writes: WritesSeen): Point[] {
  return [createEcho(writes), putSemantics(writes), pauseResume(writes)]
}
