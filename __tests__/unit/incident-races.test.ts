/**
 * The incident paths of titles.ts that talk to the service, over real HTTP to
 * the emulator: the create's recovery after a lost answer (which listed
 * incident is the one it made: `meansTitle`), a duplicate a racing run made,
 * resolved in favour of the survivor (`resolveAsDuplicate`), and an incident
 * of our title that appeared while this run updated another
 * (`othersAfterUpdate`).
 */
import { describe, expect, it } from '@jest/globals'
import { ApiClient } from '../../src/api/client.js'
import { MonitoringApi } from '../../src/api/monitoring.js'
import type { Incident } from '../../src/api/schemas.js'
import { evidenceOf } from '../../src/operations/incidents/evidence.js'
import {
  duplicateMessage,
  meansTitle,
  othersAfterUpdate,
  resolveAsDuplicate
} from '../../src/operations/incidents/titles.js'
import type { OperationContext, OperationResult } from '../../src/operations/types.js'
import { KEY, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator({ rateLimit: false })

const TITLE = 'Deploy failed: payments-api production EU'
/** A message that shows an incident is this workflow's (workflow "Deploy" in acme/shop). */
const OURS = 'Workflow "Deploy" (job deploy) failed in acme/shop on refs/heads/main.'
const PERSON = 'Payments are down, looking into it (Jane)'
const EVIDENCE = evidenceOf({ workflow: 'Deploy', repository: 'acme/shop' })

/** What these paths use of a context: the API (a real client to the emulator), dry-run, and the log (kept). */
function contextOf(dryRun = false) {
  const lines: string[] = []
  const log = {
    debug: () => {},
    info: (line: string) => void lines.push(`info: ${line}`),
    warning: (line: string) => void lines.push(`warning: ${line}`),
    notice: (line: string) => void lines.push(`notice: ${line}`)
  }
  const client = new ApiClient({
    baseUrl: emulator.baseUrl,
    apiKey: KEY,
    maxRetries: 2,
    requestTimeoutMs: 30_000,
    pacer: null,
    random: () => 0.5,
    clock: { now: () => Date.now(), sleep: async () => {} },
    log
  })
  const api = new MonitoringApi(client)
  const ctx = { config: { dryRun }, api, log } as unknown as OperationContext
  return { ctx, api, lines }
}

const changed = (value: boolean) =>
  ({ outputs: { changed: value }, summary: { title: 'Incident updated', lines: [], tables: [] } }) as OperationResult

describe("the create's recovery: after a lost answer, the incident it made is found by our title as the service stored it", () => {
  it("by the cut form with our evidence; someone else's incident of that form, listed first, is never taken for it", async () => {
    emulator.incidentTitles = { cutAt: 40 }
    emulator.inject({ method: 'POST', path: '/incidents', after: true, status: 500 })
    emulator.afterAnswer = request => {
      if (request.method !== 'POST' || emulator.incidents.has('aaa_theirs')) return
      // Its id sorts before ours: the recovery takes the smallest id of those it counts as ours.
      emulator.incidents.set('aaa_theirs', {
        id: 'aaa_theirs',
        title: TITLE.slice(0, 40),
        message: PERSON,
        status: 'investigating'
      })
    }
    const { api } = contextOf()
    const body = { title: TITLE, message: OURS, status: 'investigating' }
    const created = await api.createIncident(body, [], i => meansTitle(i, TITLE, EVIDENCE))
    expect(created.recovered).toBe(true)
    expect(created.item.id).not.toBe('aaa_theirs')
    expect(created.item).toMatchObject({ title: TITLE.slice(0, 40), message: OURS })
    expect(emulator.count('POST', '/incidents')).toBe(1)
    expect(emulator.incidents.size).toBe(2)
  })

  it('by the exact title on a service that stores it as sent, whatever its message says', async () => {
    emulator.inject({ method: 'POST', path: '/incidents', after: true, status: 502 })
    const { api } = contextOf()
    const created = await api.createIncident({ title: TITLE, message: PERSON }, [], i => meansTitle(i, TITLE, EVIDENCE))
    expect(created).toMatchObject({ recovered: true, item: { title: TITLE, message: PERSON } })
    expect(emulator.count('POST', '/incidents')).toBe(1)
  })
})

describe('resolveAsDuplicate: a racing run made the same incident; ours is resolved in favour of the survivor', () => {
  const survivor = { id: 'inc_first', title: TITLE } as Incident

  it('resolved with a message naming the survivor; its other fields sent back as they were', async () => {
    const duplicate = emulator.seedIncident({ title: TITLE, message: OURS, severity: 'high' }) as Incident
    const { ctx } = contextOf()
    await resolveAsDuplicate(ctx, duplicate, survivor)
    expect(emulator.count('PUT', `/incidents/${duplicate.id}`)).toBe(1)
    expect(emulator.incidents.get(duplicate.id)).toMatchObject({
      title: TITLE,
      severity: 'high',
      status: 'resolved',
      message:
        'Duplicate of incident inc_first, opened at the same time by another run of the same step; resolved in favour of inc_first.'
    })
    expect(duplicateMessage(survivor)).toBe(emulator.incidents.get(duplicate.id)?.message)
  })

  it('already resolved (in any case): nothing sent', async () => {
    const duplicate = emulator.seedIncident({ title: TITLE, message: 'fixed', status: 'Resolved' }) as Incident
    const { ctx } = contextOf()
    await resolveAsDuplicate(ctx, duplicate, survivor)
    expect(emulator.count()).toBe(0)
    expect(emulator.incidents.get(duplicate.id)).toMatchObject({ status: 'Resolved', message: 'fixed' })
  })

  it('dry run: the PUT it would send is logged, nothing is sent', async () => {
    const duplicate = emulator.seedIncident({ title: TITLE, message: OURS }) as Incident
    const { ctx, lines } = contextOf(true)
    await resolveAsDuplicate(ctx, duplicate, survivor)
    expect(emulator.count()).toBe(0)
    expect(emulator.incidents.get(duplicate.id)?.status).toBe('investigating')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^info: \\[dry-run\\] would send PUT /incidents/${duplicate.id} \\{`))
    expect(lines[0]).toContain('"status":"resolved"')
    expect(lines[0]).toContain(JSON.stringify(duplicateMessage(survivor)))
  })
})

describe('othersAfterUpdate: another incident of our title appeared while this run updated one', () => {
  /** The incident this run updated, and around it what a racing run or a person may have left. */
  function seed() {
    const current = emulator.seedIncident({ title: TITLE, message: OURS }) as Incident
    const racing = emulator.seedIncident({ title: TITLE, message: 'opened by another run' })
    emulator.seedIncident({ title: TITLE, message: 'long fixed', status: 'resolved' })
    emulator.seedIncident({ title: TITLE.toLowerCase(), message: PERSON })
    const changedOurs = emulator.seedIncident({ title: TITLE.slice(0, 35), message: OURS })
    emulator.seedIncident({ title: 'Deploy failed: search-api', message: OURS })
    return { current, others: [racing.id, changedOurs.id] }
  }

  it('names every unresolved incident our title means but the one updated, in a warning; resolves none', async () => {
    const { current, others } = seed()
    const { ctx, lines } = contextOf()
    const said = `Another unresolved incident titled "${TITLE}" appeared while this run updated ${current.id}: ${others.join(', ')} (opened by a concurrent run, or missed by the first look). This run cannot prove which existed first, so it resolves neither: ${current.id} is used; resolve the one you do not want with resolve-incident and incident-id.`
    expect(await othersAfterUpdate(ctx, current, changed(true), TITLE, EVIDENCE)).toEqual([said])
    expect(lines).toEqual([`warning: ${said}`])
    expect(emulator.count('PUT')).toBe(0)
  })

  it('none but the one updated: nothing to say', async () => {
    const current = emulator.seedIncident({ title: TITLE, message: OURS }) as Incident
    emulator.seedIncident({ title: TITLE, message: 'long fixed', status: 'resolved' })
    const { ctx, lines } = contextOf()
    expect(await othersAfterUpdate(ctx, current, changed(true), TITLE, EVIDENCE)).toEqual([])
    expect(lines).toEqual([])
    expect(emulator.count('GET', '/incidents')).toBe(1)
  })

  it('an update that changed nothing, or a dry run: no second look, nothing said', async () => {
    const { current } = seed()
    const quiet = contextOf()
    expect(await othersAfterUpdate(quiet.ctx, current, changed(false), TITLE, EVIDENCE)).toEqual([])
    const dry = contextOf(true)
    expect(await othersAfterUpdate(dry.ctx, current, changed(true), TITLE, EVIDENCE)).toEqual([])
    expect(emulator.count()).toBe(0)
    expect([...quiet.lines, ...dry.lines]).toEqual([])
  })
})
