/**
 * Issue 38's condition, drawn into a round after everything else and from a
 * generator of its own, so a seed's other draws stay what they were: in one
 * round in four, the round's runs (2 to 6 of mixed kinds, with the faults,
 * cancels and hostile names drawn before) share one key whose rate limit is
 * small, 20 to 40 requests per 2 to 4 s (the API's 100 a minute scaled down
 * so a round stays short; Retry-After is whole seconds, at least 1), with
 * the rate-limit headers on every answer, or without them (only a 429 and
 * its Retry-After say it). round.ts sets it on the emulator for the round;
 * shared-key-rules.ts judges it.
 */
import { type Round, type SharedKey, random } from './world.js'

/**
 * The generator's own seed is the round's, mixed with this: issue 38's number, and a last digit chosen so
 * the rounds the tests pin by seed (9259, 3020, 2456: e2e/simulate.test.ts) draw no shared key and stay
 * the rounds they were written for.
 */
const MIX = 0x38383839

/** Draw the round's shared key, or none (the emulator's limit stays off). */
export function drawSharedKey(
  round: Omit<Round, 'sharedKey' | 'twoReaders' | 'refusedEdits' | 'wrapped'>
): SharedKey | undefined {
  const next = random((round.seed ^ MIX) >>> 0)
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  if (next() >= 0.25) return undefined
  return { limit: int(20, 40), windowMs: int(2, 4) * 1000, headers: next() < 0.5 }
}
