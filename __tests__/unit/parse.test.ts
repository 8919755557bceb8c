import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import {
  parseBoolean,
  parseDuration,
  parseIncrease,
  parseList,
  parseMilliseconds,
  parseWholeNumber
} from '../../src/values/parse.js'
import { parseMapping } from '../../src/values/parse-yaml.js'

// The YAML parser is loaded before parsing, as main does (src/lazy/modules.cjs).
beforeAll(() => load('yaml'))

describe('parseDuration', () => {
  it.each([
    ['90', 90_000],
    ['1.5', 1_500],
    ['500ms', 500],
    ['90s', 90_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1.5s', 1_500],
    [' 10s ', 10_000],
    ['0', 0]
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms))

  it.each(['abc', '-5', '5 m', '5d', 'ms', '1e3', '', '10s5', 's10'])('rejects %j', text =>
    expect(() => parseDuration(text)).toThrow(/must be a duration/)
  )

  it('rejects more than a day', () => expect(() => parseDuration('25h')).toThrow(/at most 24h/))
  it.each(['7d', 'abc'])('says the limit when the form is wrong too (%j)', text =>
    expect(() => parseDuration(text)).toThrow(/must be a duration such as .* \(at most 24h/)
  )
})

describe('parseBoolean', () => {
  it.each(['true', 'True', 'TRUE'])('%s is true', t => expect(parseBoolean(t)).toBe(true))
  it.each(['false', 'False', 'FALSE'])('%s is false', t => expect(parseBoolean(t)).toBe(false))
  it.each(['yes', 'on', '1', 'tRuE', 'no', 'off'])('%s is an error', t =>
    expect(() => parseBoolean(t)).toThrow(`must be true or false, got "${t}"`)
  )
})

describe('parseList', () => {
  it('without a line break: splits on commas, trims, drops empties', () => {
    expect(parseList(' a, b,, c ,')).toEqual(['a', 'b', 'c'])
  })
  it('with a line break: splits on line breaks only, so items keep their commas', () => {
    expect(parseList(' Shop, EU\nShop, US\r\n\n  api ,')).toEqual(['Shop, EU', 'Shop, US', 'api ,'])
  })
  it('a lone \\r is a line break too', () => {
    expect(parseList('a, b\rc')).toEqual(['a, b', 'c'])
  })
})

describe('parseWholeNumber', () => {
  it('accepts whole numbers within bounds', () => expect(parseWholeNumber(' 42 ', 0, 100)).toBe(42))
  it.each(['abc', '1.5', '-1', '1e2', ''])('rejects %j', t =>
    expect(() => parseWholeNumber(t, 0, 100)).toThrow(/whole number/)
  )
  it('rejects out of bounds', () => expect(() => parseWholeNumber('101', 0, 100)).toThrow('must be between 0 and 100'))
})

describe('parseMilliseconds', () => {
  it.each([
    ['800', 800],
    ['250.5', 250.5],
    ['800ms', 800],
    ['1.5s', 1500]
  ])('%s is %d', (t, ms) => expect(parseMilliseconds(t)).toBe(ms))
  it('rejects words', () => expect(() => parseMilliseconds('fast')).toThrow(/milliseconds/))
})

describe('parseIncrease (max-response-time-increase)', () => {
  it.each([
    ['20%', { percent: 20 }],
    ['20 %', { percent: 20 }],
    ['20\t%', { percent: 20 }],
    ['12.5%', { percent: 12.5 }],
    [' 0% ', { percent: 0 }],
    ['150ms', { ms: 150 }],
    ['0.2s', { ms: 200 }],
    ['1s', { ms: 1000 }],
    ['1m30s', { ms: 90_000 }]
  ])('%s is %j', (text, value) => expect(parseIncrease(text)).toEqual(value))

  it.each(['150', '20'])('refuses the bare number %j, showing it as a percentage or in milliseconds', text =>
    expect(() => parseIncrease(text)).toThrow(`"${text}" has no unit: write ${text}% or ${text}ms`)
  )

  it.each(['fast', '-20%', '20%%', '%', '20 percent', '1e2%', '-150ms', '150 ms', '', '20\n%', '20\r\n%', '20\u2028%'])(
    'rejects %j, asking for a percentage or a duration',
    text =>
      expect(() => parseIncrease(text)).toThrow(
        `must be a percentage (20%) or a duration (150ms), got ${JSON.stringify(text)}`
      )
  )

  it('holds a duration to a day, a percentage to 10000%', () => {
    expect(() => parseIncrease('25h')).toThrow('must be at most 24h')
    expect(() => parseIncrease('10001%')).toThrow('must be at most 10000%')
  })
})

describe('parseMapping', () => {
  it('reads YAML and JSON mappings', () => {
    expect(parseMapping('name: a\ninterval: 30\ntags: [x]')).toEqual({ name: 'a', interval: 30, tags: ['x'] })
    expect(parseMapping('{"name": "a", "nested": {"k": true}}')).toEqual({ name: 'a', nested: { k: true } })
  })
  it('uses the YAML 1.2 core schema: yes stays a string', () => {
    expect(parseMapping('flag: yes')).toEqual({ flag: 'yes' })
  })
  it.each([
    ['- a\n- b', /got a list/],
    ['just text', /got a string/],
    ['name: [unclosed', /not valid YAML or JSON/],
    ['a: 1\na: 2', /not valid YAML or JSON \(line 2\)/],
    [
      'name: a\nurl: https://a/\n  interval: 30',
      /not valid YAML or JSON \(line 3\): this line is indented deeper .* on line 2;/
    ],
    [
      'name: a\ncheck:\n  url: https://a/\n\tinterval: 30',
      /^is not valid YAML or JSON \(line 4\): this line is indented with a tab, and a tab is not allowed for indentation in YAML; indent it with spaces$/
    ]
  ])('rejects %j', (text, message) => expect(() => parseMapping(text)).toThrow(message))
})
