import { describe, expect, it } from '@jest/globals'
import { KEY, resultOf, runAction, startEmulator, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/health'

describe('create-check', () => {
  it('creates a check with type http by default and sets its outputs', async () => {
    const { core } = await runAction(emulator, { operation: 'create-check', 'check-name': 'shop', 'check-url': site })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['check-id']).toMatch(/^chk_/)
    expect(core.outputs.changed).toBe('true')
    const stored = emulator.checks.get(core.outputs['check-id'])
    expect(stored).toMatchObject({ name: 'shop', url: site, type: 'http' })
    expect(resultOf(core)).toMatchObject({ id: core.outputs['check-id'], name: 'shop' })
  })

  it('passes unknown spec fields through, and shorthand inputs override the spec', async () => {
    const { core } = await runAction(emulator, {
      operation: 'create-check',
      check: 'name: from-spec\nurl: https://old.example.com\ninterval: 30\ntags: [team-a]\nregion: eu',
      'check-name': 'from-input',
      'check-interval': '120',
      'alert-channels': 'email, slack'
    })
    expect(core.failed).toBeUndefined()
    const stored = emulator.checks.get(core.outputs['check-id'])
    expect(stored).toMatchObject({
      name: 'from-input',
      url: 'https://old.example.com',
      interval: 120,
      alertChannels: ['email', 'slack'],
      tags: ['team-a'],
      region: 'eu'
    })
  })

  it('reports a 400 from the server with method, path, status and message', async () => {
    emulator.inject({
      method: 'POST',
      path: '/checks',
      status: 400,
      body: { error: { message: 'interval out of range' } }
    })
    const { core } = await runAction(emulator, { operation: 'create-check', 'check-name': 'x', 'check-url': site })
    expect(core.failed).toBe('POST /checks failed: HTTP 400 Bad Request: interval out of range')
    expect(core.outputs.error).toBe(core.failed)
    expect(emulator.count('POST')).toBe(1)
  })
})

describe('get-check and list-checks', () => {
  it('gets by id and by exact name', async () => {
    const check = emulator.seedCheck({
      name: 'api',
      url: site,
      status: 'up',
      responseTime: 120,
      lastCheckedAt: '2026-01-01T00:00:00Z'
    })
    emulator.seedCheck({ name: 'api-2', url: site })
    for (const inputs of [{ 'check-id': check.id }, { 'check-name': 'api' }] as Array<Record<string, string>>) {
      const { core } = await runAction(emulator, { operation: 'get-check', ...inputs })
      expect(core.failed).toBeUndefined()
      expect(core.outputs).toMatchObject({
        'check-id': check.id,
        'check-name': 'api',
        'check-status': 'up',
        'response-time': '120',
        'last-checked-at': '2026-01-01T00:00:00Z'
      })
    }
  })

  it('null fields from the API (never probed) are empty outputs', async () => {
    const check = emulator.seedCheck({ name: 'new', url: site })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-id': check.id })
    expect(core.outputs['response-time']).toBe('')
    expect(core.outputs['last-checked-at']).toBe('')
    expect(core.outputs['check-status']).toBe('pending')
  })

  it('a name that matches nothing is a clear not-found error; two that differ list their ids and what differs', async () => {
    let outcome = await runAction(emulator, { operation: 'get-check', 'check-name': 'nope' })
    expect(outcome.core.failed).toBe('no check named "nope" (looked through 0 checks)')
    const a = emulator.seedCheck({ name: 'twin', url: site })
    const b = emulator.seedCheck({ name: 'twin', url: `${site}/other` })
    outcome = await runAction(emulator, { operation: 'get-check', 'check-name': 'twin' })
    expect(outcome.core.failed).toContain(`2 checks are named "twin" (${a.id}, ${b.id}) and they differ (url)`)
  })

  it('a read by name meeting identical duplicates uses the oldest and warns, writing nothing', async () => {
    const old = emulator.seedCheck({ name: 'twin', url: site, createdAt: '2026-01-01T00:00:00Z' })
    const copy = emulator.seedCheck({ name: 'twin', url: site, createdAt: '2026-01-02T00:00:00Z' })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-name': 'twin' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs['check-id']).toBe(old.id)
    const warning = core.logs.find(l => l.startsWith('warning: 2 identical checks are named "twin"'))
    expect(warning).toContain(copy.id)
    expect(emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.size).toBe(2)
  })

  it('an unknown id is a 404 error naming the id', async () => {
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-id': 'chk_missing' })
    expect(core.failed).toBe('check chk_missing not found (GET /checks/chk_missing answered 404)')
  })

  it.each(['envelope', 'bare', 'cursor'] as const)('lists every page (%s collections)', async style => {
    const paged = await startEmulator({ pageSize: 7, collectionStyle: style })
    try {
      for (let i = 0; i < 23; i++) paged.seedCheck({ name: `c${i}`, url: site })
      const { core } = await runAction(paged, { operation: 'list-checks' })
      expect(core.failed).toBeUndefined()
      expect(core.outputs.count).toBe('23')
      const names = (resultOf(core) as Array<{ name: string }>).map(c => c.name)
      expect(names).toEqual(Array.from({ length: 23 }, (_, i) => `c${i}`))
      expect(paged.count('GET', '/checks')).toBe(4)
    } finally {
      await paged.stop()
    }
  })

  it('keeps fields it does not know in result', async () => {
    emulator.seedCheck({ name: 'x', url: site, region: 'eu', sla: { target: 99.9 } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(resultOf(core)).toEqual([expect.objectContaining({ region: 'eu', sla: { target: 99.9 } })])
  })
})

describe('update-check', () => {
  it('sends the whole writable check, so a replacing PUT keeps every other field', async () => {
    const check = emulator.seedCheck({ name: 'api', url: site, interval: 30, alertChannels: ['email'], tags: ['x'] })
    const { core } = await runAction(emulator, {
      operation: 'update-check',
      'check-id': check.id,
      'check-interval': '90'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.changed).toBe('true')
    expect(emulator.checks.get(check.id)).toMatchObject({
      name: 'api',
      url: site,
      interval: 90,
      alertChannels: ['email'],
      tags: ['x']
    })
  })

  it('renames with check-id plus check-name', async () => {
    const check = emulator.seedCheck({ name: 'old', url: site })
    const { core } = await runAction(emulator, { operation: 'update-check', 'check-id': check.id, 'check-name': 'new' })
    expect(core.failed).toBeUndefined()
    expect(emulator.checks.get(check.id)?.name).toBe('new')
  })

  it('sends no PUT when nothing differs (channels compared as sets)', async () => {
    const check = emulator.seedCheck({ name: 'api', url: site, alertChannels: ['slack', 'email'] })
    const { core } = await runAction(emulator, {
      operation: 'update-check',
      'check-name': 'api',
      'alert-channels': 'email,slack'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.changed).toBe('false')
    expect(emulator.count('PUT')).toBe(0)
    expect(core.outputs['check-id']).toBe(check.id)
  })
})

describe('upsert-check', () => {
  it('creates, then changes nothing on a re-run, then updates when the spec changes', async () => {
    const inputs = { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site, 'check-interval': '60' }
    const first = await runAction(emulator, inputs)
    expect(first.core.outputs.changed).toBe('true')
    const second = await runAction(emulator, inputs)
    expect(second.core.outputs.changed).toBe('false')
    expect(second.core.outputs['check-id']).toBe(first.core.outputs['check-id'])
    expect(emulator.checks.size).toBe(1)
    expect(emulator.count('PUT')).toBe(0)
    const third = await runAction(emulator, { ...inputs, 'check-interval': '30' })
    expect(third.core.outputs.changed).toBe('true')
    expect(emulator.checks.size).toBe(1)
    expect(emulator.count('PUT')).toBe(1)
    expect([...emulator.checks.values()][0]).toMatchObject({ interval: 30 })
  })

  it('a server check without type compares equal to the default type http', async () => {
    const check = emulator.seedCheck({ name: 'shop', url: site })
    delete (check as Record<string, unknown>).type
    const { core } = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'shop', 'check-url': site })
    expect(core.outputs.changed).toBe('false')
  })

  it('two checks with the name that differ is an error listing their ids, and nothing is written', async () => {
    emulator.seedCheck({ name: 'dup', url: site })
    emulator.seedCheck({ name: 'dup', url: site, interval: 30 })
    const { core } = await runAction(emulator, { operation: 'upsert-check', 'check-name': 'dup', 'check-url': site })
    expect(core.failed).toMatch(/2 checks are named "dup" \(chk_\w+, chk_\w+\) and they differ \(interval\)/)
    expect(emulator.count('POST') + emulator.count('PUT') + emulator.count('DELETE')).toBe(0)
  })
})

describe('delete-check', () => {
  it('deletes, and a second delete is success with changed=false', async () => {
    const check = emulator.seedCheck({ name: 'preview-42', url: site })
    const first = await runAction(emulator, { operation: 'delete-check', 'check-id': check.id })
    expect(first.core.failed).toBeUndefined()
    expect(first.core.outputs.changed).toBe('true')
    expect(emulator.checks.size).toBe(0)
    const again = await runAction(emulator, { operation: 'delete-check', 'check-id': check.id })
    expect(again.core.failed).toBeUndefined()
    expect(again.core.outputs.changed).toBe('false')
    const byName = await runAction(emulator, { operation: 'delete-check', 'check-name': 'preview-42' })
    expect(byName.core.failed).toBeUndefined()
    expect(byName.core.outputs.changed).toBe('false')
    // result stays JSON when nothing is found: a workflow's fromJSON(steps.x.outputs.result) must not fail.
    expect(JSON.parse(byName.core.outputs.result)).toBeNull()
    expect(JSON.parse(again.core.outputs.result)).toEqual({ id: check.id })
  })

  it('deletes by name', async () => {
    emulator.seedCheck({ name: 'preview-7', url: site })
    const { core } = await runAction(emulator, { operation: 'delete-check', 'check-name': 'preview-7' })
    expect(core.outputs.changed).toBe('true')
    expect(emulator.checks.size).toBe(0)
  })
})

describe('pause-check and resume-check', () => {
  it('pauses several checks, skipping one already paused, then resumes them', async () => {
    const a = emulator.seedCheck({ name: 'a', url: site, status: 'up', tags: ['keep'] })
    const b = emulator.seedCheck({ name: 'b', url: site, status: 'paused' })
    const c = emulator.seedCheck({ name: 'c', url: site, status: 'down' })
    const pause = await runAction(emulator, {
      operation: 'pause-check',
      'check-id': `${a.id}\n${b.id}`,
      'check-name': 'c'
    })
    expect(pause.core.failed).toBeUndefined()
    expect(pause.core.outputs.changed).toBe('true')
    expect(emulator.count('PUT')).toBe(2)
    expect([a, b, c].map(x => emulator.checks.get(x.id)?.status)).toEqual(['paused', 'paused', 'paused'])
    expect(emulator.checks.get(a.id)?.tags).toEqual(['keep'])
    expect(resultOf(pause.core)).toHaveLength(3)

    const again = await runAction(emulator, { operation: 'pause-check', 'check-name': 'a,b' })
    expect(again.core.outputs.changed).toBe('false')
    expect(emulator.count('PUT')).toBe(2)

    const resume = await runAction(emulator, { operation: 'resume-check', 'check-name': 'a, b, c' })
    expect(resume.core.outputs.changed).toBe('true')
    expect([a, b, c].map(x => emulator.checks.get(x.id)?.status)).toEqual(['up', 'up', 'up'])
    const resumeAgain = await runAction(emulator, { operation: 'resume-check', 'check-name': 'a' })
    expect(resumeAgain.core.outputs.changed).toBe('false')
  })

  it('with auto-resume, the post step resumes exactly the checks this step paused', async () => {
    const a = emulator.seedCheck({ name: 'a', url: site, status: 'up' })
    const b = emulator.seedCheck({ name: 'b', url: site, status: 'paused' })
    const inputs = { operation: 'pause-check', 'check-name': 'a,b', 'auto-resume': 'true' }
    const main = await runAction(emulator, inputs)
    expect(main.core.failed).toBeUndefined()
    expect(JSON.parse(main.core.state['paused-check-ids'])).toEqual([a.id])
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect(emulator.checks.get(a.id)?.status).toBe('up')
    expect(emulator.checks.get(b.id)?.status).toBe('paused')
  })

  it('identical checks of one name are paused and resumed alike, so the next step by that name finds them as this one did', async () => {
    // The older is the first in survival order (converge.ts), the one the outputs name.
    const one = emulator.seedCheck({ name: 'dup', url: site, status: 'up', createdAt: '2026-01-01T00:00:00Z' })
    const two = emulator.seedCheck({ name: 'dup', url: site, status: 'up', createdAt: '2026-01-02T00:00:00Z' })
    const inputs = { operation: 'pause-check', 'check-name': 'dup', 'auto-resume': 'true' }
    const pause = await runAction(emulator, inputs)
    expect(pause.core.failed).toBeUndefined()
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['paused', 'paused'])
    expect(JSON.parse(pause.core.state['paused-check-ids'])).toEqual([one.id, two.id])
    expect(pause.core.logs).toContain(
      `warning: 2 identical checks are named "dup" (${one.id}, ${two.id}): each was changed alike, so they stay identical; the outputs name ${one.id}, the first in order. To keep one, delete the others with delete-check and check-id (check-id: ${two.id}); the action never deletes a check that may have existed before the step.`
    )
    // A second pause (a re-run) and a resume by name pass as the first did: the two never differ.
    const again = await runAction(emulator, { operation: 'pause-check', 'check-name': 'dup' })
    expect(again.core.failed).toBeUndefined()
    expect(again.core.outputs.changed).toBe('false')
    const resume = await runAction(emulator, { operation: 'resume-check', 'check-name': 'dup' })
    expect(resume.core.failed).toBeUndefined()
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['up', 'up'])
    // The post step of the first pause resumes both (both were running before it): here, already up.
    const post = await runAction(emulator, inputs, { state: pause.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['up', 'up'])
  })

  it('a pause of identical duplicates that fails half-way names the one already paused, and the post step resumes it', async () => {
    const one = emulator.seedCheck({ name: 'dup', url: site, status: 'up', createdAt: '2026-01-01T00:00:00Z' })
    const two = emulator.seedCheck({ name: 'dup', url: site, status: 'up', createdAt: '2026-01-02T00:00:00Z' })
    emulator.inject({ method: 'PUT', path: `/checks/${two.id}`, status: 400, body: { error: 'locked' } })
    const inputs = { operation: 'pause-check', 'check-name': 'dup', 'auto-resume': 'true' }
    const pause = await runAction(emulator, inputs)
    expect(pause.core.failed).toContain(`(already set to paused: ${one.id})`)
    expect(pause.core.outputs.changed).toBe('true')
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['paused', 'up'])
    const post = await runAction(emulator, inputs, { state: pause.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['up', 'up'])
  })

  it('the post step resumes identical duplicates the pause paused', async () => {
    const one = emulator.seedCheck({ name: 'dup', url: site, status: 'up' })
    const two = emulator.seedCheck({ name: 'dup', url: site, status: 'up' })
    const inputs = { operation: 'pause-check', 'check-name': 'dup', 'auto-resume': 'true' }
    const pause = await runAction(emulator, inputs)
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['paused', 'paused'])
    const post = await runAction(emulator, inputs, { state: pause.core.state })
    expect(post.core.failed).toBeUndefined()
    expect([emulator.checks.get(one.id)?.status, emulator.checks.get(two.id)?.status]).toEqual(['up', 'up'])
  })

  it('the post step does nothing without auto-resume or for other operations', async () => {
    const a = emulator.seedCheck({ name: 'a', url: site, status: 'up' })
    const inputs = { operation: 'pause-check', 'check-name': 'a' }
    const main = await runAction(emulator, inputs)
    expect(main.core.state['paused-check-ids']).toBeUndefined()
    const before = emulator.requests.length
    await runAction(emulator, inputs, { state: main.core.state })
    expect(emulator.requests.length).toBe(before)
    expect(emulator.checks.get(a.id)?.status).toBe('paused')
  })
})

describe('check-history', () => {
  it('returns the entries, their count and the uptime', async () => {
    const check = emulator.seedCheck({ name: 'h', url: site })
    emulator.history.set(check.id, [
      { checkedAt: '2026-01-01T00:03:00Z', status: 'up', responseTime: 100 },
      { checkedAt: '2026-01-01T00:02:00Z', status: 'down', responseTime: 5000 },
      { checkedAt: '2026-01-01T00:01:00Z', status: 'up', responseTime: 90 },
      { checkedAt: '2026-01-01T00:00:00Z', status: 'up', responseTime: 95 }
    ])
    const { core } = await runAction(emulator, { operation: 'check-history', 'check-name': 'h' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.count).toBe('4')
    expect(core.outputs.uptime).toBe('75.00')
    expect(resultOf(core)).toHaveLength(4)
    expect(core.summaryText).toContain('up in 75.00%')
  })
})

describe('dry-run', () => {
  it('plans writes without sending them; reads still happen', async () => {
    const check = emulator.seedCheck({ name: 'api', url: site, interval: 60 })
    const update = await runAction(emulator, {
      operation: 'upsert-check',
      'check-name': 'api',
      'check-url': site,
      'check-interval': '10',
      'dry-run': 'true'
    })
    expect(update.core.outputs.changed).toBe('true')
    expect(update.core.logs.join('\n')).toContain(`[dry-run] would send PUT /checks/${check.id}`)
    const create = await runAction(emulator, {
      operation: 'create-check',
      'check-name': 'new',
      'check-url': site,
      'dry-run': 'true'
    })
    expect(create.core.outputs['check-id']).toBeUndefined()
    expect(resultOf(create.core)).toEqual({ name: 'new', url: site, type: 'http' })
    const del = await runAction(emulator, { operation: 'delete-check', 'check-id': check.id, 'dry-run': 'true' })
    expect(del.core.outputs.changed).toBe('true')
    const pause = await runAction(emulator, { operation: 'pause-check', 'check-id': check.id, 'dry-run': 'true' })
    expect(pause.core.outputs.changed).toBe('true')
    expect(emulator.count('POST') + emulator.count('PUT') + emulator.count('DELETE')).toBe(0)
    expect(emulator.checks.get(check.id)).toMatchObject({ interval: 60, status: 'pending' })
    expect(emulator.count('GET')).toBeGreaterThan(0)
  })
})

describe('outputs and summary', () => {
  it('writes a job summary with a table of the check, and never the key', async () => {
    const { core } = await runAction(emulator, { operation: 'create-check', 'check-name': 'shop', 'check-url': site })
    expect(core.summaryText).toContain('### Check created')
    expect(core.summaryText).toContain('| shop |')
    expect(core.everything()).not.toContain(KEY)
    expect(core.secrets).toContain(KEY)
  })

  it('job-summary false writes none', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks', 'job-summary': 'false' })
    expect(core.summaryText).toBe('')
  })
})
