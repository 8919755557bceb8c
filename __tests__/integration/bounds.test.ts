/** Bounds: the sizes and counts the action never goes past. */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, startEmulator, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/'

describe('bounds', () => {
  it('a response body over 10 MiB is not read into memory', async () => {
    emulator.inject({ path: '/checks', status: 200, body: 'x'.repeat(11 * 1024 * 1024) })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBe('GET /checks answered with a body larger than 10485760 bytes; not read')
  })

  it('more than 100 pages is an error, not an endless read', async () => {
    const paged = await startEmulator({ pageSize: 1 })
    try {
      for (let i = 0; i < 101; i++) paged.seedCheck({ name: `c${i}`, url: site })
      const { core } = await runAction(paged, { operation: 'list-checks' })
      expect(core.failed).toContain('has more than 100 pages; stopped')
      expect(paged.count('GET')).toBe(100)
    } finally {
      await paged.stop()
    }
  })

  it('a result too large for an output is replaced by a note; the step still succeeds', async () => {
    emulator.seedCheck({ name: 'big', url: site, notes: 'n'.repeat(600 * 1024) })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    const result = JSON.parse(core.outputs.result)
    expect(result).toMatchObject({ truncated: true })
    expect(result.note).toContain('(1 items)')
    expect(core.outputs.count).toBe('1')
  })

  it('a summary of many checks is cut to 500 rows with a note', async () => {
    for (let i = 0; i < 520; i++) emulator.seedCheck({ name: `c${i}`, url: site })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.summaryText).toContain('_20 more rows not shown._')
    expect(core.outputs.count).toBe('520')
  })

  it('a summary that cannot be written is a warning naming its variable, not a failure', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'summary-')), 'summary')
    writeFileSync(file, '')
    const { core } = await runAction(
      emulator,
      { operation: 'list-checks' },
      {
        env: { GITHUB_STEP_SUMMARY: file },
        prepare: c => {
          c.summary = {
            addRaw: () => ({
              write: async () => {
                throw new Error('disk full')
              }
            })
          }
        }
      }
    )
    expect(core.failed).toBeUndefined()
    expect(core.logs).toContain(
      `warning: GITHUB_STEP_SUMMARY names "${file}", which the step cannot write (disk full): the job summary could not be written. The runner creates this file for each step; an env: that sets GITHUB_STEP_SUMMARY, or a step that removed the file or its folder, breaks it. The step goes on.`
    )
    expect(core.outputs.count).toBe('0')
  })
})
