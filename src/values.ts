/** Plain values as JSON and YAML give them: the one definition of "a mapping" every layer uses. */

export type Mapping = Record<string, unknown>

/** A plain object (JSON's object, YAML's map): not an array, a Set, a Map or binary data. */
export function isMapping(value: unknown): value is Mapping {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** Ids are put into paths: these would name another path, even percent-encoded. */
export function idProblem(id: string): string | undefined {
  if (id === '' || id === '.' || id === '..') {
    return 'an id cannot be empty, "." or ".." (even percent-encoded, it would address another path)'
  }
  return undefined
}
