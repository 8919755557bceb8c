import { describe, expect, it } from '@jest/globals'
import { resultOf, runAction, startEmulator, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const title = 'Deploy of shop failed'
const runUrl = 'https://github.example.com/acme/shop/actions/runs/4242/attempts/1'
/** The line the action adds to a custom message, naming the workflow and repository. */
const SENT_BY = '\nSent by workflow "Deploy" in acme/shop.'

describe('the fail / re-run / recover story', () => {
  it('leaves exactly one incident: opened, updated, resolved; its text links to the run', async () => {
    const open = { operation: 'open-incident', 'incident-title': title }
    const first = await runAction(emulator, open)
    expect(first.core.failed).toBeUndefined()
    expect(first.core.outputs.changed).toBe('true')
    expect(first.core.outputs['incident-status']).toBe('investigating')
    const id = first.core.outputs['incident-id']
    const opened = emulator.incidents.get(id)
    expect(opened?.message).toBe(
      `Workflow "Deploy" (job deploy) failed in acme/shop on refs/heads/main at commit 0123456, run attempt 1. Run: ${runUrl}`
    )

    const rerun = await runAction(emulator, open, { env: { GITHUB_RUN_ATTEMPT: '2' } })
    expect(rerun.core.outputs['incident-id']).toBe(id)
    expect(rerun.core.outputs.changed).toBe('true')
    expect(emulator.incidents.size).toBe(1)
    expect(emulator.incidents.get(id)?.message).toContain('run attempt 2')
    expect(emulator.incidents.get(id)?.title).toBe(title)

    const resolved = await runAction(
      emulator,
      { operation: 'resolve-incident', 'incident-title': title },
      { env: { GITHUB_RUN_ATTEMPT: '3' } }
    )
    expect(resolved.core.outputs['incident-status']).toBe('resolved')
    expect(resolved.core.outputs.changed).toBe('true')
    const final = emulator.incidents.get(id)
    expect(final).toMatchObject({ title, status: 'resolved' })
    expect(String(final?.message)).toContain('Resolved: workflow "Deploy"')
    expect(String(final?.message)).toContain('/actions/runs/4242/attempts/3')
    expect(emulator.incidents.size).toBe(1)

    const again = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': title })
    expect(again.core.failed).toBeUndefined()
    expect(again.core.outputs.changed).toBe('false')
    expect(emulator.count('PUT')).toBe(2)
    // By title only unresolved incidents are looked for: none is left, and result is still JSON (null), not empty.
    expect(again.core.outputs.result).toBe('null')
    // None was ever opened: the same.
    const none = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': 'never opened' })
    expect(none.core.failed).toBeUndefined()
    expect(none.core.outputs.changed).toBe('false')
    expect(none.core.outputs.result).toBe('null')
  })

  it('after a resolved incident, a new failure opens a new one', async () => {
    emulator.seedIncident({ title, status: 'resolved', message: 'old' })
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': title })
    expect(core.outputs.changed).toBe('true')
    expect(emulator.incidents.size).toBe(2)
    expect(emulator.count('POST')).toBe(1)
  })

  it('a re-run with the same text changes nothing', async () => {
    const open = { operation: 'open-incident', 'incident-title': title, 'incident-message': 'Checkout is failing' }
    await runAction(emulator, open)
    const again = await runAction(emulator, open)
    expect(again.core.outputs.changed).toBe('false')
    expect(emulator.count('PUT')).toBe(0)
  })
})

describe('incident operations', () => {
  it('create-incident passes unknown fields through and defaults the status', async () => {
    const { core } = await runAction(emulator, {
      operation: 'create-incident',
      incident: 'title: Outage\nseverity: critical\naffected: [chk_1]',
      'incident-message': 'Down since {short_sha} ({run_url})'
    })
    expect(core.failed).toBeUndefined()
    const stored = emulator.incidents.get(core.outputs['incident-id'])
    expect(stored).toMatchObject({
      title: 'Outage',
      severity: 'critical',
      affected: ['chk_1'],
      status: 'investigating'
    })
    expect(stored?.message).toBe(`Down since 0123456 (${runUrl})${SENT_BY}`)
  })

  it('update-incident by id sends the whole incident, so a replacing PUT keeps the title and other fields', async () => {
    const inc = emulator.seedIncident({ title: 'Outage', message: 'm', severity: 'low' })
    const { core } = await runAction(emulator, {
      operation: 'update-incident',
      'incident-id': inc.id,
      'incident-status': 'identified'
    })
    expect(core.failed).toBeUndefined()
    expect(emulator.incidents.get(inc.id)).toMatchObject({
      title: 'Outage',
      message: 'm',
      severity: 'low',
      status: 'identified'
    })
  })

  it('update-incident by title targets the newest unresolved one (of incidents that are not identical)', async () => {
    const old = emulator.seedIncident({ title: 'Outage', severity: 'low', createdAt: '2026-01-01T00:00:00Z' })
    const newer = emulator.seedIncident({ title: 'Outage', severity: 'high', createdAt: '2026-02-01T00:00:00Z' })
    emulator.seedIncident({ title: 'Outage', status: 'Resolved', createdAt: '2026-03-01T00:00:00Z' })
    const { core } = await runAction(emulator, {
      operation: 'update-incident',
      'incident-title': 'Outage',
      'incident-message': 'new text'
    })
    expect(core.outputs['incident-id']).toBe(newer.id)
    expect(emulator.incidents.get(newer.id)?.message).toBe(`new text${SENT_BY}`)
    expect(emulator.incidents.get(old.id)?.message).toBeUndefined()
  })

  it('update-incident with an unknown id or title is a clear error', async () => {
    let r = await runAction(emulator, { operation: 'update-incident', 'incident-id': 'inc_x', 'incident-status': 'x' })
    expect(r.core.failed).toBe('incident inc_x not found (looked through 0 incidents)')
    r = await runAction(emulator, { operation: 'update-incident', 'incident-title': 'Nope', 'incident-status': 'x' })
    expect(r.core.failed).toBe('no unresolved incident titled "Nope"')
  })

  it('resolve-incident by id', async () => {
    const inc = emulator.seedIncident({ title: 'Outage', message: 'm' })
    const { core } = await runAction(emulator, {
      operation: 'resolve-incident',
      'incident-id': inc.id,
      'incident-message': 'Fixed by {actor}'
    })
    expect(core.outputs.changed).toBe('true')
    expect(emulator.incidents.get(inc.id)).toMatchObject({
      title: 'Outage',
      status: 'resolved',
      message: `Fixed by octocat${SENT_BY}`
    })
  })

  it('list-incidents: every page, count and result', async () => {
    const paged = await startEmulator({ pageSize: 2 })
    try {
      for (let i = 0; i < 5; i++) paged.seedIncident({ title: `i${i}` })
      const { core } = await runAction(paged, { operation: 'list-incidents' })
      expect(core.outputs.count).toBe('5')
      expect((resultOf(core) as Array<{ title: string }>).map(i => i.title)).toEqual(['i0', 'i1', 'i2', 'i3', 'i4'])
    } finally {
      await paged.stop()
    }
  })

  it('a create applied then answered with 500 is not duplicated', async () => {
    emulator.inject({ method: 'POST', path: '/incidents', after: true, status: 500 })
    const { core } = await runAction(emulator, { operation: 'open-incident', 'incident-title': title })
    expect(core.failed).toBeUndefined()
    expect(emulator.incidents.size).toBe(1)
    expect(emulator.count('POST')).toBe(1)
  })

  it('a PUT that fails with 503 is retried', async () => {
    const inc = emulator.seedIncident({ title })
    emulator.inject({ method: 'PUT', status: 503 })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': title })
    expect(core.failed).toBeUndefined()
    expect(emulator.incidents.get(inc.id)?.status).toBe('resolved')
    expect(emulator.count('PUT')).toBe(2)
  })

  it('dry-run sends nothing', async () => {
    const inc = emulator.seedIncident({ title })
    const r = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': title, 'dry-run': 'true' })
    expect(r.core.outputs.changed).toBe('true')
    expect(r.core.logs.join('\n')).toContain(`[dry-run] would send PUT /incidents/${inc.id}`)
    expect(emulator.incidents.get(inc.id)?.status).toBe('investigating')
  })
})
