/** A failure's words, whichever door tells it. */

/** Any thrown value, as one line a user can act on (never only a stack trace). */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  if (typeof error === 'string') return error
  try {
    return `unexpected failure: ${JSON.stringify(error)}`
  } catch {
    return `unexpected failure: ${String(error)}`
  }
}
