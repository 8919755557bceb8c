/** Monitoring as code through dist/index.js. */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const workspace = mkdtempSync(join(tmpdir(), 'ws-'))
const emulator = useEmulator()

const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  runStep(
    { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'sync-checks', ...inputs },
    { cwd: workspace, env: { GITHUB_WORKSPACE: workspace, ...env } }
  )

describe('sync-checks through dist/index.js', () => {
  it('leaves the service equal to the file, touching only what differs; a second run changes nothing', async () => {
    const untouched = emulator.seedCheck({ name: 'web-home', url: 'https://web.example.com/', interval: 60 })
    emulator.seedCheck({ name: 'web-api', url: 'https://web.example.com/api', interval: 300 })
    emulator.seedCheck({ name: 'web-old', url: 'https://web.example.com/old' })
    emulator.seedCheck({ name: 'someone-else', url: 'https://x.example.com/' })
    writeFileSync(
      join(workspace, 'checks.yml'),
      `checks:
  - name: web-home
    url: https://web.example.com/
    interval: 60
  - name: web-api
    url: https://web.example.com/api
    interval: 30
  - name: web-cart
    url: https://web.example.com/cart
    alertChannels: [email]
`
    )
    const dry = await step({ 'checks-file': 'checks.yml', prune: 'true', 'prune-prefix': 'web-', 'dry-run': 'true' })
    expect(dry.code).toBe(0)
    expect(dry.outputs).toMatchObject({ created: '1', updated: '1', deleted: '1', unchanged: '1' })
    expect(emulator.count('POST') + emulator.count('PUT') + emulator.count('DELETE')).toBe(0)

    const r = await step({ 'checks-file': 'checks.yml', prune: 'true', 'prune-prefix': 'web-' })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({
      created: '1',
      updated: '1',
      deleted: '1',
      unchanged: '1',
      count: '3',
      changed: 'true'
    })
    expect(r.stdout).toContain('::group::Plan: 1 to create, 1 to update, 1 to delete, 1 unchanged')
    expect(r.summary).toContain('### Checks in sync')
    const plan = JSON.parse(r.outputs.result) as Array<{ action: string; name: string; id: string }>
    expect(plan.every(e => typeof e.id === 'string')).toBe(true)
    expect([...emulator.checks.values()].map(c => c.name).sort()).toEqual([
      'someone-else',
      'web-api',
      'web-cart',
      'web-home'
    ])
    expect(emulator.checks.get(untouched.id)?.updatedAt).toBeUndefined()
    expect(emulator.count('PUT')).toBe(1)

    const before = emulator.count()
    const again = await step({ 'checks-file': 'checks.yml', prune: 'true', 'prune-prefix': 'web-' })
    expect(again.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0', unchanged: '3', changed: 'false' })
    expect(emulator.count() - before).toBe(1)
  })

  it('a bad file is an error naming the file, entry and field, before any request', async () => {
    writeFileSync(
      join(workspace, 'bad.json'),
      '[{"name": "a", "url": "https://a/"}, {"name": "a", "url": "https://b/"}]'
    )
    const r = await step({ 'checks-file': 'bad.json' })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      '::error file=bad.json,line=1::checks-file bad.json: entry 2 (line 1): the name "a" is also used by entry 1'
    )
    expect(emulator.count()).toBe(0)
  })

  it('errors about the file are annotations at its line (YAML and JSON), before any request', async () => {
    writeFileSync(
      join(workspace, 'bad.yml'),
      '- name: a\n  url: https://a.example.com/\n- name: b\n  url: https://b.example.com/\n  interval: soon\n'
    )
    const yamlRun = await step({ 'checks-file': 'bad.yml' })
    expect(yamlRun.code).toBe(1)
    expect(yamlRun.stdout).toMatch(
      /^::error file=bad\.yml,line=5::checks-file bad\.yml: entry 2 \(line 3\) \("b"\): interval /m
    )
    writeFileSync(
      join(workspace, 'lines.json'),
      '{\n  "checks": [\n    {"name": "a", "url": "https://a.example.com/"},\n    {"name": "b", "url": "ftp://b/"}\n  ]\n}\n'
    )
    const jsonRun = await step({ 'checks-file': 'lines.json' })
    expect(jsonRun.stdout).toMatch(/^::error file=lines\.json,line=4::checks-file lines\.json: entry 2/m)
    expect(emulator.count()).toBe(0)
  })

  it('${NAME} from the step environment; a near-miss field name is a warning annotated at its line', async () => {
    writeFileSync(
      join(workspace, 'templated.yml'),
      '- name: web-${STAGE}\n  url: https://${STAGE}.example.com/\n  alertchannels: [ops]\n'
    )
    const r = await step({ 'checks-file': 'templated.yml' }, { STAGE: 'preview-42' })
    expect(r.code).toBe(0)
    expect([...emulator.checks.values()].map(c => [c.name, c.url])).toEqual([
      ['web-preview-42', 'https://preview-42.example.com/']
    ])
    expect(r.stdout).toContain(
      '::warning file=templated.yml,line=3::checks-file templated.yml: entry 1 (line 1) ("web-preview-42") has the field "alertchannels": did you mean "alertChannels"?'
    )
    const unset = await step({ 'checks-file': 'templated.yml' })
    expect(unset.code).toBe(1)
    expect(unset.stdout).toContain(
      '::error file=templated.yml,line=1::checks-file templated.yml: lines 1, 2: ${STAGE} names'
    )
  })

  it('plan-file on the dry-run, approved-plan on the apply: exactly that plan; after drift nothing is written', async () => {
    const api = emulator.seedCheck({ name: 'web-api', url: 'https://web.example.com/api', interval: 60 })
    writeFileSync(
      join(workspace, 'reviewed.yml'),
      '- name: web-api\n  url: https://web.example.com/api\n  interval: 30\n'
    )
    const plan = await step({ 'checks-file': 'reviewed.yml', 'dry-run': 'true', 'plan-file': 'reviewed-plan.json' })
    expect(plan.code).toBe(0)
    const written = JSON.parse(readFileSync(join(workspace, 'reviewed-plan.json'), 'utf8')) as { version: number }
    expect(written).toMatchObject({
      version: 1,
      checks: [{ action: 'update', changes: { interval: { from: 60, to: 30 } } }]
    })

    // drift: the check changed on the service after the review
    emulator.checks.get(api.id)!.interval = 45
    const drifted = await step({ 'checks-file': 'reviewed.yml', 'approved-plan': 'reviewed-plan.json' })
    expect(drifted.code).toBe(1)
    expect(drifted.stdout).toContain('the plan differs from approved-plan reviewed-plan.json')
    expect(emulator.count('PUT')).toBe(0)

    emulator.checks.get(api.id)!.interval = 60
    const applied = await step({ 'checks-file': 'reviewed.yml', 'approved-plan': 'reviewed-plan.json' })
    expect(applied.code).toBe(0)
    expect(emulator.checks.get(api.id)?.interval).toBe(30)
  })

  it('max-deletions refuses a prune that deletes more, before any write', async () => {
    for (let i = 0; i < 3; i++) emulator.seedCheck({ name: `web-gone-${i}`, url: 'https://web.example.com/gone' })
    writeFileSync(join(workspace, 'few.yml'), '- name: web-kept\n  url: https://web.example.com/kept\n')
    const r = await step({ 'checks-file': 'few.yml', prune: 'true', 'prune-prefix': 'web-', 'max-deletions': '2' })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('::error::sync-checks refused: the plan deletes 3 checks, more than max-deletions (2)')
    expect(emulator.count('DELETE') + emulator.count('POST')).toBe(0)
  })
})
