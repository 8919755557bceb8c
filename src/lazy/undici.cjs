/**
 * What `undici` is in the bundle (tsconfig.json `paths`): a stand-in that reads
 * the real package once `load('undici')` (./modules.cjs) has loaded it. Without
 * this every start would evaluate undici and instantiate its WebAssembly HTTP
 * parser, although the action's own requests never use it.
 */
'use strict'
module.exports = require('./modules.cjs').lazy('undici')
