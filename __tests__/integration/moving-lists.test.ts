/**
 * A service whose list moves while it is read (sorted by recent activity: a
 * row moves to the head after the first page, so the next page repeats a row
 * and the moved row is never shown). Such a read proves nothing: no create
 * removes an existing check on it, no fleet is chosen from it, and a fleet's
 * pause rests on each check as it is right before its write.
 */
import { describe, expect, it } from '@jest/globals'
import { resultOf, runAction, until, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ pageSize: 2, createdAt: false })
const site = 'https://shop.example.com/health'
const writes = () => emulator.count('PUT') + emulator.count('DELETE') + emulator.count('POST')
const named = (name: string) => [...emulator.checks.values()].filter(c => c.name === name)

/** Every read of GET /checks (`times` pages) moves `moved` to the head after its first page. */
const reorder = (moved: string, times: number) =>
  emulator.inject({ method: 'GET', path: '/checks', shift: 'reorder', moved, times })

describe('upsert-check on a list that moves while it is read', () => {
  it('an existing check two reads both missed (each showed a row twice) is found by a later read: updated, nothing created or deleted', async () => {
    emulator.seedCheck({ name: 'blog', url: site })
    emulator.seedCheck({ name: 'docs', url: site })
    // An id that sorts after any the service makes: "the smaller id survives" would pick the new one.
    const shop = emulator.seedCheck({ id: 'chk_zzzzzzzzzzzz', name: 'shop', url: site, interval: 60 })
    reorder('shop', 4) // two whole reads (two pages each) show "docs" twice and miss "shop"
    const { core } = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': 'shop',
      'check-url': site,
      'check-interval': '30'
    })
    expect(core.failed).toBeUndefined()
    expect(emulator.count('POST')).toBe(0)
    expect(emulator.count('DELETE')).toBe(0)
    expect(named('shop').map(c => c.id)).toEqual([shop.id])
    expect(emulator.checks.get(shop.id)?.interval).toBe(30)
    expect(core.outputs['check-id']).toBe(shop.id)
  })

  it('a list that never reads whole: the create may go ahead, but the existing check is never deleted, and the step says why', async () => {
    emulator.seedCheck({ name: 'blog', url: site })
    emulator.seedCheck({ name: 'docs', url: site })
    const shop = emulator.seedCheck({ id: 'chk_zzzzzzzzzzzz', name: 'shop', url: site })
    reorder('shop', Infinity)
    const { core } = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.get(shop.id)).toBeDefined()
    expect(core.logs.join('\n')).toMatch(
      /warning: The 4 full reads of the checks proved nothing about what is there \(the read showed 1 check\(s\) twice \("chk_[0-9a-f]+"\)/
    )
  })
})

describe('a fleet by name prefix on a list that moves while it is read', () => {
  const seedFleet = () => {
    emulator.seedCheck({ name: 'shop-home', url: site, status: 'up' })
    emulator.seedCheck({ name: 'shop-cart', url: site, status: 'up' })
    return emulator.seedCheck({ name: 'shop-checkout', url: site, status: 'down' })
  }

  it('wait-for-check: a member hidden from every read never lets the gate pass; it fails with outcome error naming the doubt', async () => {
    seedFleet()
    reorder('shop-checkout', Infinity)
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'name-prefix': 'shop-',
      'require-fresh': 'false',
      timeout: '5s',
      'poll-interval': '1s'
    })
    expect(core.outputs.outcome).toBe('error')
    expect(core.outputs.passed).toBe('false')
    expect(core.failed).toMatch(
      /name-prefix "shop-": the list could not be read whole in 4 reads \(the read showed 1 check\(s\) twice/
    )
    expect(emulator.count('GET', '/checks/')).toBe(0)
  })

  it('pause-check and delete-check: nothing is paused or deleted from a list that may miss a member', async () => {
    seedFleet()
    reorder('shop-checkout', Infinity)
    const paused = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(paused.core.failed).toMatch(/name-prefix "shop-": the list could not be read whole.*nothing was acted on/)
    const deleted = await runAction(emulator, { operation: 'delete-check', 'name-prefix': 'shop-' })
    expect(deleted.core.failed).toMatch(/name-prefix "shop-": the list could not be read whole.*nothing was acted on/)
    expect(writes()).toBe(0)
  })

  it('a list that settles after a moved read: the fleet is chosen from two whole reads, every member included', async () => {
    const checkout = seedFleet()
    reorder('shop-checkout', 2) // the first read only
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.get(checkout.id)?.status).toBe('paused')
    expect((resultOf(core) as unknown[]).length).toBe(3)
  })
})

describe('delete-check by name on a list that moves while it is read', () => {
  it('a name no read showed is not reported gone unless the reads prove it: an error, nothing deleted', async () => {
    emulator.seedCheck({ name: 'blog', url: site })
    emulator.seedCheck({ name: 'docs', url: site })
    const preview = emulator.seedCheck({ name: 'pr-7', url: site })
    reorder('pr-7', Infinity)
    const { core } = await runAction(emulator, { operation: 'delete-check', 'check-name': 'pr-7' })
    expect(core.failed).toMatch(/no read showed a check named "pr-7", but the 4 reads proved nothing/)
    expect(core.outputs.changed).toBe('false')
    expect(emulator.checks.get(preview.id)).toBeDefined()
  })
})

describe('a prefix pause acts on each check as it is right before its write', () => {
  it('a member another job paused after the list was read is not taken as this step its own: its post step leaves it paused', async () => {
    const a = emulator.seedCheck({ name: 'shop-a', url: site, status: 'up' })
    const b = emulator.seedCheck({ name: 'shop-b', url: site, status: 'up' })
    // The first pause is slow to answer; meanwhile another job pauses shop-b.
    emulator.latency[`PUT /checks/${a.id}`] = 400
    const inputs = { operation: 'pause-check', 'name-prefix': 'shop-', 'auto-resume': 'true' }
    const running = runAction(emulator, inputs)
    await until(() => emulator.requests.some(r => r.method === 'PUT'))
    const other = emulator.checks.get(b.id)
    if (other) other.status = 'paused'
    const main = await running
    delete emulator.latency[`PUT /checks/${a.id}`]
    expect(main.core.failed).toBeUndefined()
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual([a.id])
    expect(emulator.count('PUT', `/checks/${b.id}`)).toBe(0)
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect(emulator.checks.get(a.id)?.status).toBe('up')
    expect(emulator.checks.get(b.id)?.status).toBe('paused')
  })
})

describe('resolve-incident on a list that moves while it is read', () => {
  it('an open incident no read showed is not reported "nothing to resolve" unless the reads prove it: an error, nothing changed', async () => {
    emulator.seedIncident({ title: 'a', message: 'm', status: 'investigating' })
    emulator.seedIncident({ title: 'b', message: 'm', status: 'investigating' })
    const open = emulator.seedIncident({ title: 'Deploy failed', message: 'm', status: 'investigating' })
    emulator.inject({ method: 'GET', path: '/incidents', shift: 'reorder', moved: open.id, times: Infinity })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': 'Deploy failed' })
    expect(core.failed).toMatch(
      /no read showed an unresolved incident titled "Deploy failed", but the 4 reads proved nothing/
    )
    expect(core.outputs.changed).toBe('false')
    expect(emulator.incidents.get(open.id)?.status).toBe('investigating')
  })

  it('a list that settles: the incident is found by a later read and resolved', async () => {
    emulator.seedIncident({ title: 'a', message: 'm', status: 'investigating' })
    emulator.seedIncident({ title: 'b', message: 'm', status: 'investigating' })
    const open = emulator.seedIncident({ title: 'Deploy failed', message: 'm', status: 'investigating' })
    emulator.inject({ method: 'GET', path: '/incidents', shift: 'reorder', moved: open.id, times: 2 })
    const { core } = await runAction(emulator, { operation: 'resolve-incident', 'incident-title': 'Deploy failed' })
    expect(core.failed).toBeUndefined()
    expect(emulator.incidents.get(open.id)?.status).toBe('resolved')
  })
})

describe('auto-resume resumes only what this step moved from running to paused', () => {
  it('a check someone set to another status (maintenance) is paused as asked, never recorded, and never set to up afterwards', async () => {
    const c = emulator.seedCheck({ name: 'shop-a', url: site, status: 'maintenance' })
    const inputs = { operation: 'pause-check', 'check-name': 'shop-a', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(main.core.failed).toBeUndefined()
    expect(main.core.state['paused-check-ids']).toBeUndefined()
    expect(main.core.logs.join('\n')).toContain('"maintenance", set by someone, not running: it is paused')
    await runAction(emulator, inputs, { state: main.core.state })
    expect(emulator.checks.get(c.id)?.status).toBe('paused')
  })

  it('an upper-case PAUSED is paused: before the step, nothing is sent or recorded and it stays paused', async () => {
    const c = emulator.seedCheck({ name: 'shop-a', url: site, status: 'PAUSED' })
    const inputs = { operation: 'pause-check', 'check-name': 'shop-a', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(main.core.failed).toBeUndefined()
    expect(main.core.outputs.changed).toBe('false')
    expect(main.core.state['paused-check-ids']).toBeUndefined()
    await runAction(emulator, inputs, { state: main.core.state })
    expect(emulator.count('PUT')).toBe(0)
    expect(emulator.checks.get(c.id)?.status).toBe('PAUSED')
  })

  it('a check this step paused that the service then shows as PAUSED is resumed by the post step', async () => {
    const c = emulator.seedCheck({ name: 'shop-a', url: site, status: 'up' })
    const inputs = { operation: 'pause-check', 'check-name': 'shop-a', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual([c.id])
    const paused = emulator.checks.get(c.id)
    if (paused) paused.status = 'PAUSED'
    await runAction(emulator, inputs, { state: main.core.state })
    expect(emulator.checks.get(c.id)?.status).toBe('up')
  })

  it('an upper-case running status (UP) is running: paused, recorded and resumed', async () => {
    const c = emulator.seedCheck({ name: 'shop-b', url: site, status: 'UP' })
    const inputs = { operation: 'pause-check', 'check-name': 'shop-b', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual([c.id])
    await runAction(emulator, inputs, { state: main.core.state })
    expect(emulator.checks.get(c.id)?.status).toBe('up')
  })
})

describe('the doubt of a shifted read names ids as data', () => {
  it('a hostile id a shifted page repeats stays one line, quoted, and no markup in the summary', async () => {
    const hostile = 'chk_x\n::error::owned<img src=x>|'
    emulator.seedCheck({ name: 'shop-a', url: site, status: 'up' })
    emulator.seedCheck({ id: hostile, name: 'shop-b', url: site, status: 'up' })
    emulator.seedCheck({ name: 'shop-c', url: site, status: 'up' })
    emulator.inject({ method: 'GET', path: '/checks', shift: 'repeat', times: -1 })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'name-prefix': 'shop-' })
    expect(core.failed).toContain(JSON.stringify(hostile))
    expect(core.failed).not.toContain('\n')
    expect(core.summaryText).toContain('owned&lt;img')
    expect(core.summaryText).not.toContain('<img')
    expect(writes()).toBe(0)
  })
})
