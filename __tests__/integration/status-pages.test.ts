/** Status page operations against the emulator. */
import { describe, expect, it } from '@jest/globals'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

describe('status pages', () => {
  it('create, get by id and by name, list', async () => {
    const created = await runAction(emulator, {
      operation: 'create-status-page',
      'status-page-name': 'Shop',
      'status-page': 'theme: dark\nchecks: [chk_1]'
    })
    expect(created.core.failed).toBeUndefined()
    const id = created.core.outputs['status-page-id']
    expect(id).toMatch(/^sp_/)
    expect(emulator.statusPages.get(id)).toMatchObject({ name: 'Shop', theme: 'dark', checks: ['chk_1'] })
    const byId = await runAction(emulator, { operation: 'get-status-page', 'status-page-id': id })
    expect(resultOf(byId.core)).toMatchObject({ id, name: 'Shop', theme: 'dark' })
    const byName = await runAction(emulator, { operation: 'get-status-page', 'status-page-name': 'Shop' })
    expect(byName.core.outputs['status-page-id']).toBe(id)
    const list = await runAction(emulator, { operation: 'list-status-pages' })
    expect(list.core.outputs.count).toBe('1')
  })

  it('a missing status page is a clear error', async () => {
    const r = await runAction(emulator, { operation: 'get-status-page', 'status-page-id': 'sp_none' })
    expect(r.core.failed).toBe('status page sp_none not found (GET /status-pages/sp_none answered 404)')
  })

  it('a create that times out after the server applied it is not duplicated', async () => {
    emulator.inject({ method: 'POST', path: '/status-pages', after: true, drop: true })
    const r = await runAction(emulator, { operation: 'create-status-page', 'status-page-name': 'Shop' })
    expect(r.core.failed).toBeUndefined()
    expect(emulator.statusPages.size).toBe(1)
  })
})
