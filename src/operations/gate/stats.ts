/**
 * Figures for reports: response-time statistics, a Unicode sparkline GitHub
 * renders anywhere, times relative to now, and a mark per status. Plain text:
 * the summary renderer escapes it like any other value.
 */
import { str } from '../common.js'
import { timeOf } from '../../values/values.js'

export interface Spread {
  min: number
  avg: number
  p95: number
}

/** The nearest-rank percentile `p` (0-100) of the values; undefined when there are none. */
export function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]
}

/** Min, average and 95th percentile of the values; undefined when there are none. */
export function spreadOf(values: number[]): Spread | undefined {
  const p95 = percentile(values, 95)
  if (p95 === undefined) return undefined
  let min = Number.POSITIVE_INFINITY
  let sum = 0
  for (const v of values) {
    if (v < min) min = v
    sum += v
  }
  return { min, avg: Math.round(sum / values.length), p95 }
}

export const spreadText = (s: Spread | undefined): string => (s ? `${s.min} / ${s.avg} / ${s.p95}` : '')

/** A sparkline's bars, lowest first. */
export const BARS = '▁▂▃▄▅▆▇█'

/** The values as a sparkline of at most `width` bars (averaged into buckets when there are more). */
export function sparkline(values: number[], width = 40): string {
  if (values.length === 0) return ''
  const buckets = Math.min(width, values.length)
  const points = Array.from({ length: buckets }, (_, i) => {
    const part = values.slice(
      Math.floor((i * values.length) / buckets),
      Math.floor(((i + 1) * values.length) / buckets)
    )
    return part.reduce((a, b) => a + b, 0) / part.length
  })
  const low = Math.min(...points)
  const high = Math.max(...points)
  return points.map(v => BARS[high === low ? 0 : Math.round(((v - low) / (high - low)) * (BARS.length - 1))]).join('')
}

/** An ISO time as "12 s ago" (or "in 5 s" for a clock ahead), with the time of day in UTC. */
export function ago(iso: unknown, now: number): string {
  const at = timeOf(iso)
  if (Number.isNaN(at)) return 'never'
  const seconds = Math.round((now - at) / 1000)
  const size = Math.abs(seconds)
  // Round, then choose the unit: 3570 s is "1 h", not "60 min".
  const minutes = Math.round(size / 60)
  const hours = Math.round(size / 3600)
  const amount =
    size < 60
      ? `${size} s`
      : minutes < 60
        ? `${minutes} min`
        : hours < 24
          ? `${hours} h`
          : `${Math.round(size / 86_400)} d`
  const clock = new Date(at).toISOString().slice(11, 19)
  return `${seconds >= 0 ? `${amount} ago` : `in ${amount}`} (${clock} UTC)`
}

/** ✅ for the status wanted, ⏸ for paused, ❌ for anything else. */
export function statusMark(status: unknown, wanted = 'up'): string {
  const s = str(status).toLowerCase()
  if (s === wanted.toLowerCase()) return '✅'
  if (s === 'paused') return '⏸'
  return '❌'
}
