/**
 * A check's past for tests and people at a terminal (`POST /__emulator/history`):
 * the entries given (newest first, as the service lists them), or made: `results`
 * entries `everySeconds` apart ending now, the newest `down` of them down.
 */
import type { Json } from './http.js'

export interface HistoryRequest {
  checkId: string
  entries: Json[]
}

/** The history a request asks for, each field checked. */
export function historyFrom(input: unknown, now: number): HistoryRequest {
  const given = (input ?? {}) as Record<string, unknown>
  if (typeof given.checkId !== 'string' || given.checkId === '') throw new Error('checkId must be a check id')
  if (given.entries !== undefined) {
    if (!Array.isArray(given.entries) || !given.entries.every(e => e !== null && typeof e === 'object'))
      throw new Error('entries must be a list of objects')
    return { checkId: given.checkId, entries: given.entries as Json[] }
  }
  const whole = (name: string, fallback: number, max: number): number => {
    const value = given[name] ?? fallback
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > max)
      throw new Error(`${name} must be a whole number from 0 to ${max}`)
    return value as number
  }
  const results = whole('results', 0, 200_000)
  const every = Math.max(1, whole('everySeconds', 60, 86_400))
  const down = whole('down', 0, results)
  const responseTime = whole('responseTime', 100, 600_000)
  const entries = Array.from({ length: results }, (_, i) => ({
    checkedAt: new Date(now - (i + 1) * every * 1000).toISOString(),
    status: i < down ? 'down' : 'up',
    responseTime: i < down ? 30_000 : responseTime
  }))
  return { checkId: given.checkId, entries }
}
