/**
 * Reading answers: JSON bodies, a single resource as `{data: {...}}` or bare,
 * checked against the API's schema. Errors name the method and path.
 */
import type * as z from 'zod/mini'
import { isMapping } from '../values/values.js'
import { ApiError } from './errors.js'
import type { Method } from './retry.js'
import type { RawResponse } from './types.js'

/** How URLs are named in messages, and server text made safe to show (the key redacted). */
export interface BodyNames {
  pathOf: (url: URL) => string
  clean: (text: string) => string
}

/** The JSON of an answer; undefined for an empty body. */
export function jsonOf(method: Method, response: RawResponse, names: BodyNames): unknown {
  const text = response.body.trim()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError({
      kind: 'invalid-response',
      method,
      path: names.pathOf(response.url),
      status: response.status,
      detail: `returned HTTP ${response.status} but its body is not JSON: ${JSON.stringify(names.clean(text).slice(0, 120))}`
    })
  }
}

/** `value` checked against `schema`; the first problem names its field. */
export function parseAs<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  method: Method,
  url: URL,
  what: string,
  names: BodyNames
): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
  throw new ApiError({
    kind: 'invalid-response',
    method,
    path: names.pathOf(url),
    detail: `returned ${what} that does not match the API: ${where}${issue.message}`
  })
}

/** A single resource of an answer: `{data: {...}}` or the bare object. */
export function readOne<S extends z.ZodMiniType>(
  schema: S,
  method: Method,
  response: RawResponse,
  what: string,
  names: BodyNames
): z.output<S> {
  const body = jsonOf(method, response, names)
  const value = isMapping(body) && isMapping(body.data) ? body.data : body
  return parseAs(schema, value, method, response.url, what, names)
}

/** How a URL is named in messages: its path relative to `base` (another origin's URL whole, without its query). */
export function pathUnder(base: URL, url: URL): string {
  const basePath = base.pathname.replace(/\/$/, '')
  if (url.origin === base.origin && url.pathname.startsWith(basePath + '/')) {
    return url.pathname.slice(basePath.length) + url.search
  }
  return url.origin === base.origin ? url.pathname + url.search : `${url.origin}${url.pathname}`
}
