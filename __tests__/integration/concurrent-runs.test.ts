/**
 * Concurrent runs of the same step converge on one resource per name, and
 * identical duplicates that existed before a step are never removed by it. Runs are started together
 * (staggered by less than the create latency, so some look before another's
 * create has landed) against an emulator that holds every create.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { RunOutcome, resultOf, runAction, startEmulator } from '../helpers/harness.js'

const site = 'https://shop.example.com/health'
const CREATE_LATENCY_MS = 250
const RUNS = 5
const TRIALS = 3

let emulator: Emulator
let bare: Emulator
const dir = mkdtempSync(join(tmpdir(), 'concurrent-'))
beforeAll(async () => {
  emulator = await startEmulator({ rateLimit: false, createLatencyMs: CREATE_LATENCY_MS })
  // A server whose resources carry no createdAt: the survivor is then ranked by id alone.
  bare = await startEmulator({ rateLimit: false, createLatencyMs: CREATE_LATENCY_MS, createdAt: false })
})
afterAll(async () => {
  await emulator.stop()
  await bare.stop()
})
afterEach(() => {
  emulator.reset()
  bare.reset()
})

/** Start `RUNS` runs at once, each after a random delay shorter than the create latency; real waits. */
function together(target: Emulator, inputs: Record<string, string>): Promise<RunOutcome[]> {
  return Promise.all(
    Array.from({ length: RUNS }, async () => {
      await new Promise(r => setTimeout(r, Math.random() * CREATE_LATENCY_MS * 0.9))
      return runAction(target, inputs, { timeScale: 1, env: { GITHUB_WORKSPACE: dir } })
    })
  )
}

const unresolved = (e: Emulator) => [...e.incidents.values()].filter(i => i.status !== 'resolved')

describe('concurrent runs of the same step end with one resource', () => {
  for (const [label, target] of [
    ['createdAt on resources', () => emulator],
    ['no createdAt (ranked by id)', () => bare]
  ] as const) {
    it(`upsert-check x${RUNS}, ${TRIALS} trials, ${label}: one check, every run reports it`, async () => {
      for (let trial = 0; trial < TRIALS; trial++) {
        const server = target()
        server.reset()
        const runs = await together(server, {
          operation: 'upsert-check',
          'check-name': 'shop',
          'check-url': site,
          'check-interval': '30'
        })
        for (const { core } of runs) expect(core.failed).toBeUndefined()
        expect(server.checks.size).toBe(1)
        const [survivor] = [...server.checks.values()]
        expect(runs.map(r => r.core.outputs['check-id'])).toEqual(Array(RUNS).fill(survivor.id))
        expect(server.count('POST')).toBeGreaterThan(1) // the runs did race: several creates were sent
      }
    })
  }

  it(`sync-checks x${RUNS} of a 2-entry file, ${TRIALS} trials: two checks, every run's plan names them`, async () => {
    const file = join(dir, 'two.yml')
    writeFileSync(file, `- name: api\n  url: ${site}/api\n- name: web\n  url: ${site}/web\n  interval: 30\n`)
    for (let trial = 0; trial < TRIALS; trial++) {
      emulator.reset()
      const runs = await together(emulator, { operation: 'sync-checks', 'checks-file': 'two.yml' })
      for (const { core } of runs) expect(core.failed).toBeUndefined()
      expect(emulator.checks.size).toBe(2)
      const byName = Object.fromEntries([...emulator.checks.values()].map(c => [c.name, c.id]))
      for (const { core } of runs) {
        const plan = resultOf(core) as Array<{ name: string; id: string }>
        for (const entry of plan) expect(entry.id).toBe(byName[entry.name])
      }
      expect([...emulator.checks.values()].find(c => c.name === 'web')?.interval).toBe(30)
    }
  })

  it(`open-incident x${RUNS}, ${TRIALS} trials: one unresolved incident; the others resolved naming it`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      emulator.reset()
      const runs = await together(emulator, { operation: 'open-incident', 'incident-title': 'Deploy failed' })
      for (const { core } of runs) expect(core.failed).toBeUndefined()
      const open = unresolved(emulator)
      expect(open).toHaveLength(1)
      expect(runs.map(r => r.core.outputs['incident-id'])).toEqual(Array(RUNS).fill(open[0].id))
      for (const duplicate of [...emulator.incidents.values()].filter(i => i.id !== open[0].id)) {
        expect(duplicate.status).toBe('resolved')
        expect(duplicate.message).toContain(`Duplicate of incident ${open[0].id}`)
      }
    }
  })

  it('same name, another URL at the same time: nothing is removed, and the runs say why they fail', async () => {
    const runs = await Promise.all(
      ['a', 'b'].map(path =>
        runAction(
          emulator,
          { operation: 'upsert-check', 'check-name': 'shop', 'check-url': `${site}/${path}` },
          { timeScale: 1 }
        )
      )
    )
    expect(emulator.checks.size).toBe(2)
    expect(emulator.count('DELETE')).toBe(0)
    for (const { core } of runs) {
      expect(core.failed).toContain('were created at the same time with another URL or type')
      expect(core.outputs['check-id']).toMatch(/^chk_/)
      expect(core.outputs.changed).toBe('true')
    }
  })

  it('a create answered with no name (only an id) still converges on the name it was created with', async () => {
    emulator.inject({ method: 'POST', path: '/checks', after: true, status: 201, body: { data: { id: 'chk_echo' } } })
    const { core } = await runAction(
      emulator,
      { operation: 'upsert-check', 'check-name': 'terse', 'check-url': site },
      { timeScale: 1 }
    )
    expect(core.failed).toBeUndefined()
    const [real] = emulator.checks.keys()
    expect(emulator.checks.size).toBe(1)
    expect(core.outputs['check-id']).toBe(real)
  })

  it('a run whose look comes before another run has even sent its create still ends with one check', async () => {
    emulator.latency['POST /checks'] = 600
    try {
      const inputs = { operation: 'upsert-check', 'check-name': 'late', 'check-url': site }
      const first = runAction(emulator, inputs, { timeScale: 1 })
      // The second run lists while the first create is still held, so it creates too.
      await new Promise(r => setTimeout(r, 300))
      const second = runAction(emulator, inputs, { timeScale: 1 })
      const outcomes = await Promise.all([first, second])
      expect(emulator.count('POST')).toBe(2)
      expect(emulator.checks.size).toBe(1)
      const [kept] = [...emulator.checks.keys()]
      expect(outcomes.map(o => o.core.outputs['check-id'])).toEqual([kept, kept])
    } finally {
      emulator.latency['POST /checks'] = CREATE_LATENCY_MS
    }
  })
})

describe('racing creates under faults: a proven miss converges to exactly one, every run agreeing', () => {
  // Both runs read (twice: the miss is confirmed) before either create lands, so both create.
  const faults: Array<[string, Record<string, unknown>]> = [
    ['a create applied, then answered 500', { after: true, status: 500, body: { error: 'internal' } }],
    ['a create applied, then the connection reset', { after: true, drop: true }]
  ]
  const racing = (target: Emulator, count: number, inputs: Record<string, string>) =>
    Promise.all(
      Array.from({ length: count }, () => runAction(target, inputs, { timeScale: 1, env: { GITHUB_WORKSPACE: dir } }))
    )

  for (const [label, fault] of faults) {
    for (const count of [2, 3]) {
      it(`upsert-check x${count}, ${label}, no createdAt: one check, every run reports it, none fails`, async () => {
        for (let trial = 0; trial < TRIALS; trial++) {
          bare.reset()
          bare.inject({ method: 'POST', path: '/checks', ...fault })
          const runs = await racing(bare, count, {
            operation: 'upsert-check',
            'check-name': 'shop',
            'check-url': site,
            'check-interval': '30'
          })
          for (const { core } of runs) expect(core.failed).toBeUndefined()
          expect(bare.checks.size).toBe(1)
          const [survivor] = [...bare.checks.values()]
          expect(runs.map(r => r.core.outputs['check-id'])).toEqual(Array(count).fill(survivor.id))
          expect(survivor.interval).toBe(30)
          expect(bare.count('POST')).toBeGreaterThan(1)
          for (const { core } of runs)
            expect(core.logs.join('\n')).not.toContain('cannot prove were made during the step')
        }
      })
    }
  }

  it('sync-checks x2, each create applied then answered 500, no createdAt: one check per name, every plan names it', async () => {
    writeFileSync(join(dir, 'pair.yml'), `- name: api\n  url: ${site}/api\n- name: web\n  url: ${site}/web\n`)
    for (let trial = 0; trial < TRIALS; trial++) {
      bare.reset()
      bare.inject({ method: 'POST', path: '/checks', after: true, status: 500, times: 2 })
      const runs = await racing(bare, 2, { operation: 'sync-checks', 'checks-file': 'pair.yml' })
      for (const { core } of runs) expect(core.failed).toBeUndefined()
      expect(bare.checks.size).toBe(2)
      const byName = Object.fromEntries([...bare.checks.values()].map(c => [c.name, c.id]))
      for (const { core } of runs) {
        for (const entry of resultOf(core) as Array<{ name: string; id: string }>) {
          expect(entry.id).toBe(byName[entry.name])
        }
      }
    }
  })

  it('open-incident x2, a create applied then the connection reset, no createdAt: one unresolved incident', async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      bare.reset()
      bare.inject({ method: 'POST', path: '/incidents', after: true, drop: true })
      const runs = await racing(bare, 2, { operation: 'open-incident', 'incident-title': 'Deploy failed' })
      for (const { core } of runs) expect(core.failed).toBeUndefined()
      const open = unresolved(bare)
      expect(open).toHaveLength(1)
      expect(runs.map(r => r.core.outputs['incident-id'])).toEqual([open[0].id, open[0].id])
    }
  })

  it('reads that never agree (ids vanishing from read to read): the create goes ahead, and both checks are kept and named', async () => {
    const a = bare.seedCheck({ name: 'a', url: `${site}/a` })
    const b = bare.seedCheck({ name: 'b', url: `${site}/b` })
    const old = bare.seedCheck({ id: 'chk_zzzzzzzzzzzz', name: 'shop', url: site })
    // Four reads, each missing "shop" and losing an id the one before showed (checks deleted while read).
    const c = bare.seedCheck({ name: 'c', url: `${site}/c` })
    for (const data of [[a, b, c], [b, c], [c], []])
      bare.inject({ method: 'GET', path: '/checks', status: 200, body: { data } })
    const { core } = await runAction(bare, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
    expect(core.failed).toBeUndefined()
    expect(bare.count('DELETE')).toBe(0)
    expect(bare.checks.has(old.id)).toBe(true)
    expect([...bare.checks.values()].filter(c => c.name === 'shop')).toHaveLength(2)
    const log = core.logs.join('\n')
    expect(log).toContain('The 4 full reads of the checks proved nothing about what is there (rows vanished')
    expect(log).toMatch(/warning: .*cannot prove were made during the step/)
    expect(log).toContain(old.id)
    expect(log).toContain(core.outputs['check-id'])
  })

  it('a row the first read skipped (a shifted page) is found by the second read: updated, never created twice', async () => {
    const paged = await startEmulator({ rateLimit: false, pageSize: 2, createdAt: false })
    try {
      paged.seedCheck({ name: 'a', url: `${site}/a` })
      paged.seedCheck({ name: 'b', url: `${site}/b` })
      const shop = paged.seedCheck({ name: 'shop', url: site, interval: 60 })
      // The first read's two pages: page 2 starts one row late, so "shop" is never shown.
      paged.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 2 })
      const { core } = await runAction(paged, {
        operation: 'upsert-check',
        'check-name': 'shop',
        'check-url': site,
        'check-interval': '30'
      })
      expect(core.failed).toBeUndefined()
      expect(paged.count('POST')).toBe(0)
      expect([...paged.checks.values()].filter(c => c.name === 'shop')).toHaveLength(1)
      expect(core.outputs).toMatchObject({ 'check-id': shop.id, changed: 'true' })
      expect(paged.checks.get(shop.id)?.interval).toBe(30)
    } finally {
      await paged.stop()
    }
  })
})

describe('a check hidden from both reads of a confirmed miss that existed before the step (its createdAt says so)', () => {
  it('is never deleted: it is the survivor, the run removes its own create and reports the old one', async () => {
    const paged = await startEmulator({ rateLimit: false, pageSize: 2 })
    try {
      paged.seedCheck({ name: 'a', url: `${site}/a` })
      paged.seedCheck({ name: 'b', url: `${site}/b` })
      // The largest id there is, so that by id alone the new check would be kept and this one deleted.
      const old = paged.seedCheck({
        id: 'chk_zzzzzzzzzzzz',
        name: 'shop',
        url: site,
        createdAt: '2025-01-01T00:00:00Z'
      })
      // Both reads of the miss (two pages each): page 2 starts a row late, so "shop" is never shown to them.
      paged.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 4 })
      const { core } = await runAction(paged, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
      expect(core.failed).toBeUndefined()
      expect(paged.count('POST')).toBe(1)
      expect(paged.checks.has(old.id)).toBe(true)
      expect([...paged.checks.values()].filter(c => c.name === 'shop').map(c => c.id)).toEqual([old.id])
      expect(core.outputs['check-id']).toBe(old.id)
    } finally {
      await paged.stop()
    }
  })
})

describe('identical checks that existed before the step are never removed: one is used, and the run says so', () => {
  const seedTwins = (fields: Record<string, unknown> = {}) => {
    const old = emulator.seedCheck({ name: 'shop', url: site, createdAt: '2026-01-01T00:00:00Z', ...fields })
    const copies = ['2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z'].map(createdAt =>
      emulator.seedCheck({ name: 'shop', url: site, createdAt, ...fields })
    )
    return { old, copies }
  }

  it('upsert-check uses the first in order, deletes nothing, and names the others in a warning', async () => {
    const { old, copies } = seedTwins()
    const { core } = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
    expect(core.failed).toBeUndefined()
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.size).toBe(3)
    expect(core.outputs).toMatchObject({ 'check-id': old.id, changed: 'false' })
    const warning = core.logs.find(w => w.startsWith('warning: ') && w.includes('3 identical checks are named "shop"'))
    expect(warning).toContain(`the outputs name ${old.id}`)
    for (const copy of copies) expect(warning).toContain(copy.id)
    expect(core.summaryText).toContain('never deletes a check that may have existed before the step')
  })

  it('upsert-check changes each identical duplicate alike, so the next identical run passes as the first did', async () => {
    const { old, copies } = seedTwins({ interval: 60 })
    const upsert = () =>
      runAction(emulator, {
        operation: 'upsert-check',
        'check-name': 'shop',
        'check-url': site,
        'check-interval': '30'
      })
    const first = await upsert()
    expect(first.core.failed).toBeUndefined()
    expect(first.core.outputs).toMatchObject({ 'check-id': old.id, changed: 'true' })
    expect([...emulator.checks.values()].map(c => c.interval)).toEqual([30, 30, 30])
    expect(emulator.count('PUT')).toBe(3)
    const warning = first.core.logs.filter(l => l.startsWith('warning: 3 identical checks are named "shop"'))
    expect(warning).toEqual([
      `warning: 3 identical checks are named "shop" (${old.id}, ${copies[0].id}, ${copies[1].id}): each was changed alike, so they stay identical; the outputs name ${old.id}, the first in order. To keep one, delete the others with delete-check and check-id (check-id: ${copies[0].id}); the action never deletes a check that may have existed before the step.`
    ])
    const second = await upsert()
    expect(second.core.failed).toBeUndefined()
    expect(second.core.outputs).toMatchObject({ 'check-id': old.id, changed: 'false' })
    expect(emulator.count('PUT')).toBe(3)
    expect(emulator.count('DELETE')).toBe(0)
  })

  it('update-check by name does the same: the duplicates stay identical', async () => {
    seedTwins({ interval: 60 })
    const update = () =>
      runAction(emulator, { operation: 'update-check', 'check-name': 'shop', 'check-interval': '45' })
    expect((await update()).core.outputs.changed).toBe('true')
    expect([...emulator.checks.values()].map(c => c.interval)).toEqual([45, 45, 45])
    const again = await update()
    expect(again.core.failed).toBeUndefined()
    expect(again.core.outputs.changed).toBe('false')
  })

  it('in dry-run nothing is deleted or planned for deletion either', async () => {
    seedTwins()
    const { core } = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': 'shop',
      'check-url': site,
      'dry-run': 'true'
    })
    expect(core.failed).toBeUndefined()
    expect(emulator.count('DELETE')).toBe(0)
    expect(core.logs.filter(l => l.includes('[dry-run] would send DELETE'))).toHaveLength(0)
    expect(core.outputs.changed).toBe('false')
  })

  it('pause-check by name pauses each identical one alike and removes none, so the resume by name finds them as the pause did', async () => {
    const { old, copies } = seedTwins()
    const { core } = await runAction(emulator, { operation: 'pause-check', 'check-name': 'shop' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['check-id']).toBe(old.id)
    for (const c of [old, ...copies]) expect(emulator.checks.get(c.id)?.status).toBe('paused')
    expect(emulator.count('DELETE')).toBe(0)
    const resume = await runAction(emulator, { operation: 'resume-check', 'check-name': 'shop' })
    expect(resume.core.failed).toBeUndefined()
    for (const c of [old, ...copies]) expect(emulator.checks.get(c.id)?.status).toBe('up')
    expect(emulator.checks.size).toBe(1 + copies.length)
  })

  it('delete-check by name deletes the check and its identical duplicates', async () => {
    seedTwins()
    const { core } = await runAction(emulator, { operation: 'delete-check', 'check-name': 'shop' })
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(0)
    expect(core.outputs.changed).toBe('true')
  })

  it('sync-checks plans no delete for identical checks of one name: an entry for each, a warning, all kept', async () => {
    const { old, copies } = seedTwins()
    writeFileSync(join(dir, 'shop.yml'), `- name: shop\n  url: ${site}\n`)
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'shop.yml' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(3)
    expect(core.outputs).toMatchObject({ deleted: '0', unchanged: '3' })
    expect(core.logs).toContain(
      `warning: 3 identical checks are named "shop" (${old.id}, ${copies[0].id}, ${copies[1].id}): nothing differs in any of them, an entry for each, so they stay identical. To keep one, delete the others with delete-check and check-id (check-id: ${copies[0].id}); the action never deletes a check that may have existed before the step.`
    )
  })

  it('checks that differ in anything a user sets are never deleted: the run fails naming what differs', async () => {
    emulator.seedCheck({ name: 'shop', url: site, alertChannels: ['email'] })
    emulator.seedCheck({ name: 'shop', url: site, alertChannels: ['slack'] })
    for (const operation of ['upsert-check', 'pause-check', 'delete-check', 'update-check']) {
      const { core } = await runAction(emulator, { operation, 'check-name': 'shop', 'check-url': site })
      expect(core.failed).toContain('and they differ (alertChannels)')
    }
    expect(emulator.checks.size).toBe(2)
    expect(emulator.count('DELETE') + emulator.count('PUT')).toBe(0)
  })

  it('a status someone set (not up, down or pending) tells checks apart; measured ones do not', async () => {
    emulator.seedCheck({ name: 'shop', url: site, status: 'up', createdAt: '2026-01-01T00:00:00Z' })
    emulator.seedCheck({ name: 'shop', url: site, status: 'maintenance', createdAt: '2026-01-02T00:00:00Z' })
    const refused = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
    expect(refused.core.failed).toContain('and they differ (status)')
    expect(emulator.checks.size).toBe(2)
    emulator.reset()
    const first = emulator.seedCheck({ name: 'shop', url: site, status: 'up', createdAt: '2026-01-01T00:00:00Z' })
    emulator.seedCheck({ name: 'shop', url: site, status: 'down', createdAt: '2026-01-02T00:00:00Z' })
    const used = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
    expect(used.core.failed).toBeUndefined()
    expect(used.core.outputs['check-id']).toBe(first.id)
    expect(emulator.checks.size).toBe(2)
  })

  it('open-incident updates the first of identical unresolved incidents and resolves none of the others', async () => {
    const fields = { title: 'Deploy failed', message: 'same text', status: 'investigating' }
    const old = emulator.seedIncident({ ...fields, createdAt: '2026-01-01T00:00:00Z' })
    const copy = emulator.seedIncident({ ...fields, createdAt: '2026-01-02T00:00:00Z' })
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': 'Deploy failed' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['incident-id']).toBe(old.id)
    expect(emulator.incidents.get(copy.id)).toMatchObject({ status: 'investigating', message: 'same text' })
    expect(core.logs.join('\n')).toContain(`using ${old.id}`)
    expect(
      unresolved(emulator)
        .map(i => i.id)
        .sort()
    ).toEqual([old.id, copy.id].sort())
  })

  it('incidents with one title that are not identical are left alone (the newest is the target)', async () => {
    emulator.seedIncident({ title: 'Deploy failed', message: 'first', createdAt: '2026-01-01T00:00:00Z' })
    const newer = emulator.seedIncident({
      title: 'Deploy failed',
      message: 'second',
      createdAt: '2026-01-02T00:00:00Z'
    })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': 'Deploy failed' })
    expect(core.outputs['incident-id']).toBe(newer.id)
    expect(unresolved(emulator)).toHaveLength(1)
  })
})
