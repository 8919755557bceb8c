/**
 * check-api against each emulator profile (emulator/profiles.ts), over HTTP: each point
 * reports what that service does. Read-only runs send only GETs.
 */
import { describe, expect, it } from '@jest/globals'
import { runAction, useEmulator } from '../helpers/harness.js'
import { pointsOf, seedAccount } from '../helpers/check-api.js'

const readOnly = { operation: 'check-api' }
const withWrites = { operation: 'check-api', 'check-api-writes': 'true' }

/** One emulator of these profiles for a describe block, paging two rows at a time. */
function profiled(profiles: string[]) {
  return useEmulator({ pageSize: 2, profiles })
}

async function readOnlyRun(emulator: ReturnType<typeof profiled>) {
  seedAccount(emulator)
  const run = await runAction(emulator, readOnly)
  expect(run.core.failed).toBeUndefined()
  expect(emulator.requests.map(r => r.method)).toEqual(emulator.requests.map(() => 'GET'))
  return pointsOf(run.core)
}

describe('the default emulator', () => {
  const emulator = profiled([])
  it('read-only: every point, only GETs', async () => {
    const points = await readOnlyRun(emulator)
    expect(points.paging.found).toBe(
      'next page by a Link header (and a next link in the body); 2 rows a page (checks: 2 pages, history: 2 pages)'
    )
    expect(points.paging.advice).toContain('a list over 200 rows cannot be read whole')
    expect(points.total.found).toContain('no total stated')
    expect(points['rate-limit headers'].found).toMatch(
      /^RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset; reset RateLimit-Reset seconds from now \("\d+"\), X-RateLimit-Reset a Unix time \("\d+"\); limit 100 \(RateLimit-Limit\)$/
    )
    expect(points['createdAt, updatedAt'].found).toBe('createdAt on 3 of 3 checks, updatedAt on 0')
    expect(points.times.found).toContain('lastCheckedAt: milliseconds, UTC (Z)')
    expect(points.times.found).toContain('checkedAt: milliseconds, UTC (Z)')
    expect(points.history.found).toBe('newest first; fields checkedAt, responseTime, status')
    expect(points['status values'].found).toBe('checks: up, down, paused; history: up, down; incidents: investigating')
    expect(points.envelope.found).toBe('one resource in {"data": {...}}; lists as {"data": [...]}')
    expect(Object.keys(points)).not.toContain('PUT')
  })

  it('with writes: its own check is created paused, PUT replaces, resume and pause show, and it is deleted', async () => {
    seedAccount(emulator)
    const run = await runAction(emulator, withWrites)
    expect(run.core.failed).toBeUndefined()
    const points = pointsOf(run.core)
    expect(points['create echo'].found).toMatch(/^every field sent was echoed; createdAt "[^"]+Z"; status "paused"$/)
    expect(points.PUT.found).toBe('replaces (a PUT without interval left null)')
    expect(points['pause and resume'].found).toBe('after a resume (status up) it showed "up"; after a pause, "paused"')
    expect(emulator.deletedChecks.map(c => String(c.name))).toEqual([expect.stringMatching(/^check-api-[0-9a-f]{8}$/)])
    expect([...emulator.checks.values()].map(c => c.name)).toEqual(['shop', 'api', 'docs'])
    expect(run.core.state['check-api-own-check']).toBe('')
    expect(run.core.outputs.changed).toBe('false')
    // Never an incident or a status page written.
    expect(emulator.requests.filter(r => r.method !== 'GET').every(r => r.path.startsWith('/checks'))).toBe(true)
  })
})

describe.each([
  ['link-pages', 'paging', 'next page by a Link header; 2 rows a page'],
  ['cursor-pages', 'paging', 'next page by a cursor in the body; 2 rows a page'],
  ['stated-total', 'total', 'stated (checks: 3, incidents: 1, status pages: 0, history: 3)'],
  ['no-rate-headers', 'rate-limit headers', 'none (no RateLimit-* or X-RateLimit-*)'],
  [
    'ratelimit-reset-epoch',
    'rate-limit headers',
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset; reset X-RateLimit-Reset a Unix time'
  ],
  [
    'ratelimit-reset-seconds',
    'rate-limit headers',
    'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset; reset RateLimit-Reset seconds from now'
  ],
  ['no-created-at', 'createdAt, updatedAt', 'no createdAt (createdAt on 0 of 3 checks, updatedAt on 0)'],
  ['seconds', 'times', 'lastCheckedAt: whole seconds, UTC (Z)'],
  ['offset-times', 'times', 'lastCheckedAt: milliseconds, an offset'],
  ['zoneless-times', 'times', 'lastCheckedAt: milliseconds, no zone (read as UTC)'],
  ['history-oldest-first', 'history', 'oldest first; fields checkedAt, responseTime, status'],
  ['bare-objects', 'envelope', 'one resource bare; lists as {"data": [...]}']
])('profile %s', (profile, point, found) => {
  const emulator = profiled([profile])
  it(`read-only: ${point} says what it does`, async () => {
    const points = await readOnlyRun(emulator)
    expect(points[point].found.startsWith(found)).toBe(true)
    expect(points[point].found).not.toBe('unknown')
  })
})

describe('profile details', () => {
  const link = profiled(['link-pages'])
  it('link-pages: lists are bare arrays, no next link in the body', async () => {
    const points = await readOnlyRun(link)
    expect(points.envelope.found).toBe('one resource in {"data": {...}}; lists as a bare array')
    expect(points.paging.found).not.toContain('in the body')
  })
})

describe('profile no-created-at, with writes', () => {
  const emulator = profiled(['no-created-at'])
  it('says what racing creates cost and what to do', async () => {
    seedAccount(emulator)
    const points = pointsOf((await runAction(emulator, withWrites)).core)
    expect(points['createdAt, updatedAt'].consequence).toContain(
      'no createdAt: racing creates of one name converge on the earliest createdAt; without it on the smallest id, so a run can report an id that another run then removes'
    )
    expect(points['createdAt, updatedAt'].advice).toContain('`concurrency:` group')
    expect(points['create echo'].found).toContain('; no createdAt;')
  })
})

describe('profile merge-put, with writes', () => {
  const emulator = profiled(['merge-put'])
  it('PUT merges', async () => {
    seedAccount(emulator)
    const run = await runAction(emulator, withWrites)
    expect(pointsOf(run.core).PUT.found).toBe('merges (a PUT without interval kept 3600)')
    expect(emulator.deletedChecks).toHaveLength(1)
  })
})

describe('profiles together', () => {
  const emulator = profiled(['cursor-pages', 'stated-total', 'seconds', 'bare-objects', 'no-rate-headers'])
  it('each point as its profile says', async () => {
    const points = await readOnlyRun(emulator)
    expect(points.paging.found).toContain('a cursor in the body')
    expect(points.total.found).toContain('stated (checks: 3')
    expect(points.times.found).not.toContain('milliseconds')
    expect(points.envelope.found).toBe('one resource bare; lists as {"data": [...]}')
    expect(points['rate-limit headers'].found).toContain('none')
  })
})
