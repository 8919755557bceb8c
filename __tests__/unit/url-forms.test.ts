/**
 * A URL is read one way: where its userinfo stands is decided as the URL
 * parser the action uses (Node's WHATWG URL) reads it, so every form that
 * parser accepts with a user name or password (`https:/u:p@h`,
 * `https:///u:p@h`, `https:\\u:p@h`, `http:u:p@h`, any case of the scheme)
 * is a secret's place in a value and in text, as `https://u:p@h` is; a
 * `;token=` value ends at `#` in text as in a value; and a secret written in
 * Markdown or HTML is still the secret.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { maskPositions, maskText, secretSpans, secretsIn } from '../../src/secrets/secret-positions.js'
import { formsOf, redact } from '../../src/secrets/secrets.js'
import { defused, htmlEscaped, markdownEscaped, xmlEscaped } from '../../src/values/markup.js'

/** What Node's URL reads as the user name and password of `text` (undefined: not a URL). */
function credentialsOf(text: string): { username: string; password: string } | undefined {
  try {
    const url = new URL(text)
    return { username: url.username, password: url.password }
  } catch {
    return undefined
  }
}

const IRREGULAR = [
  'https:/deploy:Secret99@host.example.com/',
  'https:///deploy:Secret99@host.example.com/',
  'https:\\\\deploy:Secret99@host.example.com/',
  'https:\\deploy:Secret99@host.example.com/',
  'https:/\\deploy:Secret99@host.example.com/',
  'http:deploy:Secret99@host.example.com/',
  'HTTPS://deploy:Secret99@host.example.com/',
  'HtTp:deploy:Secret99@host.example.com/',
  'wss:deploy:Secret99@host.example.com/',
  'ftp:/deploy:Secret99@host.example.com/',
  'https://deploy:Secret99@host.example.com\\path',
  'https://deploy:Secret99@host.example.com/'
]

describe('the userinfo of every URL form the parser accepts', () => {
  it.each(IRREGULAR)('%s: the parser reads a password; the value and the text show ***', url => {
    expect(credentialsOf(url)?.password).toBe('Secret99')
    expect(maskPositions({ url }).url).not.toContain('Secret99')
    expect(credentialsOf(maskPositions({ url }).url)).toEqual({ username: '***', password: '' })
    expect(secretsIn({ url })).toEqual(['deploy:Secret99'])
    expect(maskText(`url: ${url} -> ${url.replace('Secret99', 'Other777')}`)).not.toMatch(/Secret99|Other777/)
    expect(maskText(JSON.stringify({ url }))).not.toContain('Secret99')
  })

  it('a form the parser reads without credentials is not a place: a path of another scheme, a mailto', () => {
    for (const value of ['postgres:u:p@h/db', 'mailto:ops@example.com', 'urn:a:b@c', 'see http: ops@example.com']) {
      expect(credentialsOf(value.replace(/^see /, ''))?.password ?? '').toBe('')
      expect(secretSpans(value)).toEqual([])
    }
  })

  it('the userinfo of a whole value runs to the last @ before the host, as the parser reads it (blanks included)', () => {
    const url = 'https://ops:pa ss@word@host.example.com/'
    expect(credentialsOf(url)).toEqual({ username: 'ops', password: 'pa%20ss%40word' })
    expect(maskPositions({ url }).url).toBe('https://***@host.example.com/')
  })

  it('a whole value: the authority ends where the parser ends it, so an @ after it is not the userinfo', () => {
    for (const [url, shown] of [
      ['https://ops:pw@host.example.com/a@b', 'https://***@host.example.com/a@b'],
      ['https://ops:pw@host.example.com?x=a@b', 'https://***@host.example.com?x=a@b'],
      ['https://ops:pw@host.example.com#a@b', 'https://***@host.example.com#a@b'],
      ['https://ops:pw@host.example.com\\a@b', 'https://***@host.example.com\\a@b'],
      ['https://host.example.com/a@b', 'https://host.example.com/a@b'],
      ['  https://ops:pw@host.example.com/', '  https://***@host.example.com/']
    ]) {
      expect(maskPositions({ url }).url).toBe(shown)
    }
    // In text, a URL at the very start is no whole value: a blank ends its authority.
    const line = 'https://h.example.com:8080 is down; mail ops@example.com'
    expect(maskText(line)).toBe(line)
    // Not at the value's start: a blank ends the userinfo, as in text.
    expect(maskPositions({ url: 'x https://ops:pw@host.example.com/' }).url).toBe('x https://***@host.example.com/')
  })

  it('linear on long text: many schemes inside one long authority share its one scan', () => {
    const started = Date.now()
    maskText('http:@'.repeat(100_000))
    maskPositions({ url: 'http:@'.repeat(100_000) })
    maskText(`http://${'a'.repeat(300_000)}`)
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('property: whatever Node reads as a user name or password of a generated URL is *** after masking', () => {
    const scheme = fc.constantFrom('http', 'https', 'HTTPS', 'Http', 'ws', 'wss', 'ftp', 'git+ssh', 'postgres')
    const slashes = fc.constantFrom('', '/', '//', '///', '\\', '\\\\', '/\\', '\\/')
    const part = fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=%-]{1,12}$/)
    const rest = fc.constantFrom('', '/', '/path?x=1', '?q', '#f', '\\p', ':8080/')
    fc.assert(
      fc.property(scheme, slashes, part, part, fc.constantFrom('', ':'), rest, (s, sl, user, pass, colon, tail) => {
        const url = `${s}:${sl}${user}${colon}${colon ? pass : ''}@host.example.com${tail}`
        const read = credentialsOf(url)
        if (read === undefined || (read.username === '' && read.password === '')) return
        const masked = credentialsOf(maskPositions({ url }).url)
        expect(masked).toBeDefined()
        for (const secret of [read.username, read.password].filter(v => v !== '')) {
          expect([masked!.username, masked!.password]).not.toContain(secret)
        }
        expect(['***', '']).toContain(masked!.username)
        expect(['***', '']).toContain(masked!.password)
      }),
      { numRuns: 2000 }
    )
  })
})

describe('a parameter ends at # in text as in a value', () => {
  it.each([
    ['https://h.example.com/a;token=X9secretval#frag1', 'https://h.example.com/a;token=***#frag1'],
    [
      'https://h.example.com/a;token=X9secretval#fragment-that-is-long-2026',
      'https://h.example.com/a;token=***#fragment-that-is-long-2026'
    ],
    ['https://h.example.com/a?x=1;token=X9secretval#f&jwt=Y8secret', 'https://h.example.com/a?x=1;token=***#f&jwt=***']
  ])('%s', (url, shown) => {
    expect(maskText(url)).toBe(shown)
    expect(maskPositions({ url }).url).toBe(shown)
    expect(maskText(`url: ${url}`)).toBe(`url: ${shown}`)
  })

  it('a changed fragment after a ;token= value shows as the change it is, not X -> X', () => {
    const from = 'https://h.example.com/a;token=X9secretval#fragment-2025'
    const to = 'https://h.example.com/a;token=X9secretval#fragment-2026'
    expect(maskText(`url: ${from} -> ${to}`)).toBe(
      'url: https://h.example.com/a;token=***#fragment-2025 -> https://h.example.com/a;token=***#fragment-2026'
    )
  })

  it('prose after a ; is still read: a setting with a secret-looking value', () => {
    expect(maskText('mode=fast; token=abc123def456')).toBe('mode=fast; token=***')
  })
})

describe('a secret in the form the markup writes it', () => {
  const SECRET = 'sk_live*[ab12]&<cd>"34'

  it('Markdown, HTML and XML escapes and GitHub’s zero-width spaces are forms of the secret', () => {
    const forms = formsOf(SECRET)
    for (const written of [markdownEscaped(SECRET), htmlEscaped(SECRET), xmlEscaped(SECRET)]) {
      expect(forms).toContain(written)
      expect(redact(`before ${written} after`, [SECRET])).toBe('before *** after')
    }
    const hex = 'abcdef0123456789abcd'
    expect(defused(hex)).not.toBe(hex)
    expect(redact(`/v1/${defused(markdownEscaped(hex))}/`, [hex])).toBe('/v1/***/')
  })

  it('an escaped form of a percent-encoded secret too', () => {
    const secret = 'sk[live]ab12_cd34'
    expect(redact(`/v1/${markdownEscaped(encodeURIComponent(secret))}`, [secret])).toBe('/v1/***')
  })
})
