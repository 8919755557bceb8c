/**
 * A secret is *** in every form the action writes it: Markdown escapes a key's
 * `_`, `*` and `[` with a backslash and its `&`, `<` with entities, GitHub's
 * defusing puts zero-width spaces into hex runs, and still no form of the key
 * reaches the drift issue, the pull-request comment, the summary, the log or
 * the outputs. The key stands in the base URL's path (some services put it
 * there), in a check's URL and in a field of the check the service holds.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { GITHUB_ENV, runAction, useEmulator } from '../helpers/harness.js'
import { usePullRequest } from '../helpers/pull-request.js'

const KEYS = [
  'sk_live_ab12cd34ef56',
  'sk*live*ab12cd34',
  'sk[live]ab12_cd34',
  'sk&live<ab12cd34>',
  'abcdef0123456789abcd'
]
const emulator = useEmulator({ apiKeys: KEYS })
const TOKEN = 'ghs_escapedToken0123456789abcdef'
const { github, root } = usePullRequest(9, 'escaped-secrets-')

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'"
}

/** Text as a reader sees it once rendered: zero-width spaces gone, Markdown's backslash escapes and HTML's entities undone. */
const rendered = (text: string) =>
  text
    .replace(/\u200B/g, '')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&(?:amp|lt|gt|quot|#39|apos);/g, entity => ENTITIES[entity])

/** Each text that shows `key` once rendered, as written or percent-encoded. */
function leaks(key: string, texts: string[]): string[] {
  const forms = [key, encodeURIComponent(key), encodeURI(key)]
  return texts.filter(text => forms.some(form => rendered(text).includes(form))).map(text => text.slice(0, 300))
}

describe('a key written escaped is still the key', () => {
  it.each(KEYS)(
    '%s in the base URL, a check URL and a field: in no form in GitHub, the summary or the log',
    async key => {
      emulator.seedCheck({
        name: 'app-web',
        url: `https://web.example.com/hook/${key}/`,
        interval: 300,
        headers: { 'X-Trace': key }
      })
      const dir = mkdtempSync(join(root, 'ws-'))
      writeFileSync(join(dir, 'checks.yml'), '- name: app-web\n  url: https://web.example.com/\n  interval: 60\n')
      const { core } = await runAction(
        emulator,
        {
          operation: 'sync-checks',
          'checks-file': 'checks.yml',
          'dry-run': 'true',
          'api-key': key,
          'base-url': `${emulator.baseUrl}/${encodeURIComponent(key)}`,
          'drift-issue': 'true',
          'pr-comment': 'true',
          'github-token': TOKEN
        },
        {
          env: {
            ...GITHUB_ENV,
            GITHUB_EVENT_NAME: 'pull_request',
            GITHUB_API_URL: github.url,
            GITHUB_WORKSPACE: dir
          }
        }
      )
      expect(core.failed).toBeUndefined()
      // What GitHub shows: the strings of each JSON body sent (a title, a body), as GitHub stores them.
      const sent = github.requests
        .filter(r => r.body !== '')
        .flatMap(r => Object.values(JSON.parse(r.body) as Record<string, unknown>))
        .filter((v): v is string => typeof v === 'string')
      expect(sent.some(body => body.includes('differs from'))).toBe(true) // the drift issue was written
      expect(sent.some(body => body.includes('app-web'))).toBe(true)
      expect(leaks(key, [...sent, core.everything()])).toEqual([])
    }
  )
})
