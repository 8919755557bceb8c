/**
 * A fleet's plan is linear in the fleet: the list is indexed once (by name),
 * never scanned again for each entry. Counted, not timed: every read
 * of a list's element is counted through a Proxy, so a per-entry scan of the
 * whole list (a `filter` or `find` per entry) reads N² elements and fails.
 */
import { describe, expect, it } from '@jest/globals'
import type { Check } from '../../src/api/schemas.js'
import { findByName, indexChecks } from '../../src/operations/names/check-targets.js'
import { convergeCreated } from '../../src/operations/names/converge.js'
import { computePlan } from '../../src/operations/sync/plan.js'
import { redact, redactValue } from '../../src/secrets/secrets.js'

/** A list that counts the reads of its elements (and of its methods, by name). */
function counted<T>(items: T[]): { list: T[]; reads: () => number; calls: Record<string, number> } {
  let reads = 0
  const calls: Record<string, number> = {}
  const list = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++
      else if (typeof key === 'string' && typeof (target as unknown as Record<string, unknown>)[key] === 'function')
        calls[key] = (calls[key] ?? 0) + 1
      return Reflect.get(target, key, receiver)
    }
  })
  return { list, reads: () => reads, calls }
}

const fleet = (n: number): Check[] =>
  Array.from({ length: n }, (_, i) => ({ id: `chk_${i}`, name: `fleet-${i}`, url: `https://fleet.example.com/${i}` }))
const N = 2000

describe('linear in the fleet', () => {
  it('a plan of N entries against N checks reads each check a bounded number of times', () => {
    const server = counted(fleet(N))
    const wanted = fleet(N).map(({ name, url }) => ({ name, url, type: 'http' }))
    const plan = computePlan(wanted, server.list, { prune: true })
    expect(plan).toHaveLength(N)
    expect(plan.every(e => e.action === 'unchanged')).toBe(true)
    // One pass to index, one for prune: a scan per entry would be N * N = 4,000,000.
    expect(server.reads()).toBeLessThanOrEqual(4 * N)
    expect(server.calls.filter ?? 0).toBeLessThanOrEqual(2)
  })

  it('the name index answers N names with one pass over the list, and the same list gets the same index', () => {
    const server = counted(fleet(N))
    const index = indexChecks(server.list)
    for (let i = 0; i < N; i++) expect(index.byName(`fleet-${i}`).check?.id).toBe(`chk_${i}`)
    expect(index.byName('nobody')).toEqual({ check: undefined, duplicates: [] })
    expect(indexChecks(server.list)).toBe(index)
    expect(server.reads()).toBeLessThanOrEqual(N)
  })

  it('the index answers as findByName does: an id listed twice is one check, identical same-named ones are duplicates', () => {
    const checks: Check[] = [
      { id: 'b', name: 'x', url: 'u' },
      { id: 'a', name: 'x', url: 'u' },
      { id: 'b', name: 'x', url: 'u' },
      { id: 'c', name: 'y', url: 'v' },
      { id: 'c', name: 'z', url: 'v' },
      { id: 'c', name: 'z', url: 'v' }
    ]
    const index = indexChecks(checks)
    for (const name of ['x', 'y', 'z', 'w']) expect(index.byName(name)).toEqual(findByName(checks, name))
    expect(index.byName('x')).toEqual({ check: checks[1], duplicates: [checks[0]] })
    expect(index.byName('z').check?.id).toBe('c')
    expect(() => indexChecks([...checks, { id: 'd', name: 'x', url: 'other' }]).byName('x', ' on the service')).toThrow(
      /3 checks on the service are named "x" \(b, a, d\) and they differ \(url\)/
    )
  })

  it('the index answers as findByName does on lists with repeated ids and names, in any order', () => {
    let seed = 11
    const random = (k: number) => (seed = (seed * 48271) % 2147483647) % k
    const answer = (lookup: () => unknown) => {
      try {
        return lookup()
      } catch (error) {
        return (error as Error).message
      }
    }
    // Names whose orders differ by code unit and by locale (upper case before lower, accents, the empty name).
    const names = ['n0', 'n1', 'N1', 'B', 'a', 'é', 'e', '']
    for (let round = 0; round < 300; round++) {
      const checks = Array.from({ length: random(12) }, () => ({
        id: `c${random(6)}`,
        name: random(8) === 0 ? null : names[random(names.length)],
        url: `u${random(2)}`
      })) as Check[]
      const index = indexChecks(checks)
      for (const name of [...names, 'n4']) {
        expect(answer(() => index.byName(name, ' here'))).toEqual(answer(() => findByName(checks, name, ' here')))
        expect(index.has(name)).toBe(checks.some(c => c.name === name))
      }
    }
  })

  it('convergence after N creates reads the list a bounded number of times per round', async () => {
    const server = counted(fleet(N))
    const created = fleet(N)
    const log = { debug() {}, info() {}, warning() {}, error() {} }
    const result = await convergeCreated(created, {
      read: async () => ({ items: server.list }),
      before: new Set<string>(),
      nameOf: c => c.name ?? undefined,
      kindOf: c => String(c.url),
      remove: async () => {},
      sleep: async () => {},
      settleMs: 0,
      log: log as never,
      what: 'check'
    })
    expect(result.map(r => r.survivor.id)).toEqual(created.map(c => c.id))
    expect(server.reads()).toBeLessThanOrEqual(2 * N)
  })
})

describe('redaction of a fleet: the secrets are turned into their forms once, not for every text', () => {
  it('10,000 texts redacted with the same 1,000 secrets build the forms once; a secret added later is redacted too', () => {
    const secrets = counted(Array.from({ length: 1000 }, (_, i) => `tok${i}-0a1b2c3d`))
    for (let i = 0; i < 10_000; i++) {
      const text = `{"url":"https://fleet.example.com/${i}?token=tok${i % 1000}-0a1b2c3d"}`
      expect(redact(text, secrets.list)).toBe(`{"url":"https://fleet.example.com/${i}?token=***"}`)
    }
    // Building the forms goes over the list with its methods (filter, flatMap); a rebuild per text would call them 10,000 times.
    expect(secrets.calls.filter ?? 0).toBeLessThanOrEqual(1)
    // Each text may compare the list with the one the forms were built for: 1,000 reads a text, never a rebuild.
    expect(secrets.reads()).toBeLessThanOrEqual(10_001 * 1000 * 2)
    secrets.list.push('added-later-9f8e')
    expect(redact('a added-later-9f8e b tok5-0a1b2c3d', secrets.list)).toBe('a *** b ***')
    expect(redactValue({ u: 'added-later-9f8e' }, secrets.list)).toEqual({ u: '***' })
    secrets.list[0] = 'replaced-7c6d'
    expect(redact('replaced-7c6d tok0-0a1b2c3d', secrets.list)).toBe('*** tok0-0a1b2c3d')
  })
})

describe('redacting a plan does not copy what holds no secret', () => {
  const secrets = ['s3cr3t-token']
  it('returns the value itself when nothing in it is a secret, and copies only the branches that change', () => {
    const plan = fleet(3).map(c => ({ action: 'unchanged', name: c.name, id: c.id, fields: [], changes: {} }))
    expect(redactValue(plan, secrets)).toBe(plan)
    expect(redactValue(plan[1], secrets)).toBe(plan[1])
    const changed = { ...plan[1], changes: { url: { from: 'https://a/?t=s3cr3t-token', to: 'https://a/' } } }
    const holding = [plan[0], changed]
    const shown = redactValue(holding, secrets)
    expect(shown).not.toBe(holding)
    expect(shown[0]).toBe(plan[0])
    expect(shown[1]).toEqual({ ...plan[1], changes: { url: { from: 'https://a/?t=***', to: 'https://a/' } } })
    expect(changed.changes.url.from).toBe('https://a/?t=s3cr3t-token')
    // Keys are redacted too, a number that is a secret becomes ***, and __proto__ stays a field.
    const odd = JSON.parse('{"s3cr3t-token": 1, "n": 4242, "__proto__": {"x": "s3cr3t-token"}}') as object
    expect(JSON.stringify(redactValue(odd, [...secrets, '4242']))).toBe('{"***":1,"n":"***","__proto__":{"x":"***"}}')
    expect(redactValue(new Date(0), secrets)).toEqual({})
  })
})
