/**
 * The YAML (and JSON) of inputs and checks files: parsed with the YAML 1.2
 * core schema and YAML 1.1's merge keys, and every problem (a syntax error,
 * aliases past the limit, a value that cannot be sent) told by the line the
 * user must look at.
 */
import type { Alias, Document, Node, YAMLMap } from 'yaml'
import yaml from '../lazy/yaml.cjs'
import { ValueError } from './parse.js'
import { Mapping, isMapping } from './values.js'

type YamlError = Document['errors'][number]
type Resolved = NonNullable<ReturnType<Alias['resolve']>>
type Lines = InstanceType<typeof yaml.LineCounter>

/** Error codes of the YAML parser that a tab in a line's indentation causes (beside TAB_AS_INDENT itself). */
const TAB_CAUSED = ['BAD_INDENT', 'UNEXPECTED_TOKEN', 'MULTILINE_IMPLICIT_KEY', 'BLOCK_AS_IMPLICIT_KEY']

/**
 * The line and message of a YAML syntax error, where the user must look. A
 * tab in a line's indentation is named as such (YAML does not allow one; the
 * parser often reports something else, or the line above). A line indented
 * deeper than the one above it continues that line's value, and the parser
 * places its "implicit key" errors at the value's start, the line above the
 * fault: point at the line that holds the key, and say why.
 */
export function yamlSyntaxError(errors: YamlError[], lines: Lines, text = ''): { line: number; message: string } {
  const lineOf = (offset: number) => lines.linePos(offset).line
  const textOf = (line: number) => text.slice(lines.lineStarts[line - 1] ?? 0, lines.lineStarts[line] ?? text.length)
  // A document in flow style (JSON) may be indented with tabs: there a tab is only a space.
  const flow = /^\s*[[{]/.test(text)
  const tabbed = (line: number) => !flow && /^[ ]*\t[ \t]*\S/.test(textOf(line))
  const tab =
    errors.find(e => e.code === 'TAB_AS_INDENT') ??
    errors.find(e => TAB_CAUSED.includes(e.code) && [e.pos[0], e.pos[1]].some(pos => tabbed(lineOf(pos))))
  if (tab) {
    const line = [tab.pos[0], tab.pos[1]].map(lineOf).find(tabbed) ?? lineOf(tab.pos[0])
    return {
      line,
      message:
        'this line is indented with a tab, and a tab is not allowed for indentation in YAML; indent it with spaces'
    }
  }
  const deeper = errors.find(e => e.code === 'MULTILINE_IMPLICIT_KEY')
  if (deeper) {
    const above = lineOf(deeper.pos[0])
    return {
      line: lineOf(deeper.pos[1]),
      message: `this line is indented deeper than the line above it, so YAML reads it as part of the value on line ${above}; indent it as the fields above it`
    }
  }
  const first = errors[0]
  return {
    line: lineOf(first.pos[0]),
    message: first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
  }
}

/** A byte-order mark (editors on Windows save one) is not part of the text. */
export const withoutBom = (text: string): string => (text.startsWith('\uFEFF') ? text.slice(1) : text)

/**
 * The YAML document of a text (JSON is a subset; a byte-order mark dropped):
 * the YAML 1.2 core schema, a repeated key an error, and merge keys merged as
 * YAML 1.1 tools do (a plain `<<: *defaults`; keys of the mapping itself win,
 * and of `<<: [*a, *b]` the earlier). A quoted "<<" is an ordinary key (see valueProblem).
 */
export function yamlDocument(text: string, lineCounter: Lines): Document {
  return yaml.parseDocument(withoutBom(text), {
    schema: 'core',
    merge: true,
    uniqueKeys: true,
    prettyErrors: false,
    lineCounter
  })
}

/**
 * The most keys and values the aliases of one document may stand for, in
 * all (each alias counts what its anchor holds, aliases within it included):
 * a fleet of thousands merging one `defaults` is far below it; anchors within
 * anchors that multiply (an expansion attack) pass it at once.
 */
export const MAX_ALIASED = 1_000_000

/** Keys refused anywhere: a quoted "<<" (not a merge key, and never a field) and the name of JavaScript's prototype. */
const REFUSED_KEYS = new Map([
  [
    '<<',
    'the key "<<" is quoted, so it is not a merge key, and no field is called "<<"; write <<: *anchor unquoted to merge'
  ],
  ['__proto__', 'the key "__proto__" is refused: it names what JavaScript objects inherit from, and is never a field']
])

/**
 * The first problem of a document whose syntax is sound, at its line (undefined
 * when it has none): an alias that names no anchor before it, or one inside
 * its own anchor; aliases that stand for more than MAX_ALIASED keys and values;
 * a refused key (REFUSED_KEYS); a number that JSON cannot carry (`.inf`,
 * `-.inf`, `.nan`, `1e999`). Only a document without one is given to yamlValue.
 */
export function valueProblem(doc: Document, lines: Lines): { line: number; message: string } | undefined {
  const at = (node: Node | Alias, message: string) => ({ line: lines.linePos(node.range?.[0] ?? 0).line, message })
  const sizes = new Map<unknown, number>()
  const targets = aliasTargets(doc)
  let aliased = 0
  for (const [alias, target] of targets) {
    if (!target) return at(alias, `the alias *${alias.source} names no anchor (&${alias.source}) before it`)
    aliased += sizeOf(target, targets, sizes)
    if (Number.isNaN(aliased)) return at(alias, `the alias *${alias.source} stands inside its own anchor`)
    if (aliased > MAX_ALIASED) {
      return at(
        alias,
        `the aliases up to this *${alias.source} stand for more than ${MAX_ALIASED} keys and values (anchors within anchors multiply, as in an expansion attack)`
      )
    }
  }
  let problem: { line: number; message: string } | undefined
  // What a merge key (`<<`) may merge, as YAML 1.1 says: a mapping, an alias of one, or a list of those.
  const mergeable = (node: unknown): boolean => {
    const target = yaml.isAlias(node) ? targets.get(node) : node
    return yaml.isMap(target)
  }
  yaml.visit(doc, {
    Pair(_key, pair) {
      if (!yaml.isScalar(pair.key) || typeof pair.key.value !== 'symbol' || pair.key.source !== '<<') return undefined
      const value = pair.value
      const sound = yaml.isSeq(value) ? value.items.length > 0 && value.items.every(mergeable) : mergeable(value)
      if (sound) return undefined
      problem = at(
        (value as Node | null) ?? pair.key,
        'a merge key (<<) merges a mapping (an anchor such as *defaults, or a list of them); this is not one'
      )
      return yaml.visit.BREAK
    },
    Scalar(key, node, path) {
      const refused = key === 'key' && typeof node.value === 'string' ? REFUSED_KEYS.get(node.value) : undefined
      if (refused !== undefined) {
        problem = at(node, refused)
      } else if (key !== 'key' && typeof node.value === 'number' && !Number.isFinite(node.value)) {
        const pair = [...path].reverse().find(yaml.isPair)
        const field = yaml.isScalar(pair?.key) ? `${String(pair.key.value)}: ` : ''
        problem = at(
          node,
          `${field}${node.source ?? String(node.value)} cannot be sent: JSON has no infinite number or NaN (write a finite number, or quote it for text)`
        )
      }
      return problem ? yaml.visit.BREAK : undefined
    }
  })
  return problem
}

/**
 * Each alias of a document, in the document's order, and the node it stands
 * for: the last one before it with that anchor (undefined when there is none).
 */
export function aliasTargets(doc: Document): Map<Alias, Node | undefined> {
  const anchors = new Map<string, Node>()
  const targets = new Map<Alias, Node | undefined>()
  yaml.visit(doc, {
    Node(_key, node) {
      if (yaml.isAlias(node)) targets.set(node, anchors.get(node.source))
      else if (node.anchor) anchors.set(node.anchor, node)
    }
  })
  return targets
}

/**
 * Where the value a mapping (or the mapping an alias names) has for `key` is
 * written, as merge keys merge (yamlDocument): the mapping's own pair, else
 * the mappings of its merge keys in their order (of a list, the earlier
 * first), each looked into the same way. The pair's key, and the mapping
 * that holds it; undefined when none has the key.
 */
export function keyWritten(
  node: unknown,
  key: string,
  targets: ReadonlyMap<Alias, Node | undefined>,
  seen = new Set<unknown>()
): { key: Node; holder: YAMLMap } | undefined {
  const map = yaml.isAlias(node) ? targets.get(node) : node
  if (!yaml.isMap(map) || seen.has(map)) return undefined
  seen.add(map)
  const merged: unknown[] = []
  for (const pair of map.items) {
    if (!yaml.isScalar(pair.key)) continue
    if (typeof pair.key.value === 'symbol' && pair.key.source === '<<') {
      merged.push(...(yaml.isSeq(pair.value) ? pair.value.items : [pair.value]))
    } else if (String(pair.key.value) === key) {
      return { key: pair.key, holder: map }
    }
  }
  for (const source of merged) {
    const found = keyWritten(source, key, targets, seen)
    if (found) return found
  }
  return undefined
}

/**
 * The keys and values a node stands for, its aliases' anchors counted whole;
 * NaN for a node that holds itself (an alias inside its own anchor). `sizes`
 * keeps each node's count, so anchors within anchors cost one count each.
 */
function sizeOf(node: unknown, targets: ReadonlyMap<Alias, Node | undefined>, sizes: Map<unknown, number>): number {
  const known = sizes.get(node)
  if (known !== undefined) return known
  if (node === null || node === undefined) return 0
  // Counting: an alias met again before its count is done is inside its own anchor.
  sizes.set(node, Number.NaN)
  let size = 1
  if (yaml.isAlias(node)) {
    const target = targets.get(node)
    size = target === undefined ? Number.NaN : sizeOf(target, targets, sizes)
  } else if (yaml.isPair(node)) {
    size = sizeOf(node.key, targets, sizes) + sizeOf(node.value, targets, sizes)
  } else if (yaml.isCollection(node)) {
    for (const item of node.items) size += sizeOf(item, targets, sizes)
  }
  sizes.set(node, size)
  return size
}

/**
 * The value of a document valueProblem found sound. Its aliases are counted
 * there (MAX_ALIASED), not by the parser, whose own count refuses a fleet
 * merging one anchor a hundred times. Each alias stands for the anchor
 * aliasTargets found for it in one pass, once the parser has built that
 * anchor's value: the parser's own search scans the document up to the alias,
 * for each alias, so that a fleet merging one anchor would take time that
 * grows with the square of its entries.
 */
export function yamlValue(doc: Document): unknown {
  for (const [alias, target] of aliasTargets(doc)) {
    const search = alias.resolve.bind(alias)
    alias.resolve = (within, ctx) => (target && ctx?.anchors.has(target) ? (target as Resolved) : search(within, ctx))
  }
  return doc.toJS({ maxAliasCount: -1 })
}

/**
 * Parse YAML (JSON is a subset; see yamlDocument). A syntax error, a repeated
 * key and each problem of valueProblem are errors that give the line.
 */
export function parseYaml(text: string): unknown {
  const lines = new yaml.LineCounter()
  const doc = yamlDocument(text, lines)
  if (doc.errors.length > 0) {
    const { line, message } = yamlSyntaxError(doc.errors, lines, withoutBom(text))
    throw new ValueError(`is not valid YAML or JSON (line ${line}): ${message}`)
  }
  const problem = valueProblem(doc, lines)
  if (problem) throw new ValueError(`is refused (line ${problem.line}): ${problem.message}`)
  return yamlValue(doc)
}

/** A YAML or JSON mapping (object); anything else is an error. */
export function parseMapping(text: string): Mapping {
  const value = parseYaml(text)
  if (!isMapping(value)) {
    const kind =
      value === null
        ? 'empty'
        : Array.isArray(value)
          ? 'a list'
          : typeof value === 'object'
            ? `a ${(value as object).constructor?.name ?? 'tagged value'}`
            : `a ${typeof value}`
    throw new ValueError(`must be a YAML or JSON mapping (key: value), got ${kind}`)
  }
  return value
}
