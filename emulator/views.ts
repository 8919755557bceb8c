/**
 * How answers are shown, switchable while the emulator runs (the data never
 * changes): a server whose resources carry no `createdAt`, one that writes
 * its times without a zone (`2026-11-24T03:30:00.000`, meaning UTC), and one
 * whose history says when a probe started, or in whole seconds, while the
 * check's `lastCheckedAt` says when it finished, to the millisecond.
 */
import type { Json } from './http.js'

/**
 * When a history entry's `checkedAt` says a probe happened: when it finished
 * (as the check's `lastCheckedAt`), when it started (finished less its
 * `responseTime`), or when it finished, cut to whole seconds (no fraction).
 */
export const HISTORY_TIMES = ['finished', 'started', 'whole-seconds'] as const
export type HistoryTimes = (typeof HISTORY_TIMES)[number]

export interface Views {
  /** Show `createdAt` (and `updatedAt`); false: a server whose resources carry none. */
  createdAt: boolean
  /** Show times without their zone (`Z` dropped). */
  zonelessTimes: boolean
  /** What a history entry's `checkedAt` records of its probe (unset: `finished`). */
  historyTimes?: HistoryTimes
}

export const DEFAULT_VIEWS: Views = { createdAt: true, zonelessTimes: false }

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/

/** A history entry's `checkedAt` as `historyTimes` shows it. */
function historyTime(entry: Json, views: Views): unknown {
  const at = entry.checkedAt
  if (typeof at !== 'string' || !ISO_UTC.test(at)) return at
  if (views.historyTimes === 'whole-seconds') return at.replace(/\.\d+Z$/, 'Z')
  const took = typeof entry.responseTime === 'number' ? entry.responseTime : 0
  return new Date(Date.parse(at) - took).toISOString()
}

/** A body as the views show it. */
export function viewed(body: unknown, views: Views): unknown {
  const history = views.historyTimes ?? 'finished'
  if (views.createdAt && !views.zonelessTimes && history === 'finished') return body
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string' && views.zonelessTimes) return value.replace(ISO_UTC, '$1')
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') {
      const object = value as Json
      const shown = history !== 'finished' && 'checkedAt' in object
      return Object.fromEntries(
        Object.entries(object)
          .filter(([key]) => views.createdAt || (key !== 'createdAt' && key !== 'updatedAt'))
          .map(([key, v]) => [key, walk(shown && key === 'checkedAt' ? historyTime(object, views) : v)])
      )
    }
    return value
  }
  return walk(body)
}

/** Views from an admin request's JSON, each field checked. */
export function viewsFrom(input: unknown, current: Views): Views {
  const given = (input ?? {}) as Partial<Record<keyof Views, unknown>>
  const next = { ...current }
  for (const key of ['createdAt', 'zonelessTimes'] as const) {
    if (given[key] === undefined) continue
    if (typeof given[key] !== 'boolean') throw new Error(`${key} must be true or false`)
    next[key] = given[key]
  }
  if (given.historyTimes !== undefined) {
    const value = given.historyTimes
    if (!HISTORY_TIMES.includes(value as HistoryTimes))
      throw new Error(`historyTimes must be one of ${HISTORY_TIMES.join(', ')}`)
    next.historyTimes = value as HistoryTimes
  }
  return next
}
