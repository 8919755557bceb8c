/**
 * The top level of a `{checks: [...]}` checks file: beside `checks`, a key
 * may only hold anchors the entries use (a `defaults:` or `x-…` holder, which
 * is then ignored); any other key is a stray, which checks-file.ts refuses.
 */
import type { Document, YAMLMap } from 'yaml'
import yaml from '../../lazy/yaml.cjs'
import { aliasTargets } from '../../values/parse-yaml.js'
import { closest } from '../../values/values.js'
import type { Located } from './checks-file-parts.js'

export interface TopLevelKey {
  key: Located
  name: string
  /** The anchors under it that the entries use, directly or through another anchor. */
  anchors: string[]
}

/**
 * The keys beside `checks` at the top level of a `{checks: [...]}` file: a
 * holder holds anchors the entries use, directly or through another anchor
 * (a `defaults:` or `x-…` key), and is ignored; a key that holds none is a
 * stray, an error. The stray named is the first that is a slip of `checks`
 * (`chekcs`, `Checks`), else the first; it was meant as `checks` when it is a
 * slip or the file has no `checks`.
 */
export function topLevelKeys(
  doc: Document,
  top: YAMLMap
): { holders: TopLevelKey[]; stray?: TopLevelKey & { meantChecks: boolean } } {
  const targets = aliasTargets(doc)
  // Every node the entries reach, following aliases (and aliases within what they name).
  const used = new Set<unknown>()
  const reach: unknown[] = [top.get('checks', true)]
  while (reach.length > 0) {
    const node = reach.pop()
    if (node === undefined || node === null || used.has(node)) continue
    used.add(node)
    if (yaml.isAlias(node)) reach.push(targets.get(node))
    else if (yaml.isPair(node)) reach.push(node.key, node.value)
    else if (yaml.isCollection(node)) reach.push(...node.items)
  }
  const holders: TopLevelKey[] = []
  const strays: TopLevelKey[] = []
  for (const pair of top.items) {
    const key = pair.key as Located
    const written = yaml.isScalar(pair.key) ? pair.key.value : pair.key
    if (written === 'checks') continue
    // A plain `<<` (a merge key) is read as a symbol.
    const name = typeof written === 'symbol' ? '<<' : String(written)
    const anchors: string[] = []
    if (yaml.isNode(pair.value)) {
      yaml.visit(pair.value, {
        Node(_key, node) {
          if (!yaml.isAlias(node) && node.anchor && used.has(node)) anchors.push(node.anchor)
        }
      })
    }
    ;(anchors.length > 0 ? holders : strays).push({ key, name, anchors })
  }
  const slip = strays.find(key => closest(key.name, ['checks'], 1, 2).length > 0)
  const stray = slip ?? strays[0]
  return { holders, stray: stray && { ...stray, meantChecks: slip !== undefined || !top.has('checks') } }
}
