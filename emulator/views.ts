/**
 * How answers are shown, switchable while the emulator runs (the data never
 * changes): a server whose resources carry no `createdAt`, and one that
 * writes its times without a zone (`2026-11-24T03:30:00.000`, meaning UTC).
 */
import type { Json } from './http.js'

export interface Views {
  /** Show `createdAt` (and `updatedAt`); false: a server whose resources carry none. */
  createdAt: boolean
  /** Show times without their zone (`Z` dropped). */
  zonelessTimes: boolean
}

export const DEFAULT_VIEWS: Views = { createdAt: true, zonelessTimes: false }

const ISO_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/

/** A body as the views show it. */
export function viewed(body: unknown, views: Views): unknown {
  if (views.createdAt && !views.zonelessTimes) return body
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string' && views.zonelessTimes) return value.replace(ISO_UTC, '$1')
    if (Array.isArray(value)) return value.map(walk)
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Json)
          .filter(([key]) => views.createdAt || (key !== 'createdAt' && key !== 'updatedAt'))
          .map(([key, v]) => [key, walk(v)])
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
  for (const key of Object.keys(DEFAULT_VIEWS) as Array<keyof Views>) {
    if (given[key] === undefined) continue
    if (typeof given[key] !== 'boolean') throw new Error(`${key} must be true or false`)
    next[key] = given[key]
  }
  return next
}
