/**
 * Packages kept out of the bundle's main file. Each is an `import()`, so the
 * bundler puts it in a chunk of its own (dist/NNN.index.js) that is read and
 * evaluated only by a step that loads it:
 *
 * - `undici`: @actions/http-client imports it only for ProxyAgent (and
 *   @actions/core imports http-client for OIDC); the action's own requests go
 *   through node:http. Only Octokit (pull-request comments) uses it.
 * - `yaml`: only a spec input (check, incident, status-page) or a checks file
 *   needs it.
 *
 * A caller awaits `load(name)` where it knows the package is needed; the
 * stand-in (`lazy(name)`, what `import ... from 'undici'` gets in the bundle)
 * then reads the real package. Used before it is loaded, the stand-in throws
 * naming the package: a bug in the caller, caught by the tests.
 */
'use strict'

const importers = {
  // By path: the bundle maps the name `undici` to ./undici.cjs (tsconfig.json `paths`).
  undici: () => import('../../node_modules/undici/index.js'),
  yaml: () => import('yaml')
}

const loaded = new Map()

/** Load a package once; later calls resolve at once. */
async function load(name) {
  if (!loaded.has(name)) {
    const namespace = await importers[name]()
    // Both packages are CommonJS: their exports are the namespace's default.
    loaded.set(name, namespace.default ?? namespace)
  }
}

function real(name) {
  const module = loaded.get(name)
  if (module === undefined) throw new Error(`${name} is used before it is loaded: await load('${name}') first`)
  return module
}

/**
 * A stand-in for a package: every property read goes to the loaded package.
 * What importers ask at import time has an answer before the load: the
 * stand-in is not an ES module (`__esModule`: the bundler's default import is
 * the stand-in itself), and listing its keys finds none (jest lists a
 * CommonJS module's exports).
 */
function lazy(name) {
  return new Proxy(
    {},
    {
      get: (_target, key) => (key === '__esModule' ? undefined : real(name)[key]),
      has: (_target, key) => key in real(name),
      ownKeys: () => (loaded.has(name) ? Reflect.ownKeys(real(name)) : []),
      getOwnPropertyDescriptor: (_target, key) => {
        if (!loaded.has(name)) return undefined
        const descriptor = Reflect.getOwnPropertyDescriptor(real(name), key)
        return descriptor && { ...descriptor, configurable: true }
      }
    }
  )
}

module.exports = { load, lazy }
