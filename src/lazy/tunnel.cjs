/**
 * What `tunnel` is in the bundle (tsconfig.json `paths`): the same four
 * functions, each evaluating the real package on its first call.
 * @actions/http-client imports tunnel at its top for the agent it builds when
 * HTTPS_PROXY or HTTP_PROXY is set; tunnel imports `assert` at its top, which
 * every start without a proxy then loaded for nothing (on Node 24 about 1 MiB
 * in the action; docs/benchmarks.md). The package stays in the main file: the
 * `require` in a function is evaluated only when it runs.
 *
 * A proxy's user and password: tunnel writes them into the CONNECT request's
 * Proxy-Authorization header with `new Buffer()`, which Node reports on
 * standard error (DeprecationWarning DEP0005) from code outside node_modules,
 * as the bundle is: a warning in every proxied step's log. Here tunnel never
 * sees them; the agent's CONNECT request gets the same header, written with
 * Buffer.from.
 */
'use strict'
let real
const tunnel = () => (real ??= require('../../node_modules/tunnel/lib/tunnel.js'))

function agent(name, options) {
  const { proxyAuth, ...proxy } = options?.proxy ?? {}
  const made = tunnel()[name](options?.proxy ? { ...options, proxy } : options)
  if (proxyAuth) {
    const request = made.request
    const authorization = 'Basic ' + Buffer.from(proxyAuth).toString('base64')
    made.request = connect =>
      request({ ...connect, headers: { ...connect.headers, 'Proxy-Authorization': authorization } })
  }
  return made
}

module.exports = {
  httpOverHttp: options => agent('httpOverHttp', options),
  httpsOverHttp: options => agent('httpsOverHttp', options),
  httpOverHttps: options => agent('httpOverHttps', options),
  httpsOverHttps: options => agent('httpsOverHttps', options)
}
