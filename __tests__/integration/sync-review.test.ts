/**
 * sync-checks as a reviewed change: plans with old and new values, the plan
 * file, applying only the approved plan, and the guards on deletes.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const dir = mkdtempSync(join(tmpdir(), 'sync-review-'))
const emulator = useEmulator()

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text)
  return name
}
const sync = (inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) =>
  runAction(emulator, { operation: 'sync-checks', ...inputs }, { env: { GITHUB_WORKSPACE: dir, ...env } })
const planOf = (name: string) =>
  JSON.parse(readFileSync(join(dir, name), 'utf8')) as { version: number; checks: unknown[] }

describe('a plan people can review', () => {
  it('shows each change old -> new in the log, the summary and result; a create its spec, a delete what goes', async () => {
    const api = emulator.seedCheck({ name: 'app-api', url: 'https://a.example.com/api', interval: 60 })
    emulator.seedCheck({ name: 'app-old', url: 'https://a.example.com/old', interval: 60 })
    const f = file(
      'review.yml',
      '- name: app-api\n  url: https://a.example.com/api\n  interval: 30\n- name: app-new\n  url: https://a.example.com/new\n'
    )
    const { core } = await sync({ 'checks-file': f, prune: 'true', 'prune-prefix': 'app-', 'dry-run': 'true' })
    expect(core.failed).toBeUndefined()
    const plan = resultOf(core) as Array<Record<string, unknown>>
    expect(plan.find(e => e.action === 'update')).toEqual({
      action: 'update',
      name: 'app-api',
      id: api.id,
      fields: ['interval'],
      changes: { interval: { from: 60, to: 30 } }
    })
    expect(plan.find(e => e.action === 'create')).toMatchObject({
      changes: { name: { to: 'app-new' }, url: { to: 'https://a.example.com/new' }, type: { to: 'http' } }
    })
    expect(plan.find(e => e.action === 'delete')).toMatchObject({
      name: 'app-old',
      changes: { url: { from: 'https://a.example.com/old' }, interval: { from: 60 } }
    })
    expect(core.logs).toContain(`info: update    app-api (${api.id}): interval: 60 → 30`)
    expect(
      core.logs.some(l => l.startsWith('info: create    app-new: name: "app-new"; url: "https://a.example.com/new"'))
    ).toBe(true)
    expect(core.summaryText).toContain('interval: 60 → 30')
  })
})

describe('plan-file and approved-plan', () => {
  it('the dry-run writes the plan; the apply with it as approved-plan applies exactly that', async () => {
    emulator.seedCheck({ name: 'app-api', url: 'https://a.example.com/api', interval: 60 })
    const f = file('pinned.yml', '- name: app-api\n  url: https://a.example.com/api\n  interval: 30\n')
    const dry = await sync({ 'checks-file': f, 'dry-run': 'true', 'plan-file': 'plan.json' })
    expect(dry.core.failed).toBeUndefined()
    const written = planOf('plan.json')
    expect(written).toEqual({
      version: 1,
      checks: [
        expect.objectContaining({ action: 'update', name: 'app-api', changes: { interval: { from: 60, to: 30 } } })
      ]
    })
    expect(emulator.count('PUT')).toBe(0)
    // no temporary file is left beside it
    expect(readdirSync(dir).filter(n => n.endsWith('.tmp'))).toEqual([])

    const apply = await sync({ 'checks-file': f, 'approved-plan': 'plan.json' })
    expect(apply.core.failed).toBeUndefined()
    expect(apply.core.outputs.updated).toBe('1')
    expect(apply.core.logs).toContain('info: The plan is the approved one (plan.json).')
  })

  it('drift since the review (the service or the file changed): refused, names the differences, writes nothing', async () => {
    const api = emulator.seedCheck({ name: 'app-api', url: 'https://a.example.com/api', interval: 60 })
    const f = file('drift.yml', '- name: app-api\n  url: https://a.example.com/api\n  interval: 30\n')
    await sync({ 'checks-file': f, 'dry-run': 'true', 'plan-file': 'drift-plan.json' })
    // someone changes the check after the review, and the file gains an entry
    emulator.checks.get(api.id)!.interval = 45
    file(
      'drift.yml',
      '- name: app-api\n  url: https://a.example.com/api\n  interval: 30\n- name: app-x\n  url: https://x.example.com/\n'
    )
    const before = emulator.count()
    const { core } = await sync({ 'checks-file': f, 'approved-plan': 'drift-plan.json' })
    expect(core.failed).toContain('the plan differs from approved-plan drift-plan.json in 2 place(s)')
    expect(core.failed).toContain(`update "app-api" (${api.id}) changes interval (approved: 60 → 30; now: 45 → 30)`)
    expect(core.failed).toContain('now also create "app-x"')
    expect(core.failed).toContain('Nothing was written')
    expect(emulator.count() - before).toBe(2) // the lists only: the second confirms the miss of app-x (absence proven by two reads)
    expect(emulator.count('PUT') + emulator.count('POST')).toBe(0)
    expect(core.summaryText).toContain('Sync refused')
  })

  it('an approved plan that is missing or not a plan file is an error naming the input, before any request', async () => {
    const f = file('any.yml', '- name: a\n  url: https://a.example.com/\n')
    const missing = await sync({ 'checks-file': f, 'approved-plan': 'nope.json' })
    expect(missing.core.failed).toMatch(/^approved-plan nope.json: cannot read .*nope.json \(ENOENT\)/)
    file('bad.json', '{"version": 2, "checks": []}')
    const bad = await sync({ 'checks-file': f, 'approved-plan': 'bad.json' })
    expect(bad.core.failed).toContain('approved-plan bad.json: is not a plan file of version 1')
    const twice = { action: 'create', name: 'a', id: null, fields: [], changes: {} }
    file('twice.json', JSON.stringify({ version: 1, checks: [twice, twice] }))
    const doubled = await sync({ 'checks-file': f, 'approved-plan': 'twice.json' })
    expect(doubled.core.failed).toContain('approved-plan twice.json: has the entry create "a" twice')
    expect(emulator.count()).toBe(0)
  })

  it('the plan file is written on a refused plan too, and a write that fails names plan-file', async () => {
    for (let i = 0; i < 3; i++) emulator.seedCheck({ name: `old-${i}`, url: `https://o.example.com/${i}` })
    const f = file('one.yml', '- name: keep\n  url: https://k.example.com/\n')
    const { core } = await sync({ 'checks-file': f, prune: 'true', 'max-deletions': '2', 'plan-file': 'refused.json' })
    expect(core.failed).toContain('refused')
    expect(planOf('refused.json').checks).toHaveLength(4)
    // Under a regular file, no folder can be made: the write fails, naming plan-file, and leaves nothing.
    const unwritable = await sync({ 'checks-file': f, 'plan-file': `${f}/sub/plan.json`, 'dry-run': 'true' })
    expect(unwritable.core.failed).toMatch(/^plan-file one.yml\/sub\/plan.json: cannot write .* \((ENOTDIR|EEXIST)\)/)
    expect(existsSync(join(dir, `${f}/sub`))).toBe(false)
    // A folder that does not exist yet is made.
    const nested = await sync({ 'checks-file': f, 'plan-file': 'plans/today/plan.json', 'dry-run': 'true' })
    expect(nested.core.failed).toBeUndefined()
    expect(planOf('plans/today/plan.json').checks).toHaveLength(1)
  })
})

describe('guards on deletes', () => {
  it('max-deletions (default 10) refuses a bigger prune, naming the count and the input; nothing written', async () => {
    for (let i = 0; i < 11; i++) emulator.seedCheck({ name: `gone-${i}`, url: `https://g.example.com/${i}` })
    const f = file('keep.yml', '- name: keep\n  url: https://k.example.com/\n')
    const { core } = await sync({ 'checks-file': f, prune: 'true' })
    expect(core.failed).toContain('the plan deletes 11 checks, more than max-deletions (10)')
    // nothing was written, and the outputs say so; result holds the refused plan
    expect(core.outputs).toMatchObject({ deleted: '0', changed: 'false' })
    expect((resultOf(core) as Array<{ action: string }>).filter(e => e.action === 'delete')).toHaveLength(11)
    expect(emulator.count('DELETE') + emulator.count('POST')).toBe(0)
    expect(emulator.checks.size).toBe(11)
    const allowed = await sync({ 'checks-file': f, prune: 'true', 'max-deletions': '11' })
    expect(allowed.core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(1)
  })

  it('prune without prune-prefix and a file with no checks is refused before any request', async () => {
    emulator.seedCheck({ name: 'precious', url: 'https://p.example.com/' })
    for (const text of ['[]\n', 'checks: []\n']) {
      const { core } = await sync({ 'checks-file': file('empty.yml', text), prune: 'true' })
      expect(core.failed).toContain('lists no checks, and prune without prune-prefix would delete every check')
    }
    expect(emulator.count()).toBe(0)
    // with a prefix, an empty file is a deliberate "delete these"
    const scoped = await sync({ 'checks-file': 'empty.yml', prune: 'true', 'prune-prefix': 'tmp-' })
    expect(scoped.core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(1)
  })
})

describe('paused checks', () => {
  it('a paused check stays paused when its entry does not state status, and is resumed when it does', async () => {
    const c = emulator.seedCheck({ name: 'paused-one', url: 'https://p.example.com/', interval: 60, status: 'paused' })
    const f = file('paused.yml', '- name: paused-one\n  url: https://p.example.com/\n  interval: 30\n')
    const { core } = await sync({ 'checks-file': f })
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.get(c.id)).toMatchObject({ interval: 30, status: 'paused' })
    const resumed = await sync({
      'checks-file': file(
        'resume.yml',
        '- name: paused-one\n  url: https://p.example.com/\n  interval: 30\n  status: up\n'
      )
    })
    expect(resumed.core.failed).toBeUndefined()
    expect(emulator.checks.get(c.id)?.status).not.toBe('paused')
  })
})

describe('a secret in ${NAME}', () => {
  it('is sent to the service, but masked in the log, outputs, summary and plan file; the approved plan still matches', async () => {
    const env = { HEALTH_TOKEN: 'tok-s3cr3t-value' }
    const f = file('secret.yml', '- name: app-secret\n  url: https://a.example.com/health?token=${HEALTH_TOKEN}\n')
    const dry = await sync({ 'checks-file': f, 'dry-run': 'true', 'plan-file': 'secret-plan.json' }, env)
    expect(dry.core.failed).toBeUndefined()
    expect(dry.core.secrets).toContain(env.HEALTH_TOKEN)
    expect(dry.core.everything()).not.toContain(env.HEALTH_TOKEN)
    expect(readFileSync(join(dir, 'secret-plan.json'), 'utf8')).not.toContain(env.HEALTH_TOKEN)
    expect(readFileSync(join(dir, 'secret-plan.json'), 'utf8')).toContain('token=***')
    const apply = await sync({ 'checks-file': f, 'approved-plan': 'secret-plan.json' }, env)
    expect(apply.core.failed).toBeUndefined()
    expect([...emulator.checks.values()][0].url).toBe('https://a.example.com/health?token=tok-s3cr3t-value')
    expect(apply.core.everything()).not.toContain(env.HEALTH_TOKEN)
  })
})
