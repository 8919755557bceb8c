import { describe, expect, it } from '@jest/globals'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
interface UndiciLike {
  ProxyAgent: new (url: string) => object
  fetch: unknown
}
interface Lazy {
  load(name: string): Promise<void>
}

// One module registry for this file, tests in order: nothing is loaded until a test loads it.
describe('packages kept out of the bundle main file (src/lazy)', () => {
  it('the undici stand-in refuses a read before load, naming the package', () => {
    const stand = require('../../src/lazy/undici.cjs') as UndiciLike
    expect(() => stand.ProxyAgent).toThrow("undici is used before it is loaded: await load('undici') first")
    expect(() => 'fetch' in stand).toThrow(/undici is used before it is loaded/)
  })

  it('after load, the undici stand-in is the real package: ProxyAgent for a proxy, fetch', async () => {
    const { load } = require('../../src/lazy/modules.cjs') as Lazy
    const stand = require('../../src/lazy/undici.cjs') as UndiciLike
    await load('undici')
    await load('undici') // a second load is a no-op
    // The real package, by its path: the bundle's `undici` alias points at the stand-in.
    const real = require('../../node_modules/undici/index.js') as UndiciLike
    expect(stand.ProxyAgent).toBe(real.ProxyAgent)
    expect(new stand.ProxyAgent('http://127.0.0.1:9')).toBeInstanceOf(real.ProxyAgent)
    expect(typeof stand.fetch).toBe('function')
    expect('Agent' in stand).toBe(true)
    expect(Object.keys(stand)).toContain('ProxyAgent')
  })

  it('the tunnel stand-in has every function the real package exports, and each builds the real agent', () => {
    type Tunnel = Record<string, (options: object) => object>
    const stand = require('../../src/lazy/tunnel.cjs') as Tunnel
    // The real package, by its path: the bundle's `tunnel` alias points at the stand-in.
    const real = require('../../node_modules/tunnel/lib/tunnel.js') as Tunnel
    const overs = Object.keys(real).filter(name => /Over/.test(name))
    expect(overs.sort()).toEqual(['httpOverHttp', 'httpOverHttps', 'httpsOverHttp', 'httpsOverHttps'])
    expect(Object.keys(stand).sort()).toEqual(overs.sort())
    // The four agents share a prototype; what tells them apart is how they reach the proxy and the target.
    type Agent = { proxyOptions: object; request: unknown; createSocket: unknown; defaultPort: unknown }
    for (const name of overs) {
      const options = { proxy: { host: '127.0.0.1', port: 9 } }
      const agent = stand[name](options) as Agent
      const expected = real[name](options) as Agent
      expect(Object.getPrototypeOf(agent)).toBe(Object.getPrototypeOf(expected))
      expect(agent.proxyOptions).toEqual(options.proxy)
      expect({
        name,
        request: agent.request,
        createSocket: agent.createSocket,
        defaultPort: agent.defaultPort
      }).toEqual({
        name,
        request: expected.request,
        createSocket: expected.createSocket,
        defaultPort: expected.defaultPort
      })
    }
    const differ = (a: Agent, b: Agent) =>
      a.request !== b.request || a.createSocket !== b.createSocket || a.defaultPort !== b.defaultPort
    const agents = overs.map(name => real[name]({ proxy: { host: '127.0.0.1', port: 9 } }) as Agent)
    for (const [i, a] of agents.entries()) for (const b of agents.slice(i + 1)) expect(differ(a, b)).toBe(true)
  })

  it("the tunnel stand-in keeps a proxy's user and password from tunnel (its new Buffer warns) and sends them as tunnel would", () => {
    type Agent = { proxyOptions: Record<string, unknown>; request: (options: object) => unknown }
    const stand = require('../../src/lazy/tunnel.cjs') as Record<string, (options: object) => Agent>
    const http = require('node:http') as { request: unknown }
    const original = http.request
    const sent: object[] = []
    http.request = (options: object) => sent.push(options) // tunnel takes http.request when it builds an agent
    try {
      const agent = stand.httpOverHttp({ proxy: { host: '127.0.0.1', port: 9, proxyAuth: 'deploy:s3cret' } })
      expect(agent.proxyOptions).toEqual({ host: '127.0.0.1', port: 9 })
      agent.request({ method: 'CONNECT', path: 'api.example.com:443', headers: { host: 'api.example.com:443' } })
      const plain = stand.httpOverHttp({ proxy: { host: '127.0.0.1', port: 9 } })
      plain.request({ method: 'CONNECT', headers: { host: 'api.example.com:443' } })
    } finally {
      http.request = original
    }
    expect(sent).toEqual([
      {
        method: 'CONNECT',
        path: 'api.example.com:443',
        headers: { host: 'api.example.com:443', 'Proxy-Authorization': 'Basic ZGVwbG95OnMzY3JldA==' }
      },
      { method: 'CONNECT', headers: { host: 'api.example.com:443' } }
    ])
    expect(Buffer.from('deploy:s3cret').toString('base64')).toBe('ZGVwbG95OnMzY3JldA==')
  })

  it('the yaml stand-in reads the real package once loaded, and not before', async () => {
    const { load } = require('../../src/lazy/modules.cjs') as Lazy
    const stand = require('../../src/lazy/yaml.cjs') as { parse(text: string): unknown }
    expect(() => stand.parse('a: 1')).toThrow("yaml is used before it is loaded: await load('yaml') first")
    await load('yaml')
    expect(stand.parse('a: 1')).toEqual({ a: 1 })
  })
})
