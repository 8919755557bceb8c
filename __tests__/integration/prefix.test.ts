/**
 * A fleet by name prefix: name-prefix selects the targets of pause-check,
 * resume-check, wait-for-check and delete-check, from one list read at the
 * start, before any write.
 */
import { describe, expect, it } from '@jest/globals'
import { EventEmitter } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resultOf, runAction, until, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 2 })
const site = 'https://shop.example.com/health'
const writes = () => emulator.count('PUT') + emulator.count('DELETE') + emulator.count('POST')
/** Text as the summary shows it (Markdown-escaped). */
const md = (text: string) => text.replace(/_/g, '\\_').replace(/"/g, '&quot;')
const ids = (value: unknown) => (value as Array<{ id: string }>).map(c => c.id)

describe('pause-check by name-prefix', () => {
  it('a row a shifting page hides from one read is still a target: the list is read until two reads agree', async () => {
    const a = emulator.seedCheck({ name: 'shop-home', url: site, status: 'up' })
    const b = emulator.seedCheck({ name: 'shop-cart', url: site, status: 'up' })
    const c = emulator.seedCheck({ name: 'shop-api', url: site, status: 'up' })
    emulator.seedCheck({ name: 'shop-web', url: site, status: 'up' })
    // The first read's second page starts a row late (a row deleted before it, as others write): shop-api is
    // never shown to it. Later reads are whole.
    emulator.inject({ method: 'GET', path: '/checks', shift: 'skip', times: 2 })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.get(c.id)?.status).toBe('paused')
    expect([a, b].map(x => emulator.checks.get(x.id)?.status)).toEqual(['paused', 'paused'])
    expect(emulator.count('PUT')).toBe(4)
  })

  it('pauses the 3 matching checks, and the post step resumes exactly those (not one paused before)', async () => {
    const a = emulator.seedCheck({ name: 'shop-home', url: site, status: 'up' })
    const b = emulator.seedCheck({ name: 'shop-cart', url: site, status: 'down' })
    const before = emulator.seedCheck({ name: 'shop-old', url: site, status: 'paused' })
    const c = emulator.seedCheck({ name: 'shop-api', url: site, status: 'up' })
    const other = emulator.seedCheck({ name: 'blog-home', url: site, status: 'up' })
    const inputs = { operation: 'pause-check', 'name-prefix': 'shop-', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(main.core.failed).toBeUndefined()
    // two list reads that agree (3 pages of 2 each), then each of the 4 targets read right before its write
    expect(emulator.count('GET', '/checks')).toBe(10)
    expect(emulator.count('GET', '/checks/')).toBe(4)
    expect(emulator.count('PUT')).toBe(3)
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual([a.id, b.id, c.id])
    expect([a, b, c, before].map(x => emulator.checks.get(x.id)?.status)).toEqual([
      'paused',
      'paused',
      'paused',
      'paused'
    ])
    expect(emulator.checks.get(other.id)?.status).toBe('up')
    expect(ids(resultOf(main.core))).toEqual([a.id, b.id, before.id, c.id])
    for (const name of ['shop-home', 'shop-cart', 'shop-old', 'shop-api']) expect(main.core.summaryText).toContain(name)
    expect(main.core.summaryText).toContain(md('name-prefix "shop-" selects 4 check(s)'))

    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([a, b, c].map(x => emulator.checks.get(x.id)?.status)).toEqual(['up', 'up', 'up'])
    expect(emulator.checks.get(before.id)?.status).toBe('paused')
    expect(emulator.checks.get(other.id)?.status).toBe('up')
  })

  it('a pause failing half-way: every target is recorded before its PUT, and the post step resumes exactly those paused', async () => {
    const [a, b, c] = ['shop-1', 'shop-2', 'shop-3'].map(name => emulator.seedCheck({ name, url: site, status: 'up' }))
    emulator.inject({ method: 'PUT', path: `/checks/${b.id}`, status: 400, body: { error: 'locked' } })
    const inputs = { operation: 'pause-check', 'name-prefix': 'shop-', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(main.core.failed).toContain(`already set to paused: ${a.id}`)
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual([a.id, b.id])
    expect(emulator.count('PUT', `/checks/${c.id}`)).toBe(0)
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([a, b, c].map(x => emulator.checks.get(x.id)?.status)).toEqual(['up', 'up', 'up'])
    expect(emulator.count('PUT', `/checks/${b.id}`)).toBe(1) // b was not paused: left alone
  })

  it('with check-name too, the targets are the union, each once', async () => {
    const a = emulator.seedCheck({ name: 'shop-home', url: site, status: 'up' })
    const b = emulator.seedCheck({ name: 'shop-cart', url: site, status: 'up' })
    const billing = emulator.seedCheck({ name: 'billing', url: site, status: 'up' })
    emulator.seedCheck({ name: 'blog', url: site, status: 'up' })
    const { core } = await runAction(emulator, {
      operation: 'pause-check',
      'name-prefix': 'shop-',
      'check-name': 'billing, shop-cart',
      'check-id': a.id
    })
    expect(core.failed).toBeUndefined()
    expect(ids(resultOf(core))).toEqual([a.id, billing.id, b.id])
    expect(emulator.count('PUT')).toBe(3)
    // GET /checks/{id} of check-id once, the list twice (2 pages each), then each later target read again
    // right before its write (check-id's own first write needs none: nothing was written since its GET)
    expect(emulator.count('GET', '/checks')).toBe(7)
    expect(emulator.count('GET', `/checks/${a.id}`)).toBe(1)
  })

  it('resume-check by prefix resumes the paused ones only', async () => {
    const a = emulator.seedCheck({ name: 'shop-home', url: site, status: 'paused' })
    const b = emulator.seedCheck({ name: 'shop-cart', url: site, status: 'up' })
    const { core } = await runAction(emulator, { operation: 'resume-check', 'name-prefix': 'shop-' })
    expect(core.failed).toBeUndefined()
    expect(emulator.count('PUT')).toBe(1)
    expect(emulator.checks.get(a.id)?.status).toBe('up')
    expect(ids(resultOf(core))).toEqual([a.id, b.id])
  })

  it('a list whose pages shift in every read (a row repeated) proves no fleet: an error, nothing paused', async () => {
    for (const name of ['shop-1', 'shop-2', 'shop-3', 'shop-4', 'shop-5'])
      emulator.seedCheck({ name, url: site, status: 'up' })
    emulator.inject({ method: 'GET', path: '/checks', shift: 'repeat', times: -1 })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(core.failed).toMatch(/the list could not be read whole in 4 reads \(the read showed 1 check\(s\) twice/)
    expect(emulator.count('PUT')).toBe(0)
  })

  it('a list whose pages shift in one read only (a row repeated): the fleet comes from the two whole reads after it, each check once', async () => {
    const seeded = ['shop-1', 'shop-2', 'shop-3', 'shop-4', 'shop-5'].map(name =>
      emulator.seedCheck({ name, url: site, status: 'up' })
    )
    emulator.inject({ method: 'GET', path: '/checks', shift: 'repeat', times: 3 })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(core.failed).toBeUndefined()
    expect(ids(resultOf(core))).toEqual(seeded.map(c => c.id))
    expect(emulator.count('PUT')).toBe(5)
  })

  it('hostile names among the targets stay text in the summary and the log', async () => {
    const names = ['shop-\n::error::owned', 'shop-<img src=x onerror=alert(1)>', 'shop-a|b', 'shop-\rlone']
    for (const name of names) emulator.seedCheck({ name, url: site, status: 'up' })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(core.failed).toBeUndefined()
    expect(emulator.count('PUT')).toBe(4)
    expect(core.summaryText).not.toContain('<img')
    expect(core.summaryText).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(core.summaryText).toContain('shop-a\\|b')
    expect(core.summaryText).not.toMatch(/^::error::/m)
    for (const line of core.logs) expect(line.replace(/^\w+: /, '')).not.toMatch(/^\s*::/)
    expect(core.logs.join('\n')).not.toMatch(/\n::error::/)
    expect((resultOf(core) as Array<{ name: string }>).map(c => c.name)).toEqual(names)
  })
})

describe('nothing matching', () => {
  it.each(['pause-check', 'resume-check', 'delete-check', 'wait-for-check'])(
    '%s: an error naming the prefix and the nearest names, and no write',
    async operation => {
      emulator.seedCheck({ name: 'shop-home', url: site, status: 'up' })
      emulator.seedCheck({ name: 'shop-cart', url: site, status: 'paused' })
      emulator.seedCheck({ name: 'zeta', url: site, status: 'up' })
      const { core } = await runAction(emulator, { operation, 'name-prefix': 'shpo-', timeout: '1s' })
      expect(core.failed).toContain(
        'no check name starts with name-prefix "shpo-" (looked through 3 checks; the nearest names: "shop-cart", "shop-home", "zeta")'
      )
      expect(writes()).toBe(0)
      // Only the list's two pages were read.
      expect(emulator.requests.map(r => `${r.method} ${r.path}`)).toEqual([
        'GET /checks',
        'GET /checks?page=2',
        'GET /checks',
        'GET /checks?page=2'
      ])
    }
  )

  it('a prefix given with check-name still has to match', async () => {
    const home = emulator.seedCheck({ name: 'shop-home', url: site, status: 'up' })
    const { core } = await runAction(emulator, {
      operation: 'pause-check',
      'check-name': 'shop-home',
      'name-prefix': 'pr-1-'
    })
    expect(core.failed).toContain('no check name starts with name-prefix "pr-1-"')
    expect(writes()).toBe(0)
    expect(emulator.checks.get(home.id)?.status).toBe('up')
  })
})

describe('delete-check by name-prefix', () => {
  const seedPreview = (pr: number, n: number) =>
    Array.from({ length: n }, (_, i) => emulator.seedCheck({ name: `pr-${pr}-svc${i}`, url: site }))

  it('deletes every check of the prefix, and nothing else (pr-1- is not pr-12-)', async () => {
    const mine = seedPreview(1, 3)
    const theirs = seedPreview(12, 2)
    const { core } = await runAction(emulator, { operation: 'delete-check', 'name-prefix': 'pr-1-' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ changed: 'true', deleted: '3', 'check-id': mine[0].id })
    expect(ids(resultOf(core))).toEqual(mine.map(c => c.id))
    expect(emulator.count('DELETE')).toBe(3)
    expect([...emulator.checks.keys()].sort()).toEqual(theirs.map(c => c.id).sort())
    expect(core.summaryText).toContain('Checks deleted: 3')
  })

  it('above max-deletions it is refused whole: nothing deleted, every target listed', async () => {
    const seeded = seedPreview(7, 11)
    const { core } = await runAction(emulator, { operation: 'delete-check', 'name-prefix': 'pr-7-' })
    expect(core.failed).toContain(
      'delete-check refused: 11 checks are targeted (' // the default max-deletions is 10
    )
    expect(core.failed).toContain('more than max-deletions (10). Nothing was deleted.')
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.size).toBe(11)
    expect(core.outputs.changed).toBe('false')
    for (const check of seeded) expect(core.summaryText).toContain(md(check.id))

    const raised = await runAction(emulator, {
      operation: 'delete-check',
      'name-prefix': 'pr-7-',
      'max-deletions': '11'
    })
    expect(raised.core.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(0)
  })

  it('max-deletions counts the union with check-id', async () => {
    const [one] = seedPreview(3, 1)
    const extra = emulator.seedCheck({ name: 'stray', url: site })
    const { core } = await runAction(emulator, {
      operation: 'delete-check',
      'name-prefix': 'pr-3-',
      'check-id': extra.id,
      'max-deletions': '1'
    })
    expect(core.failed).toContain('delete-check refused: 2 checks are targeted')
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.has(one.id)).toBe(true)
  })

  it('a dry run lists what it would delete and sends nothing', async () => {
    const seeded = seedPreview(5, 3)
    const { core } = await runAction(emulator, { operation: 'delete-check', 'name-prefix': 'pr-5-', 'dry-run': 'true' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ changed: 'true', deleted: '3' })
    expect(ids(resultOf(core))).toEqual(seeded.map(c => c.id))
    for (const check of seeded) {
      expect(core.logs).toContain(`info: [dry-run] would send DELETE /checks/${check.id}`)
      expect(core.summaryText).toContain(md(check.id))
    }
    expect(core.summaryText).toContain('Checks would be deleted (dry run): 3')
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.size).toBe(3)
  })

  it('a check already gone (404) among several is no error; check-name missing is already gone too', async () => {
    const seeded = seedPreview(9, 3)
    emulator.inject({ method: 'DELETE', path: `/checks/${seeded[1].id}`, status: 404, body: { error: 'not found' } })
    const { core } = await runAction(emulator, {
      operation: 'delete-check',
      'name-prefix': 'pr-9-',
      'check-name': 'never-was'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ changed: 'true', deleted: '2' })
    expect(core.summaryText).toContain(md(`Already gone (deleted meanwhile): ${seeded[1].id} ("pr-9-svc1")`))
    expect(core.summaryText).toContain(md('No check named "never-was": nothing to delete for check-name.'))
    expect(emulator.checks.size).toBe(1) // the 404 was the fault's: that check stays
  })

  it('a failure half-way stops, naming what was deleted and what was not', async () => {
    const seeded = seedPreview(4, 3)
    emulator.inject({ method: 'DELETE', path: `/checks/${seeded[1].id}`, status: 500, times: -1 })
    const { core } = await runAction(emulator, {
      operation: 'delete-check',
      'name-prefix': 'pr-4-',
      'max-retries': '0'
    })
    expect(core.failed).toContain(
      `(deleted: ${seeded[0].id} ("pr-4-svc0"); not deleted: ${seeded[1].id} ("pr-4-svc1"), ${seeded[2].id} ("pr-4-svc2"))`
    )
    expect(core.outputs).toMatchObject({ changed: 'true', deleted: '1' })
    expect(emulator.checks.has(seeded[2].id)).toBe(true)
  })

  it('SIGINT between the deletes: the one under way finishes, no new one starts, the error names both sides', async () => {
    const seeded = seedPreview(6, 3)
    emulator.inject({ method: 'DELETE', path: `/checks/${seeded[1].id}`, delayMs: 300 })
    const signals = new EventEmitter()
    const running = runAction(
      emulator,
      { operation: 'delete-check', 'name-prefix': 'pr-6-' },
      { signals, timeScale: 1 }
    )
    await until(() => emulator.count('DELETE', `/checks/${seeded[1].id}`) === 1)
    signals.emit('SIGINT')
    const { core } = await running
    expect(core.failed).toContain('delete-check was cancelled (deleted: ')
    expect(core.failed).toContain(`${seeded[2].id} ("pr-6-svc2")`)
    expect(emulator.count('DELETE', `/checks/${seeded[2].id}`)).toBe(0)
    expect(emulator.checks.has(seeded[2].id)).toBe(true)
    expect(core.outputs.changed).toBe('true')
  })

  it('two deletes of one prefix at once both succeed; every check is deleted once', async () => {
    seedPreview(8, 4)
    emulator.latency.DELETE = 30 // configuration: it outlives reset(), so it is removed below
    const [one, two] = await Promise.all(
      [0, 1].map(() => runAction(emulator, { operation: 'delete-check', 'name-prefix': 'pr-8-' }, { timeScale: 1 }))
    ).finally(() => delete emulator.latency.DELETE)
    expect(one.core.failed).toBeUndefined()
    expect(two.core.failed).toBeUndefined()
    expect(Number(one.core.outputs.deleted) + Number(two.core.outputs.deleted)).toBe(4)
    expect(emulator.checks.size).toBe(0)
  })

  it('without name-prefix, delete-check stays one target: a missing name is success with changed=false', async () => {
    const { core } = await runAction(emulator, { operation: 'delete-check', 'check-name': 'pr-1-a, pr-1-b' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.changed).toBe('false')
    expect(core.logs).toContain('info: No check named "pr-1-a, pr-1-b": nothing to delete.')
  })
})

describe('wait-for-check by name-prefix', () => {
  it('gates every matching check; result and JUnit name each one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prefix-gate-'))
    const now = new Date().toISOString()
    const seeded = ['shop-home', 'shop-<cart>', 'shop-api'].map(name =>
      emulator.seedCheck({ name, url: site, status: 'up', responseTime: 80, lastCheckedAt: now })
    )
    emulator.seedCheck({ name: 'blog', url: site, status: 'down', lastCheckedAt: now })
    const { core } = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'name-prefix': 'shop-',
        'require-fresh': 'false',
        timeout: '2s',
        'poll-interval': '100ms',
        'junit-file': 'gate.xml'
      },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    expect(ids(resultOf(core))).toEqual(seeded.map(c => c.id))
    const xml = readFileSync(join(dir, 'gate.xml'), 'utf8')
    expect(xml).toContain('tests="3"')
    for (const name of ['shop-home', 'shop-&lt;cart&gt;', 'shop-api']) expect(xml).toContain(name)
    expect(xml).not.toContain('blog')
  })
})
