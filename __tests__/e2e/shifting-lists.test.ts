/**
 * Lists that shift under the reader (offset paging while others write),
 * through dist/index.js: a row repeated across two page reads is one resource
 * (never deleted or resolved as its own duplicate), and a row skipped by the
 * first look is found by a later full read before anything is created:
 * used, never created twice, never deleted.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const workspace = mkdtempSync(join(tmpdir(), 'shifting-'))
// Two to a page: the third row opens page 2.
const emulator = useEmulator({ pageSize: 2, createdAt: false })

const step = (inputs: Record<string, string>) =>
  runStep(
    { 'api-key': KEY, 'base-url': emulator.baseUrl, ...inputs },
    { cwd: workspace, env: { GITHUB_WORKSPACE: workspace } }
  )
const site = (n: string) => `https://${n}.example.com/`

describe('a row repeated across page reads is one resource', () => {
  // Page 1 is [a, b]; a repeated read of page 2 starts with b again: [b, c].
  const seed = () => ['a', 'b', 'c'].map(n => emulator.seedCheck({ name: n, url: site(n), status: 'up' }))
  const repeatEveryList = () => emulator.inject({ method: 'GET', path: '/checks', shift: 'repeat', times: -1 })

  it.each([
    ['pause-check', {}],
    ['resume-check', {}],
    ['update-check', { 'check-interval': '30' }],
    ['upsert-check', { 'check-url': site('b') }]
  ])('%s by name never deletes the very check it targets', async (operation, extra) => {
    const [, b] = seed()
    repeatEveryList()
    const r = await step({ operation, 'check-name': 'b', ...extra })
    expect(r.stdout).not.toContain('::error::')
    expect(r.code).toBe(0)
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.has(b.id)).toBe(true)
    expect(r.outputs['check-id']).toBe(b.id)
    expect(r.stdout).not.toContain('identical checks are named')
  })

  it('sync-checks by name never deletes the checks it lists, even with prune', async () => {
    seed()
    repeatEveryList()
    writeFileSync(join(workspace, 'abc.yml'), ['a', 'b', 'c'].map(n => `- name: ${n}\n  url: ${site(n)}\n`).join(''))
    const r = await step({ operation: 'sync-checks', 'checks-file': 'abc.yml', prune: 'true' })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ deleted: '0', unchanged: '3', changed: 'false' })
    expect(emulator.checks.size).toBe(3)
  })

  it('open-incident never resolves the one open incident it updates', async () => {
    // Page 1 is [x, Deploy failed]; a repeated read of page 2 starts with "Deploy failed" again.
    emulator.seedIncident({ title: 'x', message: 'm', status: 'investigating' })
    const deploy = emulator.seedIncident({ title: 'Deploy failed', message: 'm', status: 'investigating' })
    emulator.seedIncident({ title: 'y', message: 'm', status: 'investigating' })
    emulator.inject({ method: 'GET', path: '/incidents', shift: 'repeat', times: -1 })
    const r = await step({ operation: 'open-incident', 'incident-title': 'Deploy failed', 'incident-message': 'again' })
    expect(r.code).toBe(0)
    expect(r.outputs['incident-id']).toBe(deploy.id)
    expect(emulator.incidents.get(deploy.id)).toMatchObject({ status: 'investigating', message: 'again' })
    // One PUT: the update. It was never resolved first as a duplicate of itself.
    expect(emulator.count('PUT')).toBe(1)
  })
})

describe('a row the first look skipped is found by the second read: never created twice, never deleted', () => {
  // A miss is proven by later full reads before a create, and such a read shows the row.
  it('upsert-check on a service without createdAt uses the check that was there: nothing created or deleted', async () => {
    emulator.seedCheck({ name: 'a', url: site('a') })
    emulator.seedCheck({ name: 'b', url: site('b') })
    // The largest id there is: a run that took "the smallest id" for "the oldest" would delete it.
    const old = emulator.seedCheck({ id: 'chk_zzzzzzzzzzzz', name: 'shop', url: site('shop'), interval: 60 })
    // The first look (page 1, then page 2) skips one row: it misses "shop".
    emulator.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 2 })
    const r = await step({
      operation: 'upsert-check',
      'check-name': 'shop',
      'check-url': site('shop'),
      'check-interval': '30'
    })
    expect(r.code).toBe(0)
    expect(emulator.count('POST')).toBe(0)
    expect(emulator.count('DELETE')).toBe(0)
    expect([...emulator.checks.values()].filter(c => c.name === 'shop')).toHaveLength(1)
    expect(r.outputs).toMatchObject({ 'check-id': old.id, changed: 'true' })
    expect(emulator.checks.get(old.id)?.interval).toBe(30)
    expect(r.stdout).toContain('a later read did (the list moved while it was read)')
  })

  it('sync-checks plans an update, not a create, for the row the first read skipped', async () => {
    emulator.seedCheck({ name: 'a', url: site('a') })
    emulator.seedCheck({ name: 'b', url: site('b') })
    const old = emulator.seedCheck({ name: 'shop', url: site('shop'), interval: 60 })
    emulator.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 2 })
    writeFileSync(join(workspace, 'shop.yml'), `- name: shop\n  url: ${site('shop')}\n  interval: 30\n`)
    const r = await step({ operation: 'sync-checks', 'checks-file': 'shop.yml' })
    expect(r.code).toBe(0)
    expect(r.outputs).toMatchObject({ created: '0', updated: '1' })
    expect(emulator.count('POST')).toBe(0)
    expect(emulator.checks.get(old.id)?.interval).toBe(30)
  })
})
