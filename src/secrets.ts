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
