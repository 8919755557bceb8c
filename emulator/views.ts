/**
 * How answers are shown, switchable while the emulator runs (the data never
 * changes): a server whose resources carry no `createdAt`, one that writes
 * its times without a zone (`2026-11-24T03:30:00.000`, meaning UTC), one
 * whose history says when a probe started (its finish less its response time,
 * or a fixed second earlier), or in whole seconds, while the check's
 * `lastCheckedAt` says when it finished, to the millisecond; and one that
 * writes its times in another zone-less form (`2026/11/24 03:30:00`, UTC).
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
  /** Collections state their size: `meta.total`, `total` beside a cursor, or `X-Total-Count` (paging.ts). */
  statedTotal?: boolean
  /** Every time in whole seconds (`2026-11-24T03:30:00Z`). */
  wholeSecondTimes?: boolean
  /** Every time in the +02:00 zone (`2026-11-24T05:30:00.000+02:00`: the same moment). */
  offsetTimes?: boolean
  /** A check's history lists its oldest entry first (the pages, not only each page: routes.ts). */
  historyOldestFirst?: boolean
  /** One resource answered as the bare object, without `{"data": ...}` (lists keep their shape). */
  bareObjects?: boolean
}

export const DEFAULT_VIEWS: Views = { createdAt: true, zonelessTimes: false }

/** Every view an admin request may switch (the probe time views are off when absent). */
const VIEW_NAMES = [
  'createdAt',
  'zonelessTimes',
  'historyStartedAt',
  'historyWholeSeconds',
  'slashTimes',
  'statedTotal',
  'wholeSecondTimes',
  'offsetTimes',
  'historyOldestFirst',
  'bareObjects'
] as const

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/

/** A history entry's `checkedAt` as `historyTimes` shows it. */
function historyTime(entry: Json, views: Views): unknown {
  const at = entry.checkedAt
  if (typeof at !== 'string' || !ISO_UTC.test(at)) return at
  if (views.historyTimes === 'whole-seconds') return at.replace(/\.\d+Z$/, 'Z')
  const took = typeof entry.responseTime === 'number' ? entry.responseTime : 0
  return new Date(Date.parse(at) - took).toISOString()
}

/** How the probe time views show a history entry's `checkedAt` (still with its zone: zonelessTimes comes after). */
function probeTime(value: string, views: Views): string {
  if (!ISO_UTC.test(value)) return value
  let ms = Date.parse(value)
  if (views.historyStartedAt) ms -= 1_000
  const iso = new Date(ms).toISOString()
  return views.historyWholeSeconds ? iso.replace(/\.\d+Z$/, 'Z') : iso
}

/** A UTC time as the whole-second and offset views write it (still UTC, with `Z`, when neither is on). */
function timeForm(value: string, views: Views): string {
  const cut = views.wholeSecondTimes ? value.replace(/\.\d+Z$/, 'Z') : value
  if (!views.offsetTimes) return cut
  const shifted = new Date(Date.parse(cut) + 2 * 3_600_000).toISOString()
  return (views.wholeSecondTimes ? shifted.replace(/\.\d+Z$/, 'Z') : shifted).replace(/Z$/, '+02:00')
}

/** A single resource's `{data: {...}}` as the bare object, when `bareObjects` says so. */
function unwrapped(body: unknown, views: Views): unknown {
  if (!views.bareObjects || body === null || typeof body !== 'object' || Array.isArray(body)) return body
  const keys = Object.keys(body)
  const data = (body as Json).data
  return keys.length === 1 && keys[0] === 'data' && data !== null && typeof data === 'object' && !Array.isArray(data)
    ? data
    : body
}

/** A body as the views show it. */
export function viewed(body: unknown, views: Views): unknown {
  const history = views.historyTimes ?? 'finished'
  const probeTimes = views.historyStartedAt === true || views.historyWholeSeconds === true
  const times = views.wholeSecondTimes === true || views.offsetTimes === true
  body = unwrapped(body, views)
  if (views.createdAt && !views.zonelessTimes && history === 'finished' && !probeTimes && !views.slashTimes && !times)
    return body
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string' && times && ISO_UTC.test(value)) value = timeForm(value, views)
    if (typeof value === 'string' && views.slashTimes && ISO_UTC.test(value))
      return value.replace(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2}).*$/, '$1/$2/$3 $4')
    if (typeof value === 'string' && views.zonelessTimes) return value.replace(ISO_UTC, '$1')
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') {
      const object = value as Json
      const shown = history !== 'finished' && 'checkedAt' in object
      return Object.fromEntries(
        Object.entries(object)
          .filter(([key]) => views.createdAt || (key !== 'createdAt' && key !== 'updatedAt'))
          .map(([key, v]) => {
            if (key !== 'checkedAt') return [key, walk(v)]
            if (shown) return [key, walk(historyTime(object, views))]
            return [key, walk(probeTimes && typeof v === 'string' ? probeTime(v, views) : v)]
          })
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
  if (given.historyTimes !== undefined) {
    const value = given.historyTimes
    if (!HISTORY_TIMES.includes(value as HistoryTimes))
      throw new Error(`historyTimes must be one of ${HISTORY_TIMES.join(', ')}`)
    next.historyTimes = value as HistoryTimes
  }
  return next
}
