/** Which `uses:` of a workflow means this action: the one rule, for the workflow linter and the local job runner. */
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** `uses:` values that mean this action: any owner's `monitoring-action`, or `./` in this repository. */
export function isThisAction(uses: string, file: string): boolean {
  if (/(^|\/)monitoring-action(@|$)/.test(uses)) return true
  return uses === './' && resolve(file).startsWith(ROOT)
}
