/**
 * Secrets by position (src/secrets/secret-positions.ts): which names are a secret's, which
 * values no position makes secret, what free text keeps, and the path
 * segment that looks like a token (src/operations/sync/export-file.ts).
 */
import { describe, expect, it } from '@jest/globals'
import {
  maskPositions,
  maskText,
  plainWord,
  secretName,
  secretSpans,
  withoutCredentials
} from '../../src/secrets/secret-positions.js'
import { redact, redactValue, registrable } from '../../src/secrets/secrets.js'
import { tokenLike } from '../../src/operations/sync/export-file.js'

describe('secretName: the whole name or its last word', () => {
  it.each([
    'token',
    'access_token',
    'client_secret',
    'apiKey',
    'x-api-key',
    'X-Amz-Signature',
    'Authorization',
    'APIKEY',
    'jwt',
    'auth.pass',
    'sig'
  ])('%s is a secret name', name => expect(secretName(name)).toBe(true))
  it.each(['bypass_cache', 'keyword', 'passport', 'monkey', 'tokenizer', 'sessionId', 'signed', 'name', 'url', ''])(
    '%s is not',
    name => expect(secretName(name)).toBe(false)
  )
})

describe('plainWord: never a secret wherever it stands', () => {
  it('booleans, common words, short values and (by default) numbers', () => {
    for (const word of ['true', 'FALSE', 'null', 'off', 'basic', 'abc', '1234', '3.5'])
      expect(plainWord(word)).toBe(true)
    for (const secret of ['hunter22', 'Bearer x1y2', 'tok-3f9a']) expect(plainWord(secret)).toBe(false)
  })
})

describe('maskPositions copies only what changes', () => {
  it('a list that holds no secret is returned as it is; one with a secret is copied only along its branch', () => {
    const plain = [{ name: 'a', url: 'https://a.example.com/?bypass_cache=true', tags: ['x'] }, { name: 'b' }]
    expect(maskPositions(plain)).toBe(plain)
    const mixed = [plain[0], { name: 'c', url: 'https://c.example.com/?token=abc123' }]
    const masked = maskPositions(mixed)
    expect(masked).not.toBe(mixed)
    expect(masked[0]).toBe(plain[0])
    expect(masked[1]).toEqual({ name: 'c', url: 'https://c.example.com/?token=***' })
    expect(mixed[1].url).toBe('https://c.example.com/?token=abc123') // the original is untouched
  })
})

describe('maskText: free text with every value in a secret position as ***', () => {
  it('a {name, value} header pair in JSON text, plain or escaped, value last or first, names in any case', () => {
    expect(maskText('bad: [{"name":"X-Api-Key","value":"k3y-12"},{"name":"Accept","value":"json"}]')).toBe(
      'bad: [{"name":"X-Api-Key","value":"***"},{"name":"Accept","value":"json"}]'
    )
    expect(maskText(JSON.stringify({ m: '[{"Name":"Authorization","Value":"Bearer abc"}]' }))).toBe(
      JSON.stringify({ m: '[{"Name":"Authorization","Value":"***"}]' })
    )
    expect(maskText('{"value":"s3cr3t-v","name":"X-Api-Key"} {"value":"ok","name":"Accept"}')).toBe(
      '{"value":"***","name":"X-Api-Key"} {"value":"ok","name":"Accept"}'
    )
  })

  it('userinfo, & ; # parameters, JSON credential fields; a placeholder and other parameters are kept', () => {
    expect(maskText('GET https://ops:p@ss@x.example.com/a?b=1;token=abc&sig=zz#access_token=q1&state=s')).toBe(
      'GET https://***@x.example.com/a?b=1;token=***&sig=***#access_token=***&state=s'
    )
    expect(maskText('{"headers":{"Authorization":"Bearer \\"x\\"","Accept":"*/*"}}')).toBe(
      '{"headers":{"Authorization":"***","Accept":"*/*"}}'
    )
    expect(maskText('url: "https://x/?token=${secret:CHECK_X_TOKEN}&bypass_cache=true"')).toBe(
      'url: "https://x/?token=${secret:CHECK_X_TOKEN}&bypass_cache=true"'
    )
  })

  it('a server message that echoes a body: JSON escaped inside a string, and header lines', () => {
    expect(
      maskText('nested="{\\"headers\\":{\\"Authorization\\":\\"Bearer HDR777\\"},\\"password\\":\\"PW8888\\"}"')
    ).toBe('nested="{\\"headers\\":{\\"Authorization\\":\\"***\\"},\\"password\\":\\"***\\"}"')
    expect(maskText('sent Authorization: Bearer HDR777 and X-Api-Key: k3y-123456, Accept: */*')).toBe(
      'sent Authorization: *** and X-Api-Key: ***, Accept: */*'
    )
    expect(maskText('password=PW8888 then')).toBe('password=*** then')
    // words after a secret's name are not secrets: a message about an input stays readable
    expect(maskText('api-key: the key is missing; token: expected a string; secret changed')).toBe(
      'api-key: the key is missing; token: expected a string; secret changed'
    )
  })

  it('hostile text stays text: a line break, a lone CR, markup and pipes around a secret', () => {
    expect(maskText('x\n::error::?token=abc\r<img src=x>|y')).toBe('x\n::error::?token=***\r<img src=x>|y')
  })

  it('is linear on long text (no catastrophic backtracking)', () => {
    const started = Date.now()
    maskText('x'.repeat(1_000_000))
    maskText('?a'.repeat(300_000))
    maskText('http://'.repeat(100_000))
    // Many parameters inside one value (no `&` to end it): each is read once, not to the end again.
    secretSpans('?a=' + '?b='.repeat(300_000))
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})

describe('maskPositions: a structured value', () => {
  it('credential fields whole, header pairs by their name, booleans and null kept, keys never touched', () => {
    expect(
      maskPositions({
        name: 'token',
        url: 'https://u:p@h/?bypass_cache=true&apiKey=abc',
        headers: [
          { name: 'Authorization', value: 'Bearer x' },
          { key: 'Accept', value: '*/*' }
        ],
        auth: { user: 'a', pass: 'b', enabled: true, none: null },
        password: 1234
      })
    ).toEqual({
      name: 'token',
      url: 'https://***@h/?bypass_cache=true&apiKey=***',
      headers: [
        { name: 'Authorization', value: '***' },
        { key: 'Accept', value: '*/*' }
      ],
      auth: { user: '***', pass: '***', enabled: true, none: null },
      password: '***'
    })
  })

  it('a redirect inside a parameter does not hide the token after it', () => {
    expect(secretSpans('https://h/?next=/a?token=x').map(s => s.where)).toEqual(['query parameter token'])
  })
})

describe('tokenLike: a path segment that looks like a token', () => {
  it('long, random, letters and digits: yes; slugs, UUIDs, ids, words: no', () => {
    expect(tokenLike('aZ3kP9qR7sT1uV5wX8yB2cD4')).toBe(true)
    expect(tokenLike('ghp1x9Qm2Lk8Zt7Yv6Ws5Ru')).toBe(true)
    for (const segment of [
      'my-long-product-name-2024',
      '550e8400-e29b-41d4-a716-446655440000',
      'T0123',
      'services',
      'aaaaaaaaaaaaaaaaaaaaaa11'
    ])
      expect(tokenLike(segment)).toBe(false)
  })
})

describe('the grammar at its edges', () => {
  it('a name that holds a secret word but does not end with one is no secret', () => {
    for (const name of ['AUTH_MODE', 'KEYCLOAK_REALM', 'keyword', 'author', 'KEYWORD', 'AUTH_PORT', 'tokenCount'])
      expect([name, secretName(name)]).toEqual([name, false])
    for (const name of ['DB_PASSWORD', 'sessionCookie', 'X-API-KEY', 'client.secret', 'PASSPHRASE'])
      expect([name, secretName(name)]).toEqual([name, true])
    const url = 'https://h/?auth_mode=main&keyword=healthy&author=ann&keycloak_realm=eu'
    expect(maskPositions({ url })).toEqual({ url })
    expect(maskText(url)).toBe(url)
  })

  it('a percent-encoded parameter name is decoded before it is judged: api%5Fkey is api_key', () => {
    expect(secretSpans('https://h/?api%5Fkey=abc12345&x=1').map(s => s.where)).toEqual(['query parameter api_key'])
    expect(maskText('GET https://h/?API%5FKEY=abc12345&x=1')).toBe('GET https://h/?API%5FKEY=***&x=1')
  })

  it('a ? inside a parameter value belongs to it', () => {
    const url = 'https://h/?token=abc?SECRETTAIL&x=1#sig=q?r;state=s'
    expect(maskPositions({ url }).url).toBe('https://h/?token=***&x=1#sig=***;state=s')
    expect(maskText(`see ${url}`)).toBe('see https://h/?token=***&x=1#sig=***;state=s')
    expect(secretSpans('https://h/?next=/a?token=x&y=1').map(s => s.where)).toEqual(['query parameter token'])
  })

  it('a letters-only Bearer token under 16 characters is still masked, though never masked job-wide', () => {
    expect(maskText('sent Authorization: Bearer abcdefgh')).toBe('sent Authorization: ***')
    expect(maskPositions({ headers: ['Authorization: Bearer abcdefgh'] })).toEqual({ headers: ['Authorization: ***'] })
    expect(maskPositions({ headers: { Authorization: 'Bearer abcdefgh' } })).toEqual({
      headers: { Authorization: '***' }
    })
    expect(registrable('abcdefgh')).toBe(false)
  })

  it('header lines as strings, upper-case names, and {name, value} pairs with keys in any case', () => {
    expect(
      maskPositions({
        headers: ['AUTHORIZATION: Bearer x1', 'X-API-KEY:k2', 'Accept: */*'],
        requestHeaders: 'Accept: text/html\nCookie: session=s3\nx-auth-token: t4',
        pairs: [
          { Name: 'X-API-KEY', Value: 'k5' },
          { header: 'authorization', value: 'Basic b6' },
          { key: 'Accept', value: 'text/plain' }
        ],
        description: 'https://example.com/status'
      })
    ).toEqual({
      headers: ['AUTHORIZATION: ***', 'X-API-KEY:***', 'Accept: */*'],
      requestHeaders: 'Accept: text/html\nCookie: ***\nx-auth-token: ***',
      pairs: [
        { Name: 'X-API-KEY', Value: '***' },
        { header: 'authorization', value: '***' },
        { key: 'Accept', value: 'text/plain' }
      ],
      description: 'https://example.com/status'
    })
    expect(maskText('{"headers":["X-Api-Key: abcdefgh","Accept: */*"]}')).toBe(
      '{"headers":["X-Api-Key: ***","Accept: */*"]}'
    )
  })

  it('a proxy URL with a password and no user', () => {
    expect(maskText('proxy http://:pr0xyPass@proxy.example.com:8080 refused')).toBe(
      'proxy http://***@proxy.example.com:8080 refused'
    )
    expect(maskPositions({ proxy: 'http://:pr0xyPass@proxy.example.com:8080' })).toEqual({
      proxy: 'http://***@proxy.example.com:8080'
    })
    expect(withoutCredentials('http://:pr0xyPass@proxy.example.com:8080')).toBe('http://proxy.example.com:8080/')
  })
})

describe('secrets by value', () => {
  it('the longer of two forms is replaced first: abcd1234 never shows as ***1234', () => {
    for (const secrets of [
      ['abcd', 'abcd1234'],
      ['abcd1234', 'abcd']
    ]) {
      expect(redact('x abcd1234 y abcd z', secrets)).toBe('x *** y *** z')
      expect(redactValue({ a: 'abcd1234', b: ['abcd'] }, secrets)).toEqual({ a: '***', b: ['***'] })
    }
    // Percent-encoded and raw forms of one secret: the encoded one is not cut by the raw one inside it.
    expect(redact('p%40ss1234 and p@ss1234', ['p@ss1234'])).toBe('*** and ***')
  })

  it('registrable: nothing short, numeric or an everyday word is masked job-wide', () => {
    for (const value of ['main', 'europe', 'healthy', '8443', 'internal', 'true', 'disabled', 'Production', '73914682'])
      expect([value, registrable(value)]).toEqual([value, false])
    for (const value of ['hunter22', 'tok-3f9a8b7c', 'correcthorsebattery', 'Bearer abcdefgh', 'k3y0123456789abc'])
      expect([value, registrable(value)]).toEqual([value, true])
  })
})
