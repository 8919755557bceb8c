/** Helpers shared by the operations: comparing, planning writes, describing. */
import type { Mapping } from '../values/values.js'
import { READ_ONLY_FIELDS } from '../api/schemas.js'
import type { OperationContext } from './types.js'
import { maskPositions } from '../secrets/secret-positions.js'

/** JSON with sorted keys, so that equal values print equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Mapping).sort(([a], [b]) => a.localeCompare(b)))
      : v
  )
}

/** A field's value normalised for comparing: `type` defaults to http, channel lists are sets. */
function normal(field: string, value: unknown): string {
  if (field === 'type' && (value === undefined || value === null)) return canonical('http')
  if (field === 'alertChannels') {
    const list = Array.isArray(value) ? value : []
    return canonical([...new Set(list.map(String))].sort())
  }
  return canonical(value ?? null)
}

/** The fields of `wanted` whose values differ in `current` (a value the same on both sides is not turned into JSON). */
export function differences(wanted: Mapping, current: Mapping): string[] {
  return Object.keys(wanted).filter(field => {
    const [a, b] = [wanted[field], current[field]]
    return a !== b && normal(field, a) !== normal(field, b)
  })
}

/**
 * A resource's own settings as one comparable string: its writable fields,
 * normalised as `differences` compares them, absent and null alike, less the
 * fields in `ignore`. Equal signatures: nothing a user set tells them apart.
 */
export function signature(resource: Mapping, ignore: string[] = []): string {
  const fields = Object.entries(writableOf(resource))
    .filter(([field, value]) => !ignore.includes(field) && value !== undefined && value !== null)
    .map(([field, value]) => [field, normal(field, value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify(fields)
}

/** A resource without the fields the server owns: what a PUT sends back. */
export function writableOf(resource: Mapping): Mapping {
  const out: Mapping = {}
  for (const [key, value] of Object.entries(resource)) {
    if (!READ_ONLY_FIELDS.includes(key)) out[key] = value
  }
  return out
}

/** A check body for a create: `type` defaults to http. */
export function withDefaultType(spec: Mapping): Mapping {
  return spec.type === undefined ? { ...spec, type: 'http' } : spec
}

/**
 * Log a write that dry-run will not send. Returns true when in dry-run (the
 * caller then skips the request).
 */
export function dryRunSkips(ctx: OperationContext, method: string, path: string, body?: unknown): boolean {
  if (!ctx.config.dryRun) return false
  // The body as shown: values in secret positions (the service's old ones too) as ***.
  const shown = body === undefined ? '' : ` ${JSON.stringify(maskPositions(body))}`
  ctx.log.info(`[dry-run] would send ${method} ${path}${shown}`)
  return true
}

export const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value))
