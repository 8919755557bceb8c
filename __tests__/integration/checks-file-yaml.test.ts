/**
 * sync-checks over HTTP with checks files as people write them: anchors and
 * merge keys under a `defaults:` holder, a byte-order mark, and files refused
 * before any request, each refusal naming the file (as `checks-file` gives it)
 * and the line, annotated there.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const dir = mkdtempSync(join(tmpdir(), 'checks-file-yaml-'))
mkdirSync(join(dir, 'monitoring'))
const emulator = useEmulator()

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text)
  return name
}
const sync = (inputs: Record<string, string>) =>
  runAction(emulator, { operation: 'sync-checks', ...inputs }, { env: { GITHUB_WORKSPACE: dir } })
const stored = () => [...emulator.checks.values()].sort((a, b) => String(a.name).localeCompare(String(b.name)))

const MERGED = `defaults: &defaults
  interval: 30
  alertChannels: [email, pagerduty]

checks:
  - <<: *defaults
    name: shop
    url: https://shop.example.com/health
  - <<: *defaults
    name: api
    url: https://api.example.com/health
    interval: 10
`

describe('sync-checks with merge keys', () => {
  it('creates each check with the merged fields, never a "<<" field; the defaults holder is a notice; a second run changes nothing', async () => {
    const f = file('monitoring/checks.yml', MERGED)
    const { core } = await sync({ 'checks-file': f })
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ created: '2', count: '2' })
    expect(stored().map(c => ({ name: c.name, interval: c.interval, alertChannels: c.alertChannels }))).toEqual([
      { name: 'api', interval: 10, alertChannels: ['email', 'pagerduty'] },
      { name: 'shop', interval: 30, alertChannels: ['email', 'pagerduty'] }
    ])
    for (const check of stored()) expect(Object.keys(check)).not.toContain('<<')
    const plan = resultOf(core) as Array<{ name: string; fields: string[] }>
    for (const entry of plan) expect(entry.fields).not.toContain('<<')
    expect(core.everything()).not.toContain('<<:')
    expect(core.logs).toContain(
      'notice: checks-file monitoring/checks.yml: line 1: the top-level key "defaults" holds anchors the entries use (&defaults); it is not a check, and is otherwise ignored'
    )
    const again = await sync({ 'checks-file': f })
    expect(again.core.outputs).toMatchObject({ created: '0', updated: '0', unchanged: '2', changed: 'false' })
  })

  it('a file saved with a byte-order mark syncs as without it', async () => {
    const f = file('bom.yml', '\uFEFF- name: shop\n  url: https://shop.example.com/health\n  interval: 30\n')
    const { core } = await sync({ 'checks-file': f })
    expect(core.failed).toBeUndefined()
    expect(stored()).toMatchObject([{ name: 'shop', interval: 30 }])
  })
})

describe('a checks file refused before any request, naming the file and the line', () => {
  /** The failure of a sync of this text, its annotation, and that nothing was sent. */
  async function refused(name: string, text: string) {
    const { core } = await sync({ 'checks-file': file(name, text) })
    expect(emulator.count()).toBe(0)
    expect(core.failed).toMatch(new RegExp(`^checks-file ${name.replace(/[./]/g, '\\$&')}: line \\d+: `))
    const line = Number(/: line (\d+): /.exec(core.failed ?? '')?.[1])
    expect(core.annotations).toContainEqual(expect.objectContaining({ kind: 'error', file: name, startLine: line }))
    return { message: core.failed as string, line }
  }

  it('a top-level key other than checks that holds no anchor the entries use', async () => {
    const { message, line } = await refused('monitoring/typo.yml', 'chekcs:\n  - name: a\n    url: https://a/\n')
    expect(line).toBe(1)
    expect(message).toContain('the top-level key "chekcs" is not one a checks file has (did you mean "checks"?)')
    const other = await refused('monitoring/other.yml', 'checks:\n  - name: a\n    url: https://a/\nfoo: 1\n')
    expect(other.line).toBe(4)
    expect(other.message).toContain('the top-level key "foo"')
  })

  it('an expansion attack, at once', async () => {
    // Each anchor holds ten aliases of the one before: 10^10 values behind the last.
    const levels = ['x-0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]']
    for (let i = 1; i <= 9; i++) levels.push(`x-${i}: &l${i} [${`*l${i - 1}, `.repeat(9)}*l${i - 1}]`)
    const started = Date.now()
    const { message, line } = await refused(
      'monitoring/laughs.yml',
      `${levels.join('\n')}\nchecks:\n  - name: a\n    url: https://a/\n    lol: *l9\n`
    )
    expect(Date.now() - started).toBeLessThan(5000)
    expect(line).toBe(6)
    expect(message).toContain('stand for more than 1000000 keys and values')
  })

  it('a number JSON cannot carry, naming the field', async () => {
    const { message, line } = await refused('monitoring/inf.yml', '- name: a\n  url: https://a/\n  timeout: .inf\n')
    expect(line).toBe(3)
    expect(message).toContain('timeout: .inf cannot be sent')
  })

  it("a bad value an entry merges from an anchor: the entry's line and the anchor's, annotated at the anchor's", async () => {
    const text = MERGED.replace('interval: 30', 'interval: abc')
    const { core } = await sync({ 'checks-file': file('monitoring/merged.yml', text) })
    expect(emulator.count()).toBe(0)
    expect(core.failed).toBe(
      'checks-file monitoring/merged.yml: entry 1 (line 6) ("shop"): interval must be a whole number above 0 (from &defaults at line 2)'
    )
    expect(core.annotations).toContainEqual(
      expect.objectContaining({ kind: 'error', file: 'monitoring/merged.yml', startLine: 2 })
    )
  })

  it('a __proto__ key (JSON) and a quoted "<<"', async () => {
    const proto = await refused('proto.json', '[{"name": "a", "url": "https://a/",\n  "__proto__": {"interval": 5}}]\n')
    expect(proto.line).toBe(2)
    expect(proto.message).toContain('the key "__proto__" is refused')
    const quoted = await refused(
      'quoted.yml',
      `${MERGED.split('\n\n')[0]}\nchecks:\n  - "<<": *defaults\n    name: a\n    url: https://a/\n`
    )
    expect(quoted.line).toBe(5)
    expect(quoted.message).toContain('the key "<<" is quoted')
  })
})
