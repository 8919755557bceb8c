/**
 * The gate's objectives, kept exact as decimals (`scaled / scale`) so that
 * the error budget's and the burn rate's arithmetic never rounds: `slo`, a
 * percentage, and `max-burn-rate`, a multiple of the rate that would spend
 * the budget exactly over `slo-window`.
 */
import { BARE, ValueError, quote } from './parse.js'

/** The rule of `slo`, said whenever a value is refused. */
const SLO_RULE = 'a percentage with its % sign, above 0% and below 100%, with at most 6 decimals (99.9%, 99.95%)'
/** The rule of `max-burn-rate`, said whenever a value is refused. */
const BURN_RULE =
  'a number above 0 with at most 6 decimals, a multiple of the rate that spends the budget exactly over slo-window (14.4, 6)'

/** Digits and at most 6 decimals as `scaled / scale`; undefined past 6 decimals. */
function exact(whole: string, decimals = ''): { scaled: number; scale: number } | undefined {
  if (decimals.length > 6) return undefined
  const scale = 10 ** decimals.length
  return { scaled: Number(whole) * scale + Number(decimals || 0), scale }
}

/**
 * `slo`: an objective in percent (SLO_RULE), kept exact (`scaled / scale`
 * percent) so the budget's arithmetic never rounds. A bare number (`0.999`)
 * is refused; 100% has no budget.
 */
export function parseSlo(value: string): { percent: number; scaled: number; scale: number } {
  const text = value.trim()
  const refuse = (why: string) => new ValueError(`must be ${SLO_RULE}, got ${quote(value)}: ${why}`)
  if (BARE.test(text)) throw refuse('a bare number is refused')
  const m = /^(\d+)(?:\.(\d+))?[ \t]*%$/.exec(text)
  if (!m) throw refuse('not a percentage')
  const read = exact(m[1], m[2])
  if (!read) throw refuse(`${m[2].length} decimals`)
  const { scaled, scale } = read
  if (scaled <= 0) throw refuse('an objective of 0% allows every failure')
  if (scaled >= 100 * scale) throw refuse('an objective of 100% or more has no budget')
  return { percent: scaled / scale, scaled, scale }
}

/**
 * `max-burn-rate`: a multiple (BURN_RULE), kept exact. A percentage is
 * refused with what it is not; so is 0, which every failure would pass.
 * Whether the objective leaves room for it is the inputs' pairing rule.
 */
export function parseBurnRate(value: string): { multiple: number; scaled: number; scale: number } {
  const text = value.trim()
  const refuse = (why: string) => new ValueError(`must be ${BURN_RULE}, got ${quote(value)}: ${why}`)
  if (/%$/.test(text)) throw refuse('a multiple, not a percentage')
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text)
  if (!m) throw refuse('not a number')
  const read = exact(m[1], m[2])
  if (!read) throw refuse(`${m[2].length} decimals`)
  if (read.scaled <= 0) throw refuse('a rate of 0 holds the release at the first failure')
  if (!Number.isSafeInteger(read.scaled)) throw refuse('too large')
  return { multiple: read.scaled / read.scale, ...read }
}
