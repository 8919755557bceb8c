/**
 * The names nearest to what was sought (a name prefix, a pattern's literal
 * characters), for the error of a selection that matches no check: in time
 * linear in the names, never all of them sorted.
 */

/** Prefixes longer than this are compared by their first so many characters. */
const MAX_COMPARED = 200

/** Counts the work of `nearestNames` (tests): a step per name, per table cell computed and per place compared. */
export interface Meter {
  steps: number
}

/**
 * The names whose start is nearest to `prefix` (case aside): the fewest edits
 * from the prefix to the name's first characters (as many as the prefix has,
 * one fewer or one more), then by name. Always some when there are names.
 *
 * In time linear in the names: one table of edits per name (the three
 * lengths are three cells of its last row), kept to the band and the rows
 * that can still beat the farthest name kept so far (`startDistance`), and
 * only the nearest `limit` kept, never all of them sorted.
 */
export function nearestNames(prefix: string, names: string[], limit = 3, meter: Meter = { steps: 0 }): string[] {
  if (limit <= 0) return []
  const distance = startDistance(prefix.toLowerCase().slice(0, MAX_COMPARED), meter)
  const kept: Array<[string, number]> = []
  for (const name of new Set(names)) {
    meter.steps++
    if (name === '') continue
    // Past `limit` names, one enters only nearer than the farthest kept, or as near and before it by name.
    const last = kept.length < limit ? undefined : kept[kept.length - 1]
    const bound = last === undefined ? Number.POSITIVE_INFINITY : last[1] - (name > last[0] ? 1 : 0)
    const d = distance(name.toLowerCase(), bound)
    if (d === undefined) continue
    let at = kept.length
    while (at > 0 && (kept[at - 1][1] > d || (kept[at - 1][1] === d && kept[at - 1][0] > name))) {
      meter.steps++
      at--
    }
    // Within the bound, the name goes before the farthest kept: one in, at most one out.
    kept.splice(at, 0, [name, d])
    if (kept.length > limit) kept.pop()
  }
  return kept.map(([name]) => name)
}

/**
 * The edits from `p` to the start of a name (its first p.length - 1, p.length
 * or p.length + 1 characters, whichever is nearest), when at most `bound`;
 * undefined when more. Edits as `editDistance` counts them (insert, delete,
 * replace, swap two neighbours), in one table of p against the name's first
 * p.length + 1 characters, whose last row holds all three. With a finite
 * bound only cells within it of the diagonal are computed (a cell i rows and
 * j columns in is at least |i - j| edits), and a table whose last row is
 * all beyond it stops there: no later cell can come back under it (each
 * comes from a cell of that row plus an edit, or by a swap from one two rows
 * up, which is itself at most an edit from the cell of that row beside it).
 * The rows are allocated once, one cell wider than the widest row, so that
 * the band's edge can always be marked.
 */
function startDistance(p: string, meter: Meter): (name: string, bound: number) => number | undefined {
  const rows = p.length
  const width = rows + 3
  let older = new Int32Array(width)
  let prev = new Int32Array(width)
  let cur = new Int32Array(width)
  const FAR = 0x3fffffff
  return (name, bound) => {
    const cols = Math.min(name.length, rows + 1)
    // The start nearest in length is still |rows - cols| edits away.
    meter.steps++
    if (Math.max(0, rows - cols) > bound) return undefined
    const band = Math.min(bound, FAR)
    for (let j = 0; j <= cols; j++) prev[j] = j
    meter.steps += cols + 1
    for (let i = 1; i <= rows; i++) {
      const lo = Math.max(1, i - band)
      const hi = Math.min(cols, i + band)
      cur[0] = i
      if (lo > 1) cur[lo - 1] = FAR
      cur[hi + 1] = FAR
      let rowMin = i
      const a = p.charCodeAt(i - 1)
      // The hot loop compares by hand: no call per cell.
      for (let j = lo; j <= hi; j++) {
        const b = name.charCodeAt(j - 1)
        let d = prev[j - 1] + (a === b ? 0 : 1)
        if (prev[j] + 1 < d) d = prev[j] + 1
        if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1
        // In the first row or column there is no neighbour to swap with: charCodeAt(-1) is NaN, equal to nothing.
        if (a === name.charCodeAt(j - 2) && p.charCodeAt(i - 2) === b && older[j - 2] + 1 < d) d = older[j - 2] + 1
        cur[j] = d
        if (d < rowMin) rowMin = d
      }
      meter.steps += hi - lo + 1
      if (rowMin > bound) return undefined
      const spare = older
      older = prev
      prev = cur
      cur = spare
    }
    let best = FAR
    for (const length of [rows - 1, rows, rows + 1])
      if (length >= 0) best = Math.min(best, prev[Math.min(length, cols)])
    return best <= bound ? best : undefined
  }
}
