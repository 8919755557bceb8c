/**
 * A checks file made from the service's checks (export-checks), so that
 * `sync-checks` of it plans nothing: each entry states what the service has
 * (its writable fields, `status` only when paused), written so the checks
 * file reader gives back the very same values, with every value in a secret
 * position (secret-positions.ts) replaced, there only, by a `${secret:NAME}`
 * placeholder. Pure: the operation lists and writes.
 */
import type { Check } from '../../api/schemas.js'
import { specProblem, CheckEntrySchema } from '../../run/specs.js'
import { type Mapping, pathOf, rewrite } from '../../values/values.js'
import yaml from '../../lazy/yaml.cjs'
import { str, writableOf } from '../common.js'
import { plainWord, replacePositions } from '../../secrets/secret-positions.js'

/** A value lifted out of an entry: the variable that holds it now, and where it was. */
export interface Lifted {
  variable: string
  check: string
  /** "userinfo", "query parameter token", "field headers.Authorization", "... of field webhook". */
  where: string
  value: string
}

/** The variable name a check's secret is written as: CHECK_<NAME>_<PART>, letters, digits and _ only, accents dropped. */
function variableFor(check: string, part: string): string {
  const slug = `${check}_${part}`
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
  return `CHECK_${slug || 'SECRET'}`
}

/** Every string of a value, with its field's path. */
function eachString(value: unknown, visit: (text: string, path: string) => void): void {
  rewrite(value, (leaf, trail) => (typeof leaf === 'string' && visit(leaf, pathOf(trail)), leaf))
}

/** A value with `fn` applied to each of its strings. */
const mapStrings = (value: unknown, fn: (text: string) => string): unknown =>
  rewrite(value, leaf => (typeof leaf === 'string' ? fn(leaf) : leaf))

/**
 * A path segment that looks like a token (a webhook's): 20 or more URL-safe
 * characters, at least 2 letters and 2 digits, at most 2 of `-_.~`, and a
 * Shannon entropy of at least 3.5 bits a character (random, not a slug).
 */
export function tokenLike(segment: string): boolean {
  if (segment.length < 20 || !/^[A-Za-z0-9._~-]+$/.test(segment)) return false
  const count = (re: RegExp) => (segment.match(re) ?? []).length
  if (count(/[A-Za-z]/g) < 2 || count(/[0-9]/g) < 2 || count(/[._~-]/g) > 2) return false
  const frequency = new Map<string, number>()
  for (const c of segment) frequency.set(c, (frequency.get(c) ?? 0) + 1)
  let entropy = 0
  for (const n of frequency.values()) entropy -= (n / segment.length) * Math.log2(n / segment.length)
  return entropy >= 3.5
}

/**
 * A check's entry with every value in a secret position (secrets.ts: a URL's
 * userinfo, a query or fragment parameter named like a token, a credential
 * field or header, a header line) as a `${secret:NAME}` placeholder, there
 * only: the rest is kept to the character (a literal `${` escaped), so the
 * placeholders filled back in give the very values the service has. Where a
 * URL's userinfo stands is secret-positions.ts's answer (url-reading.ts), the
 * only reading of it here; a userinfo is lifted whatever it holds (`u:p` is
 * a password however short). Elsewhere a word like `true` or a number stays
 * (`?token=true`, plainWord); a number in a credential field cannot be a
 * variable (the file would give back text): an ExportError naming the check
 * and the field. `warnings` name the fields whose URL has a path segment that
 * looks like a token (left as it is).
 */
export function liftSecrets(
  entry: Mapping,
  check: string,
  id: string,
  taken: Set<string>
): { entry: Mapping; lifted: Lifted[]; warnings: string[] } {
  const lifted: Lifted[] = []
  // Where a placeholder goes until the rest is escaped: a private-use character the entry does not hold.
  const json = JSON.stringify(entry)
  let code = 0xe000
  while (json.includes(String.fromCharCode(code))) code++
  const mark = String.fromCharCode(code)
  const replaced = replacePositions(entry, (secret, { path, span }) => {
    if (typeof secret === 'number') {
      throw new ExportError(
        `check ${id} (${JSON.stringify(check)}): the field ${path} holds a number where a secret stands; a variable gives text back, so export-checks cannot lift it. Nothing was written. Write it as text on the service, or export a name-prefix that leaves the check out.`
      )
    }
    if (span?.where !== 'userinfo' && plainWord(secret)) return secret
    const part = span ? (path === 'url' ? span.name : `${path}_${span.name}`) : path
    let variable = variableFor(check, part)
    for (let n = 2; taken.has(variable); n++) variable = `${variableFor(check, part)}_${n}`
    taken.add(variable)
    const where = span ? (path === 'url' ? span.where : `${span.where} of field ${path}`) : `field ${path}`
    lifted.push({ variable, check, where, value: secret })
    return `${mark}${variable}${mark}`
  }) as Mapping
  const warnings: string[] = []
  eachString(replaced, (text, path) => {
    const plain = text
      .split(mark)
      .filter((_, i) => i % 2 === 0)
      .join('')
    if (/^https?:\/\//i.test(plain) && pathSegments(plain).some(tokenLike)) {
      warnings.push(
        `export-checks: check ${JSON.stringify(check)} (${id}): a path segment of its ${path === 'url' ? 'URL' : `field ${path}`} looks like a token (long and random-looking); it is written as it is. If it is a secret, put \${secret:NAME} in its place in the file and set NAME from your secrets.`
      )
    }
  })
  const placeholders = new RegExp(`${mark}([A-Z0-9_]+)${mark}`, 'g')
  const text = mapStrings(escapeTemplates(replaced), t => t.replace(placeholders, (_m, v: string) => `\${secret:${v}}`))
  return { entry: text as Mapping, lifted, warnings }
}

/** The path segments of a URL, decoded where they decode. */
function pathSegments(url: string): string[] {
  try {
    return new URL(url).pathname.split('/').map(segment => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
  } catch {
    return []
  }
}

/** A literal `${` written so the checks file reader gives it back (`$${`), in every string of a value. */
const escapeTemplates = (value: unknown): unknown => mapStrings(value, text => text.replace(/\$\{/g, () => '$${'))

/**
 * The first field of `entries` that still holds a known secret (`redact`
 * changes it): the api-key, or a value lifted elsewhere that could not be
 * lifted here, since the field is no secret position. Its entry's index and
 * the field's path.
 */
export function heldSecret(
  entries: Mapping[],
  redact: (text: string) => string
): { index: number; field: string } | undefined {
  for (const [index, entry] of entries.entries()) {
    let field: string | undefined
    eachString(entry, (text, path) => {
      if (field === undefined && redact(text) !== text) field = path
    })
    const json = JSON.stringify(entry)
    if (field === undefined && redact(json) !== json) field = '(a field name)'
    if (field !== undefined) return { index, field }
  }
  return undefined
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
export function exportEntries(checks: Check[]): {
  entries: Mapping[]
  ids: string[]
  lifted: Lifted[]
  warnings: string[]
} {
  const seen = new Map<string, string>()
  const taken = new Set<string>()
  const lifted: Lifted[] = []
  const warnings: string[] = []
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
    const secret = liftSecrets(entry, name, check.id, taken)
    lifted.push(...secret.lifted)
    warnings.push(...secret.warnings)
    entries.push(secret.entry)
    ids.push(check.id)
  }
  return { entries, ids, lifted, warnings }
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
  about: { baseUrl: string; namePrefix?: string; chosenBy?: string; variables: string[] }
): string {
  if (/\.json$/i.test(path)) return `${JSON.stringify(entries, null, 2)}\n`
  const prefix = about.namePrefix
  const header = [
    `Checks of ${about.baseUrl}${prefix !== undefined ? ` whose names start with ${JSON.stringify(prefix)}` : about.chosenBy !== undefined ? ` selected by ${about.chosenBy}` : ''}, written by export-checks.`,
    about.chosenBy !== undefined
      ? `Keep them as code with sync-checks (checks-file: ${path}), never with prune: it would delete the checks the selection left out.`
      : `Keep them as code with sync-checks (checks-file: ${path}${prefix !== undefined ? `, prune-prefix: ${JSON.stringify(prefix)}` : ''}).`,
    ...(about.variables.length > 0
      ? [`Set these variables for sync-checks, from your secrets: ${about.variables.join(', ')}.`]
      : [])
  ]
  const doc = new yaml.Document(entries)
  doc.commentBefore = header.map(line => ` ${line.replace(/[\r\n\u2028\u2029]/g, ' ')}`).join('\n')
  return doc.toString({ defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 })
}
