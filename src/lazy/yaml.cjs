/**
 * `yaml`, loaded on first use: only a spec input (check, incident, status-page)
 * or a checks file needs it, so a step without one (get-check, wait-for-check,
 * most steps) never evaluates it. The first property read (`parseDocument`,
 * `LineCounter`...) loads the real package; the bundle includes it either way.
 */
'use strict'
const onFirstUse = require('./on-first-use.cjs')
module.exports = onFirstUse(() => require('yaml'))
