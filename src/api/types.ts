/** The client's interface types: its options, a raw answer, and the logger it is given. */
import type { IncomingHttpHeaders } from 'node:http'
import type { Clock, Pacer } from './pacer.js'

export interface Logger {
  debug: (message: string) => void
  info: (message: string) => void
  warning: (message: string) => void
}

export const silentLogger: Logger = { debug: () => {}, info: () => {}, warning: () => {} }

/** Told of each attempt of a request: when it is sent, and when one got no answer (ApiClient.send). */
export interface AttemptWatch {
  sent?: (at: number) => void
  unanswered?: (sentAt: number) => void
}

/** Requests counted as they go out (`ApiClient.counting`): each one handed to the network, whatever its answer. */
export interface RequestTally {
  sent: number
}

export interface ClientOptions {
  baseUrl: string
  apiKey: string
  /** Other secrets of the step (templated values), redacted from server text with the key; read at each use. */
  secrets?: readonly string[]
  maxRetries: number
  requestTimeoutMs: number
  log?: Logger
  userAgent?: string
  /** Pacing; defaults to the API's 100 requests a minute. `null` turns it off. */
  pacer?: Pacer | null
  clock?: Clock
  random?: () => number
  /** Largest response body read into memory. */
  maxResponseBytes?: number
  /** Most pages followed by one list. */
  maxPages?: number
  /** Aborted when the job is cancelled: no new request starts and waits end at once. */
  signal?: AbortSignal
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
  url: URL
  /** How many times the request was sent (1 = no retry). */
  attempts: number
  /** How long the last attempt took, from sending to the whole answer (ms). */
  tookMs: number
}
