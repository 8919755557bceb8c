/**
 * Names are case-sensitive, as the service's are: a create by name whose name
 * differs from an existing check's only in case makes a second check, with a
 * warning naming that check, on every path that creates by name
 * (upsert-check, create-check, the creates of sync-checks). Hostile names stay inert.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'case-'))
const site = 'https://shop.example.com/'
const warnings = (logs: string[]) => logs.filter(l => l.startsWith('warning: '))

describe('a create whose name differs from a check only in case', () => {
  it('upsert-check creates a second check and warns, naming the check it differs from', async () => {
    const existing = emulator.seedCheck({ name: 'shop-web', url: site })
    const { core } = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': 'Shop-Web',
      'check-url': site
    })
    expect(core.failed).toBeUndefined()
    expect([...emulator.checks.values()].map(c => c.name).sort()).toEqual(['Shop-Web', 'shop-web'])
    const line = `Creating "Shop-Web" makes a second check: a check named "shop-web" (${existing.id}) differs only in case, and names are case-sensitive, as the service's are. If you meant that check, write its name exactly.`
    expect(warnings(core.logs)).toEqual([`warning: ${line}`])
    expect(core.summaryText).toContain(
      `a check named &quot;shop-web&quot; (${existing.id.replace('_', '\\_')}) differs only in case`
    )
  })

  it('create-check (which always creates) warns alike, in a dry run too', async () => {
    const existing = emulator.seedCheck({ name: 'shop-web', url: site })
    for (const dryRun of ['true', 'false']) {
      const { core } = await runAction(emulator, {
        operation: 'create-check',
        'check-name': 'Shop-Web',
        'check-url': site,
        'dry-run': dryRun
      })
      expect(warnings(core.logs)).toEqual([
        expect.stringContaining(`a check named "shop-web" (${existing.id}) differs only in case`)
      ])
    }
  })

  it('names every such check; an exact match or another name warns nothing', async () => {
    const a = emulator.seedCheck({ name: 'shop-web', url: site })
    const b = emulator.seedCheck({ name: 'SHOP-WEB', url: site })
    const { core } = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': 'Shop-Web',
      'check-url': site
    })
    expect(warnings(core.logs).join('\n')).toContain(
      `checks named "shop-web" (${a.id}), "SHOP-WEB" (${b.id}) differ only in case`
    )
    const again = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'Shop-Web', 'check-url': site })
    const other = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'shop-api', 'check-url': site })
    expect(warnings([...again.core.logs, ...other.core.logs])).toEqual([])
  })

  it('sync-checks warns for each create so named, in a dry run too', async () => {
    const existing = emulator.seedCheck({ name: 'shop-web', url: site })
    writeFileSync(join(dir, 'checks.yml'), `- name: Shop-Web\n  url: ${site}\n- name: api\n  url: ${site}\n`)
    for (const dryRun of ['true', 'false']) {
      const { core } = await runAction(
        emulator,
        { operation: 'sync-checks', 'checks-file': 'checks.yml', 'dry-run': dryRun },
        { env: { GITHUB_WORKSPACE: dir } }
      )
      expect(core.failed).toBeUndefined()
      expect(warnings(core.logs)).toEqual([
        expect.stringContaining(
          `Creating "Shop-Web" makes a second check: a check named "shop-web" (${existing.id}) differs only in case`
        )
      ])
    }
    expect([...emulator.checks.values()].map(c => c.name).sort()).toEqual(['Shop-Web', 'api', 'shop-web'])
  })

  it('hostile names stay one inert line in the log and plain text in the summary', async () => {
    const hostile = 'shop\n::error::pwned\r<img src=x>|a'
    emulator.seedCheck({ name: hostile, url: site })
    writeFileSync(join(dir, 'hostile.json'), JSON.stringify([{ name: hostile.toUpperCase(), url: site }]))
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'hostile.json' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBeUndefined()
    const [line] = warnings(core.logs)
    expect(line).toContain('differs only in case')
    expect(line).not.toMatch(/[\r\n]/)
    expect(core.logs.filter(l => /^\w+: \s*::/.test(l))).toEqual([])
    const upsert = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': '::error::<img src=x>|A',
      'check-url': site
    })
    emulator.seedCheck({ name: '::error::<img src=x>|a', url: site })
    const again = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': '::ERROR::<img src=x>|a',
      'check-url': site
    })
    expect(warnings(again.core.logs)).toEqual([expect.stringContaining('differ only in case')])
    expect([...upsert.core.logs, ...again.core.logs].filter(l => /^\w+: \s*::/.test(l))).toEqual([])
    expect(again.core.summaryText).not.toContain('<img')
    expect(again.core.summaryText).toContain('&lt;img src=x&gt;\\|')
  })
})
