/**
 * A module that is loaded on first use: `load` runs at the first property
 * read (`parseDocument`, `ProxyAgent`...), never at import. The bundle still
 * contains the module; it is only not evaluated until needed.
 */
'use strict'
module.exports = function onFirstUse(load) {
  let real
  const module = () => (real ??= load())
  return new Proxy(
    {},
    {
      get: (_target, name) => module()[name],
      has: (_target, name) => name in module(),
      ownKeys: () => Reflect.ownKeys(module()),
      getOwnPropertyDescriptor: (_target, name) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(module(), name)
        return descriptor && { ...descriptor, configurable: true }
      }
    }
  )
}
