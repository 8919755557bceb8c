/**
 * Every URL form Node's URL accepts with a password is a secret's place in
 * every text the action writes: `https:/u:p@h`, `https:///u:p@h`,
 * `https:\\u:p@h`, `http:u:p@h` and a scheme in capitals show *** in the plan
 * line, the dry-run line, `result`, the plan file, the summary and the log;
 * the value of the step's own check is masked job-wide; export lifts it into a variable. A changed
 * fragment after a `;token=` value is said as the change it is.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'url-forms-'))
const env = { GITHUB_WORKSPACE: dir }

/** Each form, with the user name and password in it. */
const FORMS = (user: string, pass: string) => [
  `https:/${user}:${pass}@host.example.com/`,
  `https:///${user}:${pass}@host.example.com/`,
  `https:\\\\${user}:${pass}@host.example.com/`,
  `http:${user}:${pass}@host.example.com/`,
  `HTTPS://${user}:${pass}@host.example.com/`
]

const shows = (text: string, secret: string) =>
  [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)].some(form => text.includes(form))

describe('userinfo in every URL form the parser accepts', () => {
  it.each(FORMS('deploy', 'OldSecret41').map((url, i) => [url, i]))(
    '%s: old, new and pruned values appear nowhere in a dry-run sync; the plan says the secret changed',
    async (url, i) => {
      emulator.seedCheck({ name: `app-${i}`, url: url as string })
      emulator.seedCheck({ name: `pruned-${i}`, url: (url as string).replace('OldSecret41', 'PrunedPass43') })
      const fresh = FORMS('deploy', 'NewSecret42')[i as number]
      const file = `forms-${i}.yml`
      writeFileSync(join(dir, file), `- name: app-${i}\n  url: ${JSON.stringify(fresh)}\n`)
      const { core } = await runAction(
        emulator,
        {
          operation: 'sync-checks',
          'checks-file': file,
          'dry-run': 'true',
          prune: 'true',
          'prune-prefix': `pruned-${i}`,
          'plan-file': `plan-${i}.json`
        },
        { env }
      )
      expect(core.failed).toBeUndefined()
      expect(core.outputs).toMatchObject({ updated: '1', deleted: '1' })
      const written = core.everything() + readFileSync(join(dir, `plan-${i}.json`), 'utf8')
      for (const secret of ['OldSecret41', 'NewSecret42', 'PrunedPass43']) expect(shows(written, secret)).toBe(false)
      expect(core.logs.some(l => l.includes('[dry-run] would send'))).toBe(true)
      const entry = (
        resultOf(core) as Array<{ name: string; changes: Record<string, { secretChanged?: boolean }> }>
      ).find(e => e.name === `app-${i}`)!
      expect(entry.changes.url.secretChanged).toBe(true)
    }
  )

  it.each(FORMS('ci', 'UpsertPass44'))('%s: upsert-check shows *** in result, the log and the summary', async url => {
    const { core } = await runAction(
      emulator,
      {
        operation: 'upsert-check',
        'check-name': `upsert-${Buffer.from(url).toString('hex').slice(0, 12)}`,
        'check-url': url
      },
      { env }
    )
    expect(core.failed).toBeUndefined()
    expect(shows(core.everything(), 'UpsertPass44')).toBe(false)
    expect(core.outputs.result).toContain('***@host.example.com')
    expect(core.secrets).toEqual(expect.arrayContaining(['ci:UpsertPass44']))
  })

  it.each(FORMS('exp', 'ExportPass45').map((url, i) => [url, i]))(
    '%s: export lifts the userinfo into a variable, and the round trip plans nothing',
    async (url, i) => {
      const name = `exported-${i}`
      emulator.seedCheck({ name, url: url as string })
      const file = `export-${i}.yml`
      const exported = await runAction(
        emulator,
        { operation: 'export-checks', 'checks-file': file, 'name-prefix': name },
        { env }
      )
      expect(exported.core.failed).toBeUndefined()
      const text = readFileSync(join(dir, file), 'utf8')
      expect(shows(text + exported.core.everything(), 'ExportPass45')).toBe(false)
      const variables = (resultOf(exported.core) as { variables: string[] }).variables
      expect(variables).toEqual([`CHECK_EXPORTED_${i}_USERINFO`])
      const planned = await runAction(
        emulator,
        { operation: 'sync-checks', 'checks-file': file, 'dry-run': 'true' },
        { env: { ...env, [variables[0]]: 'exp:ExportPass45' } }
      )
      expect(planned.core.failed).toBeUndefined()
      expect(planned.core.outputs).toMatchObject({ updated: '0', unchanged: '1' })
    }
  )
})

describe('a fragment after a ;token= value', () => {
  it('a changed fragment shows as that change in the log, the dry-run line and the plan, the token as ***', async () => {
    emulator.seedCheck({ name: 'frag', url: 'https://f.example.com/a;token=Tok3nValue99#fragment-2025' })
    writeFileSync(
      join(dir, 'frag.yml'),
      '- name: frag\n  url: "https://f.example.com/a;token=Tok3nValue99#fragment-2026"\n'
    )
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'frag.yml', 'dry-run': 'true', 'plan-file': 'frag.json' },
      { env }
    )
    expect(core.failed).toBeUndefined()
    expect(shows(core.everything(), 'Tok3nValue99')).toBe(false)
    const lines = core.logs.filter(l => l.includes('f.example.com'))
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).toContain(';token=***#fragment-202')
    expect(lines.some(l => l.includes('#fragment-2025') && l.includes('#fragment-2026'))).toBe(true)
  })
})
