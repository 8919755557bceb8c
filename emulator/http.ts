/** The emulator's HTTP plumbing: answers, API errors as answers, and sending them. */
import type * as http from 'node:http'

export type Json = Record<string, unknown>

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** An API error: answered with `status` and `{"error": {"code", "message"}}`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }
}

export interface Answer {
  status: number
  body?: unknown
  headers?: Record<string, string>
}

export function problemAnswer(error: unknown): Answer {
  if (error instanceof HttpProblem) {
    return {
      status: error.status,
      body: { error: { code: error.code, message: error.message } },
      headers: error.headers
    }
  }
  return { status: 500, body: { error: { code: 'internal', message: 'Internal server error' } } }
}

export function send(res: http.ServerResponse, answer: Answer): void {
  if (res.destroyed) return
  const headers: Record<string, string> = { ...(answer.headers ?? {}) }
  let payload = ''
  if (answer.body !== undefined && answer.status !== 204) {
    payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
    if (!Object.keys(headers).some(h => h.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'
    }
  }
  res.writeHead(answer.status, headers)
  res.end(payload)
}

/**
 * Some services put the key in the path (`/v1/<key>/checks`): a first segment
 * that is one of the keys (percent-decoded) is taken off, so a base URL that
 * holds the key reaches the same routes. The key is still checked in the
 * Authorization header.
 */
export function withoutKeySegment(path: string, apiKeys: string[]): string {
  const segment = /^\/([^/]+)(?=\/|$)/.exec(path)?.[1]
  if (segment === undefined) return path
  let decoded: string
  try {
    decoded = decodeURIComponent(segment)
  } catch {
    return path
  }
  return apiKeys.includes(decoded) ? path.slice(segment.length + 1) : path
}
