/**
 * export-checks against the emulator over HTTP: the file it writes, and the
 * round trip it promises (sync-checks of the file, right after, plans
 * nothing); secrets lifted into variables; two checks of one name refused
 * with nothing written.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 3 })
const dir = mkdtempSync(join(tmpdir(), 'export-'))
const env = { GITHUB_WORKSPACE: dir }

const exportTo = (file: string, inputs: Record<string, string> = {}) =>
  runAction(emulator, { operation: 'export-checks', 'checks-file': file, ...inputs }, { env })
const syncPlan = (file: string, inputs: Record<string, string> = {}, extraEnv: Record<string, string> = {}) =>
  runAction(
    emulator,
    { operation: 'sync-checks', 'checks-file': file, 'dry-run': 'true', prune: 'true', ...inputs },
    { env: { ...env, ...extraEnv } }
  )
const planned = (outputs: Record<string, string>) => ({
  created: outputs.created,
  updated: outputs.updated,
  deleted: outputs.deleted
})
const NOTHING = { created: '0', updated: '0', deleted: '0' }

describe('export-checks', () => {
  it('writes every check sorted by name with a header; sync-checks of it right after plans nothing', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 60, alertChannels: ['ops', 'dev'] })
    emulator.seedCheck({ name: 'api', url: 'https://api.example.com/health', interval: 30, status: 'paused' })
    emulator.seedCheck({ name: 'db', url: 'https://db.example.com/', type: 'tcp', owner: { team: 'data' } })
    const { core } = await exportTo('monitoring/checks.yml')
    expect(core.failed).toBeUndefined()
    expect(core.outputs.count).toBe('3')
    expect(resultOf(core)).toEqual({ path: 'monitoring/checks.yml', count: 3, variables: [] })
    const text = readFileSync(join(dir, 'monitoring/checks.yml'), 'utf8')
    expect(text.split('\n')[0]).toMatch(/^# Checks of http:\/\/127\.0\.0\.1:\d+\/v1, written by export-checks\.$/)
    expect(text).toContain('# Keep them as code with sync-checks (checks-file: monitoring/checks.yml).')
    expect([...text.matchAll(/^- name: "(.*)"$/gm)].map(m => m[1])).toEqual(['api', 'db', 'web'])
    // status only for the paused one; nothing the server owns (id, createdAt, lastCheckedAt...).
    expect(text.match(/status:/g)).toHaveLength(1)
    expect(text).toContain('status: "paused"')
    expect(text).not.toMatch(/\bid:|createdAt|lastCheckedAt|responseTime/)
    expect(text).toContain('team: "data"')

    const plan = await syncPlan('monitoring/checks.yml')
    expect(plan.core.failed).toBeUndefined()
    expect(planned(plan.core.outputs)).toEqual(NOTHING)
    expect(plan.core.outputs.unchanged).toBe('3')
    expect(plan.core.outputs.drift).toBe('false')
  })

  it('writes JSON for a .json path; name-prefix exports only those, and the round trip holds with prune-prefix', async () => {
    emulator.seedCheck({ name: 'pr-1', url: 'https://pr-1.example.com/' })
    emulator.seedCheck({ name: 'pr-2', url: 'https://pr-2.example.com/', interval: 120 })
    emulator.seedCheck({ name: 'prod', url: 'https://prod.example.com/' })
    const { core } = await exportTo('previews.json', { 'name-prefix': 'pr-' })
    expect(core.outputs.count).toBe('2')
    const entries = JSON.parse(readFileSync(join(dir, 'previews.json'), 'utf8')) as Array<{ name: string }>
    expect(entries.map(e => e.name)).toEqual(['pr-1', 'pr-2'])
    const plan = await syncPlan('previews.json', { 'prune-prefix': 'pr-' })
    expect(planned(plan.core.outputs)).toEqual(NOTHING)

    const list = await runAction(emulator, { operation: 'list-checks', 'name-prefix': 'pr-' })
    expect(list.core.outputs.count).toBe('2')
    expect(list.core.summaryText).toContain('Checks (2) whose names start with')
  })

  it('names that YAML would read as something else come back as the same strings', async () => {
    const names = [
      'yes',
      'no',
      'null',
      '0x10',
      '1e3',
      '~',
      '-leading dash',
      '# hash',
      'a: colon',
      'it\'s "quoted"',
      ' leading and trailing ',
      'ünïcødé 名前 🚀',
      'commas, in, it',
      'true',
      '${NOT_A_VARIABLE} and $${ too'
    ]
    for (const [i, name] of names.entries()) emulator.seedCheck({ name, url: `https://s${i}.example.com/?q=\${x}` })
    await exportTo('special.yml')
    const plan = await syncPlan('special.yml')
    expect(plan.core.failed).toBeUndefined()
    expect(planned(plan.core.outputs)).toEqual(NOTHING)
    expect(plan.core.outputs.unchanged).toBe(String(names.length))
  })

  it('secrets in URLs become variables: never in the file or the log; with the variables set the plan is empty', async () => {
    const token = 'tok-3f9a8b7c6d5e4f30'
    const password = 'p%40ss:w0rd'
    emulator.seedCheck({ name: 'shop api', url: `https://user:${password}@shop.example.com/health?token=${token}&x=1` })
    emulator.seedCheck({ name: 'signed', url: 'https://cdn.example.com/a?Signature=abc123def456&Expires=1' })
    const { core } = await exportTo('secret.yml')
    const text = readFileSync(join(dir, 'secret.yml'), 'utf8')
    const variables = ['CHECK_SHOP_API_USERINFO', 'CHECK_SHOP_API_TOKEN', 'CHECK_SIGNED_SIGNATURE']
    expect((resultOf(core) as { variables: string[] }).variables).toEqual(variables)
    expect(text).toContain(
      '"https://${secret:CHECK_SHOP_API_USERINFO}@shop.example.com/health?token=${secret:CHECK_SHOP_API_TOKEN}&x=1"'
    )
    expect(text).toContain(`# Set these variables for sync-checks, from your secrets: ${variables.join(', ')}.`)
    for (const secret of [token, password, 'abc123def456']) {
      expect(text).not.toContain(secret)
      expect(core.everything()).not.toContain(secret)
    }
    expect(core.secrets).toEqual(expect.arrayContaining([token, `user:${password}`, 'abc123def456']))

    const missing = await syncPlan('secret.yml')
    expect(missing.core.failed).toMatch(/CHECK_SHOP_API_USERINFO.*not set/)
    const plan = await syncPlan(
      'secret.yml',
      {},
      {
        CHECK_SHOP_API_USERINFO: `user:${password}`,
        CHECK_SHOP_API_TOKEN: token,
        CHECK_SIGNED_SIGNATURE: 'abc123def456'
      }
    )
    expect(plan.core.failed).toBeUndefined()
    expect(planned(plan.core.outputs)).toEqual(NOTHING)
    expect(plan.core.everything()).not.toContain(token)
  })

  it('two checks of one name: an error naming both ids, and nothing written (an older file stays)', async () => {
    const a = emulator.seedCheck({ name: 'twin', url: 'https://a.example.com/' })
    const b = emulator.seedCheck({ name: 'twin', url: 'https://b.example.com/' })
    writeFileSync(join(dir, 'kept.yml'), 'the file from before\n')
    const { core } = await exportTo('kept.yml')
    expect(core.failed).toContain('two checks share the name "twin"')
    expect(core.failed).toContain(a.id)
    expect(core.failed).toContain(b.id)
    expect(readFileSync(join(dir, 'kept.yml'), 'utf8')).toBe('the file from before\n')
    expect(existsSync(join(dir, 'never.yml'))).toBe(false)
    await exportTo('never.yml')
    expect(existsSync(join(dir, 'never.yml'))).toBe(false)
  })

  it('a check a checks file cannot state is named, and nothing is written; a missing checks-file is an input error', async () => {
    const odd = emulator.seedCheck({ name: 'odd', url: 'https://odd.example.com/', interval: 0 })
    const { core } = await exportTo('odd.yml')
    expect(core.failed).toContain(`check ${odd.id} ("odd") cannot be written as a checks-file entry: interval`)
    expect(existsSync(join(dir, 'odd.yml'))).toBe(false)

    const before = emulator.count()
    const bad = await runAction(emulator, { operation: 'export-checks' }, { env })
    expect(bad.core.failed).toMatch(/^export-checks needs checks-file/)
    expect(emulator.count()).toBe(before)
  })

  it('a check whose URL holds the key where no rule lifts it: refused, nothing written, the key never shown', async () => {
    const echo = emulator.seedCheck({ name: 'echo', url: `https://echo.example.com/?note=${KEY}` })
    const { core } = await exportTo('echo.yml')
    expect(core.failed).toContain(
      `check ${echo.id} ("echo") holds a secret this step knows (the api-key) in the field url`
    )
    expect(existsSync(join(dir, 'echo.yml'))).toBe(false)
    expect(core.everything()).not.toContain(KEY)
  })

  it('userinfo whose password holds an @ is lifted whole; so is one in a form the URL parser accepts without //', async () => {
    emulator.seedCheck({ name: 'at', url: 'https://monitor:Xy@9pQ7zz@shop.example.com/health' })
    const { core } = await exportTo('at.yml')
    expect(core.failed).toBeUndefined()
    const text = readFileSync(join(dir, 'at.yml'), 'utf8')
    expect(text).toContain('"https://${secret:CHECK_AT_USERINFO}@shop.example.com/health"')
    expect(text).not.toContain('9pQ7zz')
    const plan = await syncPlan('at.yml', {}, { CHECK_AT_USERINFO: 'monitor:Xy@9pQ7zz' })
    expect(planned(plan.core.outputs)).toEqual(NOTHING)

    emulator.reset()
    emulator.seedCheck({ name: 'legacy', url: 'https:monitor:S3cretPw77@legacy.example.com/' })
    const lifted = await exportTo('legacy.yml')
    expect(lifted.core.failed).toBeUndefined()
    const legacy = readFileSync(join(dir, 'legacy.yml'), 'utf8')
    expect(legacy).toContain('"https:${secret:CHECK_LEGACY_USERINFO}@legacy.example.com/"')
    expect(legacy + lifted.core.everything()).not.toContain('S3cretPw77')
    const again = await syncPlan('legacy.yml', {}, { CHECK_LEGACY_USERINFO: 'monitor:S3cretPw77' })
    expect(planned(again.core.outputs)).toEqual(NOTHING)
  })

  it('a lifted secret that also stands elsewhere (another check, another field): lifted in its position only, the others warned about', async () => {
    const b = emulator.seedCheck({
      name: 'b',
      url: 'https://b.example.com/?ref=S4me-Secret',
      notes: 'rotate S4me-Secret'
    })
    emulator.seedCheck({ name: 'a', url: 'https://a.example.com/?token=S4me-Secret' })
    const { core } = await exportTo('twice.yml')
    expect(core.failed).toBeUndefined()
    const text = readFileSync(join(dir, 'twice.yml'), 'utf8')
    expect(text).toContain('"https://a.example.com/?token=${secret:CHECK_A_TOKEN}"')
    expect(text).toContain('"https://b.example.com/?ref=S4me-Secret"')
    expect(core.logs.join('\n')).toContain(
      `check ${b.id} ("b") holds, in the field url, the same text as a value lifted`
    )
    // Masked job-wide from now on: the action's own writers never show it.
    expect(core.secrets).toContain('S4me-Secret')
    expect(core.summaryText + JSON.stringify(core.outputs)).not.toContain('S4me-Secret')
  })

  it('a list that shifts while it is read (a row skipped) is read again: the file comes from the later, whole read, no check left out', async () => {
    for (let i = 0; i < 7; i++) emulator.seedCheck({ name: `n${i}`, url: `https://n${i}.example.com/` })
    // The first read skips a row on its later pages (as while someone deletes at the head); the next reads do not.
    emulator.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 2 })
    const { core } = await exportTo('shifted.yml')
    expect(core.failed).toBeUndefined()
    expect(core.outputs.count).toBe('7')
    // The read that skipped a row (2 pages), then a whole one (3 pages) holding every id of it: the file is made from that.
    expect(emulator.count('GET', '/checks')).toBe(5)
    const plan = await syncPlan('shifted.yml')
    expect(planned(plan.core.outputs)).toEqual(NOTHING)
  })

  it('a file over the 10 MiB sync-checks reads is refused before it is written; an empty export warns', async () => {
    for (let i = 0; i < 8; i++)
      emulator.seedCheck({ name: `big${i}`, url: 'https://big.example.com/', blob: 'x'.repeat(1_500_000) })
    const { core } = await exportTo('big.yml')
    expect(core.failed).toMatch(/the checks file would be \d+ bytes, more than the 10485760 bytes/)
    expect(existsSync(join(dir, 'big.yml'))).toBe(false)

    emulator.reset()
    const empty = await exportTo('empty.yml')
    expect(empty.core.failed).toBeUndefined()
    expect(empty.core.logs.some(l => l.startsWith('warning: export-checks: no check on the service'))).toBe(true)
  })
})
