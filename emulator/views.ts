/**
 * How answers are shown, switchable while the emulator runs (the data never
 * changes): a server whose resources carry no `createdAt`, one that writes
 * its times without a zone (`2026-11-24T03:30:00.000`, meaning UTC), and
 * one whose history records a probe's time differently from the check's
 * `lastCheckedAt`: when the probe started (a second before it finished), or
 * in whole seconds beside the check's milliseconds; and one that writes
 * its times in another zone-less form (`2026/11/24 03:30:00`, UTC).
 */
import type { Json } from './http.js'

export interface Views {
  /** Show `createdAt` (and `updatedAt`); false: a server whose resources carry none. */
  createdAt: boolean
  /** Show times without their zone (`Z` dropped). */
  zonelessTimes: boolean
  /**
   * History entries' `checkedAt` is when the probe started: 1 s before it
   * finished (the check's `lastCheckedAt` stays the finish), as a service
   * whose probes take a second records them.
   */
  historyStartedAt?: boolean
  /** History entries' `checkedAt` in whole seconds (`…:05Z`), beside the check's milliseconds (`…:05.734Z`). */
  historyWholeSeconds?: boolean
  /** Show times in another zone-less form, `2026/11/24 03:30:00` (UTC, whole seconds). */
  slashTimes?: boolean
}

export const DEFAULT_VIEWS: Views = { createdAt: true, zonelessTimes: false }

/** Every view an admin request may switch (the probe time views are off when absent). */
const VIEW_NAMES: Array<keyof Views> = [
  'createdAt',
  'zonelessTimes',
  'historyStartedAt',
  'historyWholeSeconds',
  'slashTimes'
]

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/

/** How the probe time views show a history entry's `checkedAt` (still with its zone: zonelessTimes comes after). */
function probeTime(value: string, views: Views): string {
  if (!ISO_UTC.test(value)) return value
  let ms = Date.parse(value)
  if (views.historyStartedAt) ms -= 1_000
  const iso = new Date(ms).toISOString()
  return views.historyWholeSeconds ? iso.replace(/\.\d+Z$/, 'Z') : iso
}

/** A body as the views show it. */
export function viewed(body: unknown, views: Views): unknown {
  const probeTimes = views.historyStartedAt === true || views.historyWholeSeconds === true
  if (views.createdAt && !views.zonelessTimes && !probeTimes && !views.slashTimes) return body
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string' && views.slashTimes && ISO_UTC.test(value))
      return value.replace(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2}).*$/, '$1/$2/$3 $4')
    if (typeof value === 'string' && views.zonelessTimes) return value.replace(ISO_UTC, '$1')
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Json)
          .filter(([key]) => views.createdAt || (key !== 'createdAt' && key !== 'updatedAt'))
          .map(([key, v]) => [
            key,
            walk(probeTimes && key === 'checkedAt' && typeof v === 'string' ? probeTime(v, views) : v)
          ])
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
  for (const key of VIEW_NAMES) {
    if (given[key] === undefined) continue
    if (typeof given[key] !== 'boolean') throw new Error(`${key} must be true or false`)
    next[key] = given[key]
  }
  return next
}
