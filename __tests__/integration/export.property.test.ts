/**
 * The export's promise over random fleets, against the emulator with small
 * pages: right after export-checks, sync-checks of the file (dry run, with
 * prune) plans nothing; no secret (of a URL: userinfo, query parameters
 * separated by & or ;, a fragment parameter; an Authorization header) is in
 * the file or the log, and nothing else is lifted or masked; with the listed
 * variables set to their values, the plan is still empty.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 4 })
const dir = mkdtempSync(join(tmpdir(), 'export-prop-'))

const SPECIAL = [
  'yes',
  'no',
  'null',
  '0x10',
  '1e3',
  '~',
  '-dash',
  '# hash',
  'a: b',
  "'q'",
  ' pad ',
  'ünï 名',
  'a, b',
  '${X}'
]
// A name of blanks only is no name (the export refuses it, rightly): left out.
const name = fc
  .oneof(
    fc.constantFrom(...SPECIAL),
    fc.string({ minLength: 1, maxLength: 12 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 })
  )
  .filter(n => n.trim() !== '')
const text = fc.stringMatching(/^[A-Za-z0-9._~$@{}:-]{1,10}$/)
/** A secret's value: distinctive, so finding it anywhere means it leaked. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{10,16}$/).map(s => `sec${s}`)
const parameter = fc.oneof(
  // Names that hold a secret's word only inside a word: never lifted, whatever their value.
  fc
    .tuple(fc.constantFrom('q', 'page', 'lang', 'x', 'bypass_cache', 'keyword', 'passport', 'monkey'), text)
    .map(([k, v]) => ({ key: k, value: v, secret: false })),
  fc
    .tuple(fc.constantFrom('q', 'bypass_cache', 'tokenizer'), fc.constantFrom('true', 'false', '1', 'null', 'off'))
    .map(([k, v]) => ({ key: k, value: v, secret: false })),
  fc
    .tuple(
      fc.constantFrom('token', 'api_key', 'Signature', 'password', 'access_token', 'jwt', 'x-api-key', 'apiKey'),
      secret
    )
    .map(([k, v]) => ({ key: k, value: v, secret: true }))
)
const check = fc.record({
  name,
  host: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
  path: fc.stringMatching(/^[a-z0-9/_-]{0,10}$/),
  query: fc.array(parameter, { maxLength: 3 }),
  /** `&` or `;` between query parameters. */
  separator: fc.constantFrom('&', ';'),
  fragment: fc.option(fc.tuple(secret, text), { nil: undefined }),
  authorization: fc.option(secret, { nil: undefined }),
  userinfo: fc.option(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), secret), { nil: undefined }),
  interval: fc.option(fc.integer({ min: 1, max: 3600 }), { nil: undefined }),
  type: fc.option(fc.constantFrom('http', 'tcp'), { nil: undefined }),
  paused: fc.boolean(),
  alertChannels: fc.option(fc.uniqueArray(fc.constantFrom('ops', 'dev', 'pager')), { nil: undefined }),
  owner: fc.option(fc.oneof(text, fc.integer(), fc.boolean(), fc.record({ team: text })), { nil: undefined })
})
const fleet = fc.uniqueArray(check, { minLength: 1, maxLength: 10, selector: c => c.name })

/** The values the placeholders of an exported URL stand for, read off the service's URL. */
function valuesOf(exported: string, original: string): Record<string, string> {
  const names: string[] = []
  const pattern = exported
    .split(/(\$\$\{|\$\{secret:[A-Z0-9_]+\})/)
    .map(part => {
      if (part === '$${') return '\\$\\{'
      const m = /^\$\{secret:([A-Z0-9_]+)\}$/.exec(part)
      if (m) return (names.push(m[1]), '(.*?)')
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('')
  const found = new RegExp(`^${pattern}$`).exec(original)
  if (!found) throw new Error(`${exported} does not match ${original}`)
  return Object.fromEntries(names.map((n, i) => [n, found[i + 1]]))
}

describe('export-checks round trip (property)', () => {
  it('random fleets: export, then sync-checks plans nothing; secrets never in the file or the log', async () => {
    await fc.assert(
      fc.asyncProperty(fleet, async checks => {
        emulator.reset()
        const urls = new Map<string, string>()
        const secrets: string[] = []
        const plain: string[] = []
        const headers = new Map<string, string>()
        for (const c of checks) {
          const query = c.query.map(p => `${p.key}=${p.value}`).join(c.separator)
          const userinfo = c.userinfo ? `${c.userinfo[0]}:${c.userinfo[1]}@` : ''
          const fragment = c.fragment ? `#access_token=${c.fragment[0]}&state=${c.fragment[1]}` : ''
          const url = `https://${userinfo}${c.host}.example.com/${c.path}${query ? `?${query}` : ''}${fragment}`
          secrets.push(...c.query.filter(p => p.secret).map(p => p.value), ...(c.userinfo ? [c.userinfo[1]] : []))
          if (c.fragment) secrets.push(c.fragment[0])
          if (c.authorization) secrets.push(c.authorization)
          plain.push(...c.query.filter(p => !p.secret).map(p => p.value))
          urls.set(c.name, url)
          if (c.authorization) headers.set(c.name, `Bearer ${c.authorization}`)
          emulator.seedCheck({
            name: c.name,
            url,
            status: c.paused ? 'paused' : 'up',
            ...(c.interval !== undefined ? { interval: c.interval } : {}),
            ...(c.type !== undefined ? { type: c.type } : {}),
            ...(c.alertChannels !== undefined ? { alertChannels: c.alertChannels } : {}),
            ...(c.owner !== undefined ? { owner: c.owner } : {}),
            ...(c.authorization ? { headers: { Authorization: `Bearer ${c.authorization}`, Accept: '*/*' } } : {})
          })
        }
        const env = { GITHUB_WORKSPACE: dir }
        const exported = await runAction(emulator, { operation: 'export-checks', 'checks-file': 'fleet.json' }, { env })
        expect(exported.core.failed).toBeUndefined()
        const file = readFileSync(join(dir, 'fleet.json'), 'utf8')
        const yamlRun = await runAction(emulator, { operation: 'export-checks', 'checks-file': 'fleet.yml' }, { env })
        const yamlFile = readFileSync(join(dir, 'fleet.yml'), 'utf8')
        for (const value of secrets) {
          expect(file).not.toContain(value)
          expect(yamlFile).not.toContain(value)
          expect(exported.core.everything()).not.toContain(value)
          expect(yamlRun.core.everything()).not.toContain(value)
        }
        // Only what was lifted is masked: never a value that stood in no secret position.
        for (const value of plain) expect(exported.core.secrets).not.toContain(value)
        const variables: Record<string, string> = {}
        type Entry = { name: string; url: string; headers?: { Authorization: string } }
        for (const entry of JSON.parse(file) as Entry[]) {
          const named = entry.name.replace(/\$\$\{/g, '${')
          const original = [...urls].find(([n]) => n === named)?.[1] as string
          Object.assign(variables, valuesOf(entry.url, original))
          const header = [...headers].find(([n]) => n === named)?.[1]
          if (header !== undefined) Object.assign(variables, valuesOf(entry.headers?.Authorization ?? '', header))
        }
        expect(Object.keys(variables).sort()).toEqual(
          [...(resultOf(exported.core) as { variables: string[] }).variables].sort()
        )
        for (const path of ['fleet.json', 'fleet.yml']) {
          const plan = await runAction(
            emulator,
            { operation: 'sync-checks', 'checks-file': path, 'dry-run': 'true', prune: 'true' },
            { env: { ...env, ...variables } }
          )
          expect(plan.core.failed).toBeUndefined()
          expect([plan.core.outputs.created, plan.core.outputs.updated, plan.core.outputs.deleted]).toEqual([
            '0',
            '0',
            '0'
          ])
          for (const value of secrets) expect(plan.core.everything()).not.toContain(value)
        }
      }),
      { numRuns: 30 }
    )
  })
})
