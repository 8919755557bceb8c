/**
 * Pure parsers for the runner's input strings. Each returns a value or throws
 * a ValueError that names nothing but the problem; the caller (inputs.ts)
 * adds the input's name.
 */
import { idProblem, timeOf } from './values.js'

/** A problem with a value; `inputs.ts` prefixes it with the input's name. */
export class ValueError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ValueError'
  }
}

type Unit = 'ms' | 's' | 'm' | 'h' | 'd'
const UNIT_MS: Record<Unit, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** The largest duration any input accepts but the windows of the past (`since`, `slo-window`): one day. */
export const MAX_DURATION_MS = 24 * 3_600_000

/** Show a value in an error message: quoted, one line, at most 60 characters. */
export function quote(value: string): string {
  const oneLine = JSON.stringify(value)
  return oneLine.length > 62 ? `${oneLine.slice(0, 58)}..."` : oneLine
}

/**
 * What one duration input takes: its units, its limit, examples of its form,
 * and what a bare number (`45`) means. Plain seconds where the contract says
 * durations take them (`timeout: 90`); refused where 45 seconds is never what
 * was meant (a window of the past, an increase), with the forms that fix it.
 */
export interface DurationKind {
  units: readonly Unit[]
  maxMs: number
  examples: string
  /** The units (or signs) a bare number is shown with when it is refused; absent: plain seconds. */
  bareRefused?: readonly string[]
  /** What a value of another form must be, when more than a duration is allowed. */
  form?: string
  /** What a value past the limit does, when the limit is more than a length. */
  tooLong?: string
}

const HOURS: readonly Unit[] = ['ms', 's', 'm', 'h']
const DAYS: readonly Unit[] = [...HOURS, 'd']
/** timeout, poll-interval, request-timeout: a bare number is seconds. */
const WAIT: DurationKind = { units: HOURS, maxMs: MAX_DURATION_MS, examples: '90, 500ms, 90s, 5m, 1h or 1m30s' }
/** baseline: a window of the past, at most a day. */
const BASELINE: DurationKind = { ...WAIT, examples: '30m, 1h, 24h or 1h30m', bareRefused: ['s', 'm', 'h'] }
/** The longest `slo-window`: a quarter. */
export const MAX_SLO_WINDOW_MS = 90 * 86_400_000
const SLO_WINDOW: DurationKind = {
  units: DAYS,
  maxMs: MAX_SLO_WINDOW_MS,
  examples: '30d, 7d, 720h or 1d12h',
  bareRefused: ['h', 'd']
}
/** since: back from the step's start, at most 366 days; or a time (parseSince). */
const SINCE: DurationKind = {
  units: DAYS,
  maxMs: 366 * 86_400_000,
  examples: '90m, 48h or 7d',
  bareRefused: ['m', 'h', 'd'],
  form: 'a duration (90m, 48h, 7d) or an ISO 8601 time with its offset (2026-11-23T08:00:00Z)',
  tooLong: 'reaches back more than 366 days'
}
/** The duration form of max-response-time-increase (its other form is a percentage). */
const INCREASE: DurationKind = {
  ...WAIT,
  examples: '150ms or 0.2s',
  bareRefused: ['%', 'ms'],
  form: 'a percentage (20%) or a duration (150ms)'
}

/** A bare number: digits, and decimals after a point. */
export const BARE = /^\d+(\.\d+)?$/
const limitText = (ms: number) => (ms > MAX_DURATION_MS ? `${ms / 86_400_000}d` : `${ms / 3_600_000}h`)

/** A window's length in words: `30d` (over a day), `24h`, `90m`, `45s`. */
export function windowText(ms: number): string {
  if (ms > 86_400_000 && ms % 86_400_000 === 0) return `${ms / 86_400_000}d`
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`
  if (ms % 60_000 === 0) return `${ms / 60_000}m`
  return `${ms / 1000}s`
}

/** A bare number where its kind refuses one, saying what to write instead: the forms within the limit. */
function noUnit(text: string, kind: DurationKind): ValueError {
  const fits = (kind.bareRefused ?? []).filter(u => !(u in UNIT_MS) || Number(text) * UNIT_MS[u as Unit] <= kind.maxMs)
  const forms = fits.map(u => `${text}${u}`)
  const fix =
    forms.length > 1
      ? `write ${forms.slice(0, -1).join(', ')} or ${forms.at(-1)}`
      : forms.length === 1
        ? `write ${forms[0]}`
        : `write it with one of ${kind.units.join(', ')}`
  return new ValueError(
    `${quote(text)} has no unit: ${fix} (at most ${limitText(kind.maxMs)}; a bare number is refused here)`
  )
}

/**
 * A duration of `kind` (default WAIT): numbers with units, combined (`500ms`,
 * `90s`, `5m`, `1h`, `1m30s`; days, `7d`, where the kind takes them), at most
 * its limit; a bare number as the kind says (plain seconds, or refused with
 * the fix); zero needs no unit. Returns milliseconds. Every duration input is
 * read here, so each refuses (or reads) a bare number the same way.
 */
export function parseDuration(value: string, kind: DurationKind = WAIT): number {
  const text = value.trim()
  let ms: number
  if (BARE.test(text)) {
    if (kind.bareRefused && Number(text) !== 0) throw noUnit(text, kind)
    ms = Number(text) * 1000
  } else if (new RegExp(`^(\\d+(\\.\\d+)?(${kind.units.join('|')}))+$`).test(text)) {
    ms = 0
    for (const match of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g))
      ms += Number(match[1]) * UNIT_MS[match[2] as Unit]
  } else {
    const days = !kind.units.includes('d') && /\dd$/i.test(text) ? '; days are not a unit here' : ''
    const form = kind.form ?? `a duration such as ${kind.examples} (at most ${limitText(kind.maxMs)}${days})`
    throw new ValueError(`must be ${form}, got ${quote(value)}`)
  }
  if (!Number.isFinite(ms) || ms > kind.maxMs) {
    throw new ValueError(`${kind.tooLong ?? `must be at most ${limitText(kind.maxMs)}`}, got ${quote(value)}`)
  }
  return Math.round(ms)
}

/** `baseline`: a duration with its unit (`1h`, `24h`), at most a day. */
export const parseBaseline = (value: string): number => parseDuration(value, BASELINE)

/** `slo-window`: a duration with its unit (`30d`, `7d`, `720h`), at most 90 days. */
export const parseSloWindow = (value: string): number => parseDuration(value, SLO_WINDOW)

/** Booleans as the runner's YAML 1.2 core schema knows them; nothing else. */
export function parseBoolean(value: string): boolean {
  const text = value.trim()
  if (['true', 'True', 'TRUE'].includes(text)) return true
  if (['false', 'False', 'FALSE'].includes(text)) return false
  throw new ValueError(`must be true or false, got ${quote(value)}`)
}

/**
 * A list: a value that holds a line break splits on line breaks only (so
 * items may contain commas); one without splits on commas. Items are trimmed,
 * empty ones dropped.
 */
export function parseList(value: string): string[] {
  return value
    .split(/\r?\n|\r/.test(value) ? /\r?\n|\r/ : ',')
    .map(item => item.trim())
    .filter(item => item !== '')
}

/** A whole number within bounds. */
export function parseWholeNumber(value: string, min: number, max: number): number {
  const text = value.trim()
  if (!/^\d+$/.test(text)) {
    throw new ValueError(`must be a whole number, got ${quote(value)}`)
  }
  const n = Number(text)
  if (n < min || n > max) {
    throw new ValueError(`must be between ${min} and ${max}, got ${quote(value)}`)
  }
  return n
}

/** A non-negative number (`800`, `250.5`) or a duration with a unit (`800ms`, `1s`), as milliseconds. */
export function parseMilliseconds(value: string): number {
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text)
    if (n > MAX_DURATION_MS) throw new ValueError(`must be at most ${MAX_DURATION_MS}, got ${quote(value)}`)
    return n
  }
  try {
    return parseDuration(text)
  } catch {
    throw new ValueError(`must be a number of milliseconds (800) or a duration (800ms, 1.5s), got ${quote(value)}`)
  }
}

/**
 * `max-response-time-increase`: a percentage of the baseline (`20%`, `12.5%`)
 * or a duration added to it (`150ms`, `0.2s`), at most a day. A bare number
 * is refused: `150` could be either.
 */
export function parseIncrease(value: string): { percent: number } | { ms: number } {
  const text = value.trim()
  // Spaces or tabs between the number and the sign; never a line break.
  const percent = /^(\d+(?:\.\d+)?)[ \t]*%$/.exec(text)
  if (percent) {
    const n = Number(percent[1])
    if (n > 10_000) throw new ValueError(`must be at most 10000%, got ${quote(value)}`)
    return { percent: n }
  }
  return { ms: parseDuration(text, INCREASE) }
}

/**
 * `since`: a duration back from the step's start (`90m`, `48h`, `7d`), or an
 * ISO 8601 date (`2026-11-23`, midnight UTC) or time with its offset
 * (`2026-11-23T08:00:00Z`, `...+02:00`). A date that does not exist is refused.
 */
export function parseSince(value: string): { agoMs: number } | { at: number } {
  const text = value.trim()
  const iso = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(text)
  if (iso) {
    const [, y, m, d] = iso
    const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)))
    if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(m) - 1 || day.getUTCDate() !== Number(d)) {
      throw new ValueError(`names a day that does not exist, got ${quote(value)}`)
    }
    const at = timeOf(text)
    if (Number.isNaN(at)) throw new ValueError(`must be ${SINCE.form}, got ${quote(value)}`)
    return { at }
  }
  return { agoMs: parseDuration(text, SINCE) }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/** base-url: https (plain http only to a loopback host), no credentials, query or fragment; no trailing slash. */
export function parseBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    throw new ValueError(`must be an absolute URL such as https://api.example.com/v1, got ${quote(value)}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ValueError(`must be an https URL, got ${quote(url.protocol)}`)
  }
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw new ValueError(
      `must use https: the API key is only sent over plain http to a loopback host (localhost, 127.x.x.x, [::1]), got host ${quote(url.hostname)}`
    )
  }
  if (url.username || url.password) {
    throw new ValueError('must not contain a user name or password')
  }
  if (url.search || url.hash) {
    throw new ValueError('must not contain a query (?...) or fragment (#...)')
  }
  return url.href.replace(/\/+$/, '')
}

/** api-key: one token of printable ASCII (it goes into a header); the value is never echoed. */
export function parseApiKey(value: string): string {
  const key = value.trim()
  // Never echo the value: it is a secret.
  if (/[\s\u0000-\u001f\u007f]/.test(key)) {
    throw new ValueError('must be a single token without spaces, line breaks or control characters')
  }
  // It goes into the Authorization header, which takes printable ASCII only.
  if (/[^\u0021-\u007e]/.test(key)) {
    throw new ValueError(
      'must be printable ASCII (it is sent in the Authorization header); it holds a character outside that range, which usually means it was pasted with an extra character'
    )
  }
  return key
}

/** One line without control characters, trimmed. */
export const oneLine = (value: string): string => {
  const trimmed = value.trim()
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new ValueError(`must be one line without control characters, got ${quote(value)}`)
  }
  return trimmed
}

/** An id that addresses one resource (not empty, . or ..). */
export const anId = (value: string): string => {
  const id = oneLine(value)
  const problem = idProblem(id)
  if (problem) throw new ValueError(`is ${quote(id)}: ${problem}`)
  return id
}
