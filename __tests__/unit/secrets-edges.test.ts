/**
 * The secret grammar at its edges (src/secrets/secret-positions.ts, src/secrets/secrets.ts;
 * contract: "Secrets"): every secret word as a name's last word, every word
 * that stands for no value, each spacing a header or pair may be written
 * with, empty values, a URL without credentials, a value of exactly the
 * length where a rule turns, numbers with a sign or a decimal part, and a
 * list of secrets that grows or changes. Each case states what a reader of
 * the output sees, not how the grammar is kept.
 */
import { describe, expect, it } from '@jest/globals'
import {
  maskPositions,
  maskText,
  plainWord,
  secretName,
  secretSpans,
  secretsIn,
  withoutCredentials
} from '../../src/secrets/secret-positions.js'
import { redact, redactValue, registrable } from '../../src/secrets/secrets.js'

describe('names: a secret word as the last word, however the name is written', () => {
  const WORDS = ['token', 'key', 'secret', 'password', 'passwd', 'pass', 'pwd', 'signature', 'sig', 'auth']
  WORDS.push('credential', 'session', 'jwt', 'bearer', 'authorization', 'credentials', 'cookie', 'passphrase')
  const JOINED = ['apikey', 'accesstoken', 'authtoken', 'apitoken', 'secretkey', 'privatekey', 'clientsecret']
  JOINED.push('refreshtoken')

  it('each secret word, alone, after another word, and in upper case', () => {
    for (const word of [...WORDS, ...JOINED]) {
      for (const name of [word, `db_${word}`, `x-${word}`, word.toUpperCase(), `my.${word}`]) {
        expect([name, secretName(name)]).toEqual([name, true])
      }
    }
  })

  it('camelCase and an acronym before the last word are split: accessKey, AWSToken, myToken', () => {
    for (const name of ['accessKey', 'AWSToken', 'myToken', 'userSession', 'HTTPPassword', 'my token'])
      expect([name, secretName(name)]).toEqual([name, true])
    // The words are split, not only lower-cased: neither joins into a secret word it does not end with.
    for (const name of ['tokenCount', 'AWSTokenId', 'keyName', 'passwordPolicy'])
      expect([name, secretName(name)]).toEqual([name, false])
    // A separator after the last word ends no word of its own.
    for (const name of ['token_', 'api-key-', '__password__']) expect([name, secretName(name)]).toEqual([name, true])
    // A parameter name written with + for a blank: `my+token` is `my token`, whose last word is a secret's.
    expect(maskText('GET https://h/?my+token=abc123&x=1')).toBe('GET https://h/?my+token=***&x=1')
  })
})

describe('values that stand for no value', () => {
  it('every such word of 4 characters or more, in any case and with blanks around it', () => {
    const words = ['true', 'false', 'null', 'none', 'undefined', 'basic', 'bearer', 'digest']
    words.push('enabled', 'disabled', 'default', 'empty')
    for (const word of words) {
      for (const value of [word, word.toUpperCase(), ` ${word} `])
        expect([value, plainWord(value)]).toEqual([value, true])
    }
    // Shorter than 4 characters is plain whatever it is; 4 characters of no word is a value.
    for (const value of ['yes', 'no', 'on', 'off', 'nil', 'abc'])
      expect([value, plainWord(value)]).toEqual([value, true])
    for (const value of ['abcd', 'k3y1', 'xyzzy']) expect([value, plainWord(value)]).toEqual([value, false])
  })

  it('a number with a sign or a decimal part is plain; digits followed by letters are not a number', () => {
    for (const value of ['-12345', '+8443', '12.345', '0.5', '443'])
      expect([value, plainWord(value)]).toEqual([value, true])
    for (const value of ['1234abcd', '12.5a', '123.', '1.2.3.4'])
      expect([value, plainWord(value)]).toEqual([value, false])
  })
})

describe('structured values: where a value starts and ends', () => {
  it('a blank ends a parameter value in a string; an empty value, an empty userinfo and an empty header stay empty', () => {
    expect(maskPositions({ description: 'see https://h/?token=abc123 now' })).toEqual({
      description: 'see https://h/?token=*** now'
    })
    for (const url of ['https://h/?token=&x=1', 'https://@h/path', 'https://h/?x=1#token='])
      expect(maskPositions({ url })).toEqual({ url })
    expect(maskPositions({ headers: ['X-Api-Key:', 'X-Api-Key: '] })).toEqual({
      headers: ['X-Api-Key:', 'X-Api-Key: ']
    })
    expect(maskPositions({ password: '' })).toEqual({ password: '' })
  })

  it('a header line with a blank before its colon, or indented, is masked from its value on', () => {
    expect(maskPositions({ headers: ['X-Api-Key : abc123', 'X-Api-Key\t:\tabc123'] })).toEqual({
      headers: ['X-Api-Key : ***', 'X-Api-Key\t:\t***']
    })
    expect(maskPositions({ notes: 'Accept: */*\n  X-Api-Key: abc123\n\tToken: t0k3n' })).toEqual({
      notes: 'Accept: */*\n  X-Api-Key: ***\n\tToken: ***'
    })
  })

  it('a sentence is not a header line: only a name at the start of a line is', () => {
    const description = 'Rotate the api key: every month. Ask for the token: see the wiki'
    expect(maskPositions({ description })).toEqual({ description })
    expect(secretSpans(description)).toEqual([])
  })

  it('two places that touch are both masked: a parameter whose value ends where a userinfo starts', () => {
    expect(maskText('?token=x://&user@host')).toBe('?token=******@host')
    expect(maskPositions({ url: '?token=x://&user@host' })).toEqual({ url: '?token=******@host' })
  })

  it('a header whose value is a URL with a user and a token is masked whole, once', () => {
    expect(maskPositions({ headers: ['Proxy-Authorization: https://u:p4ss@h/x?token=abc123'] })).toEqual({
      headers: ['Proxy-Authorization: ***']
    })
  })

  it('where each secret stands, as export-checks names it', () => {
    expect(secretSpans('https://u:p4ss@h/?token=a1&x=1#sig=b2')).toEqual([
      { start: 8, end: 14, where: 'userinfo', name: 'USERINFO' },
      { start: 24, end: 26, where: 'query parameter token', name: 'token' },
      { start: 35, end: 37, where: 'fragment parameter sig', name: 'sig' }
    ])
    // A parameter right after the `#` is the fragment's; one before the `#` is the query's.
    expect(secretSpans('#token=abc1').map(s => s.where)).toEqual(['fragment parameter token'])
    expect(secretSpans('https://h/?token=abc1#part').map(s => s.where)).toEqual(['query parameter token'])
    expect(secretSpans('X-Api-Key: abc1')).toEqual([
      { start: 11, end: 15, where: 'header X-Api-Key', name: 'X-Api-Key' }
    ])
  })

  it('the values in secret positions, in order: what tells whether a secret changed', () => {
    expect(
      secretsIn({ url: 'https://u:p4ss@h/?token=abc1&x=1', headers: ['X-Api-Key: k2'], password: 5, plain: 'x' })
    ).toEqual(['u:p4ss', 'abc1', 'k2', 5])
    expect(secretsIn({ url: 'https://h/', name: 'shop' })).toEqual([])
  })
})

describe('{name, value} pairs', () => {
  it('the label must be a string, and only the value field takes its name', () => {
    expect(maskPositions({ name: 'X-Api-Key', value: 'abc123', description: 'rotated monthly' })).toEqual({
      name: 'X-Api-Key',
      value: '***',
      description: 'rotated monthly'
    })
    // `id` is no label: the value beside it is named `value`, no secret's name.
    expect(maskPositions({ id: 'token', value: 'plain-text' })).toEqual({ id: 'token', value: 'plain-text' })
    expect(maskPositions({ name: 42, value: 'plain-text' })).toEqual({ name: 42, value: 'plain-text' })
    // A field named `key` alone is a credential field, not a label.
    expect(maskPositions({ key: 'abc12345' })).toEqual({ key: '***' })
  })

  it('in JSON text: blanks anywhere around the colons and commas, value first or last', () => {
    expect(maskText('{"name" : "X-Api-Key" , "value" : "abc123"}')).toBe('{"name" : "X-Api-Key" , "value" : "***"}')
    expect(maskText('{"value" : "abc123" , "name" : "X-Api-Key"}')).toBe('{"value" : "***" , "name" : "X-Api-Key"}')
    expect(maskText('{"value":"abc123","name":"X-Api-Key"}')).toBe('{"value":"***","name":"X-Api-Key"}')
  })

  it('in JSON text: a value holding an escaped backslash or an escaped quote is masked whole', () => {
    expect(maskText('{"name":"X-Api-Key","value":"ab\\\\cd12"}')).toBe('{"name":"X-Api-Key","value":"***"}')
    expect(maskText('{"value":"ab\\\\cd12","name":"X-Api-Key"}')).toBe('{"value":"***","name":"X-Api-Key"}')
    expect(maskText('{"name":"X-Api-Key","value":"ab\\"cd\\"ef"}')).toBe('{"name":"X-Api-Key","value":"***"}')
  })
})

describe('free text', () => {
  it('a header or setting with or without blanks around its colon or equals sign', () => {
    for (const [text, masked] of [
      ['X-Api-Key : abc123', 'X-Api-Key : ***'],
      ['X-Api-Key:abc123', 'X-Api-Key:***'],
      ['api_key=abc123 was sent', 'api_key=*** was sent'],
      ['Authorization: Bearer\tabc12345', 'Authorization: ***'],
      ['Authorization: Bearer  abcdefgh', 'Authorization: ***'],
      ['Authorization: Bearer ***', 'Authorization: Bearer ***']
    ])
      expect(maskText(text)).toBe(masked)
  })

  it('a letters-only value after a secret name is masked from 16 characters on', () => {
    expect(maskText('token: abcdefghijklmnop')).toBe('token: ***')
    expect(maskText('token: abcdefghijklmno')).toBe('token: abcdefghijklmno')
  })

  it('a header line inside a JSON string, with or without blanks around its colon', () => {
    expect(maskText('["X-Api-Key : abc123"]')).toBe('["X-Api-Key : ***"]')
    expect(maskText('["X-Api-Key:abc123"]')).toBe('["X-Api-Key:***"]')
  })

  it('an empty credential field stays empty', () => {
    expect(maskText('{"password": "", "token": "t0k"}')).toBe('{"password": "", "token": "***"}')
  })

  it('a placeholder is kept only when it is the whole value', () => {
    expect(maskText('?token=${API_KEY}&x=1')).toBe('?token=${API_KEY}&x=1')
    expect(maskText('?token=${secret:API_KEY}&x=1')).toBe('?token=${secret:API_KEY}&x=1')
    expect(maskText('?token=abc${secret:X}&x=1')).toBe('?token=***&x=1')
    expect(maskText('?token=${secret:X}abc&x=1')).toBe('?token=***&x=1')
  })

  it('masking is idempotent: masked text masked again is the same', () => {
    for (const text of [
      'Authorization: Bearer abc12345 and token=x1',
      '{"name":"X-Api-Key","value":"abc123"} {"value":"k1","name":"token"}',
      '{"password": "p4ss"} ["X-Api-Key: k3"] https://u:p@h/?sig=s1'
    ]) {
      const once = maskText(text)
      expect(maskText(once)).toBe(once)
    }
  })
})

describe('a proxy URL without credentials', () => {
  it('is kept as written; an empty one stays empty; one that does not parse is named, not shown', () => {
    expect(withoutCredentials('http://proxy.example.com:8080')).toBe('http://proxy.example.com:8080')
    expect(withoutCredentials('')).toBe('')
    expect(withoutCredentials('http://u:p4ss@[bad')).toBe('(an unparsable proxy URL)')
    expect(withoutCredentials('http://user@proxy.example.com:8080')).toBe('http://proxy.example.com:8080/')
  })
})

describe('secrets by value at their edges', () => {
  it('a secret shorter than 4 characters is not masked; one of 4 is', () => {
    expect(redact('abc is abc', ['abc'])).toBe('abc is abc')
    expect(redact('abcd is abcd', ['abcd'])).toBe('*** is ***')
  })

  it('a percent-encoded secret whose decoded form has 4 characters is masked in both forms', () => {
    expect(redact('a@bc and a%40bc', ['a%40bc'])).toBe('*** and ***')
  })

  it('a secret with a malformed escape is masked as written', () => {
    expect(redact('sent ab%zz12 and ab%zz12.', ['ab%zz12'])).toBe('sent *** and ***.')
  })

  it('a numeric secret with a decimal point or a sign is masked as that number only', () => {
    expect(redact('took 1234.5 s, not 12345 s or 1234.56', ['1234.5'])).toBe('took *** s, not 12345 s or 1234.56')
    expect(redact('offset -9876, not -98765 or 9876', ['-9876'])).toBe('offset ***, not -98765 or 9876')
  })

  it('a list that grows, or changes in place, masks what it holds now', () => {
    const secrets = ['first-secret']
    expect(redact('first-secret second-secret', secrets)).toBe('*** second-secret')
    secrets.push('second-secret')
    expect(redact('first-secret second-secret', secrets)).toBe('*** ***')
    secrets[0] = 'third-secret'
    expect(redact('first-secret third-secret', secrets)).toBe('first-secret ***')
    secrets.splice(0, 2, 'fourth-secret', 'fifth-secret')
    expect(redactValue({ a: 'fourth-secret', b: 'second-secret' }, secrets)).toEqual({ a: '***', b: 'second-secret' })
  })
})

describe('registrable at its edges', () => {
  it('8 characters is the least; blanks around a value do not count', () => {
    expect(registrable('abc1234')).toBe(false)
    expect(registrable('abcd1234')).toBe(true)
    expect(registrable('   main   ')).toBe(false)
  })

  it('numbers with a sign or a decimal part are never registered; digits with letters are', () => {
    for (const value of ['-12345678', '+12345678', '1234.5678'])
      expect([value, registrable(value)]).toEqual([value, false])
    for (const value of ['12345678abc', '1234.5678x']) expect([value, registrable(value)]).toEqual([value, true])
  })

  it('everyday words up to 12 characters, joined by - _ . or a blank, in each case; 13 letters is a passphrase', () => {
    for (const value of ['READONLY', 'read-only', 'Europe-West', 'EUROPE-WEST', 'europe_west', 'europe.west'])
      expect([value, registrable(value)]).toEqual([value, false])
    for (const value of ['europe west', 'Read-Only-Db', 'abcdefghijkl'])
      expect([value, registrable(value)]).toEqual([value, false])
    for (const value of ['abcdefghijklm', 'read-0nly-db', 'eUROPE-west', 'europe+west'])
      expect([value, registrable(value)]).toEqual([value, true])
  })
})
