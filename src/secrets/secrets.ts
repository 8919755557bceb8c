/**
 * Secrets by value: every form of a known secret becomes ***, and which values
 * may become known secrets job-wide. (Where a secret stands, whatever its
 * value, is secret-positions.ts.)
 *
 * A secret can reach a report in more than its raw form: inside JSON text it
 * is escaped (`"`, `\`, a tab, a line break), and a service that normalises
 * URLs gives it back percent-encoded (`p@ss` as `p%40ss`), or decoded (a
 * secret written encoded, `p%40ss`, comes back as `p@ss`); Markdown and HTML
 * escape it (`sk\_live`, `a&amp;b`, a hex run broken by zero-width spaces).
 * Each form is replaced. Text is redacted before anything shortens it, so no part of a
 * secret survives a cut; structured values (`result`, the plan file) are
 * redacted value by value and then serialised, so the JSON stays JSON.
 */
import { defused, htmlEscaped, markdownEscaped, xmlEscaped } from '../values/markup.js'
import { type Leaf, NUMERIC, percentDecoded, rewrite } from '../values/values.js'

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
  const decoded = [secret, secret.replace(/\+/g, ' ')]
    .map(percentDecoded)
    .filter((plain): plain is string => plain !== undefined && plain.length >= MIN_SECRET_LENGTH)
  const forms = [secret, json, component, hexLower(component), form, hexLower(form), uri, hexLower(uri), ...decoded]
  // As the markup the action writes shows each (markup.ts): `sk\_live` in Markdown, `&amp;` in HTML and XML.
  const written = forms.flatMap(f => [
    f,
    markdownEscaped(f),
    defused(markdownEscaped(f)),
    htmlEscaped(f),
    xmlEscaped(f)
  ])
  return [...new Set(written.flatMap(f => [f, JSON.stringify(f).slice(1, -1)]))]
}

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
 * (the caller must not change it): a fleet's plan is redacted entry by entry.
 */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value
  const text = replacer(secrets)
  const leaf = (v: Leaf) => (typeof v === 'string' ? text(v) : text(String(v)) === String(v) ? v : '***')
  return rewrite(value, leaf, text) as T
}

/** Letters only, in one case or capitalised, joined at most by `-`, `_`, `.` or a blank: `main`, `Europe`, `read-only`. */
const EVERYDAY_WORD = /^(?:[a-z]+|[A-Z][a-z]*|[A-Z]+)(?:[-_. ](?:[a-z]+|[A-Z][a-z]*|[A-Z]+))*$/
/** Longer than this, letters alone are registered: a passphrase, not a word. */
const MAX_EVERYDAY_LENGTH = 12
/** Shorter values are never registered job-wide. */
const MIN_REGISTERED_LENGTH = 8

/**
 * May `value`, found in data (a spec, a checks file, an export), be masked
 * job-wide (the runner's `::add-mask::` and the step's own redaction by
 * value)? Not when it is shorter than 8 characters, a number, or an everyday
 * word (a boolean included): masking it would spoil every later log line
 * that holds it (`main`, `europe`, `8443`). Where such a value stands in a
 * secret position it is still shown as *** (secret-positions.ts).
 */
export function registrable(value: string): boolean {
  const v = value.trim()
  if (v.length < MIN_REGISTERED_LENGTH || NUMERIC.test(v)) return false
  return !(v.length <= MAX_EVERYDAY_LENGTH && EVERYDAY_WORD.test(v))
}
