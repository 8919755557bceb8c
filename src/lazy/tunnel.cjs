/**
 * What `tunnel` is in the bundle (tsconfig.json `paths`): the same four
 * functions, each evaluating the real package on its first call.
 * @actions/http-client imports tunnel at its top for the agent it builds when
 * HTTPS_PROXY or HTTP_PROXY is set; tunnel imports `assert` at its top, which
 * every start without a proxy then loaded for nothing (on Node 24 about 1 MiB
 * in the action; docs/benchmarks.md). The package stays in the main file: the `require` in
 * a function is evaluated only when it runs.
 */
'use strict'
let real
const tunnel = () => (real ??= require('../../node_modules/tunnel/lib/tunnel.js'))
module.exports = {
  httpOverHttp: options => tunnel().httpOverHttp(options),
  httpsOverHttp: options => tunnel().httpsOverHttp(options),
  httpOverHttps: options => tunnel().httpOverHttps(options),
  httpsOverHttps: options => tunnel().httpsOverHttps(options)
}
