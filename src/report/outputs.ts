/** Outputs: every value a string, the key never in any of them, sizes bounded. */
import type { Outputs } from '../operations/types.js'

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
  'uptime',
  'error'
] as const satisfies ReadonlyArray<keyof Outputs>

/** Largest `result` written as an output; larger ones are cut to a note. */
export const MAX_RESULT_CHARS = 512 * 1024

/** Replace every occurrence of a secret with ***. */
export function redact(text: string, secrets: string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}

export function outputValue(name: keyof Outputs, value: unknown): string {
  if (value === undefined || value === null) return ''
  if (name === 'result') {
    const json = JSON.stringify(value)
    if (json.length <= MAX_RESULT_CHARS) return json
    const count = Array.isArray(value) ? ` (${value.length} items)` : ''
    return JSON.stringify({
      truncated: true,
      note: `result${count} is ${json.length} characters, more than the ${MAX_RESULT_CHARS} an output holds here; see the job log or use a list operation with fewer items`
    })
  }
  return String(value)
}

export function writeOutputs(
  setOutput: (name: string, value: string) => void,
  outputs: Outputs,
  secrets: string[]
): void {
  for (const name of OUTPUTS) {
    if (name in outputs) setOutput(name, redact(outputValue(name, outputs[name]), secrets))
  }
}

/**
 * Compile-time check: every output an operation can set is in OUTPUTS (and so,
 * by __tests__/unit/action-yml.test.ts, declared in action.yml).
 */
export const EVERY_OUTPUT_LISTED: [Exclude<keyof Outputs, (typeof OUTPUTS)[number]>] extends [never] ? true : false =
  true
