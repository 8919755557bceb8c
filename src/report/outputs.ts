/** Outputs: every value a string, the key never in any of them, sizes bounded. */
import type { Outputs } from '../operations/types.js'
import { redact, redactValue } from '../secrets/secrets.js'
import { maskPositions, maskText } from '../secrets/secret-positions.js'
import { cutToBytes } from './text.js'

/** Every output of action.yml. */
export const OUTPUTS = [
  'check-id',
  'check-name',
  'check-status',
  'response-time',
  'last-checked-at',
  'incident-id',
  'incident-status',
  'status-page-id',
  'result',
  'count',
  'changed',
  'created',
  'updated',
  'deleted',
  'unchanged',
  'passed',
  'outcome',
  'failed-checks',
  'response-time-p95',
  'baseline-p95',
  'availability',
  'error-budget-remaining',
  'burn-rate',
  'burn-rate-short',
  'uptime',
  'comment-url',
  'drift',
  'issue-url',
  'error'
] as const satisfies ReadonlyArray<keyof Outputs>

/**
 * Largest output, in bytes of UTF-8: a larger JSON one (`result`,
 * `failed-checks`) is replaced by a note; a larger text one is cut (capText).
 */
export const MAX_RESULT_BYTES = 512 * 1024

/**
 * A text output within MAX_RESULT_BYTES: as it is, or cut on a character
 * boundary and ended with a note that says it was cut (the whole at most the
 * cap). Cut after redaction, so no part of a secret is ever left.
 */
export function capText(name: string, text: string): string {
  const bytes = Buffer.byteLength(text)
  if (bytes <= MAX_RESULT_BYTES) return text
  const note = ` [truncated: ${name} is ${bytes} bytes, more than the ${MAX_RESULT_BYTES} an output holds here]`
  return cutToBytes(text, MAX_RESULT_BYTES - Buffer.byteLength(note)) + note
}

/** The note that replaces a JSON output of `bytes` bytes, larger than MAX_RESULT_BYTES (`items`: a list's length). */
function overCap(name: string, bytes: number, items: number | undefined): string {
  const count = items === undefined ? '' : ` (${items} items)`
  return JSON.stringify({
    truncated: true,
    note: `${name}${count} is ${bytes} bytes, more than the ${MAX_RESULT_BYTES} bytes an output holds here; see the job summary or use a list operation with fewer items`
  })
}

/**
 * The bytes of `JSON.stringify(list.map(shown))`, counted item by item:
 * nothing of it is held but the item at hand, so a fleet's list too large for
 * an output is never built as one string only to be replaced by the note.
 */
function listBytes(list: unknown[], shown: (value: unknown) => unknown): number {
  let bytes = 2
  for (let i = 0; i < list.length; i++) {
    // As JSON.stringify writes an item of a list: `null` for what JSON cannot hold.
    bytes += Buffer.byteLength(JSON.stringify(shown(list[i])) ?? 'null') + (i > 0 ? 1 : 0)
  }
  return bytes
}

/**
 * An output's text. A JSON one (`result`, `failed-checks`) as `shown` gives
 * it (secrets masked: see writeOutputs), whole when it fits MAX_RESULT_BYTES,
 * else a note that says how large it is. A list is measured item by item
 * before it is written, and written only when it fits.
 */
export function outputValue(name: keyof Outputs, value: unknown, shown: (value: unknown) => unknown = v => v): string {
  // `result` is always JSON (a workflow may fromJSON it): nothing found is `null`, not empty.
  if (value === null) return name === 'result' ? 'null' : ''
  if (value === undefined) return ''
  if (typeof value !== 'object') return String(value)
  if (Array.isArray(value)) {
    const bytes = listBytes(value, shown)
    return bytes <= MAX_RESULT_BYTES ? JSON.stringify(shown(value)) : overCap(name, bytes, value.length)
  }
  const json = JSON.stringify(shown(value))
  const bytes = Buffer.byteLength(json)
  return bytes <= MAX_RESULT_BYTES ? json : overCap(name, bytes, undefined)
}

export function writeOutputs(
  setOutput: (name: string, value: string) => void,
  outputs: Outputs,
  secrets: string[]
): void {
  // JSON is redacted value by value, then serialised: masking its text could break it (`"ttl":***`).
  // Values in a secret position (a URL's userinfo or token parameter, a credential field) are *** too,
  // whatever they are: a check as the service holds it (get-check, list-checks) shows none of them.
  const shown = (value: unknown) => maskPositions(redactValue(value, secrets))
  for (const name of OUTPUTS) {
    if (!(name in outputs)) continue
    const value = outputs[name]
    setOutput(
      name,
      value !== null && typeof value === 'object'
        ? outputValue(name, value, shown)
        : capText(name, maskText(redact(outputValue(name, value), secrets)))
    )
  }
}

/**
 * Compile-time check: every output an operation can set is in OUTPUTS (and so,
 * by __tests__/unit/action-yml.test.ts, declared in action.yml).
 */
export const EVERY_OUTPUT_LISTED: [Exclude<keyof Outputs, (typeof OUTPUTS)[number]>] extends [never] ? true : false =
  true
