/**
 * Fault injection: faults that apply to the next `times` matching requests,
 * a body that echoes the request's Authorization header, and the slow
 * ("trickle") delivery of an answer.
 */
import type * as http from 'node:http'
import type { Answer, Json } from './http.js'
import type { Shift } from './paging.js'

export interface Fault {
  method?: string
  /** Path after the version segment, e.g. `/checks`; `re:` prefix for a regular expression. */
  path?: string
  /** How many matching requests it affects; default 1; `Infinity` (or -1 over HTTP) for all. */
  times?: number
  status?: number
  headers?: Record<string, string>
  /** `{authorization}` in it is replaced by the request's Authorization header (a server that echoes it). */
  body?: string | Json | unknown[]
  delayMs?: number
  /**
   * With `delayMs`: a write the service took and applies late, after the delay, whether or not its
   * client is still there. A simulation's quiet point (`Emulator.settled`) does not wait for it, so it
   * can land after the job moved on (after a cancel, during the post step).
   */
  late?: boolean
  /** Close the connection without an answer. */
  drop?: boolean
  /** Apply the request for real first, then answer with `status`/`body` (or drop). */
  after?: boolean
  /**
   * Deliver the answer slowly: `headers` sends the status line, then one header
   * line every `trickleIntervalMs`; `body` sends the headers, then one space of
   * the body every `trickleIntervalMs`. After `trickleForMs` the real answer
   * follows. A client without an overall request timeout waits all that time.
   */
  trickle?: 'headers' | 'body'
  /**
   * A list read whose pages shift under the reader (offset paging while others
   * write): `repeat` starts every page after the first one row early (a row was
   * inserted at the head: page 2 repeats page 1's last row); `skip` one row late
   * (a row at the head was deleted: one row is never shown); `reorder` moves one
   * row (`moved`, a name or an id; unset: the last) to the head after the first
   * page, as a list sorted by recent activity does while it is read: the next
   * page repeats a row and the moved row is never shown. The data is unchanged.
   */
  shift?: Shift
  /** The row a `reorder` moves to the head: a name or an id (unset: the last row). */
  moved?: string
  trickleIntervalMs?: number
  trickleForMs?: number
}

/** The faults in force, in the order they were added. */
export class FaultList {
  items: Array<Fault & { left: number }> = []
  /** Requests held now by a `late` fault. */
  heldLate = 0

  /** Add a fault; it applies to the next `times` matching requests. */
  add(fault: Fault): void {
    const times = fault.times === undefined ? 1 : fault.times < 0 ? Infinity : fault.times
    this.items.push({ ...fault, left: times })
  }

  /** The first fault that matches this request, counted as used. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.items.find(f => {
      if (f.left <= 0) return false
      if (f.method && f.method.toUpperCase() !== method) return false
      if (f.path) {
        if (f.path.startsWith('re:')) return new RegExp(f.path.slice(3)).test(path)
        return f.path === path
      }
      return true
    })
    if (fault) fault.left--
    return fault
  }
}

/** A fault's body with `{authorization}` replaced by the request's header. */
export function echoed(body: Fault['body'], req: http.IncomingMessage): Fault['body'] {
  if (body === undefined) return body
  const auth = req.headers.authorization ?? ''
  if (typeof body === 'string') return body.split('{authorization}').join(auth)
  return JSON.parse(JSON.stringify(body).split('{authorization}').join(auth)) as Fault['body']
}

/** The fault's slow delivery of `answer` (see Fault.trickle); stops when the client goes away. */
export function trickle(res: http.ServerResponse, answer: Answer, fault: Fault): void {
  const every = fault.trickleIntervalMs ?? 200
  const endAt = Date.now() + (fault.trickleForMs ?? 60_000)
  const socket = res.socket
  if (!socket) return
  const payload = answer.body === undefined ? '' : JSON.stringify(answer.body)
  let lines = 0
  if (fault.trickle === 'headers') socket.write(`HTTP/1.1 ${answer.status} Slow\r\n`)
  else {
    res.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.headers ?? {}) })
    res.flushHeaders()
  }
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer)
    if (Date.now() < endAt) {
      if (fault.trickle === 'headers') socket.write(`X-Trickle-${++lines}: .\r\n`)
      else res.write(' ')
      return
    }
    clearInterval(timer)
    if (fault.trickle === 'headers') {
      socket.end(
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`
      )
    } else res.end(payload)
  }, every)
  socket.on('close', () => clearInterval(timer))
}
