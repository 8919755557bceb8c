import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Pacer, realClock } from '../../src/api/pacer.js'
import type { FakeCore } from '../helpers/fake-core.js'
import { resultOf, runAction, startEmulator, useEmulator } from '../helpers/harness.js'

const dir = mkdtempSync(join(tmpdir(), 'sync-'))
const emulator = useEmulator()

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text)
  return name
}
const fleet = (n: number, extra = '') =>
  Array.from(
    { length: n },
    (_, i) => `- name: app-${i}\n  url: https://app.example.com/${i}\n  interval: 60${extra}`
  ).join('\n') + '\n'
const sync = (inputs: Record<string, string>, options = {}) =>
  runAction(emulator, { operation: 'sync-checks', ...inputs }, { env: { GITHUB_WORKSPACE: dir }, ...options })
const names = () => [...emulator.checks.values()].map(c => c.name).sort()

describe('sync-checks', () => {
  it('makes the service equal the file; a second run changes nothing and costs one list', async () => {
    const f = file('fleet.yml', fleet(5))
    const first = await sync({ 'checks-file': f })
    expect(first.core.failed).toBeUndefined()
    expect(first.core.outputs).toMatchObject({
      created: '5',
      updated: '0',
      deleted: '0',
      unchanged: '0',
      count: '5',
      changed: 'true'
    })
    expect(names()).toEqual(['app-0', 'app-1', 'app-2', 'app-3', 'app-4'])
    // one list, a second to prove the misses absent, one POST per check, one list to look again for
    // checks concurrent runs created
    expect(emulator.count()).toBe(8)
    const before = emulator.count()
    const second = await sync({ 'checks-file': f })
    expect(second.core.outputs).toMatchObject({ created: '0', updated: '0', unchanged: '5', changed: 'false' })
    expect(emulator.count() - before).toBe(1)
  })

  it('updates only what differs, sending the whole check; prints the plan first', async () => {
    const keep = emulator.seedCheck({ name: 'app-0', url: 'https://app.example.com/0', interval: 60, owner: 'team-a' })
    emulator.seedCheck({ name: 'app-1', url: 'https://app.example.com/1', interval: 10 })
    const { core } = await sync({ 'checks-file': file('two.yml', fleet(2)) })
    expect(core.outputs).toMatchObject({ updated: '1', unchanged: '1', created: '0' })
    expect(emulator.count('PUT')).toBe(1)
    expect(emulator.checks.get(keep.id)?.owner).toBe('team-a')
    const plan = resultOf(core) as Array<{ action: string; name: string; fields: string[] }>
    expect(plan.find(e => e.action === 'update')).toMatchObject({ name: 'app-1', fields: ['interval'] })
    const planGroup = core.logs.findIndex(l => l.startsWith('group: Plan: 0 to create, 1 to update'))
    const applyGroup = core.logs.findIndex(l => l.startsWith('group: Apply'))
    expect(planGroup).toBeGreaterThanOrEqual(0)
    expect(applyGroup).toBeGreaterThan(planGroup)
    expect(core.summaryText).toContain('| update | app-1 |')
  })

  it('prune deletes what the file does not list; prune-prefix limits it; without prune nothing is deleted', async () => {
    emulator.seedCheck({ name: 'app-9', url: 'https://app.example.com/9' })
    emulator.seedCheck({ name: 'other', url: 'https://other.example.com/' })
    const f = file('one.yml', fleet(1))
    const noPrune = await sync({ 'checks-file': f })
    expect(noPrune.core.outputs.deleted).toBe('0')
    expect(names()).toEqual(['app-0', 'app-9', 'other'])
    const prefixed = await sync({ 'checks-file': f, prune: 'true', 'prune-prefix': 'app-' })
    expect(prefixed.core.outputs.deleted).toBe('1')
    expect(names()).toEqual(['app-0', 'other'])
    const all = await sync({ 'checks-file': f, prune: 'true' })
    expect(all.core.outputs.deleted).toBe('1')
    expect(names()).toEqual(['app-0'])
  })

  it('dry-run prints the plan and writes nothing', async () => {
    emulator.seedCheck({ name: 'gone', url: 'https://x/' })
    const { core } = await sync({ 'checks-file': file('dry.yml', fleet(3)), prune: 'true', 'dry-run': 'true' })
    expect(core.outputs).toMatchObject({ created: '3', deleted: '1', changed: 'true' })
    expect(core.logs.filter(l => l.includes('[dry-run] would send')).length).toBe(4)
    expect(emulator.count('POST') + emulator.count('PUT') + emulator.count('DELETE')).toBe(0)
    expect(core.summaryText).toContain('dry run: nothing sent')
  })

  it("the plan's lines wait for the runner to read them: none is written before those above it were read", async () => {
    // A runner that reads a line a tick after it is written: in the plan's group, each line waits for it.
    let [written, read, inPlan] = [0, 0, false]
    const { core } = await sync(
      { 'checks-file': file('slow-reader.yml', fleet(40)), 'dry-run': 'true' },
      {
        prepare: (fake: FakeCore) => {
          const [info, startGroup, endGroup] = [fake.info, fake.startGroup, fake.endGroup]
          fake.startGroup = (name: string) => ((inPlan = name.startsWith('Plan')), startGroup(name))
          fake.endGroup = () => ((inPlan = false), endGroup())
          fake.info = (m: string) => {
            if (inPlan) expect(++written - read).toBe(1)
            info(m)
          }
        },
        drained: () => new Promise<void>(done => setImmediate(() => ((read = written), done())))
      }
    )
    expect(written).toBe(40)
    expect(core.outputs).toMatchObject({ created: '40', count: '40' })
    const group = core.logs.findIndex(l => l.startsWith('group: Plan'))
    expect(core.logs.slice(group + 1, group + 41).every(l => l.startsWith('info: create'))).toBe(true)
  })

  it('a bad file fails before any request, naming the file, entry and field', async () => {
    const { core } = await sync({
      'checks-file': file('bad.yml', '- name: a\n  url: https://a/\n- name: b\n  url: https://b/\n  interval: -1\n')
    })
    expect(core.failed).toBe('checks-file bad.yml: entry 2 (line 3) ("b"): interval must be a whole number above 0')
    expect(emulator.count()).toBe(0)
  })

  it('a missing file is a clear error', async () => {
    const { core } = await sync({ 'checks-file': 'nope.yml' })
    expect(core.failed).toContain('checks-file nope.yml: cannot read')
    expect(core.failed).toContain('ENOENT')
  })

  it('a failure half-way reports what was applied and what was not; a re-run finishes the job', async () => {
    const f = file('half.yml', fleet(8))
    emulator.inject({
      method: 'POST',
      path: '/checks',
      status: 400,
      body: { error: { message: 'quota reached' } },
      times: 1
    })
    const broken = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': f },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(broken.core.failed).toMatch(
      /^sync-checks stopped at create "app-\d": POST \/checks failed: HTTP 400 Bad Request: quota reached\. \d of 8 change\(s\) were applied before it stopped \(create "app-\d"(, create "app-\d")*\); 1 failed, \d not attempted\. Running the step again will fail the same way until the cause is fixed/
    )
    expect(broken.core.failed).not.toContain('finishes the job')
    const applied = emulator.checks.size
    expect(broken.core.outputs.created).toBe(String(applied))
    expect(applied).toBeLessThan(8)
    expect(broken.core.summaryText).toContain('Sync stopped half-way')
    expect(broken.core.summaryText).toContain('| failed |')
    const rerun = await sync({ 'checks-file': f })
    expect(rerun.core.failed).toBeUndefined()
    expect(rerun.core.outputs.created).toBe(String(8 - applied))
    expect(emulator.checks.size).toBe(8)
  })

  it('a transient failure half-way says that a re-run finishes the job', async () => {
    const f = file('transient.yml', fleet(3))
    emulator.inject({ method: 'PUT', status: 503, times: Infinity })
    for (let i = 0; i < 3; i++)
      emulator.seedCheck({ name: `app-${i}`, url: `https://app.example.com/${i}`, interval: 5 })
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': f, 'max-retries': '0' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toMatch(/^sync-checks stopped at update "app-\d": PUT \/checks\/chk_\w+ failed: HTTP 503/)
    expect(core.failed).toContain('none of the 3 change(s) was applied')
    expect(core.failed).toContain('The failure looks transient: running the step again finishes the job.')
  })

  it('two server checks with a name in the file is an error before any write', async () => {
    emulator.seedCheck({ name: 'app-0', url: 'https://x/' })
    emulator.seedCheck({ name: 'app-0', url: 'https://y/' })
    const { core } = await sync({ 'checks-file': file('dup.yml', fleet(1)) })
    expect(core.failed).toContain('2 checks on the service are named "app-0"')
    expect(emulator.count('POST') + emulator.count('PUT') + emulator.count('DELETE')).toBe(0)
  })

  it('is paced under the limit: no 429 with the client pacing to the server window', async () => {
    const limited = await startEmulator({ rateLimit: { limit: 5, windowMs: 500 } })
    try {
      const f = file('paced.yml', fleet(14))
      const started = Date.now()
      const { core } = await runAction(
        limited,
        { operation: 'sync-checks', 'checks-file': f },
        { env: { GITHUB_WORKSPACE: dir }, clock: realClock, pacing: new Pacer(5, 500, realClock) }
      )
      expect(core.failed).toBeUndefined()
      expect(limited.checks.size).toBe(14)
      expect(limited.requests.filter(r => r.status === 429)).toHaveLength(0)
      // 15 requests at 5 per 0.5 s (+0.25 s slack a window): at least two full windows
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    } finally {
      await limited.stop()
    }
  })

  it('without pacing the same sync meets 429s, and still finishes by honouring Retry-After', async () => {
    const limited = await startEmulator({ rateLimit: { limit: 5, windowMs: 500 } })
    try {
      const { core } = await runAction(
        limited,
        { operation: 'sync-checks', 'checks-file': file('unpaced.yml', fleet(14)), 'max-retries': '10' },
        { env: { GITHUB_WORKSPACE: dir }, timeScale: 0.5 }
      )
      expect(core.failed).toBeUndefined()
      expect(limited.checks.size).toBe(14)
      expect(limited.requests.filter(r => r.status === 429).length).toBeGreaterThan(0)
    } finally {
      await limited.stop()
    }
  })

  it('an ambiguous create during a sync is not duplicated', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 502 })
    const { core } = await sync({ 'checks-file': file('amb.yml', fleet(3)) })
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(3)
  })
})
