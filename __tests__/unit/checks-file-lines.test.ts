/**
 * The readers of a checks file that need no YAML parser, each on its own:
 * lineEntries (checks-file-lines.ts) reads the forms people and export-checks
 * write, exactly as YAML reads them, and leaves every other form to the
 * parser (undefined); entryParts (checks-file-parts.ts) cuts a file between
 * its entries, with the lines and entries before each part; jsonValue
 * (checks-file-json.ts) reads JSON with JSON.parse only where YAML reads it
 * alike. What each reads is compared with the YAML parser's reading.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { lineEntries } from '../../src/operations/sync/checks-file-lines.js'
import { entryParts } from '../../src/operations/sync/checks-file-parts.js'
import { jsonValue } from '../../src/operations/sync/checks-file-json.js'
import { filledValue } from '../../src/operations/sync/checks-file-templates.js'

let yaml: { parse: (text: string, options?: unknown) => unknown }
beforeAll(async () => {
  await load('yaml')
  yaml = (await import('yaml')).default as typeof yaml
})

const asWritten = (text: string) => text

/** lineEntries of a whole text (its entries' `-` at `indent`), 10 lines before it. */
const lines = (text: string, indent = 0) => lineEntries(text, 10, indent, asWritten)

/** The entries of `text` as lineEntries reads them, checked against the YAML parser's reading of the same text. */
function readAsYaml(text: string, indent = 0): unknown[] {
  const read = lines(text, indent)
  expect(read).toBeDefined()
  expect(read?.list).toEqual(yaml.parse(text, { version: '1.2', schema: 'core' }))
  return read?.list ?? []
}

describe('lineEntries: the forms it reads, as YAML reads them', () => {
  it('entries of key: value lines, with the line of each entry and of each key', () => {
    const read = lines('- name: a\n  url: https://a/\n\n# between\n- name: b\n  # inside\n  url: https://b/\n')
    expect(read?.list).toEqual([
      { name: 'a', url: 'https://a/' },
      { name: 'b', url: 'https://b/' }
    ])
    expect([read?.entry(0), read?.entry(1)]).toEqual([11, 15])
    expect([read?.field(0, 'name'), read?.field(0, 'url'), read?.field(1, 'name'), read?.field(1, 'url')]).toEqual([
      11, 12, 15, 17
    ])
  })

  it('entries indented under checks:, with more blanks after the dash, and CRLF line ends', () => {
    expect(readAsYaml('  - name: a\n    url: b\n  - name: c\n', 2)).toHaveLength(2)
    expect(readAsYaml('-   name: a\n    url: b\n')).toEqual([{ name: 'a', url: 'b' }])
    const crlf = lines('- name: a\r\n  url: https://a/\r\n- name: b\r\n')
    expect(crlf?.list).toEqual([{ name: 'a', url: 'https://a/' }, { name: 'b' }])
    expect(crlf?.entry(1)).toBe(13)
  })

  it('plain values: text, whole numbers, words YAML 1.2 keeps as text, comments after a blank', () => {
    expect(
      readAsYaml(
        '- name: a # the name\n  n: 0\n  m: 123456789012345\n  yes: yes\n  p: /p\n  d: $x\n  e: é\n  h: a#b\n  s: a b  \n  c: a,b]\n  k: key-with_dash9\n'
      )
    ).toEqual([
      {
        name: 'a',
        n: 0,
        m: 123456789012345,
        yes: 'yes',
        p: '/p',
        d: '$x',
        e: 'é',
        h: 'a#b',
        s: 'a b',
        c: 'a,b]',
        k: 'key-with_dash9'
      }
    ])
  })

  it('quoted values: escapes JSON shares with YAML, a doubled single quote, a comment after', () => {
    expect(
      readAsYaml(
        '- a: "say \\"hi\\" \\\\ \\u00e9\\n"\n  b: \'it\'\'s\'\n  c: "x" # note\n  d: \'\'\n  e: "7"\n  f: "a # b"\n  g: "true"\n'
      )
    ).toEqual([{ a: 'say "hi" \\ é\n', b: "it's", c: 'x', d: '', e: '7', f: 'a # b', g: 'true' }])
  })

  it("lists on one line and lists of - lines, at the key's column or deeper", () => {
    expect(readAsYaml('- l: []\n  m: [a, "b", \'c\' ]\n  n: [ 1 ] # c\n  o: [a,b]\n')).toEqual([
      { l: [], m: ['a', 'b', 'c'], n: [1], o: ['a', 'b'] }
    ])
    expect(readAsYaml('- l:\n  - a\n  - 2\n  n: x\n')).toEqual([{ l: ['a', 2], n: 'x' }])
    expect(readAsYaml('- l:\n    # note\n    - a # c\n\n    - "b"\n- m:\n  - c\n')).toEqual([
      { l: ['a', 'b'] },
      { m: ['c'] }
    ])
    const listed = lines('- l:\n  - a\n  - b\n  n: x\n')
    expect([listed?.field(0, 'l'), listed?.field(0, 'n')]).toEqual([11, 14])
  })

  it('fills templates through the reader it is given, plain or quoted as written', () => {
    const calls: Array<[string, boolean]> = []
    const fill = (text: string, plain: boolean) => (calls.push([text, plain]), filledValue(text, plain, () => '80'))
    const read = lineEntries('- a: ${P}\n  b: "${P}"\n  c: [\'${P}\']\n  d:\n    - ${P}\n', 0, 0, fill)
    expect(read?.list).toEqual([{ a: 80, b: '80', c: ['80'], d: [80] }])
    expect(calls).toEqual([
      ['${P}', true],
      ['${P}', false],
      ['${P}', false],
      ['${P}', true]
    ])
  })
})

describe('lineEntries: what it leaves to the YAML parser', () => {
  it.each([
    ['a tab', '- name: a\n  url:\tb\n'],
    ['a carriage return alone', '- name: a\r  url: b\n'],
    ['a control character', '- name: a\u0007\n'],
    ['a byte-order mark', '- name: \ufeffa\n'],
    ['a line separator', '- name: a\u2028b\n'],
    ['a next-line character', '- name: a\u0085\n'],
    ['no blank after the colon', '- name: a\n  url:https://a/\n'],
    ['a number with a leading 0', '- n: 060\n'],
    ['a number past 15 digits', '- n: 1234567890123456\n'],
    ['a sign', '- n: -1\n'],
    ['a decimal', '- n: 1.5\n'],
    ['a boolean', '- n: true\n'],
    ['a capital null', '- n: Null\n'],
    ['an indicator first', '- n: @x\n'],
    ['an anchor', '- n: &a x\n'],
    ['a tag', '- n: !t x\n'],
    ['a block scalar', '- n: |\n    x\n'],
    ['a nested pair', '- n: a: b\n'],
    ['a value ending in a colon', '- n: a:\n'],
    ['a mapping on one line', '- n: {a: 1}\n'],
    ['a YAML-only escape', '- n: "\\x41"\n'],
    ['an unclosed quote', '- n: "a\n'],
    ['text after a quote', '- n: "a" b\n'],
    ['a comment with no blank before it', '- n: "a"#c\n'],
    ['an empty list item', '- l: [a,]\n'],
    ['text after a list', '- l: [a] x\n'],
    ['a list in a list', '- l: [[a]]\n'],
    ['a pair in a list', '- l: [a: b]\n'],
    ['a comment in a list', '- l: [a #c]\n'],
    ['a brace in a list', '- l: [a{b]\n'],
    ['an unclosed list', '- l: [a, b\n'],
    ['a key with no value and no list', '- l:\n- m: x\n'],
    ['a list item that is a list', '- l:\n  - [a]\n'],
    ['list items at two columns', '- l:\n    - a\n   - b\n'],
    ['a list item shallower than its key', '- l:\n - a\n'],
    ['a key deeper than the one above', '- name: a\n   url: b\n'],
    ['a key shallower than the one above', '- name: a\n url: b\n'],
    ['a repeated key', '- name: a\n  name: b\n'],
    ['a key YAML reads as a boolean', '- true: a\n'],
    ['a key YAML reads as null', '- a: 1\n  null: b\n'],
    ['a key that is not a word', '- 9a: 1\n'],
    ['a key past 201 characters', `- ${'k'.repeat(202)}: 1\n`],
    ['a quoted key', '- "name": a\n'],
    ['an entry that is not a mapping', '- a\n'],
    ['an entry at another column', '- name: a\n  - name: b\n'],
    ['no entry at all', '# nothing\n\n']
  ])('%s', (_, text) => {
    expect(lines(text)).toBeUndefined()
  })

  it('but reads what only looks like them', () => {
    expect(readAsYaml(`- ${'k'.repeat(201)}: 1\n  x: a:b\n  y: a-1\n  z: "a\\tb"\n`)).toHaveLength(1)
  })
})

describe('entryParts: a file cut between its entries', () => {
  const entries = (n: number) => Array.from({ length: n }, (_, i) => `- name: e-${i}\n  url: https://e/${i}\n`).join('')

  it('a bare list, after comments and blank lines: one part, with the lines before it', () => {
    expect(entryParts('# checks\n\n- a: 1\n  x: 2\n\n# more\n- b: 2')).toEqual({
      indent: 0,
      parts: [{ text: '- a: 1\n  x: 2\n\n# more\n- b: 2', line: 2, index: 0 }]
    })
  })

  it('a list under checks: (a comment after it, CRLF ends), at the column of its dashes', () => {
    expect(entryParts('checks:\n  - a: 1\n  - b: 2\n')).toEqual({
      indent: 2,
      parts: [{ text: '  - a: 1\n  - b: 2\n', line: 1, index: 0 }]
    })
    expect(entryParts('# c\nchecks: # the list\n- a: 1\n')).toEqual({
      indent: 0,
      parts: [{ text: '- a: 1\n', line: 2, index: 0 }]
    })
    expect(entryParts('checks:\r\n    - a: 1\r\n')).toEqual({
      indent: 4,
      parts: [{ text: '    - a: 1\r\n', line: 1, index: 0 }]
    })
  })

  it('parts of 50 entries, each with the lines and entries before it, together the whole list', () => {
    const text = `# head\n${entries(120)}`
    const cut = entryParts(text)
    expect(cut?.parts.map(({ line, index }) => ({ line, index }))).toEqual([
      { line: 1, index: 0 },
      { line: 101, index: 50 },
      { line: 201, index: 100 }
    ])
    expect(cut?.parts.map(part => part.text).join('')).toBe(entries(120))
    expect(cut?.parts[1].text.startsWith('- name: e-50\n')).toBe(true)
    expect(entryParts(entries(50))?.parts).toHaveLength(1)
    expect(entryParts(entries(51))?.parts.map(part => part.index)).toEqual([0, 50])
  })

  it('an entry whose dash stands alone, or is followed by a tab, is cut as an entry', () => {
    expect(entryParts('-\n  a: 1\n- \tb\n')?.parts).toEqual([{ text: '-\n  a: 1\n- \tb\n', line: 0, index: 0 }])
  })

  it.each([
    ['an alias anywhere', '- a: 1\n  b: *x\n'],
    ['an empty file', ''],
    ['comments only', '# only\n\n'],
    ['checks: and no list', 'checks:\n'],
    ['checks: twice', 'checks:\nchecks:\n  - a: 1\n'],
    ['checks: with a value', 'checks: []\n'],
    ['a key before the list', 'foo: 1\n- a: 1\n'],
    ['a bare list not at column 0', '  - a: 1\n'],
    ['a dash glued to its value', '-a: 1\n'],
    ['an entry shallower than the first', 'checks:\n  - a: 1\n - b: 2\n'],
    ["a line at the entries' column that is no entry", '- a: 1\nb: 2\n'],
    ['a tab in the indentation', '- a: 1\n\tb: 2\n'],
    ['a key after the list', 'checks:\n  - a: 1\nother: 2\n']
  ])('%s: not cut (read whole)', (_, text) => {
    expect(entryParts(text)).toBeUndefined()
  })
})

describe('jsonValue: JSON read as YAML reads it', () => {
  const tagged = (text: string) => `<${text}>`

  it('reads arrays and objects, filling each string (never a key) in the order written', () => {
    const seen: string[] = []
    const value = jsonValue(' \n[{"a": "x", "b": [1, "y", null, true], "c": {"d": "z", "e": 1.5}}]', (text, plain) => {
      expect(plain).toBe(false)
      seen.push(text)
      return tagged(text)
    })
    expect(value).toEqual([{ a: '<x>', b: [1, '<y>', null, true], c: { d: '<z>', e: 1.5 } }])
    expect(seen).toEqual(['x', 'y', 'z'])
  })

  it('keys with escaped quotes and backslashes are counted as written', () => {
    expect(jsonValue('{"a\\"b": "c\\\\", "d": "e\\": f", "g" : 1, "h"\t: 2}', asWritten)).toEqual({
      'a"b': 'c\\',
      d: 'e": f',
      g: 1,
      h: 2
    })
    expect(jsonValue('[\n  "a"\n  ,\n  "b"\n]', asWritten)).toEqual(['a', 'b'])
  })

  it('the longest key read is 160 characters; a largest safe whole number is read', () => {
    expect(jsonValue(`{"${'k'.repeat(160)}": 1}`, asWritten)).toEqual({ ['k'.repeat(160)]: 1 })
    expect(jsonValue('[9007199254740991, -9007199254740991, 0.1]', asWritten)).toEqual([
      9007199254740991, -9007199254740991, 0.1
    ])
    expect(jsonValue('{"01": 1, "1a": 2}', asWritten)).toEqual({ '01': 1, '1a': 2 })
  })

  it.each([
    ['text before', 'x[1]'],
    ['a string at the top', '"[1]"'],
    ['a number at the top', '7'],
    ['JSON that does not parse', '[1,]'],
    ['a DEL character', '["a\u007fb"]'],
    ['a byte-order mark inside', '["\ufeff"]'],
    ['a line separator', '["a\u2028b"]'],
    ['a number too large for a double', '{"a": 1e999}'],
    ['a whole number past the safe ones', '[9007199254740992]'],
    ['a negative one past them', '[{"a": -9007199254740993}]'],
    ['a merge key', '{"<<": {"a": 1}}'],
    ['a __proto__ key', '[{"__proto__": {"x": 1}}]'],
    ['a key 0', '{"0": 1}'],
    ['an index-like key', '[{"a": 1, "12": 2}]'],
    ['a key of 161 characters', `{"${'k'.repeat(161)}": 1}`],
    ['a repeated key', '{"a": 1, "a": 2}'],
    ['a repeated key deeper', '[{"a": {"b": 1, "b": 2}}]'],
    ['a key whose colon is on a later line', '{"a"\n: 1}'],
    ['a key whose colon is after a blank line', '{"a"\r\n  \n: 1}']
  ])('%s: left to the YAML parser', (_, text) => {
    expect(jsonValue(text, asWritten)).toBeUndefined()
  })

  it('a value a template fills is read once filled; a bad number after it still refuses the file', () => {
    expect(jsonValue('{"a": "${X}", "b": 2}', tagged)).toEqual({ a: '<${X}>', b: 2 })
    const seen: string[] = []
    expect(jsonValue('[{"a": 1e999, "b": "x"}]', text => (seen.push(text), text))).toBeUndefined()
    expect(seen).toEqual([])
  })
})
