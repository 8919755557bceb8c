/**
 * A checks file written as JSON (export-checks writes one for a `.json`
 * path), read with JSON.parse instead of the YAML parser, when that gives
 * what YAML gives: JSON is YAML, and its strings, numbers, true, false and
 * null read the same in both but for the cases refused here (a repeated key,
 * which YAML refuses and JSON.parse takes the last of; a number a double
 * cannot hold; a key YAML refuses or orders otherwise). The reader keeps no
 * lines: the caller reads the file with YAML when it has anything to say
 * about one.
 */
import type { Fill } from './checks-file-lines.js'

/** Keys refused here: YAML refuses `<<` and `__proto__` (parse-yaml.ts), and an object puts index-like keys first. */
const UNREAD_KEY = /^(<<|__proto__|0|[1-9][0-9]*)$/
/** YAML's implicit keys are at most 1024 characters: a key of 160 is, however escaped (`\\uXXXX`: 6 each). */
const LONGEST_KEY = 160

/** Characters YAML does not take as they are in a quoted string (DEL, C1 controls, a byte-order mark...): left to it. */
const UNREAD = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/

/**
 * The keys written in a valid JSON text (strings followed by `:`), counted
 * without a match object for each string; undefined when a key's `:` is on a
 * later line (YAML wants an implicit key on one line).
 */
function writtenKeys(text: string): number | undefined {
  let keys = 0
  for (let at = text.indexOf('"'); at >= 0;) {
    let end = text.indexOf('"', at + 1)
    // A quote after an odd number of backslashes is escaped.
    for (let back = 0; end >= 0; end = text.indexOf('"', end + 1), back = 0) {
      while (text[end - 1 - back] === '\\') back++
      if (back % 2 === 0) break
    }
    if (end < 0) return undefined
    let next = end + 1
    while (text[next] === ' ' || text[next] === '\t') next++
    if (text[next] === ':') keys++
    else if (text[next] === '\r' || text[next] === '\n') {
      while (/[ \t\r\n]/.test(text[next] ?? '')) next++
      if (text[next] === ':') return undefined
    }
    at = text.indexOf('"', end + 1)
  }
  return keys
}

/**
 * The value of a checks file written as JSON, its strings' templates filled
 * (`fill`), or undefined when the text is not JSON or holds what YAML reads
 * otherwise or refuses.
 */
export function jsonValue(text: string, fill: Fill): unknown {
  if (!/^[ \t\r\n]*[[{]/.test(text) || UNREAD.test(text)) return undefined
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  let keys = 0
  let sound = true
  // Walks in the text's order (no index-like keys): templates are filled, and secrets told, in that order.
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return fill(node, false)
    if (typeof node === 'number') {
      if (!Number.isFinite(node) || (Number.isInteger(node) && !Number.isSafeInteger(node))) sound = false
      return node
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && sound; i++) node[i] = walk(node[i])
    } else if (node !== null && typeof node === 'object') {
      const mapping = node as Record<string, unknown>
      for (const key of Object.keys(mapping)) {
        keys++
        if (UNREAD_KEY.test(key) || key.length > LONGEST_KEY) sound = false
        if (!sound) break
        mapping[key] = walk(mapping[key])
      }
    }
    return node
  }
  const filled = walk(value)
  return sound && keys === writtenKeys(text) ? filled : undefined
}
