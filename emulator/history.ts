/**
 * `POST /__emulator/history`: a check's past results, given by a person or a
 * test, so that a gate with `baseline` has a history to read. Either one up
 * result per response time, `everySeconds` apart going back from now
 * (`{"checkId", "responseTimes": [120, 130], "everySeconds": 60, "status": "up"}`),
 * or entries as written (`{"checkId", "entries": [{"checkedAt", "status", "responseTime"}]}`),
 * or `results` made `everySeconds` apart, the newest `down` of them down
 * (`{"checkId", "results": 43200, "down": 40, "responseTime": 100}`: a past for `slo`).
 * The check's history stays newest first, as the API lists it.
 */
import { HttpProblem, type Json, isObject } from './http.js'

const bad = (message: string) => new HttpProblem(400, 'invalid_history', message)

/** The entries a request body asks for, checked; `now` is when "before now" starts. */
export function historyEntries(body: unknown, now: number): { checkId: string; entries: Json[] } {
  if (!isObject(body) || typeof body.checkId !== 'string' || body.checkId === '') {
    throw bad('give checkId (the id of an existing check) and responseTimes or entries')
  }
  const { checkId, responseTimes, entries } = body
  if (Array.isArray(responseTimes)) {
    const every = body.everySeconds ?? 60
    if (typeof every !== 'number' || !(every > 0)) throw bad('everySeconds must be a number above 0')
    if (!responseTimes.every(ms => typeof ms === 'number' && ms >= 0 && Number.isFinite(ms))) {
      throw bad('responseTimes must be numbers of milliseconds, 0 or more')
    }
    const status = typeof body.status === 'string' ? body.status : 'up'
    return {
      checkId,
      entries: responseTimes.map((responseTime, i) => ({
        checkedAt: new Date(now - (i + 1) * every * 1000).toISOString(),
        status,
        responseTime
      }))
    }
  }
  if (body.results !== undefined) return { checkId, entries: madeResults(body, now) }
  if (Array.isArray(entries)) {
    for (const entry of entries) {
      if (!isObject(entry) || typeof entry.checkedAt !== 'string' || Number.isNaN(Date.parse(entry.checkedAt))) {
        throw bad('each entry needs checkedAt, an ISO 8601 time (2026-11-24T08:00:00Z)')
      }
    }
    return { checkId, entries: entries as Json[] }
  }
  throw bad('give responseTimes, results or entries')
}

/** `results` entries `everySeconds` apart ending now, the newest `down` of them down. */
function madeResults(body: Record<string, unknown>, now: number): Json[] {
  const whole = (name: string, fallback: number, max: number): number => {
    const value = body[name] ?? fallback
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max)
      throw bad(`${name} must be a whole number from 0 to ${max}`)
    return value as number
  }
  const results = whole('results', 0, 200_000)
  const every = Math.max(1, whole('everySeconds', 60, 86_400))
  const down = whole('down', 0, results)
  const responseTime = whole('responseTime', 100, 600_000)
  return Array.from({ length: results }, (_, i) => ({
    checkedAt: new Date(now - (i + 1) * every * 1000).toISOString(),
    status: i < down ? 'down' : 'up',
    responseTime: i < down ? 30_000 : responseTime
  }))
}

/** Add entries to a history, newest first (by checkedAt; entries of one moment keep their order). */
export function merged(history: Json[], added: Json[]): Json[] {
  const time = (entry: Json) => Date.parse(String(entry.checkedAt))
  return [...added, ...history].sort((a, b) => (time(b) || 0) - (time(a) || 0))
}
