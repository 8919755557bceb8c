/**
 * A checks file made from the service's checks (export-checks), so that
 * `sync-checks` of it plans nothing: each entry states what the service has
 * (its writable fields, `status` only when paused), written so the checks
 * file reader gives back the very same values, with the secrets in URLs
 * replaced by `${secret:NAME}` placeholders. Pure: the operation lists and writes.
 */
import type { Check } from '../../api/schemas.js'
import { specProblem, CheckEntrySchema } from '../../specs.js'
import type { Mapping } from '../../values.js'
import yaml from '../../lazy/yaml.cjs'
import { str, writableOf } from '../common.js'

/** A value lifted out of a URL: the variable that holds it now, and where it was. */
export interface Lifted {
  variable: string
  check: string
  /** "userinfo" or "query parameter token". */
  where: string
  value: string
}

/** Query parameters whose values are secrets by their name. */
const SECRET_PARAMETER = /token|key|secret|pass(word)?|pwd|sig(nature)?|auth|credential|session/i

/** The variable name a check's secret is written as: CHECK_<NAME>_<PART>, letters, digits and _ only. */
function variableFor(check: string, part: string): string {
  const slug = `${check}_${part}`
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
  return `CHECK_${slug || 'SECRET'}`
}

/**
 * `url` with its secrets as placeholders: the userinfo (`user:pass@`) and the
 * value of every query parameter named like a token, key, secret, password or
 * signature. The text around them is kept to the character (the service's
 * URL, not a parsed and re-written one), a literal `${` in it escaped, so the
 * placeholders filled back in give the very URL the service has.
 */
export function liftSecrets(url: string, check: string, taken: Set<string>): { url: string; lifted: Lifted[] } {
  const lifted: Lifted[] = []
  // Where a placeholder goes until the rest is escaped: a private-use character the URL does not hold.
  let code = 0xe000
  while (url.includes(String.fromCharCode(code))) code++
  const mark = String.fromCharCode(code)
  const lift = (value: string, part: string, where: string) => {
    let variable = variableFor(check, part)
    for (let n = 2; taken.has(variable); n++) variable = `${variableFor(check, part)}_${n}`
    taken.add(variable)
    lifted.push({ variable, check, where, value })
    return `${mark}${variable}${mark}`
  }
  // The userinfo is everything up to the last @ of the authority (a password may hold an @).
  let out = url.replace(
    /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/,
    (_m, scheme: string, userinfo: string) => `${scheme}${lift(userinfo, 'USERINFO', 'userinfo')}@`
  )
  out = out.replace(/([?&])([^=&#]+)=([^&#]*)/g, (match, sep: string, key: string, value: string) => {
    let name = key
    try {
      name = decodeURIComponent(key.replace(/\+/g, ' '))
    } catch {
      // a key that does not decode is judged as written
    }
    if (value === '' || !SECRET_PARAMETER.test(name)) return match
    return `${sep}${key}=${lift(value, name, `query parameter ${name}`)}`
  })
  const text = escapeTemplates(out) as string
  // What a URL parser still reads as a user or password was not lifted (`https:user:pw@host`, a
  // leading blank): never written, since the file is meant to be committed.
  if (
    hasCredentials(
      out
        .split(mark)
        .filter((_, i) => i % 2 === 0)
        .join('')
    )
  ) {
    throw new ExportError(
      `the URL of check ${JSON.stringify(check)} holds a user name or password in a form export-checks cannot separate from the rest; rewrite it as https://user:password@host/... (or drop the credentials), then export again. Nothing was written.`
    )
  }
  return {
    url: text.replace(
      new RegExp(`${mark}([A-Z0-9_]+)${mark}`, 'g'),
      (_m, variable: string) => `\${secret:${variable}}`
    ),
    lifted
  }
}

/** Does a URL parser read a user name or password in `url`? */
function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url)
    return parsed.username !== '' || parsed.password !== ''
  } catch {
    return false
  }
}

/** A literal `${` written so the checks file reader gives it back (`$${`), in every string of a value. */
function escapeTemplates(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\$\{/g, () => '$${')
  if (Array.isArray(value)) return value.map(escapeTemplates)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Mapping).map(([k, v]) => [k, escapeTemplates(v)]))
  }
  return value
}

/** Code-unit order: the same on every machine, whatever its locale. */
const byName = (a: Mapping, b: Mapping) => {
  const [x, y] = [str(a.name), str(b.name)]
  return x < y ? -1 : x > y ? 1 : 0
}

export class ExportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExportError'
  }
}

/**
 * The entries of a checks file for `checks`, sorted by name: every writable
 * field the service returned (null and absent alike left out), `status` only
 * for a paused check, secrets in URLs lifted into variables. Two checks of
 * one name, or a check a checks file cannot state, are an ExportError.
 */
export function exportEntries(checks: Check[]): { entries: Mapping[]; ids: string[]; lifted: Lifted[] } {
  const seen = new Map<string, string>()
  const taken = new Set<string>()
  const lifted: Lifted[] = []
  const entries: Mapping[] = []
  const ids: string[] = []
  for (const check of [...checks].sort(byName)) {
    const name = str(check.name)
    const other = seen.get(name)
    if (other !== undefined) {
      throw new ExportError(
        `two checks share the name ${JSON.stringify(name)} (${other} and ${check.id}); a checks file matches checks by name, so it cannot hold both. Rename or delete one (update-check or delete-check with its check-id), then export again. Nothing was written.`
      )
    }
    seen.set(name, check.id)
    const entry: Mapping = {}
    for (const [field, value] of Object.entries(writableOf(check))) {
      if (value === undefined || value === null) continue
      if (field === 'status' && value !== 'paused') continue
      entry[field] = value
    }
    const problem = specProblem(CheckEntrySchema, entry)
    if (problem) {
      throw new ExportError(
        `check ${check.id} (${JSON.stringify(name)}) cannot be written as a checks-file entry: ${problem}. Fix the check, or export a name-prefix that leaves it out. Nothing was written.`
      )
    }
    const escaped = escapeTemplates(entry) as Mapping
    if (typeof entry.url === 'string') {
      const secret = liftSecrets(entry.url, name, taken)
      lifted.push(...secret.lifted)
      escaped.url = secret.url
    }
    entries.push(escaped)
    ids.push(check.id)
  }
  return { entries, ids, lifted }
}

/**
 * The file's text: JSON (a list) when `path` ends in .json, else YAML with a
 * short header saying where it came from and how to use it. Every string is
 * double-quoted, so no value can be read back as another type (`yes`, `null`,
 * `0x10`, `1e3`, `~`) or lose its spaces. The YAML parser must be loaded.
 */
export function checksFileText(
  path: string,
  entries: Mapping[],
  about: { baseUrl: string; namePrefix?: string; variables: string[] }
): string {
  if (/\.json$/i.test(path)) return `${JSON.stringify(entries, null, 2)}\n`
  const prefix = about.namePrefix
  const header = [
    `Checks of ${about.baseUrl}${prefix !== undefined ? ` whose names start with ${JSON.stringify(prefix)}` : ''}, written by export-checks.`,
    `Keep them as code with sync-checks (checks-file: ${path}${prefix !== undefined ? `, prune-prefix: ${JSON.stringify(prefix)}` : ''}).`,
    ...(about.variables.length > 0
      ? [`Set these variables for sync-checks, from your secrets: ${about.variables.join(', ')}.`]
      : [])
  ]
  const doc = new yaml.Document(entries)
  doc.commentBefore = header.map(line => ` ${line.replace(/[\r\n\u2028\u2029]/g, ' ')}`).join('\n')
  return doc.toString({ defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 })
}
