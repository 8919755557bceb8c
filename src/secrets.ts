/**
 * Secrets in what the action writes: every form of a secret becomes ***.
 *
 * A secret can reach a report in more than its raw form: inside JSON text it
 * is escaped (`"`, `\`, a tab, a line break), and a service that normalises
 * URLs gives it back percent-encoded (`p@ss` as `p%40ss`), or decoded (a
 * secret written encoded, `p%40ss`, comes back as `p@ss`). Each form is
 * replaced. Text is redacted before anything shortens it, so no part of a
 * secret survives a cut; structured values (`result`, the plan file) are
 * redacted value by value and then serialised, so the JSON stays JSON.
 */

/** Shorter secrets are not masked (they would mask everywhere); the runner has the same rule. */
const MIN_SECRET_LENGTH = 4

const hexLower = (text: string) => text.replace(/%[0-9A-F]{2}/g, hex => hex.toLowerCase())

/** Every form in which `secret` may appear in text the action writes. */
export function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1)
  const component = encodeURIComponent(secret)
  const form = new URLSearchParams({ s: secret }).toString().slice(2)
  const uri = (() => {
    try {
      return encodeURI(secret)
    } catch {
      return secret // a lone surrogate: it has no encoded form
    }
  })()
  // A percent-encoded secret (`p%40ss`, as a URL holds it) comes back decoded from a service that decodes.
  const decoded = [secret, secret.replace(/\+/g, ' ')].flatMap(text => {
    try {
      const plain = decodeURIComponent(text)
      return plain !== secret && plain.length >= MIN_SECRET_LENGTH ? [plain] : []
    } catch {
      return []
    }
  })
  const forms = [secret, json, component, hexLower(component), form, hexLower(form), uri, hexLower(uri), ...decoded]
  return [...new Set(forms.flatMap(f => [f, JSON.stringify(f).slice(1, -1)]))]
}

/** A form that is a number alone matches only where a number ends (3600 never masks 36000 into ***0). */
const NUMERIC = /^[-+]?\d+(\.\d+)?$/
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The replacer last built for a list of secrets, and the secrets it was built for (a list grows as secrets are added). */
const replacers = new WeakMap<readonly string[], { built: string[]; replace: (text: string) => string }>()

/** The replacer of `secrets`, built once while the list stays the same: a fleet's entries are redacted one by one. */
function replacer(secrets: readonly string[]): (text: string) => string {
  const known = replacers.get(secrets)
  if (known && known.built.length === secrets.length && known.built.every((s, i) => s === secrets[i])) {
    return known.replace
  }
  const replace = buildReplacer(secrets)
  replacers.set(secrets, { built: [...secrets], replace })
  return replace
}

function buildReplacer(secrets: readonly string[]): (text: string) => string {
  const forms = [...new Set(secrets.filter(s => s.length >= MIN_SECRET_LENGTH).flatMap(formsOf))].sort(
    (a, b) => b.length - a.length
  )
  return text => {
    let out = text
    for (const form of forms) {
      if (!out.includes(form)) continue
      out = NUMERIC.test(form)
        ? out.replace(new RegExp(`(?<!\\d|\\d\\.)${escapeRegExp(form)}(?!\\d|\\.\\d)`, 'g'), '***')
        : out.split(form).join('***')
    }
    return out
  }
}

/** `text` with every form of every secret replaced by ***. Redact before shortening. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : replacer(secrets)(text)
}

/**
 * A value with every secret in it replaced, field by field (keys too): a
 * string is redacted as text; a number or boolean that is a secret becomes
 * the string ***. Serialise the result: the JSON stays valid, and no other
 * number is touched. What holds no secret is the value itself, not a copy
 * (the caller must not change it). A value that is not a plain object or an
 * array is copied as before (its own fields, as a plain object).
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  const text = replacer(secrets)
  // What holds no secret is returned as it is, not copied: a fleet's plan is redacted entry by entry.
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v)
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
      return text(String(v)) === String(v) ? v : '***'
    }
    if (Array.isArray(v)) {
      let out: unknown[] | undefined
      v.forEach((x, i) => {
        const y = walk(x)
        if (y !== x) (out ??= [...v])[i] = y
      })
      return out ?? v
    }
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>)
      let changed = Object.getPrototypeOf(v) !== Object.prototype
      const redacted = entries.map(([k, x]): [string, unknown] => {
        const [key, y] = [text(k), walk(x)]
        if (key !== k || y !== x) changed = true
        return [key, y]
      })
      return changed ? Object.fromEntries(redacted) : v
    }
    return v
  }
  return walk(value) as T
}

/** A URL without its user name and password (a proxy URL may carry them). */
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

/*
 * Secrets by position. A value standing where secrets stand is a secret
 * whatever it is, known to the step or not (the service's old value, one of a
 * check about to be deleted): the userinfo of a URL; a query or fragment
 * parameter (`&`- or `;`-separated) whose name is a secret's (secretName); a
 * field or header so named (`Authorization`, `apiKey`, `password`...), or the
 * `value` of a `{name: Authorization, value: ...}` pair.
 */

/** A name is a secret's when its last word (after `_`, `-`, `.`, a space or a camelCase boundary) is one of these. */
const SECRET_WORDS = new Set([
  ...['token', 'key', 'secret', 'password', 'passwd', 'pass', 'pwd', 'signature', 'sig', 'auth', 'credential'],
  ...['session', 'jwt', 'bearer', 'authorization', 'credentials', 'cookie', 'passphrase'],
  // The same written as one word.
  ...['apikey', 'accesstoken', 'authtoken', 'apitoken', 'secretkey', 'privatekey', 'clientsecret', 'refreshtoken']
])

/** `bypass_cache` no, `access_token`, `apiKey`, `x-api-key`, `X-Amz-Signature`, `Authorization` yes. */
export function secretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
  return words.length > 0 && SECRET_WORDS.has(words[words.length - 1].toLowerCase())
}

const WORDS = new Set(['true', 'false', 'null', 'none', 'nil', 'undefined', 'yes', 'no', 'on', 'off', 'basic'])
WORDS.add('bearer').add('digest').add('enabled').add('disabled').add('default').add('empty')

/**
 * A value no position makes a secret: a boolean, a common word, fewer than 4
 * characters, and (unless `numbers` is false) a number.
 */
export function plainWord(value: string, numbers = true): boolean {
  const v = value.trim()
  return v.length < MIN_SECRET_LENGTH || (numbers && NUMERIC.test(v)) || WORDS.has(v.toLowerCase())
}

/** Where in a text a secret stands: [start, end), what it is (`userinfo`, `query parameter token`), its name. */
export interface SecretSpan {
  start: number
  end: number
  where: string
  name: string
}

/**
 * The secrets in one value's text (`text`: false) or in free text, such as a
 * log line (`true`: a value also ends at a blank, a quote, `<`, `>` or `\`).
 */
export function secretSpans(value: string, text = false): SecretSpan[] {
  const stop = text ? '\\s"\'<>\\\\`' : '\\s'
  const spans: SecretSpan[] = []
  // The userinfo is everything up to the last @ of the authority (a password may hold an @).
  // Bounded repeats only (a scheme of at most 32 characters, a name of at most 200): linear on long text.
  const userinfo = new RegExp(`((?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://)([^/?#${stop}]*)@`, 'g')
  for (const m of value.matchAll(userinfo)) {
    const start = (m.index ?? 0) + m[1].length
    if (m[2] !== '') spans.push({ start, end: start + m[2].length, where: 'userinfo', name: 'USERINFO' })
  }
  const parameter = new RegExp(`([?&;#])([^=&;#?${stop}]{1,200})=([^&;#?${stop}]*)`, 'g')
  for (const m of value.matchAll(parameter)) {
    let name = m[2]
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '))
    } catch {
      // a name that does not decode is judged as written
    }
    if (m[3] === '' || !secretName(name)) continue
    const start = (m.index ?? 0) + m[1].length + m[2].length + 1
    const fragment = value.lastIndexOf('#', start) >= 0
    if (spans.some(s => start < s.end && s.start < start + m[3].length)) continue
    spans.push({ start, end: start + m[3].length, where: `${fragment ? 'fragment' : 'query'} parameter ${name}`, name })
  }
  return spans.sort((a, b) => a.start - b.start)
}

/** `value` with each secret span replaced by what `replace` gives for it. */
export function replaceSpans(value: string, replace: (secret: string, span: SecretSpan) => string, text = false) {
  let out = ''
  let at = 0
  for (const span of secretSpans(value, text)) {
    out += value.slice(at, span.start) + replace(value.slice(span.start, span.end), span)
    at = span.end
  }
  return out + value.slice(at)
}

/** Where a secret stands in a structured value: the field's path, and the span in its text if not the whole value. */
export interface SecretPlace {
  path: string
  span?: SecretSpan
}

/**
 * `value` with every value in a secret position replaced by `replace`: spans
 * of strings, and whole values of credential fields (every string or number
 * under one; booleans and null are kept). Keys are never touched.
 */
export function replacePositions(
  value: unknown,
  replace: (secret: string | number, place: SecretPlace) => unknown,
  path = '',
  secret = false
): unknown {
  if (value === null || typeof value === 'boolean' || value === undefined) return value
  if (typeof value === 'string' || typeof value === 'number') {
    if (secret) return value === '' ? value : replace(value, { path })
    return typeof value === 'number' ? value : replaceSpans(value, (s, span) => String(replace(s, { path, span })))
  }
  // What holds no secret is returned as it is (a copy only of the branches that change): a list of
  // 50,000 checks is not copied whole to find none.
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    value.forEach((v, i) => {
      const next = replacePositions(v, replace, `${path}[${i}]`, secret)
      if (next !== v) (out ??= value.slice())[i] = next
    })
    return out ?? value
  }
  if (typeof value !== 'object') return value
  const map = value as Record<string, unknown>
  // A header written as a pair: {name: "Authorization", value: "..."}.
  const labelKey = 'value' in map ? ['name', 'key', 'header'].find(k => typeof map[k] === 'string') : undefined
  let out: Record<string, unknown> | undefined
  for (const [k, v] of Object.entries(map)) {
    if (k === labelKey && !secret) continue
    const named = labelKey !== undefined && k === 'value' ? secretName(map[labelKey] as string) : secretName(k)
    const next = replacePositions(v, replace, path ? `${path}.${k}` : k, secret || named)
    if (next !== v) (out ??= { ...map })[k] = next
  }
  return out ?? value
}

/** `value` with every value in a secret position as ***. */
export function maskPositions<T>(value: T): T {
  return replacePositions(value, secret => (secret === '***' ? secret : '***')) as T
}

/** The values in secret positions of `value`, in order: what tells whether a secret changed. */
export function secretsIn(value: unknown): Array<string | number> {
  const found: Array<string | number> = []
  replacePositions(value, secret => (found.push(secret), secret))
  return found
}

/** Free text (a log line, a message) with every value in a secret position as ***: URLs, and `"Authorization": "..."`. */
export function maskText(text: string): string {
  // A placeholder (`?token=${secret:NAME}`, as export-checks shows what it wrote) is no secret.
  const keep = (secret: string) => secret === '***' || /^\$\{(secret:)?[A-Za-z_][A-Za-z0-9_]*\}$/.test(secret)
  const masked = replaceSpans(text, secret => (keep(secret) ? secret : '***'), true)
  return (
    masked
      .replace(/"([^"\\]{1,80})"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (m, key: string, colon: string, v: string) =>
        v !== '' && v !== '***' && secretName(key) ? `"${key}"${colon}"***"` : m
      )
      // The same inside a JSON string (a server's message that echoes a body as text): \"key\":\"value\".
      .replace(/\\"([^"\\]{1,80})\\"(\s*:\s*)\\"(.{0,2000}?)\\"/g, (m, key: string, colon: string, v: string) =>
        v !== '' && v !== '***' && secretName(key) ? `\\"${key}\\"${colon}\\"***\\"` : m
      )
      // A header or setting written as text: `Authorization: Bearer x`, `X-Api-Key: x`, `password=x`.
      .replace(HEADER_TEXT, (m, before: string, name: string, sep: string, scheme: string | undefined, v: string) =>
        secretName(name) && v !== '***' && (scheme !== undefined || secretLooking(v)) ? `${before}${name}${sep}***` : m
      )
  )
}

/** `name: value` or `name=value` in text, the name at a word's start; a value may follow an auth scheme. */
const HEADER_TEXT =
  /(^|[\s,;{(])([A-Za-z][A-Za-z0-9_.-]{0,60})(\s*[:=]\s*)((?:Bearer|Basic|Token|Digest)\s+)?([^\s,;"'<>&]{1,2000})/g

/** A value after a secret's name in free text that reads as a secret, not as a word of a sentence. */
const secretLooking = (value: string): boolean => !plainWord(value) && (/\d/.test(value) || value.length >= 16)
