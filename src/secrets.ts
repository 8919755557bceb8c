/**
 * Secrets in text: every occurrence of a secret becomes ***. Callers redact
 * before they shorten text, so no part of a secret survives a cut.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}

/** A URL without its user name and password (a proxy URL may carry them). */
export function withoutCredentials(url: string): string {
  if (!url) return url
  try {
    const parsed = new URL(url)
    if (!parsed.username && !parsed.password) return url
    parsed.username = ''
    parsed.password = ''
    return parsed.href
  } catch {
    return '(an unparsable proxy URL)'
  }
}
