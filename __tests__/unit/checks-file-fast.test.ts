/**
 * The readers that skip the YAML parser (a part read line by line:
 * checks-file-lines.ts; JSON by JSON.parse: checks-file-json.ts) give exactly
 * what the YAML parser gives: the same entries, warnings with their lines,
 * secrets and errors, on generated files of every shape people and
 * export-checks write, and on the forms they must leave to the parser. A
 * leading `---` sends the same text through the YAML parser whole, to
 * compare with (its lines one further down).
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { load } from '../../src/lazy/modules.cjs'
import { ChecksFileError, parseChecksFile } from '../../src/operations/sync/checks-file.js'
import type { FilePlace } from '../../src/operations/types.js'
import { FLEET_SHAPES, FleetShape, fleetText } from '../../scripts/lib/fleet-files.js'
import type { Check } from '../../src/api/schemas.js'
import type { Mapping } from '../../src/values/values.js'

let yaml: { parseDocument: (text: string, options?: unknown) => unknown }
beforeAll(async () => {
  await load('yaml')
  yaml = (await import('yaml')).default as typeof yaml
})

const env = { HOST: 'shop.example.com', PORT: '8443', API_TOKEN: 's3cr3t-token', PLAIN: 'words', NUMBER: '1e999' }

/** What a parse gives: the entries, warnings and secrets, or the error and its place. */
type Outcome =
  | { list: Mapping[]; warnings: Array<[string, FilePlace | undefined]>; secrets: string[] }
  | { error: string; place: FilePlace | undefined; secrets: string[] }
function outcome(text: string): Outcome {
  const warnings: Array<[string, FilePlace | undefined]> = []
  const secrets: string[] = []
  try {
    const list = parseChecksFile(text, 'checks.yml', {
      env,
      warn: (message, place) => warnings.push([message, place]),
      secret: value => secrets.push(value)
    })
    return { list, warnings, secrets }
  } catch (error) {
    if (!(error instanceof ChecksFileError)) throw error
    return { error: error.message, place: error.place, secrets }
  }
}

/** Lines one up: what the YAML parser said of the text after a `---` line, said of the text itself. */
const lineUp = (message: string) =>
  message.replace(/\blines? (\d+(?:, \d+)*)/g, (said: string, list: string) =>
    said.replace(
      list,
      list.replace(/\d+/g, n => String(Number(n) - 1))
    )
  )
function parsedWhole(text: string): Outcome {
  const whole = outcome(`---\n${text}`)
  const place = (p: FilePlace | undefined) => p && { ...p, line: p.line === undefined ? undefined : p.line - 1 }
  if ('error' in whole) return { ...whole, error: lineUp(whole.error), place: place(whole.place) }
  return { ...whole, warnings: whole.warnings.map(([m, p]) => [lineUp(m), place(p)]) }
}

/** Calls of the YAML parser while `fn` runs. */
function parserCalls(fn: () => void): number {
  let calls = 0
  const original = yaml.parseDocument
  yaml.parseDocument = (t: string, o?: unknown) => (calls++, original(t, o))
  try {
    fn()
  } finally {
    yaml.parseDocument = original
  }
  return calls
}

/** Text for a value: what people write, and what only looks like it (read otherwise by YAML, or not at all). */
const usual = fc.constantFrom(
  ...['shop', 'fleet-1', 'https://x.example.com/a?b=1&c=2#top', 'a b', 'a:b', 'a#b', 'x-', 'Café', '/p', 'yes'],
  ...["it's", 'say "hi"', 'back\\slash', '${HOST}', '${secret:API_TOKEN}', '$${HOST}', 'https://${HOST}:${PORT}/'],
  ...['${PLAIN}', 'no', 'on', 'email', 'pagerduty', 'http', 'paused', 'a [b]', 'a {b}', 'a, b', "x'y"]
)
const odd = fc.constantFrom(
  ...[
    '7',
    '0',
    '${PORT}',
    'a: b',
    'a #b',
    '-x',
    '#x',
    'true',
    'True',
    'null',
    'NULL',
    '~',
    '',
    ' ',
    ' lead',
    'trail ',
    '060',
    '1e3'
  ],
  ...['0x10', '.inf', '-1', '+1', '1.5', '12345678901234567890', '\u00a0nb', 'nb\u00a0', '${NUMBER}', '${UNSET_VAR}'],
  ...['${RUNNER_TEMP}', '[a]', '{a}', 'a,b', 'a]', '*alias', '&anchor x', '!tag', '|', '>', '%x', '@x', '`x', '? x'],
  ...[': x', 'a\tb', 'two\nlines', '\u2028', '\u007f', '\ufeff', 'é\u0085']
)
const text = fc.oneof(
  { weight: 12, arbitrary: usual },
  { weight: 3, arbitrary: odd },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...' ,:-[]{}"\'#&*!|>%@`\\$/aZ9é\u00a0'), maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }
)

/** A scalar written in one of YAML's styles (`inList`: inside `[...]`); `\x61` is an escape only YAML knows. */
const STYLES = ['plain', 'plain', 'plain', 'double', 'double', 'single']
const styled = (values: fc.Arbitrary<string>, inList: boolean, styles = STYLES) =>
  fc.tuple(values, fc.constantFrom(...styles)).map(([value, style]) => {
    if (style === 'double') return JSON.stringify(value)
    if (style === 'single') return `'${value.replaceAll("'", "''")}'`
    if (style === 'yamlEscape') return JSON.stringify(value).replace(/a/g, '\\x61')
    return inList ? value.replace(/[,\]]/g, '') : value
  })
const scalar = (inList: boolean) => styled(text, inList, [...STYLES, 'yamlEscape'])
const usualScalar = (inList: boolean) => styled(usual, inList)

/** A comment after a value, and (`odd`) `#` right after it, which YAML refuses. */
const usualComment = fc.constantFrom('', '', ' # note', '  #x', ' #')
const comment = fc.oneof({ weight: 12, arbitrary: usualComment }, { weight: 1, arbitrary: fc.constant('#tight') })
const space = fc.constantFrom('', '', ' ', '  ')

/** A value on the key's line. */
const inline = (value: fc.Arbitrary<string>, after = comment) =>
  fc.tuple(value, after).map(([v, c]) => ({ inline: ` ${v}${c}` }))
/** A `[...]` list on one line, and a list of `- ` lines (its items' column deeper than the key's, or the same). */
const flowList = (item: fc.Arbitrary<string>, after = comment) =>
  fc
    .tuple(fc.array(item, { maxLength: 3 }), space, fc.constantFrom(',', ', ', ' , '), after)
    .map(([items, s, sep, c]) => ({ inline: ` [${s}${items.join(sep)}${s}]${c}` }))
const blockList = (item: fc.Arbitrary<string>, after = comment) =>
  fc
    .tuple(fc.array(fc.tuple(item, after), { minLength: 1, maxLength: 3 }), fc.constantFrom(0, 2, 4))
    .map(([items, deeper]) => ({ block: items.map(([v, c]) => `- ${v}${c}`), deeper }))
type Written = { inline: string } | { block: string[]; deeper: number }

/** Any value after a key: a scalar, a `[...]` list, a list of `- ` lines, nothing, or a nested mapping. */
const anyValue: fc.Arbitrary<Written> = fc.oneof(
  { weight: 6, arbitrary: inline(scalar(false)) },
  { weight: 2, arbitrary: flowList(scalar(true)) },
  { weight: 2, arbitrary: blockList(scalar(false)) },
  { weight: 1, arbitrary: fc.constantFrom<Written>({ inline: '' }, { inline: ' ' }, { block: ['sub: 1'], deeper: 2 }) }
)

/** Fields as people write them: each known one valid, the others any text, a slip of a known name now and then. */
const usualField: fc.Arbitrary<[string, Written]> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constant('interval'), inline(fc.constantFrom('60', '30', '${PORT}'), usualComment))
  },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('type', 'status', 'owner', 'x-team'), inline(usualScalar(false), usualComment))
  },
  {
    weight: 3,
    arbitrary: fc.tuple(
      fc.constant('alertChannels'),
      fc.oneof(
        flowList(
          styled(
            usual.filter(v => !/[[\]{},]/.test(v)),
            true
          ),
          usualComment
        ),
        blockList(usualScalar(false), usualComment)
      )
    )
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('intervall', 'URL', 'note'), inline(usualScalar(false), usualComment))
  }
)
/** Any field with any value: known ones with values they refuse, repeated keys, values only YAML reads. */
const anyField: fc.Arbitrary<[string, Written]> = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constant('interval'), inline(fc.constantFrom('60', '"60"', '0', '1.5', '060'))) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('type', 'status', 'note', 'x-team', 'intervall'), anyValue) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('alertChannels'), anyValue) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('URL', 'Name', 'url'), anyValue) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('true', 'True', 'null', 'Null', 'yes', 'on', 'constructor'), anyValue)
  }
)

/** An entry: its name (mostly its own), its url, then fields; comments and blank lines after. */
const entry = (field: fc.Arbitrary<[string, Written]>, name: fc.Arbitrary<string>, i: number) =>
  fc.record({
    name: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(`e-${i}`, `"e-${i}"`, `'e-${i}'`, `e-${i} # named`) },
      { weight: 1, arbitrary: name }
    ),
    url: fc.constantFrom(`https://e.example.com/${i}`, `"https://\${HOST}/${i}"`, `https://e.example.com/${i}?t=1`),
    fields: fc.uniqueArray(field, { maxLength: 4, selector: ([key]) => key }),
    after: fc.array(fc.constantFrom('', '# between', '    # deeper', '#'), { maxLength: 2 }),
    dash: fc.constantFrom('- ', '- ', '-   ')
  })

/** A file of entries: a bare list or under `checks:` (at some indentation), header comments, maybe CRLF. */
const file = (field: fc.Arbitrary<[string, Written]>, name: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc
        .array(fc.nat(), { minLength: 1, maxLength: 6 })
        .chain(seeds => fc.tuple(...seeds.map((_, i) => entry(field, name, i)))),
      fc.constantFrom(-1, -1, 0, 2, 4),
      fc.constantFrom('', '# header\n\n'),
      fc.boolean(),
      fc.boolean()
    )
    .map(([entries, checksIndent, header, crlf, finalNewline]) => {
      const pad = ' '.repeat(Math.max(checksIndent, 0))
      const lines: string[] = checksIndent < 0 ? [] : ['checks:']
      for (const e of entries) {
        const keyPad = pad + ' '.repeat(e.dash.length)
        lines.push(`${pad}${e.dash}name: ${e.name}`, `${keyPad}url: ${e.url}`)
        for (const [key, value] of e.fields) {
          if ('inline' in value) lines.push(`${keyPad}${key}:${value.inline}`)
          else lines.push(`${keyPad}${key}:`, ...value.block.map(l => `${keyPad}${' '.repeat(value.deeper)}${l}`))
        }
        lines.push(...e.after)
      }
      const body = header + lines.join('\n') + (finalNewline ? '\n' : '')
      return crlf ? body.replace(/\n/g, '\r\n') : body
    })

/** JSON as people and export-checks write it (`odd`: and with what JSON.parse reads otherwise than YAML). */
const JSON_KEYS = ['note', 'x-team', 'a b', 'é', 'headers', 'intervall', '10']
const jsonFile = (odd: boolean) =>
  fc
    .tuple(
      fc.array(
        fc.record({
          url: fc.constantFrom('https://e.example.com/', 'https://${HOST}/x', 'https://x/${secret:API_TOKEN}'),
          extra: odd
            ? fc.dictionary(fc.constantFrom(...JSON_KEYS), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
            : fc.record(
                { type: usual, interval: fc.constantFrom(60, 30), alertChannels: fc.array(usual), owner: usual },
                { requiredKeys: [] }
              )
        }),
        { minLength: 1, maxLength: 5 }
      ),
      fc.constantFrom(0, 2, '\t'),
      fc.boolean(),
      odd
        ? fc.constantFrom(
            ...['', '"interval": 60, ', '"__proto__": 1, ', '"url": "twice", ', '"n": 1e999, ', '"<<": {}, '],
            ...['"n": 12345678901234567890, ', '"status": 7, ', '"s": "\u007f", ', '"k"\n: 1, ', '"a\\"b": 1, ']
          )
        : fc.constant('')
    )
    .map(([entries, indent, wrapped, added]) => {
      const list = entries.map(({ url, extra }, i) => ({ ...extra, name: `e-${i}`, url }))
      const text = JSON.stringify(wrapped ? { checks: list } : list, null, indent)
      return text.replace(/"name": ?"e-0"/, named => `${added}${named}`)
    })

/** Runs of a property over files: each read as the YAML parser reads it. How many were read without it. */
function sameAsParser(files: fc.Arbitrary<string>, numRuns: number): number {
  let fast = 0
  fc.assert(
    fc.property(files, text => {
      let read: Outcome | undefined
      if (parserCalls(() => (read = outcome(text))) === 0) fast++
      expect(read).toEqual(parsedWhole(text))
    }),
    { numRuns }
  )
  return fast
}

describe('the readers without the YAML parser', () => {
  it('read YAML files as people write them as the YAML parser does, most without it', () => {
    // The property says something only if the readers read most of the files themselves.
    expect(sameAsParser(file(usualField, usualScalar(false)), 400)).toBeGreaterThan(360)
  })

  it('read any generated YAML file as the YAML parser does, leaving it what they do not read alike', () => {
    sameAsParser(file(anyField, scalar(false)), 800)
  })

  it('read JSON files as people and export-checks write them as the YAML parser does, without it', () => {
    expect(sameAsParser(jsonFile(false), 200)).toBeGreaterThan(180)
  })

  it('read any generated JSON file as the YAML parser does, leaving it what they do not read alike', () => {
    sameAsParser(jsonFile(true), 400)
  })

  it.each(Object.keys(FLEET_SHAPES))('read the fleet shape %s without the YAML parser, as it reads it', async shape => {
    const checks = Array.from({ length: 450 }, (_, i) => ({
      id: `chk_${i}`,
      name: `fleet-${i}`,
      url: `https://fleet.example.com/${i}`,
      type: 'http',
      interval: 60,
      alertChannels: ['email']
    })) as Check[]
    const text = await fleetText(shape as FleetShape, checks, 'https://api.example.com/v1')
    let read: Outcome | undefined
    expect(parserCalls(() => (read = outcome(text)))).toBe(0)
    expect(read).toEqual(parsedWhole(text))
    expect(read && 'list' in read && read.list).toHaveLength(450)
  })
})
