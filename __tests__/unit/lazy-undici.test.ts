import { describe, expect, it } from '@jest/globals'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
interface UndiciLike {
  ProxyAgent: new (url: string) => object
  fetch: unknown
}

describe('the lazy undici the bundle maps `undici` to (src/lazy/undici.cjs)', () => {
  it('gives the real package on first use: ProxyAgent for a proxy, fetch', () => {
    const shim = require('../../src/lazy/undici.cjs') as UndiciLike
    // The real package, by its path: the bundle's `undici` alias points at the shim.
    const real = require('../../node_modules/undici/index.js') as UndiciLike
    expect(shim.ProxyAgent).toBe(real.ProxyAgent)
    expect(new shim.ProxyAgent('http://127.0.0.1:9')).toBeInstanceOf(real.ProxyAgent)
    expect(typeof shim.fetch).toBe('function')
    expect('Agent' in shim).toBe(true)
  })
})
