/**
 * `undici`, loaded on first use. @actions/http-client imports undici only for
 * ProxyAgent (and @actions/core imports http-client for OIDC), so without this
 * every start would load undici and instantiate its WebAssembly HTTP parser,
 * although the action's own requests never use it (they go through node:http,
 * with @actions/http-client's tunnel agent for proxies). The bundle maps the
 * `undici` import here (tsconfig.json `paths`); the first property read
 * (`ProxyAgent`, `fetch`...) loads the real package.
 */
'use strict'
const onFirstUse = require('./on-first-use.cjs')
module.exports = onFirstUse(() => require('../../node_modules/undici/index.js'))
