/**
 * Data that would turn a request into another request: ids that are dot
 * segments, names with commas, checks files too big to read.
 */
import { describe, expect, it } from '@jest/globals'
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, useEmulator } from '../helpers/harness.js'

const dir = mkdtempSync(join(tmpdir(), 'hostile-'))
const emulator = useEmulator()

const site = 'https://shop.example.com/'

describe('ids that are dot segments', () => {
  it.each(['.', '..'])('check-id %j is refused before any request', async id => {
    const { core } = await runAction(emulator, { operation: 'delete-check', 'check-id': id })
    expect(core.failed).toMatch(/^check-id holds "\.\.?": an id cannot be empty, "\." or "\.\."/)
    expect(emulator.count()).toBe(0)
  })

  it.each(['.', '..'])('a check the server lists with id %j is never addressed', async id => {
    emulator.seedCheck({ id, name: 'dotty', url: site })
    emulator.seedCheck({ id: 'chk_ok', name: 'fine', url: site })
    for (const operation of ['get-check', 'delete-check', 'pause-check', 'update-check', 'check-history']) {
      emulator.requests = []
      const { core } = await runAction(emulator, {
        operation,
        'check-name': 'dotty',
        ...(operation === 'update-check' ? { 'check-interval': '30' } : {})
      })
      expect(core.failed).toContain(`the server gave a resource the id "${id}": an id cannot be empty`)
      expect(core.outputs['check-id'] ?? '').not.toBe(id)
      // Only the list was read: no DELETE /v1/ or PUT /v1/checks/ went out.
      expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual(['GET /checks'])
    }
    expect(emulator.checks.size).toBe(2)
  })

  it('sync-checks never deletes through an id that is a dot segment', async () => {
    emulator.seedCheck({ id: '..', name: 'app-old', url: site })
    writeFileSync(join(dir, 'empty-ish.yml'), '- name: app-new\n  url: https://new.example.com/\n')
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'empty-ish.yml', prune: 'true', 'prune-prefix': 'app-' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toContain('the server gave a resource the id ".."')
    expect(emulator.count('DELETE')).toBe(0)
  })
})

describe('names with commas', () => {
  it('get-check, update-check and delete-check target "Shop, EU" as one name', async () => {
    emulator.seedCheck({ id: 'chk_eu', name: 'Shop, EU', url: site })
    emulator.seedCheck({ id: 'chk_us', name: 'Shop, US', url: site })
    const got = await runAction(emulator, { operation: 'get-check', 'check-name': 'Shop, EU' })
    expect(got.core.failed).toBeUndefined()
    expect(got.core.outputs['check-id']).toBe('chk_eu')
    const upd = await runAction(emulator, {
      operation: 'update-check',
      'check-name': 'Shop, EU',
      'check-interval': '30'
    })
    expect(upd.core.failed).toBeUndefined()
    expect(emulator.checks.get('chk_eu')?.interval).toBe(30)
    const del = await runAction(emulator, { operation: 'delete-check', 'check-name': 'Shop, EU' })
    expect(del.core.outputs.changed).toBe('true')
    expect([...emulator.checks.keys()]).toEqual(['chk_us'])
  })

  it('pause-check takes names with commas one per line', async () => {
    emulator.seedCheck({ id: 'chk_eu', name: 'Shop, EU', url: site, status: 'up' })
    emulator.seedCheck({ id: 'chk_us', name: 'Shop, US', url: site, status: 'up' })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'check-name': 'Shop, EU\nShop, US\n' })
    expect(core.failed).toBeUndefined()
    expect([...emulator.checks.values()].map(c => c.status)).toEqual(['paused', 'paused'])
  })
})

describe('checks file size', () => {
  it('a 50 MB checks file is refused before it is read, naming its size and the limit', async () => {
    const big = join(dir, 'big.yml')
    const fd = openSync(big, 'w')
    closeSync(fd)
    // A sparse file: 50 MB on paper, nothing on disk.
    const { truncateSync } = await import('node:fs')
    truncateSync(big, 50 * 1024 * 1024)
    const before = process.memoryUsage().rss
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'big.yml' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBe(
      `checks-file big.yml: ${big} is 52428800 bytes, more than the 10485760 bytes (10 MiB) a checks file may have; split it`
    )
    expect(emulator.count()).toBe(0)
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024)
  })

  it('a checks file that is not a regular file is refused', async () => {
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': '/dev/zero' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBe('checks-file /dev/zero: /dev/zero is not a regular file')
    expect(emulator.count()).toBe(0)
  })

  it('a file of exactly 10 MiB is read', async () => {
    const entry = '- name: a\n  url: https://a.example.com/\n'
    const pad = 10 * 1024 * 1024 - entry.length
    writeFileSync(join(dir, 'edge.yml'), entry + '#'.repeat(pad - 1) + '\n')
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'edge.yml', 'dry-run': 'true' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBeUndefined()
    expect(core.outputs.count).toBe('1')
  })
})
