/**
 * `yaml`, loaded on first use: only a spec input (check, incident, status-page)
 * or a checks file needs it, so a step without one (get-check, wait-for-check,
 * most steps) never evaluates it. The first property read (`parseDocument`,
 * `LineCounter`...) loads the real package; the bundle includes it either way.
 */
'use strict'
let real
const load = () => (real ??= require('yaml'))
module.exports = new Proxy(
  {},
  {
    get: (_target, name) => load()[name],
    has: (_target, name) => name in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_target, name) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(load(), name)
      return descriptor && { ...descriptor, configurable: true }
    }
  }
)
