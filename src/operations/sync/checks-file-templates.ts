/**
 * `${NAME}` in a checks file's values, filled from the environment after
 * parsing (so a variable can never add structure): the one rule for every
 * reader of the file (the YAML document, and the lines and JSON read
 * without it).
 */
import type { Document } from 'yaml'
import yaml from '../../lazy/yaml.cjs'
import type { Located } from './checks-file-parts.js'

/** Variables of the runner and of the action itself: never readable from a checks file. */
export const OFF_LIMITS = /^(ACTIONS_|RUNNER_|INPUT_|STATE_|GITHUB_TOKEN$)/

/** `${NAME}` (a variable), `${secret:NAME}` (a variable that is a secret), or `$${` (a literal `${`). */
const TEMPLATE = /\$\$\{|\$\{(secret:)?([A-Za-z_][A-Za-z0-9_]*)\}/g

/** What a template stands for: the variable's value (`marked`: written `${secret:NAME}`). */
export type ValueOf = (name: string, marked: boolean) => string

/**
 * A value written as `text`, its templates filled: a plain value as YAML
 * would read the result (a number or a boolean, else text), a quoted one text.
 */
export function filledValue(text: string, plain: boolean, valueOf: ValueOf): unknown {
  if (!text.includes('${')) return text
  const filled = text.replace(TEMPLATE, (_match: string, marked: string | undefined, name: string | undefined) =>
    name === undefined ? '${' : valueOf(name, marked !== undefined)
  )
  return plain ? scalarOf(filled) : filled
}

/**
 * Replace `${NAME}` in every value of the document (never in keys) with
 * `valueOf(NAME)` (`${secret:NAME}` tells it the value is a secret); `$${` is a literal `${`.
 */
export function fillTemplates(doc: Document, valueOf: (name: string, node: Located, marked: boolean) => string): void {
  yaml.visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return
      node.value = filledValue(node.value, node.type === 'PLAIN', (name, marked) =>
        valueOf(name, node as Located, marked)
      )
    }
  })
}

/** A plain value as YAML would read it, when that is a number or a boolean; else the text. */
function scalarOf(text: string): unknown {
  if (/^[-+]?(\d+|\d*\.\d+)([eE][-+]?\d+)?$/.test(text.trim())) return Number(text)
  if (/^(true|True|TRUE|false|False|FALSE)$/.test(text.trim())) return /^t/i.test(text.trim())
  return text
}

/** The most unset variables one message names; the rest are counted. */
const MAX_UNSET_NAMED = 20

/** Unset variables (as written, with their lines): one error naming them all, at the first one's line. */
export function failUnset(unset: Map<string, number[]>, fail: (message: string, line?: number) => never): never {
  const literal = '(write $${ for a literal ${)'
  const each = [...unset].map(([written, at]) => ({ written, lines: [...new Set(at)] }))
  const first = each[0].lines[0]
  if (each.length === 1) {
    const { written, lines } = each[0]
    const name = written.replace(/^\$\{(secret:)?|\}$/g, '')
    const where = `line${lines.length > 1 ? 's' : ''} ${lines.join(', ')}`
    return fail(`${where}: ${written} names the environment variable ${name}, which is not set ${literal}`, first)
  }
  const named = each
    .slice(0, MAX_UNSET_NAMED)
    .map(v => `${v.written} (line${v.lines.length > 1 ? 's' : ''} ${v.lines.join(', ')})`)
  const list =
    each.length > MAX_UNSET_NAMED
      ? `${named.join(', ')} and ${each.length - MAX_UNSET_NAMED} more`
      : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`
  return fail(
    `${list} name ${each.length} environment variables that are not set; set each in the step's env: (a secret as NAME: \${{ secrets.NAME }}) ${literal}`,
    first
  )
}
