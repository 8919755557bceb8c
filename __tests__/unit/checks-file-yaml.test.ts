/**
 * Checks files as people write them: anchors and merge keys (`<<: *defaults`)
 * merged as YAML 1.1 tools do, a `defaults:` holder beside `checks`, a
 * byte-order mark, and the refusals (a top-level key other than those,
 * aliases past the limit, a number JSON cannot carry, a key that is never a
 * field), each naming the file and the line.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { ChecksFileError, parseChecksFile } from '../../src/operations/sync/checks-file.js'
import { MAX_ALIASED, parseMapping } from '../../src/values/parse-yaml.js'
import type { Mapping } from '../../src/values/values.js'

// The YAML parser is loaded before parsing, as main does (src/lazy/modules.cjs).
beforeAll(() => load('yaml'))

/** The entries of a file, and the notices it gave. */
function read(text: string, env: NodeJS.ProcessEnv = {}): { list: Mapping[]; notices: string[] } {
  const notices: string[] = []
  const list = parseChecksFile(text, 'monitoring/checks.yml', { env, notice: m => void notices.push(m) })
  return { list, notices }
}

/** The error parseChecksFile throws, with its place. */
function failure(text: string, env: NodeJS.ProcessEnv = {}): ChecksFileError {
  try {
    parseChecksFile(text, 'monitoring/checks.yml', { env })
  } catch (error) {
    if (error instanceof ChecksFileError) return error
    throw error
  }
  throw new Error('no error')
}

const DEFAULTS = 'defaults: &defaults {interval: 30, alertChannels: [email, pagerduty]}\n'

describe('merge keys in a checks file', () => {
  it('merge the anchor into each entry; the defaults holder is ignored with a notice naming the file and line', () => {
    const { list, notices } = read(
      `${DEFAULTS}checks:\n` +
        '  - <<: *defaults\n    name: shop\n    url: https://shop.example.com/\n' +
        '  - <<: *defaults\n    name: api\n    url: https://api.example.com/\n'
    )
    expect(list).toEqual([
      { interval: 30, alertChannels: ['email', 'pagerduty'], name: 'shop', url: 'https://shop.example.com/' },
      { interval: 30, alertChannels: ['email', 'pagerduty'], name: 'api', url: 'https://api.example.com/' }
    ])
    for (const entry of list) expect(Object.keys(entry)).not.toContain('<<')
    expect(notices).toEqual([
      'checks-file monitoring/checks.yml: line 1: the top-level key "defaults" holds anchors the entries use (&defaults); it is not a check, and is otherwise ignored'
    ])
  })

  it("the entry's own keys win, before or after the merge key", () => {
    const { list } = read(
      `${DEFAULTS}checks:\n` +
        '  - interval: 10\n    <<: *defaults\n    name: before\n    url: https://a/\n' +
        '  - <<: *defaults\n    name: after\n    url: https://b/\n    alertChannels: [slack]\n'
    )
    expect(list[0]).toMatchObject({ interval: 10, alertChannels: ['email', 'pagerduty'] })
    expect(list[1]).toMatchObject({ interval: 30, alertChannels: ['slack'] })
  })

  it('a list of anchors merges the earlier one first: its keys win over the later ones', () => {
    const { list, notices } = read(
      'x-fast: &fast {interval: 10, type: http}\n' +
        'x-paged: &paged {interval: 60, alertChannels: [pagerduty]}\n' +
        'checks:\n  - <<: [*fast, *paged]\n    name: a\n    url: https://a/\n'
    )
    expect(list).toEqual([{ interval: 10, type: 'http', alertChannels: ['pagerduty'], name: 'a', url: 'https://a/' }])
    expect(notices.map(n => n.replace(/^checks-file monitoring\/checks\.yml: /, '').split(':')[0])).toEqual([
      'line 1',
      'line 2'
    ])
  })

  it('a holder used through another anchor is a holder too; an anchor inside the list needs no holder', () => {
    const { list, notices } = read(
      'x-base: &base {interval: 30}\n' +
        'x-paged: &paged {<<: *base, alertChannels: [pagerduty]}\n' +
        'checks:\n  - &first {<<: *paged, name: a, url: https://a/}\n  - <<: *first\n    name: b\n'
    )
    expect(list).toEqual([
      { interval: 30, alertChannels: ['pagerduty'], name: 'a', url: 'https://a/' },
      { interval: 30, alertChannels: ['pagerduty'], name: 'b', url: 'https://a/' }
    ])
    expect(notices).toHaveLength(2)
  })

  it('a spec input (check, incident, status-page) merges them too', () => {
    expect(parseMapping('base: &b {interval: 30}\n<<: *b\nname: a\n')).toEqual({
      base: { interval: 30 },
      interval: 30,
      name: 'a'
    })
  })
})

describe('an error in a field an entry takes from an anchor', () => {
  /** The error's message (the file's name cut off) and the line it is annotated at. */
  function said(text: string): [string, number | undefined] {
    const error = failure(text)
    return [error.message.replace(/^checks-file monitoring\/checks\.yml: /, ''), error.place?.line]
  }
  const bad = 'defaults: &defaults\n  interval: abc\n  alertChannels: [email]\nchecks:\n'

  it("names the entry's line and the anchor's field's line, and is annotated at the anchor's field", () => {
    const text = `${bad}  - name: fine\n    url: https://a/\n    interval: 30\n  - <<: *defaults\n    name: shop\n    url: https://shop/\n`
    expect(said(text)).toEqual([
      'entry 2 (line 8) ("shop"): interval must be a whole number above 0 (from &defaults at line 2)',
      2
    ])
  })

  it('names the anchor that holds the field, through anchors that merge others, and the earlier of a list', () => {
    const nested =
      'x-base: &base\n  interval: abc\nx-paged: &paged\n  <<: *base\n  alertChannels: [pagerduty]\n' +
      'checks:\n  - <<: [*paged]\n    name: shop\n    url: https://shop/\n'
    expect(said(nested)).toEqual([
      'entry 1 (line 7) ("shop"): interval must be a whole number above 0 (from &base at line 2)',
      2
    ])
    const listed =
      'x-fast: &fast {interval: -1}\nx-slow: &slow {interval: 300}\n' +
      'checks:\n  - name: shop\n    url: https://shop/\n    <<: [*fast, *slow]\n'
    expect(said(listed)).toEqual([
      'entry 1 (line 4) ("shop"): interval must be a whole number above 0 (from &fast at line 1)',
      1
    ])
    const inline = 'checks:\n  - name: shop\n    url: https://shop/\n    <<: {interval: abc}\n'
    expect(said(inline)).toEqual([
      'entry 1 (line 2) ("shop"): interval must be a whole number above 0 (merged at line 4)',
      4
    ])
  })

  it('an entry written as an alias of a whole anchor names the alias and the field in the anchor', () => {
    const text = 'x-shop: &shop\n  name: shop\n  url: https://shop/\n  interval: abc\nchecks:\n  - *shop\n'
    expect(said(text)).toEqual([
      'entry 1 (line 6) ("shop"): interval must be a whole number above 0 (from &shop at line 4)',
      4
    ])
  })

  it("the entry's own field is named at its own line, never the anchor's", () => {
    const text = `${bad}  - <<: *defaults\n    name: shop\n    url: https://shop/\n    interval: 0\n`
    expect(said(text)).toEqual(['entry 1 (line 5) ("shop"): interval must be a whole number above 0', 8])
  })

  it("a required field written otherwise in the anchor, and a slip of a field's name there, are named at the anchor's line", () => {
    const missing =
      'defaults: &defaults\n  interval: 30\n  URL: https://shop/\nchecks:\n  - <<: *defaults\n    name: shop\n'
    expect(said(missing)).toEqual([
      'entry 1 (line 5) ("shop") needs a url: it has "URL" (did you mean "url"?) (from &defaults at line 3)',
      3
    ])
    const warnings: Array<[string, number | undefined]> = []
    parseChecksFile(
      'defaults: &defaults\n  intervl: 30\nchecks:\n  - <<: *defaults\n    name: shop\n    url: https://shop/\n',
      'monitoring/checks.yml',
      {
        warn: (message, place) => void warnings.push([message, place.line])
      }
    )
    expect(warnings).toEqual([
      [
        'checks-file monitoring/checks.yml: entry 1 (line 4) ("shop") has the field "intervl" (from &defaults at line 2): did you mean "interval"? It is sent as written (fields the action does not know pass through).',
        2
      ]
    ])
  })
})

describe('top-level keys of a checks file', () => {
  it('a slip of "checks" is an error naming it and its line, suggesting "checks"', () => {
    const error = failure('chekcs:\n  - name: a\n    url: https://a/\n')
    expect(error.message).toBe(
      'checks-file monitoring/checks.yml: line 1: the top-level key "chekcs" is not one a checks file has (did you mean "checks"?): beside "checks", the top level holds only anchors the entries use (defaults: &defaults {...}, merged into an entry with <<: *defaults)'
    )
    expect(error.place).toEqual({ file: 'monitoring/checks.yml', line: 1 })
  })

  it('any other key that holds no anchor the entries use is an error naming it and its line', () => {
    expect(failure('checks:\n  - name: a\n    url: https://a/\nfoo: 1\n').message).toMatch(
      /^checks-file monitoring\/checks\.yml: line 4: the top-level key "foo" is not one a checks file has: beside "checks"/
    )
    // An anchor no entry uses does not make a holder.
    expect(failure(`${DEFAULTS}checks:\n  - name: a\n    url: https://a/\n`).message).toMatch(
      /^checks-file monitoring\/checks\.yml: line 1: the top-level key "defaults" is not one a checks file has/
    )
    // Without `checks`, the key is taken for it.
    expect(failure('foo: 1\n').message).toMatch(
      /the top-level key "foo" is not one a checks file has \(did you mean "checks"\?\)/
    )
    // The slip is named before another stray.
    expect(failure('foo: 1\nChecks: []\n').message).toMatch(/line 2: the top-level key "Checks"/)
  })
})

describe('a byte-order mark', () => {
  const entries = '- name: a\n  url: https://a/\n  interval: 30\n'
  it.each([
    ['a YAML list', entries],
    ['a checks mapping', `checks:\n${entries.replace(/^/gm, '  ')}`],
    ['JSON', '[{"name": "a", "url": "https://a/", "interval": 30}]']
  ])('is ignored before %s', (_, text) => {
    expect(read(`\uFEFF${text}`).list).toEqual([{ name: 'a', url: 'https://a/', interval: 30 }])
  })

  it('is ignored before a spec input', () => {
    expect(parseMapping('\uFEFFname: a\ninterval: 30\n')).toEqual({ name: 'a', interval: 30 })
  })

  it('is ignored before a long file, read in parts as without it; lines are as without it', () => {
    const long = Array.from({ length: 450 }, (_, i) => `- name: app-${i}\n  url: https://a/${i}\n`).join('')
    expect(read(`\uFEFF${long}`).list).toEqual(read(long).list)
    expect(failure(`\uFEFF${long}- name: bad\n  url: https://a/\n  interval: -1\n`).place?.line).toBe(903)
  })
})

describe('aliases', () => {
  it('a fleet of 5,000 entries each merging one anchor is accepted', () => {
    const text =
      'defaults: &defaults\n  interval: 30\n  alertChannels: [email, pagerduty]\nchecks:\n' +
      Array.from(
        { length: 5000 },
        (_, i) => `  - <<: *defaults\n    name: app-${i}\n    url: https://app.example.com/${i}\n`
      ).join('')
    const { list } = read(text)
    expect(list).toHaveLength(5000)
    expect(list[4999]).toEqual({
      interval: 30,
      alertChannels: ['email', 'pagerduty'],
      name: 'app-4999',
      url: 'https://app.example.com/4999'
    })
  })

  it('an expansion attack (anchors within anchors) is refused at once, naming the file and the line', () => {
    const levels = ['x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]']
    for (const [i, name] of [...'bcdefghij'].entries()) {
      levels.push(`x-${name}: &${name} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(', ')}]`)
    }
    const text = `${levels.join('\n')}\nchecks:\n  - name: a\n    url: https://a/\n    lol: *j\n`
    const started = Date.now()
    const error = failure(text)
    expect(Date.now() - started).toBeLessThan(2000)
    // 9^7 values stand behind x-g (line 7): the first past the limit.
    expect(error.message).toBe(
      `checks-file monitoring/checks.yml: line 7: the aliases up to this *f stand for more than ${MAX_ALIASED} keys and values (anchors within anchors multiply, as in an expansion attack)`
    )
    expect(error.place).toEqual({ file: 'monitoring/checks.yml', line: 7 })
  })

  it('an alias with no anchor before it, or inside its own anchor, is refused at its line', () => {
    expect(failure('- name: a\n  url: https://a/\n  <<: *nowhere\n').message).toBe(
      'checks-file monitoring/checks.yml: line 3: the alias *nowhere names no anchor (&nowhere) before it'
    )
    expect(failure('- name: a\n  url: https://a/\n  loop: &loop [*loop]\n').message).toBe(
      'checks-file monitoring/checks.yml: line 3: the alias *loop stands inside its own anchor'
    )
  })
})

describe('a merge key that merges no mapping', () => {
  it.each([
    ['an anchor of a number', 'd: &d 3\nchecks:\n  - name: a\n    url: https://a.example.com/\n    <<: *d\n', 5],
    ['nothing', 'checks:\n  - name: a\n    url: https://a.example.com/\n    <<:\n', 4],
    [
      'a list holding a number',
      `${DEFAULTS}checks:\n  - name: a\n    url: https://a.example.com/\n    <<: [*defaults, 3]\n`,
      5
    ]
  ])('%s: refused at its line, naming the file, never a bare parser error', (_, text, line) => {
    const error = failure(text)
    expect(error.message).toContain('monitoring/checks.yml')
    expect(error.message).toContain(`line ${line}`)
    expect(error.message).toContain('a merge key (<<) merges a mapping')
  })

  it('in a spec input too', () => {
    expect(() => parseMapping('d: &d 3\nx:\n  <<: *d\n')).toThrow(/line 3.*a merge key \(<<\) merges a mapping/)
  })
})

describe('a value that cannot be a number', () => {
  it.each([
    ['.inf', 'timeout: .inf'],
    ['-.inf', 'timeout: -.inf'],
    ['.nan', 'timeout: .nan'],
    ['.NaN', 'timeout: .NaN'],
    ['1e999', 'timeout: 1e999']
  ])('%s is refused naming the file, the line and the field', (_, field) => {
    const error = failure(`- name: a\n  url: https://a/\n- name: b\n  url: https://b/\n  ${field}\n`)
    expect(error.message).toBe(
      `checks-file monitoring/checks.yml: line 5: ${field} cannot be sent: JSON has no infinite number or NaN (write a finite number, or quote it for text)`
    )
    expect(error.place).toEqual({ file: 'monitoring/checks.yml', line: 5 })
  })

  it('in JSON, nested, in a holder, or from a variable, it is refused at its line', () => {
    expect(failure('[{"name": "a",\n  "url": "https://a/",\n  "timeout": 1e999}]').message).toMatch(
      /: line 3: timeout: 1e999 cannot be sent/
    )
    expect(failure('- name: a\n  url: https://a/\n  thresholds:\n    p95: [1, -.inf]\n').message).toMatch(
      /: line 4: p95: -.inf cannot be sent/
    )
    expect(
      failure('x-slow: &slow {timeout: .inf}\nchecks:\n  - {<<: *slow, name: a, url: https://a/}\n').message
    ).toMatch(/: line 1: timeout: .inf cannot be sent/)
    expect(failure('- name: a\n  url: https://a/\n  timeout: ${BIG}\n', { BIG: '1e999' }).message).toMatch(
      /: line 3: timeout: \$\{BIG\} cannot be sent/
    )
  })

  it('in a spec input, it is refused at its line', () => {
    expect(() => parseMapping('name: a\ntimeout: .inf\n')).toThrow(
      /^is refused \(line 2\): timeout: \.inf cannot be sent: JSON has no infinite number or NaN/
    )
  })

  it('quoted, it is text, sent as written', () => {
    expect(read('- name: a\n  url: https://a/\n  note: ".inf"\n').list[0].note).toBe('.inf')
  })
})

describe('keys that are never fields', () => {
  it('a quoted "<<" is an ordinary key, refused at its line (YAML and JSON)', () => {
    const quoted = failure(`${DEFAULTS}checks:\n  - name: a\n    url: https://a/\n    "<<": *defaults\n`)
    expect(quoted.message).toBe(
      'checks-file monitoring/checks.yml: line 5: the key "<<" is quoted, so it is not a merge key, and no field is called "<<"; write <<: *anchor unquoted to merge'
    )
    expect(quoted.place).toEqual({ file: 'monitoring/checks.yml', line: 5 })
    const json = failure('[\n  {"name": "a", "url": "https://a/",\n   "<<": {"interval": 30}}\n]\n')
    expect(json.message).toMatch(/^checks-file monitoring\/checks\.yml: line 3: the key "<<" is quoted/)
  })

  it('a __proto__ key is refused at its line, in JSON and in YAML, at any depth; nothing inherits from it', () => {
    const json = failure('[{"name": "a", "url": "https://a/",\n  "__proto__": {"polluted": true}}]')
    expect(json.message).toBe(
      'checks-file monitoring/checks.yml: line 2: the key "__proto__" is refused: it names what JavaScript objects inherit from, and is never a field'
    )
    expect(json.place).toEqual({ file: 'monitoring/checks.yml', line: 2 })
    expect(failure('- name: a\n  url: https://a/\n  __proto__:\n    polluted: true\n').message).toMatch(
      /: line 3: the key "__proto__" is refused/
    )
    expect(failure('- name: a\n  url: https://a/\n  headers: {"__proto__": {polluted: true}}\n').message).toMatch(
      /: line 3: the key "__proto__" is refused/
    )
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    ['name: a\n"__proto__": {x: 1}', /^is refused \(line 2\): the key "__proto__" is refused/],
    ['name: a\n"<<": {x: 1}', /^is refused \(line 2\): the key "<<" is quoted/]
  ])('in a spec input, %j is refused at its line', (text, message) => expect(() => parseMapping(text)).toThrow(message))
})
