/**
 * Rows kept packed (src/api/packed.ts): a fleet's listed checks and a checks
 * file's entries, kept as JSON outside V8's heap and made whole where a field
 * is needed. What is made again must be what was kept, key for key and in
 * order (the outputs and PUT bodies show the order), and the plan made from
 * packed rows and entries must be the plan made from whole ones.
 */
import { describe, expect, it } from '@jest/globals'
import { PackedRow, PackedValues, packer, wholeOf } from '../../src/api/packed.js'
import { readPages } from '../../src/api/pagination.js'
import { type Check, CheckSchema } from '../../src/api/schemas.js'
import { indexChecks } from '../../src/operations/names/check-targets.js'
import { differences } from '../../src/operations/common.js'
import { parseChecksFileLoading } from '../../src/operations/sync/checks-file.js'
import { readAtMost } from '../../src/operations/sync/checks-file-read.js'
import { PackedSpecs, computePlan } from '../../src/operations/sync/plan.js'

/** What JSON gives back of a value: what a packed value must be made again as. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

/** A deterministic random source. */
const seeded = (seed: number) => (k: number) => (seed = (seed * 48271) % 2147483647) % k

describe('PackedValues: what is made again is what was kept', () => {
  it('mappings of one shape, of several, and values that are not mappings, key for key and in order', () => {
    const values: unknown[] = [
      { id: 'chk_1', name: 'fleet-1', url: 'https://a.example.com/1', interval: 60, alertChannels: ['email'] },
      { id: 'chk_2', name: 'fleet-2', url: 'https://a.example.com/2', interval: 60, alertChannels: ['email'] },
      { name: 'b', url: 'u', headers: { 'X-Token': 'v', nested: { deep: [1, 2.5, -3e-7, null, true] } } },
      { 10: 'ten', 2: 'two', z: 1, a: 2 },
      { name: 'café ☕ 𝄞', note: 'line\nbreak "quoted" \\ back', empty: '', zero: 0, no: false, none: null },
      { id: 'chk_3', name: 'fleet-3', url: 'https://a.example.com/3', interval: 60, alertChannels: ['email'] },
      [1, 'two', { three: 3 }],
      'a string',
      42,
      null,
      true,
      {},
      []
    ]
    const packed = new PackedValues()
    const places = values.map(value => packed.add(value))
    expect(packed.length).toBe(values.length)
    places.forEach((place, i) => {
      const made = packed.value(place)
      expect(made).toEqual(values[i])
      // The order of keys too: the outputs and bodies show it.
      if (made !== null && typeof made === 'object') expect(Object.keys(made)).toEqual(Object.keys(values[i] as object))
    })
  })

  it('a key `__proto__` (JSON.parse makes it an own key) and values JSON drops come back as JSON gives them', () => {
    const withProto = JSON.parse('{"name":"x","__proto__":{"polluted":true},"url":"u"}') as Record<string, unknown>
    const withUndefined = { name: 'y', gone: undefined, url: 'v' }
    const packed = new PackedValues()
    const [a, b, c] = [packed.add(withProto), packed.add(withUndefined), packed.add({ n: -0, big: 2 ** 53 - 1 })]
    const madeA = packed.value(a) as Record<string, unknown>
    expect(Object.keys(madeA)).toEqual(['name', '__proto__', 'url'])
    expect(Object.getPrototypeOf(madeA)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(packed.value(b)).toEqual(viaJson(withUndefined))
    expect(Object.keys(packed.value(b) as object)).toEqual(['name', 'url'])
    // -0 is written 0 by JSON, as every output, body and comparison writes it.
    expect(packed.value(c)).toEqual({ n: 0, big: 2 ** 53 - 1 })
  })

  it('random plain values, of more sets of keys than it keeps shapes for, each made again as JSON gives it', () => {
    const random = seeded(5)
    const word = () =>
      ['a', 'b', 'name', 'url', 'é', '1', '__x', 'interval'][random(8)] + (random(3) === 0 ? random(99) : '')
    const leaf = (): unknown =>
      [
        () => word(),
        () => random(1000) - 500,
        () => random(7) / 8,
        () => null,
        () => random(2) === 0,
        () => 'ü𝄞\u2028'
      ][random(6)]()
    const value = (depth: number): unknown => {
      if (depth > 2 || random(3) === 0) return leaf()
      if (random(4) === 0) return Array.from({ length: random(4) }, () => value(depth + 1))
      return Object.fromEntries(Array.from({ length: random(6) }, () => [word(), value(depth + 1)]))
    }
    const packed = new PackedValues()
    const values = Array.from({ length: 2000 }, () => value(0))
    const places = values.map(v => packed.add(v))
    places.forEach((place, i) => {
      expect(packed.value(place)).toEqual(viaJson(values[i]))
      const made = packed.value(place)
      if (made !== null && typeof made === 'object' && !Array.isArray(made)) {
        expect(Object.keys(made)).toEqual(Object.keys(values[i] as object))
      }
    })
  })

  it('each call makes a new object; a place never kept is refused', () => {
    const packed = new PackedValues()
    const place = packed.add({ alertChannels: ['email'] })
    const [a, b] = [packed.value(place), packed.value(place)]
    expect(a).toEqual(b)
    expect(a).not.toBe(b)
    ;(a as { alertChannels: string[] }).alertChannels.push('sms')
    expect(packed.value(place)).toEqual({ alertChannels: ['email'] })
    expect(() => packed.value(1)).toThrow(RangeError)
    expect(() => packed.value(-1)).toThrow(RangeError)
  })

  it('keeps its first values in the room it is given, and goes on in buffers of its own when that is full', () => {
    const room = Buffer.alloc(64, 0x2e)
    const packed = new PackedValues(room)
    const first = packed.add({ name: 'one', url: 'u' })
    expect(room.toString('latin1')).toContain('"one"')
    const values = Array.from({ length: 100 }, (_, i) => ({ name: `entry-${i}`, url: `https://x.example.com/${i}` }))
    const places = values.map(v => packed.add(v))
    expect(packed.value(first)).toEqual({ name: 'one', url: 'u' })
    places.forEach((place, i) => expect(packed.value(place)).toEqual(values[i]))
  })
})

describe('one store for a file’s entries and the service’s checks (the sync keeps both in the file’s buffer)', () => {
  it('each keeps its own places, whatever was added between', () => {
    const store = new PackedValues(Buffer.alloc(300))
    const specs = new PackedSpecs(store)
    const keep = packer<Check>(store)
    const rows: Array<PackedRow<Check>> = []
    for (let i = 0; i < 40; i++) {
      specs.push({ name: `fleet-${i}`, url: `https://fleet.example.com/${i}` })
      if (i % 3 === 0) rows.push(keep({ id: `chk_${i}`, name: `fleet-${i}`, interval: i }))
    }
    expect(specs.length).toBe(40)
    expect(specs.names[39]).toBe('fleet-39')
    expect(specs.spec(39)).toEqual({ name: 'fleet-39', url: 'https://fleet.example.com/39' })
    expect(rows.map(row => row.whole().interval)).toEqual(Array.from({ length: 14 }, (_, k) => 3 * k))
  })
})

describe('a packed row', () => {
  it('has its id and name at hand; whole() makes the row again, holding the handle’s own id', () => {
    const keep = packer<Check>()
    const check = CheckSchema.parse({ id: 7, name: 'shop', url: 'https://shop.example.com/', extra: { a: 1 } })
    const row = keep(check)
    expect(row).toBeInstanceOf(PackedRow)
    expect([row.id, row.name]).toEqual(['7', 'shop'])
    const whole = row.whole()
    expect(whole).toEqual(check)
    expect(Object.keys(whole)).toEqual(Object.keys(check))
    expect(whole.id).toBe(row.id)
    expect(wholeOf(row)).toEqual(check)
    expect(wholeOf(check)).toBe(check)
  })

  it('a read keeps each row as `keep` gives it: each id once, a repeated one said, `enough` given the rows kept', async () => {
    const pages = [
      [
        { id: 'a', name: 'x' },
        { id: 'b', name: 'y' }
      ],
      [
        { id: 'b', name: 'y2' },
        { id: 'c', name: 'z' }
      ]
    ]
    const seen: unknown[][] = []
    const read = await readPages({
      first: new URL('http://api.example.com/checks?page=0'),
      base: new URL('http://api.example.com/'),
      maxPages: 10,
      what: 'check',
      pathOf: url => url.pathname + url.search,
      fetch: async url => {
        const page = Number(url.searchParams.get('page'))
        const next = page + 1 < pages.length ? { link: `</checks?page=${page + 1}>; rel="next"` } : {}
        return { status: 200, headers: next, body: { data: structuredClone(pages[page]) } }
      },
      parse: row => CheckSchema.parse(row),
      keep: packer<Check>(),
      enough: page => (seen.push(page), false)
    })
    expect(seen.flat().every(row => row instanceof PackedRow)).toBe(true)
    expect(read.items.map(row => [row.id, row.name, row.whole()])).toEqual([
      ['a', 'x', { id: 'a', name: 'x' }],
      ['b', 'y2', { id: 'b', name: 'y2' }],
      ['c', 'z', { id: 'c', name: 'z' }]
    ])
    expect(read.shift).toMatch(/showed 1 check\(s\) twice \("b"\)/)
  })
})

describe('the plan from packed rows and entries is the plan from whole ones', () => {
  it('on random fleets: creates, updates, unchanged, paused, identical duplicates, deletes by prune', () => {
    const random = seeded(17)
    for (let round = 0; round < 60; round++) {
      const n = 1 + random(25)
      const server: Check[] = []
      for (let i = 0; i < n; i++) {
        const copies = random(6) === 0 ? 2 : 1
        for (let c = 0; c < copies; c++) {
          server.push({
            id: `chk_${i}_${c}`,
            name: `fleet-${i}`,
            url: `https://fleet.example.com/${i}`,
            interval: 60,
            ...(random(3) === 0 ? { alertChannels: ['email', 'sms'] } : {}),
            ...(random(5) === 0 ? { status: 'paused' } : { status: 'up' }),
            createdAt: `2026-11-2${c}T10:00:00.000Z`
          })
        }
      }
      const wanted = Array.from({ length: n + random(4) }, (_, i) => ({
        name: `fleet-${i}`,
        url: `https://fleet.example.com/${random(8) === 0 ? 'moved/' : ''}${i}`,
        ...(random(2) === 0 ? { interval: random(4) === 0 ? 30 : 60 } : {}),
        ...(random(3) === 0 ? { alertChannels: random(2) === 0 ? ['sms', 'email'] : ['email'] } : {}),
        ...(random(6) === 0 ? { status: 'up' } : {})
      })).filter(() => random(7) !== 0)
      const options = { prune: random(2) === 0, prunePrefix: random(3) === 0 ? 'fleet-1' : undefined }
      const keep = packer<Check>()
      const packedServer = server.map(check => keep(check))
      const specs = new PackedSpecs()
      for (const spec of wanted) specs.push(spec)
      const answer = (plan: () => unknown) => {
        try {
          return plan()
        } catch (error) {
          return (error as Error).message
        }
      }
      expect(answer(() => computePlan(specs, packedServer, options))).toEqual(
        answer(() => computePlan(wanted, server, options))
      )
    }
  })

  it('the index counts the rows of a name without making them whole', () => {
    const keep = packer<Check>()
    const rows = [
      { id: 'a', name: 'x' },
      { id: 'b', name: 'x' },
      { id: 'a', name: 'x' },
      { id: 'c', name: 'x\u0000y' },
      { id: 'd', name: 'w' }
    ].map(keep)
    const index = indexChecks(rows)
    expect(['x', 'w', 'v', 'x\u0000y'].map(index.count)).toEqual([3, 1, 0, 1])
    expect(index.byName('x').duplicates.map(c => c.id)).toEqual(['b'])
  })

  it('fields are compared as before: equal values without JSON, others by their normal form', () => {
    const random = seeded(3)
    const pick = () =>
      [undefined, null, 'http', 'HTTP', 60, 60.0, 0, -0, NaN, ['email', 'sms'], ['sms', 'email', 'sms'], { a: 1 }][
        random(12)
      ]
    for (let i = 0; i < 500; i++) {
      const wanted = { type: pick(), alertChannels: pick(), interval: pick(), url: pick() }
      const current = { type: pick(), alertChannels: pick(), interval: pick(), url: pick() }
      const normal = (field: string, value: unknown) =>
        field === 'type' && (value === undefined || value === null)
          ? '"http"'
          : field === 'alertChannels'
            ? JSON.stringify([...new Set((Array.isArray(value) ? value : []).map(String))].sort())
            : JSON.stringify(value ?? null)
      const expected = Object.keys(wanted).filter(
        f => normal(f, wanted[f as keyof typeof wanted]) !== normal(f, current[f as keyof typeof current])
      )
      expect(differences(wanted, current)).toEqual(expected)
    }
  })
})

describe('a checks file read into packed entries', () => {
  const lines = (n: number) =>
    Array.from(
      { length: n },
      (_, i) => `- name: "fleet-${i}"\n  url: https://fleet.example.com/${i}\n  alertChannels: [email]\n`
    ).join('')

  it('holds the names and entries the plain read gives, in order', async () => {
    for (const text of [
      lines(130),
      `{"checks": ${JSON.stringify([
        { name: 'a', url: 'https://a.example.com/' },
        { name: 'b', url: 'https://b.example.com/', interval: 30 }
      ])}}`
    ]) {
      const plain = await parseChecksFileLoading(text, 'checks.yml')
      const packed = await parseChecksFileLoading(text, 'checks.yml', {}, () => new PackedSpecs())
      expect(packed.names).toEqual(plain.map(spec => String(spec.name)))
      expect(Array.from({ length: packed.length }, (_, i) => packed.spec(i))).toEqual(plain)
    }
  })

  it('a file the line reader gives up on part way is read again into a new list', async () => {
    // The last entry holds a block scalar, which only the YAML parser reads.
    const text = `${lines(120)}- name: last\n  url: https://last.example.com/\n  note: |\n    two\n    lines\n`
    const made: PackedSpecs[] = []
    const packed = await parseChecksFileLoading(text, 'checks.yml', {}, () => {
      made.push(new PackedSpecs())
      return made[made.length - 1]
    })
    expect(made.length).toBeGreaterThan(1)
    expect(packed).toBe(made[made.length - 1])
    expect(packed.length).toBe(121)
    expect(packed.spec(120)).toEqual({ name: 'last', url: 'https://last.example.com/', note: 'two\nlines\n' })
  })

  it('the buffer a file was read into is handed over once its text is decoded: writing into it changes no text', async () => {
    const bytes = Buffer.from(lines(3))
    const handle = {
      read: async (buffer: Buffer, offset: number, length: number, position: number) => ({
        bytesRead: bytes.copy(buffer, offset, position, Math.min(bytes.length, position + length))
      })
    }
    let room: Buffer | undefined
    const text = await readAtMost(handle, bytes.length, 1000, spare => (room = spare))
    expect(text).toBe(bytes.toString())
    expect(room?.length).toBe(bytes.length + 1)
    room?.fill(0x21)
    expect(text).toBe(bytes.toString())
  })
})
