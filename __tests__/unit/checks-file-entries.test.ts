/**
 * What a checks file's reader accepts and refuses, said as a user sees it:
 * each error names the file, the entry (its number and line), the field and
 * its line; warnings and secrets are told once, however the file was read;
 * the top level holds `checks` and the anchors its entries use, nothing else.
 * checkEntries (checks-file-entries.ts) is also judged on its own, as every
 * reader of the file (the YAML document, lines, JSON) calls it.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import {
  ChecksFileError,
  ChecksFileOptions,
  parseChecksFile,
  parseChecksFileLoading
} from '../../src/operations/sync/checks-file.js'
import { NO_LINES, checkEntries } from '../../src/operations/sync/checks-file-entries.js'
import type { FilePlace } from '../../src/operations/types.js'
import type { Mapping } from '../../src/values/values.js'

beforeAll(() => load('yaml'))

/** Everything a parse tells: the entries or the error (message and place), the warnings, notices and secrets. */
function told(text: string, options: ChecksFileOptions = {}) {
  const warnings: Array<[string, FilePlace]> = []
  const notices: string[] = []
  const secrets: string[] = []
  let list: Mapping[] | undefined
  let error: ChecksFileError | undefined
  try {
    list = parseChecksFile(text, 'checks.yml', {
      ...options,
      warn: (message, place) => warnings.push([message, place]),
      notice: message => notices.push(message),
      secret: value => secrets.push(value)
    })
  } catch (caught) {
    if (!(caught instanceof ChecksFileError)) throw caught
    error = caught
  }
  return { list, error, warnings, notices, secrets }
}

/** The error of a file: its message without the file's name, and its line. */
function refused(text: string, options: ChecksFileOptions = {}): [string, number | undefined] {
  const { error } = told(text, options)
  if (!error) throw new Error(`no error for ${JSON.stringify(text)}`)
  expect(error.message.startsWith('checks-file checks.yml: ')).toBe(true)
  return [error.message.slice('checks-file checks.yml: '.length), error.place?.line]
}

const NOT_A_LIST = 'must hold a list of checks, or a mapping with a "checks" list'

describe('the shape of a checks file', () => {
  it('an empty file, or one of comments only, holds no list: refused, at no line', () => {
    for (const text of ['', '\n\n', '# nothing yet\n', '\ufeff']) {
      const { error } = told(text)
      expect(error?.message).toBe(`checks-file checks.yml: ${NOT_A_LIST}`)
      expect(error?.place).toEqual({ file: 'checks.yml', line: undefined })
    }
  })

  it('an empty list, bare or under checks, holds no entries', () => {
    expect(told('[]\n').list).toEqual([])
    expect(told('checks: []\n').list).toEqual([])
    expect(told('{"checks": []}').list).toEqual([])
  })

  it('a scalar, an empty checks key, or a checks key that is no list, is refused at its line', () => {
    expect(refused('# checks\nhello\n')).toEqual([NOT_A_LIST, 2])
    expect(refused('\nchecks:\n')).toEqual([NOT_A_LIST, 2])
    expect(refused('checks: 3\n')).toEqual([NOT_A_LIST, 1])
    expect(refused('checks: {name: a}\n')).toEqual([NOT_A_LIST, 1])
    expect(refused('"just text"')).toEqual([NOT_A_LIST, 1])
  })

  it('YAML that does not parse is named with its line, annotated there under the name given for annotations', () => {
    const { error } = told('- name: a\n  url: https://a/\n  a: [unclosed\n', { annotateAs: 'ops/checks.yml' })
    expect(error?.message).toMatch(/^checks-file checks\.yml: not valid YAML or JSON \(line 4\): \S/)
    expect(error?.place).toEqual({ file: 'ops/checks.yml', line: 4 })
  })
})

describe('each entry', () => {
  it('must be a mapping: a text, a list, or nothing after the dash is refused at its entry', () => {
    expect(refused('- name: a\n  url: https://a/\n- just text\n')).toEqual([
      'entry 2 (line 3) must be a mapping of check fields',
      3
    ])
    expect(refused('- [a, b]\n')).toEqual(['entry 1 (line 1) must be a mapping of check fields', 1])
    expect(refused('checks:\n  -\n')).toEqual(['entry 1 (line 2) must be a mapping of check fields', 2])
  })

  it("a bad field is named with its entry, the entry's name, and annotated at the field's own line", () => {
    expect(refused('- name: a\n  url: https://a/\n  type: ""\n')).toEqual([
      'entry 1 (line 1) ("a"): type must be a non-empty string',
      3
    ])
    expect(refused('- name: a\n  url: https://a/\n  status: 3\n')).toEqual([
      'entry 1 (line 1) ("a"): status must be a non-empty string',
      3
    ])
    // A list's bad item is the list's field, at the list's key.
    const [message, line] = refused('- name: a\n  url: https://a/\n  alertChannels:\n    - email\n    - 3\n')
    expect(message).toMatch(/^entry 1 \(line 1\) \("a"\): alertChannels\.1 /)
    expect(line).toBe(3)
  })

  it('a name that is blank or not text is not quoted back: the entry is named by its number', () => {
    expect(refused('- name: "  "\n  url: https://a/\n')).toEqual([
      'entry 1 (line 1): name must be a non-empty string',
      1
    ])
    expect(refused('- name: 7\n  url: https://a/\n')).toEqual(['entry 1 (line 1): name must be a non-empty string', 1])
    expect(refused('- name: " a "\n  url: ftp://a/\n')[0]).toBe(
      'entry 1 (line 1) (" a "): url must be an http or https URL'
    )
  })

  it('a missing field with no slip of it written is named at the entry, suggesting nothing', () => {
    expect(refused('- name: a\n  url: https://a/\n- name: b\n  foo: x\n  nam: y\n')).toEqual([
      'entry 2 (line 3) ("b") needs a url',
      3
    ])
    expect(refused('- url: https://a/\n  foo: x\n')).toEqual(['entry 1 (line 1) needs a name', 1])
  })

  it("a missing field written otherwise is named at the slip's line", () => {
    expect(refused('- name: a\n  type: http\n  interval: 30\n  uri: https://a/\n')).toEqual([
      'entry 1 (line 1) ("a") needs a url: it has "uri" (did you mean "url"?)',
      4
    ])
  })
})

describe('names', () => {
  it('a name used twice is refused at the second entry, naming the first; the first is not blamed', () => {
    expect(
      refused('- name: a\n  url: https://a/\n- name: b\n  url: https://b/\n- name: a\n  url: https://c/\n')
    ).toEqual(['entry 3 (line 5): the name "a" is also used by entry 1', 5])
  })

  it('names differ by case: both are checks of their own', () => {
    expect(told('- name: a\n  url: https://a/\n- name: A\n  url: https://a/\n').list).toHaveLength(2)
  })

  it('in JSON too, at the line the whole file says', () => {
    const text = '[\n  {"name": "a", "url": "https://a/"},\n  {"name": "a", "url": "https://b/"}\n]\n'
    expect(refused(text)).toEqual(['entry 2 (line 3): the name "a" is also used by entry 1', 3])
  })
})

describe('warnings', () => {
  it('each slip of a field name is warned about once, in the order written, at its line, under the annotated name', () => {
    const { list, warnings } = told('- name: a\n  url: https://a/\n  Name: b\n  intervl: 5\n', {
      annotateAs: 'ops/checks.yml'
    })
    expect(list).toEqual([{ name: 'a', url: 'https://a/', Name: 'b', intervl: 5 }])
    expect(warnings).toEqual([
      [
        'checks-file checks.yml: entry 1 (line 1) ("a") has both "name" and "Name": "Name" is sent as written, as a field of its own (fields the action does not know pass through).',
        { file: 'ops/checks.yml', line: 3 }
      ],
      [
        'checks-file checks.yml: entry 1 (line 1) ("a") has the field "intervl": did you mean "interval"? It is sent as written (fields the action does not know pass through).',
        { file: 'ops/checks.yml', line: 4 }
      ]
    ])
  })

  it('a slip of each known field is told, naming that field; the known fields themselves never are', () => {
    const { warnings } = told(
      '- name: a\n  url: https://a/\n  type: http\n  interval: 5\n  alertChannels: []\n  status: up\n' +
        '  nmae: x\n  ulr: x\n  tpye: x\n  intreval: 5\n  alertChanels: []\n  stauts: x\n'
    )
    expect(
      warnings.map(([message, place]) => [message.match(/has both "(\w+)" and "(\w+)"/)?.slice(1), place.line])
    ).toEqual([
      [['name', 'nmae'], 7],
      [['url', 'ulr'], 8],
      [['type', 'tpye'], 9],
      [['interval', 'intreval'], 10],
      [['alertChannels', 'alertChanels'], 11],
      [['status', 'stauts'], 12]
    ])
  })

  it("a JSON file with a slip is told at the slip's line, as for YAML", () => {
    const { list, warnings } = told('[{"name": "a", "url": "https://a/",\n  "intervall": 3}]')
    expect(list).toEqual([{ name: 'a', url: 'https://a/', intervall: 3 }])
    expect(warnings.map(([, place]) => place.line)).toEqual([2])
  })

  it('are told once, even when the file is read again whole after a problem further down', () => {
    const entries = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => `- name: e-${from + i}\n  url: https://e/${from + i}\n`).join('')
    // The slip is in the first part (50 entries), the repeated name in the tenth.
    const text = `- name: slip\n  url: https://s/\n  intervl: 5\n${entries(450)}- name: e-3\n  url: https://x/\n`
    const { error, warnings } = told(text)
    expect(error?.message).toBe('checks-file checks.yml: entry 452 (line 904): the name "e-3" is also used by entry 5')
    expect(warnings.map(([, place]) => place.line)).toEqual([3])
  })

  it('are told once when a later part needs the YAML parser (a flow entry after the first 50)', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => `- name: e-${i}\n  url: https://e/${i}\n`).join('')
    const text = `- name: slip\n  url: https://s/\n  intervl: 5\n${entries}- {name: flow, url: "https://f/"}\n`
    const warned: Array<number | undefined> = []
    const specs = await parseChecksFileLoading(text, 'checks.yml', { warn: (_, place) => warned.push(place?.line) })
    expect(specs).toHaveLength(52)
    expect(warned).toEqual([3])
  })

  it('and secrets once, when the file is read again whole after a problem', () => {
    const { error, secrets } = told(
      '- name: a\n  url: https://a/?t=${API_TOKEN}\n- name: a\n  url: https://b/?t=${secret:OTHER}\n',
      { env: { API_TOKEN: 'tok-0001', OTHER: 'other-0002' } }
    )
    expect(error?.place?.line).toBe(3)
    expect(secrets).toEqual(['tok-0001', 'other-0002'])
  })

  it('secrets are told once when the file reads without a problem, in JSON and in YAML', () => {
    const env = { API_TOKEN: 'tok-0001', PLAIN: 'open' }
    const yamlText = '- name: ${PLAIN}\n  url: https://a/?t=${API_TOKEN}\n'
    const jsonText = '[{"name": "${PLAIN}", "url": "https://a/?t=${API_TOKEN}"}]'
    for (const text of [yamlText, jsonText]) {
      const { list, secrets } = told(text, { env })
      expect(list).toEqual([{ name: 'open', url: 'https://a/?t=tok-0001' }])
      expect(secrets).toEqual(['tok-0001'])
    }
  })
})

describe('the top level', () => {
  it('a holder of several anchors is named with each, in a notice at its line', () => {
    const { list, notices } = told(
      '# shared\nx-defs:\n  fast: &fast {interval: 30}\n  web: &web {type: http}\nchecks:\n  - <<: [*fast, *web]\n    name: a\n    url: https://a/\n'
    )
    expect(list).toEqual([{ interval: 30, type: 'http', name: 'a', url: 'https://a/' }])
    expect(notices).toEqual([
      'checks-file checks.yml: line 2: the top-level key "x-defs" holds anchors the entries use (&fast, &web); it is not a check, and is otherwise ignored'
    ])
  })

  it('a holder names only the anchors the entries use', () => {
    const { notices } = told(
      'x-defs:\n  fast: &fast {interval: 30}\n  spare: &spare {type: http}\nchecks:\n  - <<: *fast\n    name: a\n    url: https://a/\n'
    )
    expect(notices).toEqual([expect.stringContaining('holds anchors the entries use (&fast);')])
  })

  it('a key beside checks in a JSON file is refused at its line', () => {
    expect(refused('{"checks": [{"name": "a", "url": "https://a/"}],\n "x": 1}')).toEqual([
      'line 2: the top-level key "x" is not one a checks file has: beside "checks", the top level holds only anchors the entries use (defaults: &defaults {...}, merged into an entry with <<: *defaults)',
      2
    ])
  })

  it('a merge key at the top level is no holder: refused as "<<"', () => {
    expect(refused('<<: {a: 1}\nchecks: []\n')[0]).toMatch(
      /^line 1: the top-level key "<<" is not one a checks file has:/
    )
  })

  it('a key written "Checks" beside checks is a slip of it; a third key is not named first', () => {
    expect(refused('checks: []\nother: 1\nChecks: []\n')[0]).toMatch(
      /^line 3: the top-level key "Checks" is not one a checks file has \(did you mean "checks"\?\)/
    )
    expect(refused('checks: []\nother: 1\n')[0]).toMatch(
      /^line 2: the top-level key "other" is not one a checks file has: /
    )
  })
})

describe('parseChecksFileLoading', () => {
  it('reads a file with a byte-order mark as without it, JSON or YAML', async () => {
    for (const text of ['- name: a\n  url: https://a/\n', '[{"name": "a", "url": "https://a/"}]'])
      expect(await parseChecksFileLoading(`\ufeff${text}`, 'checks.yml')).toEqual([{ name: 'a', url: 'https://a/' }])
  })

  it('tells warnings and secrets once, as parseChecksFile does', async () => {
    const warned: number[] = []
    const secrets: string[] = []
    const options: ChecksFileOptions = {
      env: { API_TOKEN: 'tok-0001' },
      warn: (_message, place) => void warned.push(place.line ?? -1),
      secret: value => void secrets.push(value)
    }
    const fast = '- name: a\n  url: https://a/?t=${API_TOKEN}\n  intervl: 5\n'
    await parseChecksFileLoading(fast, 'checks.yml', options)
    // A block scalar is read by the YAML parser.
    await parseChecksFileLoading(`${fast}  description: |\n    text\n`, 'checks.yml', options)
    expect(warned).toEqual([3, 3])
    expect(secrets).toEqual(['tok-0001', 'tok-0001'])
  })
})

describe('checkEntries, as every reader calls it', () => {
  const at = (index: number, names: Array<[string, number]> = []) => ({ index, names: new Map(names) })
  function error(run: () => unknown): ChecksFileError {
    try {
      run()
    } catch (caught) {
      if (caught instanceof ChecksFileError) return caught
      throw caught
    }
    throw new Error('no error')
  }

  it('gives the entries themselves, and remembers their names, numbered after the parts before', () => {
    const list = [
      { name: 'a', url: 'https://a/' },
      { name: 'b', url: 'https://b/', owner: 'x' }
    ]
    const where = at(200)
    const read = checkEntries(list, NO_LINES, 'f.json', {}, where)
    expect(read).toEqual(list)
    expect(read[1]).toBe(list[1])
    expect([...where.names]).toEqual([
      ['a', 201],
      ['b', 202]
    ])
  })

  it('numbers an entry after the parts before, naming no line when none is known', () => {
    const e = error(() => checkEntries([{ name: 'a', url: 'https://a/' }, 'x'], NO_LINES, 'f.json', {}, at(400)))
    expect(e.message).toBe('checks-file f.json: entry 402 must be a mapping of check fields')
    expect(e.place).toEqual({ file: 'f.json', line: undefined })
  })

  it('a name an earlier part used is a repeat, naming that entry', () => {
    const e = error(() =>
      checkEntries(
        [{ name: 'a', url: 'https://a/' }],
        NO_LINES,
        'f.json',
        { annotateAs: 'x/f.json' },
        at(200, [['a', 7]])
      )
    )
    expect(e.message).toBe('checks-file f.json: entry 201: the name "a" is also used by entry 7')
    expect(e.place).toEqual({ file: 'x/f.json', line: undefined })
  })

  it('a field taken from elsewhere is said to be so, at its line, or at the entry when it has none', () => {
    const lines = {
      entry: () => 10,
      field: () => undefined,
      taken: (_i: number, key: string) =>
        key === 'interval' ? { line: 3, anchor: 'defaults' } : key === 'intervl' ? { line: 4 } : undefined
    }
    const bad = error(() => checkEntries([{ name: 'a', url: 'https://a/', interval: 0 }], lines, 'f.yml', {}, at(0)))
    expect(bad.message).toBe(
      'checks-file f.yml: entry 1 (line 10) ("a"): interval must be a whole number above 0 (from &defaults at line 3)'
    )
    expect(bad.place?.line).toBe(3)
    const warnings: Array<[string, number | undefined]> = []
    checkEntries(
      [{ name: 'a', url: 'https://a/', intervl: 1, Url: 'x' }],
      lines,
      'f.yml',
      {
        warn: (message, place) => void warnings.push([message, place.line])
      },
      at(0)
    )
    expect(warnings).toEqual([
      [
        'checks-file f.yml: entry 1 (line 10) ("a") has the field "intervl" (merged at line 4): did you mean "interval"? It is sent as written (fields the action does not know pass through).',
        4
      ],
      [
        'checks-file f.yml: entry 1 (line 10) ("a") has both "url" and "Url": "Url" is sent as written, as a field of its own (fields the action does not know pass through).',
        10
      ]
    ])
  })
})
