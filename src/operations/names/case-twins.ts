/**
 * Names are case-sensitive, as the service's are: a create whose name differs
 * from existing checks' only in case is warned about (a typo, most likely).
 */
import type { OperationContext } from '../types.js'
import type { Listed } from './check-targets.js'
import { uniqueById } from './converge.js'

/**
 * Names are case-sensitive, as the service's are: before each create (upsert-check, create-check,
 * sync-checks), a name that differs from existing checks' only in case (a typo, most likely) is
 * warned about, naming each. Returns the lines.
 */
export function warnCaseTwins(ctx: OperationContext, names: readonly string[], checks: readonly Listed[]): string[] {
  if (names.length === 0) return []
  const folded = new Map<string, Listed[]>()
  for (const c of uniqueById(checks)) {
    if (typeof c.name !== 'string') continue
    const same = folded.get(c.name.toLowerCase())
    if (same) same.push(c)
    else folded.set(c.name.toLowerCase(), [c])
  }
  return names.flatMap(name => {
    const twins = (folded.get(name.toLowerCase()) ?? []).filter(c => c.name !== name)
    if (twins.length === 0) return []
    const named = twins.map(c => `${JSON.stringify(c.name)} (${c.id})`).join(', ')
    const [who, meant] =
      twins.length > 1
        ? [`checks named ${named} differ`, 'one of them']
        : [`a check named ${named} differs`, 'that check']
    const line = `Creating ${JSON.stringify(name)} makes a second check: ${who} only in case, and names are case-sensitive, as the service's are. If you meant ${meant}, write its name exactly.`
    ctx.log.warning(line)
    return [line]
  })
}
