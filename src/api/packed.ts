/**
 * Rows kept small: a long list's rows (a fleet's checks as the service lists
 * them, a checks file's entries) as JSON text in buffers outside V8's heap,
 * each made an object again only where a field is needed.
 *
 * Why: an object kept from a page lives through the young generation's
 * collections, which copy it once and then promote it, and V8 doubles the
 * young generation when what survives them since it last grew passes its
 * size. At 10,000 checks the rows kept whole were what made it double from
 * 2 x 8 to 2 x 16 MiB (docs/benchmark-rows.md). A row made again here is used
 * and dropped: it dies young, and nothing of it is copied.
 *
 * A mapping is kept as the list of its values, its keys once for all the rows
 * that have the same keys in the same order (a fleet's rows do): some half the
 * text of the whole JSON. JSON holds every value a row read from JSON or YAML
 * holds (strings, finite numbers, booleans, null, lists and mappings) with the
 * order of its keys, so the row made again is equal to the row kept, key for
 * key. (-0 comes back as 0, and a number too large for a double, which
 * JSON.parse reads as Infinity, comes back as null: every output, body and
 * comparison writes each as JSON alike. A deleted check's plan lists no such
 * field, as it lists no null one.)
 */
import { type Mapping, isMapping } from '../values/values.js'

/** Room for rows: a buffer is allocated this size, or a row's own when longer. */
const CHUNK_BYTES = 256 * 1024

/** Most shapes kept: a list whose rows have more sets of keys keeps the others whole (no search through them all). */
const MAX_SHAPES = 64

/** A list of plain values, each kept as JSON text; `value(i)` makes the i-th again. */
export class PackedValues {
  private readonly chunks: Buffer[] = []
  /** Where each value's text is: its buffer, its first byte, its length in bytes (negative: not ASCII). */
  private chunkOf = new Uint32Array(64)
  private startOf = new Uint32Array(64)
  private lengthOf = new Int32Array(64)
  /** The keys of each value kept as the list of its values (an index into `shapes`), else -1. */
  private shapeOf = new Int32Array(64)
  private readonly shapes: string[][] = []
  private lastShape = -1
  private used = 0
  private count = 0

  /** `room`: a buffer to keep the first values in (one whose bytes are no longer needed), before any is allocated. */
  constructor(room?: Buffer) {
    if (room) this.chunks.push(room)
  }

  get length(): number {
    return this.count
  }

  /** Keep `value` (a plain value): its place, for `value`. */
  add(value: unknown): number {
    const shape = this.shapeFor(value)
    const text = JSON.stringify(shape < 0 ? value : Object.values(value as Mapping))
    // UTF-8 takes at most 3 bytes a UTF-16 unit (a pair takes 4 for its 2).
    const most = text.length * 3
    let chunk = this.chunks[this.chunks.length - 1]
    if (chunk === undefined || this.used + most > chunk.length) {
      chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, most))
      this.chunks.push(chunk)
      this.used = 0
    }
    const bytes = chunk.write(text, this.used)
    if (this.count === this.chunkOf.length) this.grow()
    const place = this.count++
    this.chunkOf[place] = this.chunks.length - 1
    this.startOf[place] = this.used
    this.lengthOf[place] = bytes === text.length ? bytes : -bytes
    this.shapeOf[place] = shape
    this.used += bytes
    return place
  }

  /** The value kept at `place`, made again: a new object each call. */
  value(place: number): unknown {
    if (!(place >= 0 && place < this.count)) throw new RangeError(`no value kept at ${place}`)
    const chunk = this.chunks[this.chunkOf[place]]
    const start = this.startOf[place]
    const length = this.lengthOf[place]
    const text =
      length >= 0 ? chunk.toString('latin1', start, start + length) : chunk.toString('utf8', start, start - length)
    const parsed = JSON.parse(text) as unknown
    const shape = this.shapeOf[place]
    if (shape < 0) return parsed
    const keys = this.shapes[shape]
    const values = parsed as unknown[]
    const made: Mapping = {}
    for (let i = 0; i < keys.length; i++) made[keys[i]] = values[i]
    return made
  }

  /**
   * The shape `value` is kept by (its keys, in order), or -1 for its whole
   * JSON: a value that is not a mapping, one of more shapes than MAX_SHAPES, or one whose keys a list of values
   * would not give back (`__proto__`, which an assignment does not make a key)
   * or whose values JSON would not keep in a list as it does in a mapping (undefined).
   */
  private shapeFor(value: unknown): number {
    if (!isMapping(value)) return -1
    const keys = Object.keys(value)
    for (const key of keys) {
      const v = value[key]
      if (key === '__proto__' || v === undefined || typeof v === 'function' || typeof v === 'symbol') return -1
    }
    const same = (s: number) => {
      const known = this.shapes[s]
      return known.length === keys.length && known.every((key, i) => key === keys[i])
    }
    // The rows of a list mostly share their keys: the shape of the value before is tried first.
    if (this.lastShape >= 0 && same(this.lastShape)) return this.lastShape
    let shape = this.shapes.findIndex((_, s) => same(s))
    if (shape < 0 && this.shapes.length >= MAX_SHAPES) return -1
    if (shape < 0) shape = this.shapes.push(keys) - 1
    return (this.lastShape = shape)
  }

  private grow(): void {
    const size = this.chunkOf.length * 2
    const grown = <A extends Uint32Array | Int32Array>(from: A, to: A): A => (to.set(from), to)
    this.chunkOf = grown(this.chunkOf, new Uint32Array(size))
    this.startOf = grown(this.startOf, new Uint32Array(size))
    this.lengthOf = grown(this.lengthOf, new Int32Array(size))
    this.shapeOf = grown(this.shapeOf, new Int32Array(size))
  }
}

/** What a listed row is known by without making it: its id and name. */
export interface Named {
  id: string
  name?: unknown
}

/**
 * A row of a list kept packed: its id and name at hand, the whole row made
 * again (`whole`) where a field is needed.
 */
export class PackedRow<T extends Named> {
  constructor(
    readonly id: string,
    readonly name: T['name'],
    private readonly values: PackedValues,
    private readonly place: number
  ) {}

  /** The row as it was read: a new object each call, for the caller to use and drop. */
  whole(): T {
    const row = this.values.value(this.place) as T
    // The same id as the handle's, not a copy of it: an entry of a plan keeps it.
    row.id = this.id
    return row
  }
}

/** Packs rows as they are read: gives each row its handle (one store for the whole read, or the one given). */
export function packer<T extends Named>(values = new PackedValues()): (row: T) => PackedRow<T> {
  return row => new PackedRow<T>(row.id, row.name, values, values.add(row))
}

/** A row, whole: a plain row as it is, a packed one made again. */
export function wholeOf<T extends Named>(row: T | PackedRow<T>): T {
  return row instanceof PackedRow ? row.whole() : row
}
