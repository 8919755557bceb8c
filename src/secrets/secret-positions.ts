/**
 * Secrets by position: the one grammar of the places where a secret stands,
 * whatever its value and whether the step knows it (the service's old value,
 * one of a check about to be deleted). Every writer asks here, through
 * `replacePositions` (structured values) or `maskText` (free text).
 *
 * The places: the userinfo of a URL; a query or fragment parameter whose name
 * is a secret's, its value running to the next `&`, `;` or `#` (a `?` inside
 * belongs to it); a header line `Name: value` written as a string, in any
 * field or list; the value of a `{name, value}` pair; and everything under a
 * field whose name is a secret's. A name (of a parameter,
 * field, header or variable) is a secret's when its last word is a secret
 * word: `access_token`, `X-Api-Key`, `apiKey` are; `AUTH_MODE`, `keyword`,
 * `author` are not.
 */
import { type TextKind, userinfoRanges } from './url-reading.js'
import { type Mapping, NUMERIC, type Trail, isMapping, pathOf, percentDecoded, rewrite } from '../values/values.js'

const SECRET_WORDS = new Set([
  ...['token', 'key', 'secret', 'password', 'passwd', 'pass', 'pwd', 'signature', 'sig', 'auth', 'credential'],
  ...['session', 'jwt', 'bearer', 'authorization', 'credentials', 'cookie', 'passphrase'],
  // The same written as one word.
  ...['apikey', 'accesstoken', 'authtoken', 'apitoken', 'secretkey', 'privatekey', 'clientsecret', 'refreshtoken']
])

/**
 * Is `name` a secret's? Its last word (split at `_`, `-`, `.`, a blank and
 * camelCase) decides, case aside: `bypass_cache` no, `access_token`,
 * `apiKey`, `x-api-key`, `X-Amz-Signature`, `Authorization`, `DB_PASSWORD`
 * yes; `KEYCLOAK_REALM`, `AUTH_PORT`, `keyword` no.
 */
export function secretName(name: string): boolean {
  const known = secretNames.get(name)
  if (known !== undefined) return known
  const secret = lastWordIsSecret(name)
  if (secretNames.size < MAX_NAMES_KNOWN) secretNames.set(name, secret)
  return secret
}

/** The names judged so far: a fleet's values stand under a few field names, each judged once, not at every value. */
const secretNames = new Map<string, boolean>()
const MAX_NAMES_KNOWN = 1000

function lastWordIsSecret(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]/)
    .filter(Boolean)
  return words.length > 0 && SECRET_WORDS.has(words[words.length - 1].toLowerCase())
}

/** Words of 4 characters or more that stand for no value (shorter ones are plain already: `yes`, `on`, `nil`). */
const WORDS = new Set(['true', 'false', 'null', 'none', 'undefined', 'basic', 'bearer', 'digest'])
WORDS.add('enabled').add('disabled').add('default').add('empty')

/**
 * A value that stays as written even in a secret position when a file is
 * written for people (export): a boolean or a word like one, fewer than 4
 * characters, a number. (It is still shown as *** there.)
 */
export function plainWord(value: string): boolean {
  const v = value.trim()
  return v.length < 4 || NUMERIC.test(v) || WORDS.has(v.toLowerCase())
}

/** Where in a text a secret stands: [start, end), what it is (`userinfo`, `query parameter token`), its name. */
export interface SecretSpan {
  start: number
  end: number
  where: string
  name: string
}

/** A string of a structured value: only a blank ends a value; a URL at its start is the whole value. */
const VALUE: TextKind = { stop: '\\s', wholeValue: true }
/** Free text (a log line, a message): a blank, a quote, `<`, `>`, `\` or a backtick ends a value. */
const TEXT: TextKind = { stop: '\\s"\'<>\\\\`', wholeValue: false }

/** A header written as a line of a string value: `Authorization: Bearer x`, `X-Api-Key: x`. */
const HEADER_LINE = /^([ \t]*)([A-Za-z][A-Za-z0-9_.-]{0,60})([ \t]*:[ \t]*)([^\r\n]*?)[ \t]*$/gm

/** A parameter's name as the service reads it: `+` a blank, percent-decoded (one that does not decode, as written). */
const decodedName = (name: string): string => percentDecoded(name.replace(/\+/g, ' ')) ?? name

/** Parameters `?name=value` (`&`, `;`, `#` before the name too) whose name is a secret's; linear in `value`. */
function parameterSpans(value: string, reading: TextKind): SecretSpan[] {
  const delimiter = /[?&;#]/g
  const named = new RegExp(`[^=?&;#${reading.stop}]{1,200}=`, 'y')
  const ending = new RegExp(`[&;#${reading.stop}]`, 'g')
  const hash = value.indexOf('#')
  const spans: SecretSpan[] = []
  let end = -1 // where the last value ends: it is where every later value ends that starts before it
  for (let d = delimiter.exec(value); d; d = delimiter.exec(value)) {
    named.lastIndex = d.index + 1
    const name = named.exec(value)?.[0].slice(0, -1)
    if (name === undefined) continue
    const start = d.index + 1 + name.length + 1
    if (end < start) {
      ending.lastIndex = start
      end = ending.exec(value)?.index ?? value.length
    }
    const decoded = decodedName(name)
    if (end === start || !secretName(decoded)) continue
    const part = hash >= 0 && hash <= d.index ? 'fragment' : 'query'
    spans.push({ start, end, where: `${part} parameter ${decoded}`, name: decoded })
  }
  return spans
}

/** The secrets of a text as `reading` reads it, in order, none overlapping (the first kept). */
function spansOf(value: string, reading: TextKind): SecretSpan[] {
  // Every place needs one of these: `:` after a scheme or a header's name, `?&;#` before a parameter.
  if (!/[:?&;#]/.test(value)) return []
  const found: SecretSpan[] = userinfoRanges(value, reading).map(([start, end]) => ({
    start,
    end,
    where: 'userinfo',
    name: 'USERINFO'
  }))
  if (reading === VALUE) {
    for (const m of value.matchAll(HEADER_LINE)) {
      const start = (m.index ?? 0) + m[1].length + m[2].length + m[3].length
      if (m[4] !== '' && secretName(m[2])) {
        found.push({ start, end: start + m[4].length, where: `header ${m[2]}`, name: m[2] })
      }
    }
  }
  found.push(...parameterSpans(value, reading))
  // No two places start at one character: each follows its own `://`, `:` or blank, or `=`.
  found.sort((a, b) => a.start - b.start)
  const spans: SecretSpan[] = []
  for (const span of found) if (spans.length === 0 || span.start >= spans[spans.length - 1].end) spans.push(span)
  return spans
}

/** The secrets in one string of a structured value. */
export function secretSpans(value: string): SecretSpan[] {
  return spansOf(value, VALUE)
}

function replaceSpans(value: string, spans: SecretSpan[], replace: (secret: string, span: SecretSpan) => string) {
  let out = ''
  let at = 0
  for (const span of spans) {
    out += value.slice(at, span.start) + replace(value.slice(span.start, span.end), span)
    at = span.end
  }
  return out + value.slice(at)
}

/** The keys that label a header written as a pair (any case). */
const LABELS = new Set(['name', 'key', 'header'])

/**
 * The name that says whether `map[key]` is a secret: its key, but in a header
 * written as a pair (`{name: "Authorization", value: "..."}`, keys in any
 * case) the label names the value, and the label itself is no secret.
 */
function nameOf(map: Mapping, key: string): string {
  const keys = Object.keys(map)
  const label = keys.find(k => LABELS.has(k.toLowerCase()) && typeof map[k] === 'string')
  if (label === undefined || !keys.some(k => k.toLowerCase() === 'value')) return key
  if (key === label) return ''
  return key.toLowerCase() === 'value' ? (map[label] as string) : key
}

/** Does a leaf stand under a field (or a pair's value) whose name is a secret's, at any depth? */
function inSecretField(trail: Trail | undefined): boolean {
  for (let at = trail; at; at = at.up) {
    if (typeof at.key === 'string' && isMapping(at.holder) && secretName(nameOf(at.holder, at.key))) return true
  }
  return false
}

/** Where a secret stands in a structured value: the field's path, and the span in its text if not the whole value. */
export interface SecretPlace {
  path: string
  span?: SecretSpan
}

/**
 * `value` with every value in a secret position replaced by what `replace`
 * gives: spans of strings, and whole values under a credential field (a
 * string or a number; booleans and empty strings are kept). Keys are never
 * touched; what holds no secret is the value itself (values.ts `rewrite`).
 */
export function replacePositions(
  value: unknown,
  replace: (secret: string | number, place: SecretPlace) => unknown
): unknown {
  return rewrite(value, (leaf, trail) => {
    if (typeof leaf !== 'string' && typeof leaf !== 'number') return leaf
    if (inSecretField(trail)) return leaf === '' ? leaf : replace(leaf, { path: pathOf(trail) })
    if (typeof leaf === 'number') return leaf
    const spans = secretSpans(leaf)
    return spans.length === 0
      ? leaf
      : replaceSpans(leaf, spans, (s, span) => String(replace(s, { path: pathOf(trail), span })))
  })
}

/** `value` with every value in a secret position as ***. */
export function maskPositions<T>(value: T): T {
  return replacePositions(value, () => '***') as T
}

/** The values in secret positions of `value`, in order: what tells whether a secret changed. */
export function secretsIn(value: unknown): Array<string | number> {
  const found: Array<string | number> = []
  replacePositions(value, secret => (found.push(secret), secret))
  return found
}

/**
 * `name: value` or `name=value` in free text, the name at a word's start; a
 * value may follow an auth scheme. A name after `?`, `&`, `;` or `#` is a
 * parameter's, read by the one grammar of parameters (`parameterSpans`).
 */
const HEADER_TEXT =
  /(^|[\s,{(])([A-Za-z][A-Za-z0-9_.-]{0,60})(\s*[:=]\s*)((?:Bearer|Basic|Token|Digest)\s+)?([^\s,;"'<>&]{1,2000})/g

/** A value after a secret's name in free text that reads as a secret, not as a word of a sentence. */
const secretLooking = (value: string): boolean => !plainWord(value) && (/\d/.test(value) || value.length >= 16)

/**
 * Free text (a log line, a message) with every value in a secret position as
 * ***: URLs; JSON fields `"password": "..."`, also escaped inside a string;
 * a JSON string that is a header line (`["Authorization: Bearer x"]`); and a
 * header or setting written in prose (`X-Api-Key: k3y-1`), where a value
 * after an auth scheme is masked, and one without only when it reads as a
 * secret (a digit, or 16 characters), so `token: expected a string` stays.
 */
export function maskText(text: string): string {
  // A placeholder (`?token=${secret:NAME}`, as export-checks shows what it wrote) is no secret.
  const keep = (secret: string) => /^\$\{(secret:)?[A-Za-z_][A-Za-z0-9_]*\}$/.test(secret)
  const masked = replaceSpans(text, spansOf(text, TEXT), secret => (keep(secret) ? secret : '***'))
  const field = (m: string, key: string, colon: string, v: string, quote: string) =>
    v !== '' && secretName(key) ? `${quote}${key}${quote}${colon}${quote}***${quote}` : m
  return masked
    .replace(/"([^"\\]{1,80})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (m, key: string, colon: string, v: string) =>
      field(m, key, colon, v, '"')
    )
    .replace(/\\"([^"\\]{1,80})\\"(\s*:\s*)\\"(.{0,2000}?)\\"/g, (m, key: string, colon: string, v: string) =>
      field(m, key, colon, v, '\\"')
    )
    .replace(
      /([[,:])"([A-Za-z][A-Za-z0-9_.-]{0,60})(\s*:\s*)((?:[^"\\]|\\.){1,2000})"/g,
      (m, before: string, name: string, sep: string) => (secretName(name) ? `${before}"${name}${sep}***"` : m)
    )
    .replace(HEADER_TEXT, (m, before: string, name: string, sep: string, scheme: string | undefined, v: string) =>
      secretName(name) && v !== '***' && (scheme !== undefined || secretLooking(v)) ? `${before}${name}${sep}***` : m
    )
    .replace(PAIR_TEXT, (m, q: string, name: string, v: string) =>
      secretName(name) ? m.slice(0, m.length - v.length - q.length) + `***${q}` : m
    )
    .replace(PAIR_TEXT_REVERSED, (m, q: string, v: string, name: string) =>
      secretName(name) ? m.replace(`${q}${v}${q}`, `${q}***${q}`) : m
    )
}

/**
 * A `{name, value}` pair in JSON text, plain or escaped inside a string (`q`
 * is the quote: `"` or `\"`): `"name": "X-Api-Key", "value": "..."`, keys in
 * any case (`key` for `name`), the value last (PAIR_TEXT) or first.
 */
const PAIR_TEXT =
  /(\\?")(?:name|key)\1\s*:\s*\1([^"\\]{1,80})\1\s*,\s*\1value\1\s*:\s*\1((?:[^"\\]|\\(?!")|\\"(?![,}\]])){1,2000})\1/gi
const PAIR_TEXT_REVERSED =
  /(\\?")value\1\s*:\s*\1((?:[^"\\]|\\(?!")){1,2000})\1\s*,\s*\1(?:name|key)\1\s*:\s*\1([^"\\]{1,80})\1/gi

/** A URL without its user name and password (a proxy URL may carry them, a password alone too). */
export function withoutCredentials(url: string): string {
  if (!url) return url
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password) return url
    parsed.username = ''
    parsed.password = ''
    return parsed.href
  } catch {
    return '(an unparsable proxy URL)'
  }
}
