/**
 * A fleet by pattern: name-pattern and exclude choose the targets of
 * list-checks, export-checks, pause-check, resume-check, wait-for-check and
 * delete-check, over HTTP against the emulator: `*` across `/`, the union with
 * check-id, check-name and name-prefix, what nothing matching and an exclude
 * that leaves nothing say, delete over max-deletions refused with nothing
 * written, a list that moves while it is read, and hostile names.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 2, createdAt: false })
const site = 'https://shop.example.com/health'
const writes = () => emulator.count('PUT') + emulator.count('DELETE') + emulator.count('POST')
/** Text as the summary shows it (Markdown-escaped). */
const md = (text: string) => text.replace(/_/g, '\\_').replace(/"/g, '&quot;').replace(/\*/g, '\\*')
const ids = (value: unknown) => (value as Array<{ id: string }>).map(c => c.id)
const status = (id: string) => emulator.checks.get(id)?.status
const seed = (...names: string[]) => names.map(name => emulator.seedCheck({ name, url: site, status: 'up' }))

describe('pause-check by pattern', () => {
  it('every web check but the US one: `*` across `/`, exclude leaves one out, the summary and result name both sides', async () => {
    const [euWeb, usWeb, euApi, apWeb] = seed('shop/eu/web', 'shop/us/web', 'shop/eu/api', 'shop/ap/web')
    const { core } = await runAction(emulator, {
      operation: 'pause-check',
      'name-pattern': 'shop*web',
      exclude: '*/us/*'
    })
    expect(core.failed).toBeUndefined()
    expect([euWeb, apWeb].map(c => status(c.id))).toEqual(['paused', 'paused'])
    expect([usWeb, euApi].map(c => status(c.id))).toEqual(['up', 'up'])
    expect(emulator.count('PUT')).toBe(2)
    const result = resultOf(core) as { targets: Array<{ id: string }>; excluded: Array<{ id: string; name: string }> }
    expect(ids(result.targets)).toEqual([euWeb.id, apWeb.id])
    expect(result.excluded).toEqual([{ id: usWeb.id, name: 'shop/us/web' }])
    expect(core.summaryText).toContain(md('name-pattern "shop*web" selects 2 check(s)'))
    expect(core.summaryText).toContain(
      md(`exclude "*/us/*" left out 1 check(s), never targets: "shop/us/web" (${usWeb.id})`)
    )
  })

  it('the union with check-id, check-name and name-prefix, each check once; exclude applies to every one of them', async () => {
    const [a, b, c, d, e] = seed('api-1', 'web-1', 'blog', 'shop-a', 'shop-legacy')
    const { core } = await runAction(emulator, {
      operation: 'pause-check',
      'check-id': `${a.id},${e.id}`,
      'check-name': 'blog',
      'name-prefix': 'shop-',
      'name-pattern': 'web-?\napi-[0-9]',
      exclude: '*legacy'
    })
    expect(core.failed).toBeUndefined()
    expect([a, b, c, d].map(x => status(x.id))).toEqual(['paused', 'paused', 'paused', 'paused'])
    // Named by check-id, but excluded: never a target.
    expect(status(e.id)).toBe('up')
    expect(emulator.count('PUT')).toBe(4)
    const result = resultOf(core) as { targets: unknown; excluded: Array<{ id: string }> }
    expect(ids(result.targets).sort()).toEqual([a.id, b.id, c.id, d.id].sort())
    expect(ids(result.excluded)).toEqual([e.id])
  })

  it('resume-check by pattern resumes the paused ones it selects, case counting', async () => {
    const [a, b] = seed('Shop-A', 'shop-b')
    emulator.checks.get(a.id)!.status = 'paused'
    emulator.checks.get(b.id)!.status = 'paused'
    const { core } = await runAction(emulator, { operation: 'resume-check', 'name-pattern': 'Shop-?' })
    expect(core.failed).toBeUndefined()
    expect([status(a.id), status(b.id)]).toEqual(['up', 'paused'])
    expect(ids(resultOf(core))).toEqual([a.id])
  })
})

describe('nothing selected is an error, before any write', () => {
  it('a pattern that matches no check names itself and the nearest names', async () => {
    seed('shop-eu-web', 'shop-us-web', 'blog')
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-pattern': 'shpo-*-web\nblog' })
    expect(core.failed).toBe(
      'no check name matches name-pattern "shpo-*-web" (looked through 3 checks; the nearest names: "shop-eu-web", "shop-us-web", "blog"); nothing was changed'
    )
    expect(writes()).toBe(0)
  })

  it('an exclude that leaves out every selected check is an error naming what it left out, not an empty success', async () => {
    const [a, b] = seed('shop-eu', 'shop-us')
    for (const operation of ['pause-check', 'list-checks', 'delete-check', 'wait-for-check']) {
      const { core } = await runAction(emulator, { operation, 'name-pattern': 'shop-*', exclude: 'shop-??' })
      expect([operation, core.failed]).toEqual([
        operation,
        `exclude "shop-??" leaves out every check name-pattern "shop-*" selects (2: "shop-eu" (${a.id}), "shop-us" (${b.id})), so no check is left to act on; nothing was changed. Narrow exclude, or drop it`
      ])
    }
    expect(writes()).toBe(0)
    expect([status(a.id), status(b.id)]).toEqual(['up', 'up'])
  })

  it('a malformed pattern and an exclude without a selection are input errors, before any request', async () => {
    seed('shop-a')
    const bad = await runAction(emulator, { operation: 'delete-check', 'name-pattern': 'shop-[a' })
    expect(bad.core.failed).toMatch(
      /^name-pattern holds "shop-\[a", which has a \[ \(character 6\) that is never closed/
    )
    const alone = await runAction(emulator, { operation: 'delete-check', 'check-name': 'shop-a', exclude: 'x' })
    expect(alone.core.failed).toMatch(/^exclude only applies with name-prefix or name-pattern/)
    expect(emulator.count('GET') + writes()).toBe(0)
  })
})

describe('delete-check by pattern', () => {
  it('above max-deletions it is refused whole: nothing deleted, every target named', async () => {
    const seeded = seed(...Array.from({ length: 4 }, (_, i) => `pr-9/web-${i}`))
    const kept = seed('pr-9/db')[0]
    const { core } = await runAction(emulator, {
      operation: 'delete-check',
      'name-pattern': 'pr-9/*',
      exclude: '*/db',
      'max-deletions': '3'
    })
    expect(core.failed).toContain('delete-check refused: 4 checks are targeted (')
    expect(core.failed).toContain('more than max-deletions (3). Nothing was deleted.')
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.size).toBe(5)
    for (const check of seeded) expect(core.summaryText).toContain(md(check.id))

    const raised = await runAction(emulator, {
      operation: 'delete-check',
      'name-pattern': 'pr-9/*',
      exclude: '*/db',
      'max-deletions': '4'
    })
    expect(raised.core.failed).toBeUndefined()
    expect([...emulator.checks.keys()]).toEqual([kept.id])
    expect(raised.core.outputs.deleted).toBe('4')
    const result = resultOf(raised.core) as { targets: unknown; excluded: Array<{ id: string }> }
    expect(ids(result.targets)).toEqual(seeded.map(c => c.id))
    expect(ids(result.excluded)).toEqual([kept.id])
  })

  it('a list that moves in every read: nothing is deleted, the error names the selection and the doubt', async () => {
    seed('pr-3/a', 'pr-3/b', 'pr-3/c')
    emulator.inject({ method: 'GET', path: '/checks', shift: 'reorder', moved: 'pr-3/c', times: Infinity })
    const { core } = await runAction(emulator, { operation: 'delete-check', 'name-pattern': 'pr-3/*' })
    expect(core.failed).toMatch(
      /^name-pattern "pr-3\/\*": the list could not be read whole in 4 reads .*nothing was acted on/
    )
    expect(writes()).toBe(0)
    expect(emulator.checks.size).toBe(3)
  })

  it('a list that settles after a moved read: the fleet comes from two whole reads, every member deleted', async () => {
    seed('pr-4/a', 'pr-4/b', 'pr-4/c', 'other')
    emulator.inject({ method: 'GET', path: '/checks', shift: 'reorder', moved: 'pr-4/c', times: 2 })
    const { core } = await runAction(emulator, { operation: 'delete-check', 'name-pattern': 'pr-4/*' })
    expect(core.failed).toBeUndefined()
    expect([...emulator.checks.values()].map(c => c.name)).toEqual(['other'])
  })
})

describe('list-checks, export-checks and wait-for-check by pattern', () => {
  it('list-checks: the checks selected, count and result; exclude names what it left out', async () => {
    const [a, b, c] = seed('eu-web', 'us-web', 'eu-api')
    const { core } = await runAction(emulator, {
      operation: 'list-checks',
      'name-pattern': '*-web',
      exclude: 'us-*'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.count).toBe('1')
    expect(resultOf(core)).toMatchObject({ targets: [{ id: a.id }], excluded: [{ id: b.id, name: 'us-web' }] })
    expect(core.summaryText).not.toContain(c.id)
  })

  it('export-checks: the file holds the selected checks and warns against prune', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pattern-export-'))
    seed('eu-web', 'us-web', 'eu-api')
    const { core } = await runAction(
      emulator,
      { operation: 'export-checks', 'checks-file': 'checks.yml', 'name-pattern': '*-web', exclude: 'us-*' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBeUndefined()
    const text = readFileSync(join(dir, 'checks.yml'), 'utf8')
    expect(text).toContain('"eu-web"')
    expect(text).not.toContain('us-web')
    expect(text).toContain('never with prune')
    expect(resultOf(core)).toMatchObject({ count: 1, excluded: [{ name: 'us-web' }] })
    expect(core.summaryText).toContain('Never sync it with prune')
  })

  it('wait-for-check: gates the selected checks; the summary names what exclude left out', async () => {
    const now = new Date().toISOString()
    const [a, b] = ['eu-web', 'us-web'].map(name =>
      emulator.seedCheck({ name, url: site, status: 'up', responseTime: 80, lastCheckedAt: now })
    )
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'name-pattern': '*-web',
      exclude: 'us-*',
      'require-fresh': 'false',
      timeout: '2s',
      'poll-interval': '100ms'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.outcome).toBe('passed')
    const result = resultOf(core) as { targets: unknown; excluded: Array<{ id: string }> }
    expect(ids(result.targets)).toEqual([a.id])
    expect(ids(result.excluded)).toEqual([b.id])
    expect(core.summaryText).toContain(md(`exclude "us-*" left out 1 check(s), never targets: "us-web" (${b.id})`))
  })
})

describe('hostile names', () => {
  it('stay text in the summary, the log and the errors', async () => {
    const names = ['x-\n::error::owned', 'x-<img src=x onerror=alert(1)>', 'x-a|b']
    seed(...names)
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-pattern': 'x-*', exclude: '*|*' })
    expect(core.failed).toBeUndefined()
    expect(emulator.count('PUT')).toBe(2)
    expect(core.summaryText).not.toContain('<img')
    expect(core.summaryText).toContain('x-a\\|b')
    expect(core.summaryText).not.toMatch(/^::error::/m)
    expect(core.logs.join('\n')).not.toMatch(/\n::error::/)
    // `*` takes a line break too: the name with one is matched as text.
    const broken = await runAction(emulator, { operation: 'list-checks', 'name-pattern': '*::error::*' })
    expect(broken.core.outputs.count).toBe('1')
    const missing = await runAction(emulator, { operation: 'pause-check', 'name-pattern': '<img*' })
    expect(missing.core.failed).toMatch(/^no check name matches name-pattern "<img\*"/)
    expect(missing.core.failed).toContain('"x-\\n::error::owned"')
    expect(missing.core.failed).not.toContain('\n')
  })
})
