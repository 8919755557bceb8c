/**
 * sync-checks over identical checks of one name (as racing runs of an older
 * version left them, or a person cloned them): each is planned and changed
 * alike, an entry per id, as upsert-check, update-check, pause-check and
 * resume-check change them; so after an apply the next plan is empty. Checks
 * of one name that differ are still an error that names them.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'sync-duplicates-'))
const site = 'https://shop.example.com/health'

writeFileSync(join(dir, 'shop.yml'), `- name: shop\n  url: ${site}\n  interval: 30\n`)
const sync = (inputs: Record<string, string> = {}) =>
  runAction(
    emulator,
    { operation: 'sync-checks', 'checks-file': 'shop.yml', ...inputs },
    { env: { GITHUB_WORKSPACE: dir } }
  ).then(r => r.core)

/** `count` identical checks named shop (interval 60), the oldest first. */
const seedIdentical = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    emulator.seedCheck({ name: 'shop', url: site, interval: 60, createdAt: `2026-01-0${i + 1}T00:00:00Z` })
  )

/** An id as the Markdown summary writes it (underscores escaped). */
const md = (id: string) => id.replace(/_/g, '\\_')

type Entry = { action: string; name: string; id: string | null; fields: string[]; outcome?: string }

describe('sync-checks changes identical duplicates alike', () => {
  for (const count of [2, 3]) {
    it(`${count} identical checks: each is updated, an entry per id; the next plan is empty`, async () => {
      const twins = seedIdentical(count)
      const ids = twins.map(c => c.id)
      const first = await sync()
      expect(first.failed).toBeUndefined()
      expect(first.outputs).toMatchObject({ updated: String(count), unchanged: '0', changed: 'true', count: '1' })
      expect([...emulator.checks.values()].map(c => c.interval)).toEqual(Array(count).fill(30))
      expect(emulator.requests.filter(r => r.method === 'PUT').map(r => r.path)).toEqual(ids.map(id => `/checks/${id}`))
      const plan = resultOf(first) as Entry[]
      expect(plan.map(e => [e.action, e.id, e.fields, e.outcome])).toEqual(
        ids.map(id => ['update', id, ['interval'], 'applied'])
      )
      for (const id of ids)
        expect(first.summaryText).toContain(`| update | shop | ${md(id)} | interval: 60 → 30 | applied |`)
      const warning = first.logs.filter(l => l.startsWith(`warning: ${count} identical checks are named "shop"`))
      expect(warning).toEqual([
        `warning: ${count} identical checks are named "shop" (${ids.join(', ')}): the plan changes each alike, an entry for each, so they stay identical. To keep one, delete the others with delete-check and check-id (check-id: ${ids[1]}); the action never deletes a check that may have existed before the step.`
      ])
      expect(first.logs.join('\n')).not.toContain('are left as they are')

      const puts = emulator.count('PUT')
      const second = await sync()
      expect(second.failed).toBeUndefined()
      expect(second.outputs).toMatchObject({
        updated: '0',
        unchanged: String(count),
        changed: 'false',
        drift: 'false'
      })
      expect((resultOf(second) as Entry[]).map(e => [e.action, e.id])).toEqual(ids.map(id => ['unchanged', id]))
      expect(emulator.count('PUT')).toBe(puts)
      expect(emulator.count('DELETE')).toBe(0)
      expect(second.logs.filter(l => l.startsWith('warning: '))).toEqual([
        `warning: ${count} identical checks are named "shop" (${ids.join(', ')}): nothing differs in any of them, an entry for each, so they stay identical. To keep one, delete the others with delete-check and check-id (check-id: ${ids[1]}); the action never deletes a check that may have existed before the step.`
      ])
    })
  }

  it('a dry run shows every id: in the plan, each request it would send, the summary and the drift failure', async () => {
    const ids = seedIdentical(3).map(c => c.id)
    const core = await sync({ 'dry-run': 'true', 'fail-on-drift': 'true' })
    expect(emulator.count('PUT')).toBe(0)
    for (const id of ids) {
      expect(core.logs).toContain(`info: update    shop (${id}): interval: 60 → 30`)
      expect(core.logs.filter(l => l.includes(`[dry-run] would send PUT /checks/${id}`))).toHaveLength(1)
      expect(core.summaryText).toContain(`| update | shop | ${md(id)} | interval: 60 → 30 |`)
      expect(core.failed).toContain(`update "shop" (${id}): interval: 60 → 30`)
    }
    expect(core.outputs).toMatchObject({ updated: '3', changed: 'true', drift: 'true' })
    expect(core.failed).toContain('drift: 3 check(s) differ')
  })

  it('the plan file holds an entry per id, and applying it as the approved plan changes each', async () => {
    const ids = seedIdentical(2).map(c => c.id)
    const planned = await sync({ 'dry-run': 'true', 'plan-file': 'plan.json' })
    expect(planned.failed).toBeUndefined()
    const doc = JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { checks: Entry[] }
    expect(doc.checks.map(e => [e.action, e.name, e.id])).toEqual(ids.map(id => ['update', 'shop', id]))
    const applied = await sync({ 'approved-plan': 'plan.json' })
    expect(applied.failed).toBeUndefined()
    expect(applied.outputs).toMatchObject({ updated: '2', changed: 'true' })
    expect([...emulator.checks.values()].map(c => c.interval)).toEqual([30, 30])
  })

  it('checks of one name that differ are still refused, naming them and what differs; nothing is sent', async () => {
    const a = emulator.seedCheck({ name: 'shop', url: site, interval: 60 })
    const b = emulator.seedCheck({ name: 'shop', url: site, interval: 120 })
    const core = await sync()
    expect(core.failed).toContain(
      `2 checks on the service are named "shop" (${a.id}, ${b.id}) and they differ (interval), so the action will not choose between them`
    )
    expect(emulator.count('PUT') + emulator.count('POST') + emulator.count('DELETE')).toBe(0)
  })
})
