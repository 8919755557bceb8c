/**
 * `yaml`, read once `load('yaml')` (./modules.cjs) has loaded it: a step
 * without a spec input or a checks file never reads or evaluates the package.
 */
'use strict'
module.exports = require('./modules.cjs').lazy('yaml')
