/**
 * export-file.ts: the entries export-checks writes (every writable field the
 * service has, `status` only when paused, sorted by name), the values it lifts
 * out of secret positions into variables, and the file's exact text. Where a
 * URL's userinfo stands has one owner, url-reading.ts: export lifts exactly
 * the span that owner reads, in every form the URL parser accepts.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { Check } from '../../src/api/schemas.js'
import { load } from '../../src/lazy/modules.cjs'
import { parseChecksFile } from '../../src/operations/sync/checks-file.js'
import { computePlan } from '../../src/operations/sync/plan.js'
import {
  ExportError,
  checksFileText,
  exportEntries,
  heldSecret,
  tokenLike
} from '../../src/operations/sync/export-file.js'
import { userinfoRanges } from '../../src/secrets/url-reading.js'

// The YAML parser is loaded before a file is written or read, as main does (src/lazy/modules.cjs).
beforeAll(() => load('yaml'))

/** How a check's string is read (secret-positions.ts VALUE): a URL at its start is the whole value. */
const WHOLE_VALUE = { stop: '\\s', wholeValue: true }

/** The userinfo of `url` as url-reading.ts reads it: the one owner of that rule. */
function ownersUserinfo(url: string): { before: string; userinfo: string; after: string } {
  const ranges = userinfoRanges(url, WHOLE_VALUE)
  expect(ranges).toHaveLength(1)
  const [[start, end]] = ranges
  return { before: url.slice(0, start), userinfo: url.slice(start, end), after: url.slice(end) }
}

/** The one check's exported url and the values lifted out of it. */
function exportedUrl(url: string): { url: string; lifted: Array<{ variable: string; value: string; where: string }> } {
  const { entries, lifted } = exportEntries([{ id: 'chk_1', name: 'web', url }])
  return { url: String(entries[0].url), lifted }
}

describe('export lifts the userinfo url-reading.ts reads, in every form the URL parser accepts', () => {
  it.each([
    'https:\\\\u:p@h.example.com/x',
    'HTTPS://u:p@h.example.com/',
    'Https://u:p@h.example.com',
    'https:/u:p@h.example.com/',
    'https:///u:p@h.example.com/',
    'http:u:p@h.example.com/',
    'https:/\\u:p@h.example.com/',
    'https://monitor:Xy@9pQ7zz@shop.example.com/health',
    'https://git@h.example.com/',
    'https://true@h.example.com/',
    'https://1234@h.example.com/',
    'https://u:p@h.example.com\\path?token=x'
  ])("%s: the owner's userinfo becomes the variable, the rest stays to the character", url => {
    const { before, userinfo, after } = ownersUserinfo(url)
    // The URL parser agrees with the owner (the owner's property test holds it on generated URLs).
    const parsed = new URL(url)
    const password = parsed.password ? `:${decodeURIComponent(parsed.password)}` : ''
    expect(decodeURIComponent(parsed.username) + password).toBe(userinfo)
    const out = exportedUrl(url)
    expect(out.lifted).toEqual([{ variable: 'CHECK_WEB_USERINFO', check: 'web', where: 'userinfo', value: userinfo }])
    expect(out.url).toBe(`${before}\${secret:CHECK_WEB_USERINFO}${after}`)
  })

  it("property: whatever the scheme's case and the run of / and \\ after it, the lifted value is the owner's userinfo", () => {
    const scheme = fc.constantFrom('http', 'https', 'HTTP', 'HttpS')
    const slashes = fc.array(fc.constantFrom('/', '\\'), { maxLength: 4 }).map(s => s.join(''))
    const part = fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=-]{1,12}$/)
    const userinfo = fc
      .tuple(part, fc.option(part, { nil: undefined }), fc.boolean())
      .map(([user, pass, at]) => (pass === undefined ? user : `${user}:${at ? `${pass}@${pass}` : pass}`))
    const tail = fc.constantFrom('', '/', '/health', '?ref=1', '#top', '\\x')
    fc.assert(
      fc.property(scheme, slashes, userinfo, tail, (s, sl, info, rest) => {
        const url = `${s}:${sl}${info}@h.example.com${rest}`
        const { before, userinfo: read, after } = ownersUserinfo(url)
        const out = exportedUrl(url)
        expect(out.lifted.map(l => l.value)).toEqual([read])
        expect(out.url).toBe(`${before}\${secret:CHECK_WEB_USERINFO}${after}`)
      }),
      { numRuns: 200 }
    )
  })

  it('a URL without a userinfo lifts nothing; an @ past the authority is none', () => {
    for (const url of ['https://h.example.com/', 'https://h.example.com/a@b', 'https://h.example.com/?mail=a@b']) {
      expect(userinfoRanges(url, WHOLE_VALUE)).toEqual([])
      expect(exportedUrl(url)).toEqual({ url, lifted: [] })
    }
  })
})

describe('exportEntries: what the file states of each check', () => {
  it('every writable field the service has, sorted by name in code-unit order; null, absent and read-only fields left out', () => {
    const { entries, ids } = exportEntries([
      { id: 'c1', name: 'web', url: 'https://w.example.com/', interval: 60, type: null, owner: undefined },
      { id: 'c2', name: 'B-api', url: 'https://b.example.com/', alertChannels: ['ops'], createdAt: '2026-01-01' },
      { id: 'c3', name: 'a-site', url: 'https://a.example.com/', lastCheckedAt: 'x', responseTime: 12 }
    ] as Check[])
    expect(ids).toEqual(['c2', 'c3', 'c1'])
    expect(entries).toEqual([
      { name: 'B-api', url: 'https://b.example.com/', alertChannels: ['ops'] },
      { name: 'a-site', url: 'https://a.example.com/' },
      { name: 'web', url: 'https://w.example.com/', interval: 60 }
    ])
  })

  it('status only when paused: a running check states none, so a sync never resumes or pauses what it did not say', () => {
    const { entries } = exportEntries([
      { id: 'c1', name: 'down', url: 'https://d.example.com/', status: 'down' },
      { id: 'c2', name: 'paused', url: 'https://p.example.com/', status: 'paused' },
      { id: 'c3', name: 'up', url: 'https://u.example.com/', status: 'up' }
    ])
    expect(entries.map(e => e.status)).toEqual([undefined, 'paused', undefined])
    expect(Object.keys(entries[0])).toEqual(['name', 'url'])
  })

  it('two checks of one name: an ExportError naming both ids and what to do, whichever comes first', () => {
    const twins = [
      { id: 'chk_b', name: 'twin', url: 'https://b.example.com/' },
      { id: 'chk_a', name: 'twin', url: 'https://a.example.com/' }
    ]
    expect(() => exportEntries(twins)).toThrow(ExportError)
    expect(() => exportEntries(twins)).toThrow(
      'two checks share the name "twin" (chk_b and chk_a); a checks file matches checks by name, so it cannot hold both. Rename or delete one (update-check or delete-check with its check-id), then export again. Nothing was written.'
    )
  })

  it('a check a checks file cannot state: an ExportError naming the check and the problem', () => {
    expect(() => exportEntries([{ id: 'chk_9', name: 'ftp', url: 'ftp://files.example.com/' }])).toThrow(
      /^check chk_9 \("ftp"\) cannot be written as a checks-file entry: .*url.*\. Fix the check, or export a name-prefix that leaves it out\. Nothing was written\.$/
    )
    expect(() => exportEntries([{ id: 'chk_8', name: 'x', url: 'https://x.example.com/', interval: -1 }])).toThrow(
      ExportError
    )
  })

  it('a number in a credential field: an ExportError naming the check and the field (a variable gives text back)', () => {
    const check = { id: 'chk_7', name: 'db', url: 'https://db.example.com/', password: 73914682 }
    expect(() => exportEntries([check])).toThrow(
      'check chk_7 ("db"): the field password holds a number where a secret stands; a variable gives text back, so export-checks cannot lift it. Nothing was written. Write it as text on the service, or export a name-prefix that leaves the check out.'
    )
    expect(() => exportEntries([check])).toThrow(ExportError)
  })
})

describe('liftSecrets: each value in a secret position becomes a variable, there only', () => {
  const fleet = exportEntries([
    {
      id: 'c2',
      name: 'web',
      url: 'https://h.example.com/?q=${x}&token=abcd1234&token=efgh5678#access_token=zzzz9999',
      headers: { Authorization: 'Bearer abc123xyz', 'X-Other': 'plain' },
      webhook: 'https://hooks.example.com/?token=wxyz9876',
      lines: ['X-Api-Key: kkkk1111'],
      password: 'true',
      apiKey: 'Sekret-1'
    },
    { id: 'c1', name: 'Café api', url: 'https://h.example.com/x?token=true&sig=abc' }
  ] as Check[])

  it('the entry keeps every other character; a literal ${ is written $${, the placeholders are not', () => {
    expect(fleet.entries[1]).toEqual({
      name: 'web',
      url: 'https://h.example.com/?q=$${x}&token=${secret:CHECK_WEB_TOKEN}&token=${secret:CHECK_WEB_TOKEN_2}#access_token=${secret:CHECK_WEB_ACCESS_TOKEN}',
      headers: { Authorization: '${secret:CHECK_WEB_HEADERS_AUTHORIZATION}', 'X-Other': 'plain' },
      webhook: 'https://hooks.example.com/?token=${secret:CHECK_WEB_WEBHOOK_TOKEN}',
      lines: ['X-Api-Key: ${secret:CHECK_WEB_LINES_0_X_API_KEY}'],
      password: 'true',
      apiKey: '${secret:CHECK_WEB_APIKEY}'
    })
  })

  it('each lifted value says its variable, its check, where it stood and what it was', () => {
    expect(fleet.lifted).toEqual([
      { variable: 'CHECK_WEB_TOKEN', check: 'web', where: 'query parameter token', value: 'abcd1234' },
      { variable: 'CHECK_WEB_TOKEN_2', check: 'web', where: 'query parameter token', value: 'efgh5678' },
      { variable: 'CHECK_WEB_ACCESS_TOKEN', check: 'web', where: 'fragment parameter access_token', value: 'zzzz9999' },
      {
        variable: 'CHECK_WEB_HEADERS_AUTHORIZATION',
        check: 'web',
        where: 'field headers.Authorization',
        value: 'Bearer abc123xyz'
      },
      {
        variable: 'CHECK_WEB_WEBHOOK_TOKEN',
        check: 'web',
        where: 'query parameter token of field webhook',
        value: 'wxyz9876'
      },
      {
        variable: 'CHECK_WEB_LINES_0_X_API_KEY',
        check: 'web',
        where: 'header X-Api-Key of field lines[0]',
        value: 'kkkk1111'
      },
      { variable: 'CHECK_WEB_APIKEY', check: 'web', where: 'field apiKey', value: 'Sekret-1' }
    ])
  })

  it('a word or a short value in a parameter or field stays as written (`?token=true`, `sig=abc`, `password: true`)', () => {
    expect(fleet.entries[0].url).toBe('https://h.example.com/x?token=true&sig=abc')
    expect(fleet.lifted.some(l => l.check === 'Café api')).toBe(false)
  })

  it('variable names: letters and digits of the check and the part, accents dropped, upper case, trimmed of _', () => {
    const { lifted } = exportEntries([
      { id: 'c1', name: 'Café api', url: 'https://h.example.com/?token=abcd1234' },
      { id: 'c2', name: '--edge--', url: 'https://h.example.com/?token_=abcd1234' },
      { id: 'c3', name: 'ümlaut', url: 'https://h.example.com/', headers: { 'x-api-key': 'k3y-value-1' } }
    ])
    expect(lifted.map(l => l.variable)).toEqual([
      'CHECK_EDGE_TOKEN',
      'CHECK_CAFE_API_TOKEN',
      'CHECK_UMLAUT_HEADERS_X_API_KEY'
    ])
  })

  it('a variable name taken by an earlier check is numbered on: _2, _3 (one set for the whole file)', () => {
    const { lifted, entries } = exportEntries([
      { id: 'c1', name: 'a b', url: 'https://h.example.com/?token=abcd1234' },
      { id: 'c2', name: 'a-b', url: 'https://h.example.com/?token=efgh5678' },
      { id: 'c3', name: 'a_b', url: 'https://h.example.com/?token=ijkl9012' }
    ])
    expect(lifted.map(l => [l.check, l.variable])).toEqual([
      ['a b', 'CHECK_A_B_TOKEN'],
      ['a-b', 'CHECK_A_B_TOKEN_2'],
      ['a_b', 'CHECK_A_B_TOKEN_3']
    ])
    expect(entries.map(e => e.url)).toEqual([
      'https://h.example.com/?token=${secret:CHECK_A_B_TOKEN}',
      'https://h.example.com/?token=${secret:CHECK_A_B_TOKEN_2}',
      'https://h.example.com/?token=${secret:CHECK_A_B_TOKEN_3}'
    ])
  })

  it('an entry that holds the private-use character export marks with keeps it, and its secrets are still lifted', () => {
    const { entries, lifted } = exportEntries([
      { id: 'c1', name: 'pua', url: 'https://h.example.com/?token=abcd1234', notes: 'a\ue000b\ue001c' }
    ])
    expect(entries[0]).toEqual({
      name: 'pua',
      url: 'https://h.example.com/?token=${secret:CHECK_PUA_TOKEN}',
      notes: 'a\ue000b\ue001c'
    })
    expect(lifted.map(l => l.value)).toEqual(['abcd1234'])
  })

  it("the file read back with the variables set gives the service's values: a sync plans nothing", () => {
    const server = [
      {
        id: 'c2',
        name: 'web',
        url: 'https://u:p@h.example.com/?q=${x}&token=abcd1234#access_token=zzzz9999',
        headers: { Authorization: 'Bearer abc123xyz' },
        interval: 30
      },
      { id: 'c1', name: 'paused', url: 'https://p.example.com/', status: 'paused' }
    ]
    const { entries, lifted } = exportEntries(server)
    const env = Object.fromEntries(lifted.map(l => [l.variable, l.value]))
    for (const file of ['f.yml', 'f.json']) {
      const text = checksFileText(file, entries, { baseUrl: 'https://api.example.com', variables: Object.keys(env) })
      const wanted = parseChecksFile(text, file, { env })
      expect(computePlan(wanted, server, { prune: true }).map(e => e.action)).toEqual(['unchanged', 'unchanged'])
    }
  })
})

describe('warnings: a path segment that looks like a token is written as it is, and said', () => {
  const token = 'aZ3kP9qR7sT1uV5wX8yB2cD4'

  it('in the URL and in another field that holds a URL, naming the check, its id and the field', () => {
    const { warnings, entries } = exportEntries([
      { id: 'chk_1', name: 'slack', url: `https://hooks.example.com/services/T0123/${token}` },
      { id: 'chk_2', name: 'hook', url: 'https://h.example.com/', webhook: `HTTP://hooks.example.com/${token}/x` }
    ])
    expect(entries[1].url).toBe(`https://hooks.example.com/services/T0123/${token}`)
    expect(warnings).toEqual([
      `export-checks: check "hook" (chk_2): a path segment of its field webhook looks like a token (long and random-looking); it is written as it is. If it is a secret, put \${secret:NAME} in its place in the file and set NAME from your secrets.`,
      `export-checks: check "slack" (chk_1): a path segment of its URL looks like a token (long and random-looking); it is written as it is. If it is a secret, put \${secret:NAME} in its place in the file and set NAME from your secrets.`
    ])
  })

  it('a percent-encoded segment is judged decoded; one that does not decode, as written', () => {
    const encoded = [...token].map(c => `%${c.charCodeAt(0).toString(16)}`).join('')
    expect(exportEntries([{ id: 'c', name: 'e', url: `https://h.example.com/${encoded}` }]).warnings).toHaveLength(1)
    const broken = `https://h.example.com/${token}%E0%A4%A`
    expect(exportEntries([{ id: 'c', name: 'e', url: broken }]).warnings).toEqual([])
  })

  it('no warning for a slug, a short id, text that is no URL, or a token after a lifted userinfo in the query', () => {
    const { warnings } = exportEntries([
      { id: 'c1', name: 'slug', url: 'https://h.example.com/releases/2026-01-15-version-twelve' },
      { id: 'c2', name: 'note', url: 'https://h.example.com/', notes: `see /${token}` },
      { id: 'c3', name: 'query', url: `https://user:pw12@h.example.com/?ref=${token}` }
    ])
    expect(warnings).toEqual([])
  })
})

describe('tokenLike: long, URL-safe, letters and digits, few separators, random-looking', () => {
  it.each([
    ['aZ3kP9qR7sT1uV5wX8yB', true], // 20 characters
    ['aZ3kP9qR7sT1uV5wX8y', false], // 19
    ['aZ3kP9qR7sT1uV5wX8yB2cD4', true],
    ['aZ3kP9qR7sT1uV5wX8y!', false], // not URL-safe
    ['abcdefghijklmnopqrs1', false], // 1 digit
    ['abcdefghijklmnopqr12', true], // 2 digits, 2 letters enough
    ['a1234567890123456789', false], // 1 letter
    ['ab123456789012345678', true],
    ['aZ3k-P9qR7sT1uV5wX8y_', true], // 2 separators
    ['aZ3k-P9qR7sT.1uV5wX8y_', false], // 3
    ['ab12ab12ab12ab12ab12', false], // 2 bits a character: not random
    ['abcd1234abcd1234abcd', false], // 3 bits
    ['abcdefgh1234abcdefgh', true], // 3.58 bits
    ['aaaabbbbccccdddd1122334455667788', true] // exactly 3.5 bits
  ])('%s: %s', (segment, expected) => {
    expect(tokenLike(segment)).toBe(expected)
  })
})

describe('heldSecret: the first field of the entries that still holds a known secret', () => {
  const redact = (text: string) => text.replaceAll('KEY123', '***')

  it('names the entry and the field path, the first only', () => {
    const entries = [
      { name: 'a', url: 'https://a.example.com/' },
      { name: 'b', url: 'https://b.example.com/?note=KEY123', notes: ['x', 'KEY123'] }
    ]
    expect(heldSecret(entries, redact)).toEqual({ index: 1, field: 'url' })
    expect(heldSecret([{ name: 'c', notes: ['x', 'KEY123'] }], redact)).toEqual({ index: 0, field: 'notes[1]' })
  })

  it('a secret in a field name is named as such; none held is undefined', () => {
    expect(heldSecret([{ name: 'c', headers: { KEY123: 'x' } }], redact)).toEqual({ index: 0, field: '(a field name)' })
    expect(heldSecret([{ name: 'c', url: 'https://c.example.com/' }], redact)).toBeUndefined()
    expect(heldSecret([], redact)).toBeUndefined()
  })
})

describe('checksFileText: the exact file', () => {
  const entries = [
    { name: 'web', url: 'https://w.example.com/?token=${secret:CHECK_WEB_TOKEN}', interval: 30, enabled: true },
    { name: 'yes', url: 'https://y.example.com/', owner: 'null', tags: ['0x10', '1e3', '~', ' padded '] },
    { name: 'long', url: `https://l.example.com/${'segment/'.repeat(12)}end`, notes: 'a b '.repeat(30) }
  ]

  it('YAML: a header saying where it came from and how to use it, every string double-quoted', () => {
    const text = checksFileText('checks/f.yml', entries, {
      baseUrl: 'https://api.example.com/v1',
      namePrefix: 'we',
      variables: ['CHECK_WEB_TOKEN', 'CHECK_X']
    })
    expect(text).toBe(
      [
        '# Checks of https://api.example.com/v1 whose names start with "we", written by export-checks.',
        '# Keep them as code with sync-checks (checks-file: checks/f.yml, prune-prefix: "we").',
        '# Set these variables for sync-checks, from your secrets: CHECK_WEB_TOKEN, CHECK_X.',
        '',
        '- name: "web"',
        '  url: "https://w.example.com/?token=${secret:CHECK_WEB_TOKEN}"',
        '  interval: 30',
        '  enabled: true',
        '- name: "yes"',
        '  url: "https://y.example.com/"',
        '  owner: "null"',
        '  tags:',
        '    - "0x10"',
        '    - "1e3"',
        '    - "~"',
        '    - " padded "',
        '- name: "long"',
        `  url: "https://l.example.com/${'segment/'.repeat(12)}end"`,
        `  notes: "${'a b '.repeat(30)}"`,
        ''
      ].join('\n')
    )
    const env = { CHECK_WEB_TOKEN: 'abcd1234' }
    const back = entries.map((e, i) => (i === 0 ? { ...e, url: 'https://w.example.com/?token=abcd1234' } : e))
    expect(parseChecksFile(text, 'f.yml', { env })).toEqual(back)
  })

  it('without a prefix or variables the header says so; a line break in the base URL stays on its line', () => {
    const text = checksFileText('f.yaml', [], { baseUrl: 'https://api.example.com/\nx\r\u2028y\u2029z', variables: [] })
    expect(text).toBe(
      [
        '# Checks of https://api.example.com/ x  y z, written by export-checks.',
        '# Keep them as code with sync-checks (checks-file: f.yaml).',
        '',
        '[]',
        ''
      ].join('\n')
    )
  })

  it('JSON (a list, two-space indent, a final newline) when the path ends in .json, in any case', () => {
    const about = { baseUrl: 'https://api.example.com', namePrefix: 'x', variables: ['V'] }
    const json = `${JSON.stringify(entries, null, 2)}\n`
    expect(checksFileText('f.json', entries, about)).toBe(json)
    expect(checksFileText('F.JSON', entries, about)).toBe(json)
    expect(checksFileText('f.json.yml', entries, about)).toMatch(/^# Checks of/)
  })
})
