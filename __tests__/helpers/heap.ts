/**
 * V8's own count of the heap, for tests that measure bytes, not time: a
 * collection on demand (so each count starts from a settled heap) and the
 * bytes allocated while a function ran.
 */
import { GCProfiler, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
/** A full collection, now. */
export const gc = runInNewContext('gc') as () => void

/** The bytes V8 allocated while `fn` ran: freed by the collections within it, and still held at its end. */
export function allocatedBy(fn: () => void): number {
  gc()
  const profiler = new GCProfiler()
  profiler.start()
  const before = process.memoryUsage().heapUsed
  fn()
  const after = process.memoryUsage().heapUsed
  const freed = (profiler.stop()?.statistics ?? []).reduce(
    (sum, s) => sum + s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize,
    0
  )
  return after - before + freed
}
