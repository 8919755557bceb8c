/**
 * One HTTP exchange: send a request, read the whole answer, within one time
 * limit that covers connecting, the headers and the body. At the limit the
 * request is aborted and its socket destroyed, so a server that trickles bytes
 * cannot keep the process alive. Proxies (HTTPS_PROXY, no_proxy) are honoured
 * through the agent `@actions/http-client` builds for the URL. Redirects are
 * followed within the origin only (`exchangeFollowing`), so the key never
 * leaves it.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import { ApiError, ApiErrorKind } from './errors.js'
import type { RequestTally } from './types.js'

export interface Exchange {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

export interface TransportOptions {
  timeoutMs: number
  /**
   * A hard deadline (`withDeadline(..., true)`): `at` in ms of the client's
   * clock. No exchange starts after it; one in flight is cut off at it.
   */
  cut?: { at: number; now: () => number }
  /**
   * The job's cancel: it cuts off a read (a GET: nothing changes, so nothing is
   * lost) at once; a write (PUT, POST, DELETE) is left to finish, so its effect is known.
   */
  abort?: AbortSignal
  /** Largest body read into memory. */
  maxBytes: number
  /** Counts each request sent (a redirect's hop is one more): not one refused before it went out. */
  tally?: RequestTally
  /** The agent for a URL (the proxy tunnel, or a plain agent); undefined = Node's default. */
  agentFor?: (url: URL) => http.Agent | undefined
  /** The proxy a URL goes through, to name it in messages. */
  proxyFor?: (url: URL) => string | undefined
  /** The base URL (without credentials), named when it cannot be reached. */
  baseUrl?: string
}

/** Certificate problems: retrying cannot help; trusting the CA can. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH'
])

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is base-url right, and is the service up?)',
  ECONNRESET: 'the connection was reset',
  EAI_AGAIN: 'the host name could not be resolved (the DNS server did not answer)',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed'
}

/**
 * An https request that met a server speaking something else (plain http, as
 * a rule): OpenSSL's "wrong version number" and its kin. Retrying cannot help;
 * the message names the scheme, not OpenSSL's dump.
 */
function notTls(error: NodeJS.ErrnoException): boolean {
  return (
    error.code === 'EPROTO' ||
    (error.code ?? '').startsWith('ERR_SSL_') ||
    /wrong version number|packet length too long|unknown protocol|SSL routines/i.test(error.message)
  )
}

/** How a low-level failure reads in a message (without method and path). */
function networkReason(error: NodeJS.ErrnoException): string {
  if (error.code && NETWORK_REASONS[error.code]) return `${NETWORK_REASONS[error.code]} [${error.code}]`
  if (error.message === 'socket hang up') return 'the connection was dropped before an answer (socket hang up)'
  return error.message || String(error)
}

/**
 * Send one request and read the answer. Throws an ApiError of kind `timeout`,
 * `network`, `tls` or `invalid-response`, naming `method` and `path`.
 */
export function exchange(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  options: TransportOptions,
  names: { method: string; path: string }
): Promise<Exchange> {
  const fail = (kind: ApiErrorKind, detail: string) =>
    new ApiError({ kind, method: names.method, path: names.path, detail })
  const abort = names.method === 'GET' ? options.abort : undefined
  if (abort?.aborted) return Promise.reject(fail('cancelled', 'was not sent: the job is being cancelled'))
  // A hard deadline sooner than request-timeout cuts the exchange there (kind `deadline`: never retried).
  const left = options.cut ? options.cut.at - options.cut.now() : Number.POSITIVE_INFINITY
  if (left <= 0) return Promise.reject(fail('deadline', "was not sent: the operation's time limit was reached"))
  return new Promise<Exchange>((resolve, reject) => {
    let settled = false
    let request: http.ClientRequest | undefined
    const cancel = () => finish(fail('cancelled', 'was cut off: the job is being cancelled'))
    const finish = (error: ApiError | undefined, value?: Exchange) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      abort?.removeEventListener('abort', cancel)
      if (error) {
        // Abort: the request and its socket go, whatever stage they were at.
        request?.destroy()
        reject(error)
      } else resolve(value as Exchange)
    }
    const timer = setTimeout(
      () =>
        finish(
          left < options.timeoutMs
            ? fail('deadline', `was cut off after ${Math.round(left)} ms: the operation's time limit was reached`)
            : fail('timeout', `timed out after ${options.timeoutMs} ms (request-timeout)`)
        ),
      Math.min(left, options.timeoutMs)
    )
    abort?.addEventListener('abort', cancel, { once: true })
    const lib = url.protocol === 'https:' ? https : http
    const requestHeaders = { ...headers }
    if (body !== undefined) requestHeaders['Content-Length'] = String(Buffer.byteLength(body))
    try {
      request = lib.request({
        protocol: url.protocol,
        // URL keeps IPv6 literals in brackets; the socket wants the bare address.
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: url.pathname + url.search,
        method,
        headers: requestHeaders,
        agent: options.agentFor?.(url)
      })
    } catch (error) {
      finish(fail('network', `could not be sent: ${(error as Error).message}`))
      return
    }
    request.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? ''
      if (TLS_CODES.has(code) || /certificate/i.test(error.message)) {
        finish(
          fail(
            'tls',
            `failed: the server's TLS certificate is not trusted (${code || error.message}: ${error.message}). ` +
              'If the service uses a private or corporate CA, give the step NODE_EXTRA_CA_CERTS=/path/to/ca.pem in its env; not retried'
          )
        )
        return
      }
      if (url.protocol === 'https:' && notTls(error)) {
        finish(
          fail(
            'tls',
            `failed: ${url.host} did not answer in TLS (${code || 'a TLS protocol error'}): base-url says https, and the server there seems to speak plain http. Check the scheme (and the port) of base-url; not retried`
          )
        )
        return
      }
      const proxy = options.proxyFor?.(url)
      if (proxy) {
        finish(
          fail(
            'network',
            `failed: could not get through the proxy ${proxy} (from HTTPS_PROXY/HTTP_PROXY): ${networkReason(error)}. Check the proxy, or list the API's host in NO_PROXY`
          )
        )
        return
      }
      const base = options.baseUrl ? `, trying base-url ${options.baseUrl}` : ''
      if (code === 'ENOTFOUND') {
        const host = `the host name ${url.hostname}`
        finish(fail('unknown-host', `failed: ${host} does not resolve [ENOTFOUND]${base}; not retried: check base-url`))
        return
      }
      finish(fail('network', `failed: ${networkReason(error)}${base}`))
    })
    request.on('response', (response: http.IncomingMessage) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > options.maxBytes) {
          finish(fail('invalid-response', `answered with a body larger than ${options.maxBytes} bytes; not read`))
          return
        }
        chunks.push(chunk)
      })
      response.on('end', () =>
        finish(undefined, {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8')
        })
      )
      response.on('error', (error: Error) =>
        finish(fail('network', `failed: the connection broke while reading the answer (${error.message})`))
      )
      response.on('close', () => {
        if (!response.complete)
          finish(fail('network', 'failed: the connection was closed before the whole answer arrived'))
      })
    })
    if (options.tally) options.tally.sent++
    request.end(body)
  })
}

const MAX_REDIRECTS = 5

export interface Hop {
  method: string
  url: URL
  body: string | undefined
}

/**
 * `exchange`, following redirects within `origin` (at most 5; a 303 becomes a
 * GET). `before` is called before each request is sent (to stop on a cancel,
 * to log); `pathOf` names a URL in messages. Resolves with the last answer and
 * its URL.
 */
export async function exchangeFollowing(
  first: Hop,
  headers: (hop: Hop) => Record<string, string>,
  options: TransportOptions,
  route: {
    origin: string
    pathOf: (url: URL) => string
    before: (hop: Hop) => void
    /** Server text as it may be shown (the key redacted before anything shortens it). */
    clean: (text: string) => string
  }
): Promise<Exchange & { url: URL }> {
  const names = { method: first.method, path: route.pathOf(first.url) }
  const refuse = (status: number, detail: string) =>
    new ApiError({ kind: 'redirect', method: names.method, path: names.path, status, detail })
  let hop = first
  for (let hops = 0; ; hops++) {
    route.before(hop)
    const answer = await exchange(hop.method, hop.url, headers(hop), hop.body, options, names)
    const location = answer.headers.location
    if (![301, 302, 303, 307, 308].includes(answer.status) || !location) return { ...answer, url: hop.url }
    let next: URL
    try {
      next = new URL(location, hop.url)
    } catch {
      throw refuse(
        answer.status,
        `was redirected (HTTP ${answer.status}) to an invalid Location header, ${JSON.stringify(route.clean(location).slice(0, 200))}; not followed`
      )
    }
    if (next.origin !== route.origin) {
      throw refuse(
        answer.status,
        `was redirected (HTTP ${answer.status}) to another origin, ${next.origin}; not followed, so the API key is not sent there. Check base-url.`
      )
    }
    if (hops >= MAX_REDIRECTS) throw refuse(answer.status, `was redirected more than ${MAX_REDIRECTS} times`)
    hop = answer.status === 303 ? { method: 'GET', url: next, body: undefined } : { ...hop, url: next }
  }
}
