/**
 * The escapes of the markup the action writes, exactly: HTML and XML entities,
 * Markdown's backslashes, and the zero-width spaces that keep GitHub from
 * making a link, a mention or a reference. Redaction knows a secret in each
 * of these forms (secrets.ts), so each must be what the writers write.
 */
import { describe, expect, it } from '@jest/globals'
import { defused, htmlEscaped, markdownEscaped, xmlEscaped } from '../../src/values/markup.js'

const Z = '\u200B'

describe('entities and backslashes', () => {
  it('HTML: & < > " and nothing else', () => {
    expect(htmlEscaped(`a&b<c>d"e'f\\g`)).toBe(`a&amp;b&lt;c&gt;d&quot;e'f\\g`)
  })

  it("XML: HTML's and ' as &apos;", () => {
    expect(xmlEscaped(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f')
  })

  it("Markdown: HTML's, then each of \\ ` * _ [ ] | ~ after a backslash", () => {
    expect(markdownEscaped('a\\b`c*d_e[f]g|h~i&j<k')).toBe('a\\\\b\\`c\\*d\\_e\\[f\\]g\\|h\\~i&amp;j&lt;k')
    expect(markdownEscaped('plain words, 42.')).toBe('plain words, 42.')
  })
})

describe('defused: nothing live where GitHub renders it', () => {
  it.each([
    ['http://a.example', `http:${Z}//a.example`],
    ['HTTPS://a.example', `HTTPS:${Z}//a.example`],
    ['ftp:x', `ftp:${Z}x`],
    ['mailto:ops', `mailto:${Z}ops`],
    ['xmpp:ops', `xmpp:${Z}ops`],
    ['see www.example.com', `see www${Z}.example.com`],
    ['@ops and #12', `@${Z}ops and #${Z}12`],
    ['a @ b', 'a @ b'],
    ['GH-12', `GH-${Z}12`],
    ['gh-x', 'gh-x']
  ])('%j -> %j', (text, shown) => expect(defused(text)).toBe(shown))

  it('a hex run of 7 to 40 with a digit and a letter is broken every 6 characters; others are not', () => {
    expect(defused('abcdef0123456')).toBe(`abcdef${Z}012345${Z}6`)
    expect(defused('1234567a')).toBe(`123456${Z}7a`)
    expect(defused('0a12345')).toBe(`0a1234${Z}5`)
    expect(defused('a123456')).toBe(`a12345${Z}6`)
    expect(defused('1234567')).toBe('1234567') // digits alone: no commit id
    expect(defused('abcdefab')).toBe('abcdefab') // letters alone
    expect(defused('abc1234')).toBe(`abc123${Z}4`)
    expect(defused('abc123')).toBe('abc123') // 6: too short
    expect(defused(`${'a1'.repeat(21)}`)).toBe('a1'.repeat(21)) // 42: too long
    expect(defused('x_abcdef12')).toBe('x_abcdef12') // inside a word
  })
})
