/**
 * The character escapes of the markup the action writes: HTML (and XML)
 * entities, Markdown's backslashes, and the zero-width spaces that keep
 * GitHub from making a link, a mention or a reference of text. One owner for
 * both sides: the writers escape with these, and redaction (secrets.ts) knows
 * a secret in each form they give it, so a key written with its underscores
 * escaped (`sk\_live`) is still the key.
 */

/** `&`, `<`, `>` and `"` as HTML entities. */
export const htmlEscaped = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** `&`, `<`, `>`, `"` and `'` as XML entities. */
export const xmlEscaped = (text: string): string => htmlEscaped(text).replace(/'/g, '&apos;')

/** Text shown as written inside Markdown: HTML escaped, then Markdown's punctuation backslash-escaped (`|` never splits a cell). */
export const markdownEscaped = (text: string): string => htmlEscaped(text).replace(/[\\`*_[\]|~]/g, ch => `\\${ch}`)

/** A zero-width space: invisible, and it breaks what GitHub would make a link of. */
const ZWSP = '\u200B'

/**
 * Text (already escaped for Markdown) that GitHub renders with nothing live
 * in it: no autolink (GFM's extension links `https://…`, `www.…` and `a@b.c`
 * in plain text), no mention (`@name` notifies), no reference (`#12`,
 * `GH-12`, a commit's hex id). A zero-width space goes where each would
 * start, or inside.
 */
export function defused(escaped: string): string {
  return escaped
    .replace(/(https?|ftp|mailto|xmpp):/gi, `$1:${ZWSP}`)
    .replace(/\bwww\./gi, m => `${m.slice(0, 3)}${ZWSP}.`)
    .replace(/([@#])(?=[\p{L}\p{N}_-])/gu, `$1${ZWSP}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1-${ZWSP}`)
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/gi, hex => hex.replace(/(.{6})(?=.)/g, `$1${ZWSP}`))
}
