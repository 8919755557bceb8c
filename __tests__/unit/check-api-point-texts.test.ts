/**
 * check-api's points, whole: for each way a point can fall (points.ts,
 * write-points.ts), what it says the service does, what the action does about
 * it and what to do, word for word, from what was seen (seen.ts) made by hand.
 * The profile tests (integration/check-api-profiles) hold what a real run
 * sees; these hold every branch's text, which a person reads in the summary.
 */
import { describe, expect, it } from '@jest/globals'
import {
  createdAt,
  envelope,
  history,
  paging,
  rateLimit,
  readPoints,
  statuses,
  times,
  total
} from '../../src/operations/service/points.js'
import type { ListSeen, PageSeen, Seen, WritesSeen } from '../../src/operations/service/seen.js'
import { oneShape, pageSeen } from '../../src/operations/service/seen.js'
import { createEcho, pauseResume, putSemantics, writePoints } from '../../src/operations/service/write-points.js'

const noRate = { sent: [], resets: [], followed: false }
const page = (over: Partial<PageSeen> = {}): PageSeen => ({ rows: 2, shape: '{"data": [...]}', rate: noRate, ...over })
const list = (
  name: string,
  pages: PageSeen[],
  rows: Array<Record<string, unknown>> = [],
  failed?: string
): ListSeen => ({
  name,
  pages,
  rows,
  ...(failed !== undefined ? { failed } : {})
})
const seenOf = (lists: ListSeen[], extra: Partial<Seen> = {}): Seen => ({ lists, maxPages: 100, ...extra })
const CAP = 'the action follows a Link header, a next link in the body or a cursor, up to 100 pages a list'
const CONCURRENCY = 'give the jobs that write with this key a `concurrency:` group'

describe('paging', () => {
  it('a list that never ended: the list and its failure, and the cap', () => {
    const failed = 'GET /checks has more than 100 pages; stopped rather than read without end'
    expect(paging(seenOf([list('incidents', [page()]), list('checks', [], [], failed)]))).toEqual({
      point: 'paging',
      found: `checks: ${failed}`,
      consequence: `${CAP}; past that a read stops and the operation fails rather than read without end`,
      advice: 'keep each list under the cap (fewer checks an account), or ask the service why its pages never end'
    })
  })

  it('no second page: unknown, with the longest list read whole (a failed list not counted)', () => {
    const one = paging(
      seenOf([
        list('checks', [page({ rows: 1 })], [{ id: 'a' }]),
        list('incidents', [page()], [{}, {}, {}, {}], 'GET /incidents: 500 boom')
      ])
    )
    expect(one).toEqual({
      point: 'paging',
      found: 'unknown',
      why: 'no list had a second page (the longest held 1 row on one page)',
      consequence: CAP,
      advice: 'run check-api against an account with more checks than a page holds to learn the page size'
    })
    expect(paging(seenOf([list('checks', [page()], [{}, {}, {}]), list('history', [page()], [{}])])).why).toBe(
      'no list had a second page (the longest held 3 rows on one page)'
    )
    expect(paging(seenOf([])).why).toBe('no list had a second page (the longest held 0 rows on one page)')
  })

  it("paged: each way a next page was pointed at, the largest first page, each list's pages, and the rows at most", () => {
    const point = paging(
      seenOf([
        list('checks', [page({ rows: 2, next: 'a Link header', alsoInBody: false }), page({ rows: 1 })]),
        list('history', [page({ rows: 3, next: 'a cursor in the body' }), page({ rows: 3 }), page({ rows: 1 })]),
        list('incidents', [page({ rows: 1 })]),
        list('status pages', [page({ rows: 1 }), page({ rows: 1 })])
      ])
    )
    expect(point).toEqual({
      point: 'paging',
      found:
        'next page by a Link header, a cursor in the body, nothing; 3 rows a page (checks: 2 pages, history: 3 pages, status pages: 2 pages)',
      consequence: `${CAP}: 300 rows at most; each page is one request of the rate limit`,
      advice: "a list over 300 rows cannot be read whole: keep an account's checks under it"
    })
    const both = paging(
      seenOf([list('checks', [page({ next: 'a Link header', alsoInBody: true }), page()])], { maxPages: 7 })
    )
    expect(both.found).toBe('next page by a Link header (and a next link in the body); 2 rows a page (checks: 2 pages)')
    expect(both.advice).toBe("a list over 14 rows cannot be read whole: keep an account's checks under it")
    // One list's next link in the body is said, though another's had none.
    const one = paging(
      seenOf([
        list('checks', [page({ next: 'a Link header', alsoInBody: false }), page()]),
        list('history', [page({ next: 'a Link header', alsoInBody: true }), page()])
      ])
    )
    expect(one.found).toBe(
      'next page by a Link header (and a next link in the body); 2 rows a page (checks: 2 pages, history: 2 pages)'
    )
  })
})

describe('total', () => {
  it('no list read whole: unknown', () => {
    expect(total(seenOf([list('checks', [], [], 'GET /checks: 500 boom')]))).toEqual({
      point: 'total',
      found: 'unknown',
      why: 'no list could be read',
      consequence: '',
      advice: ''
    })
  })

  it('stated: each list that stated one, its last statement', () => {
    expect(
      total(
        seenOf([
          list('checks', [page({ total: 5 }), page({ total: 7 }), page()]),
          list('history', [page(), page()]),
          list('incidents', [page({ total: 0 })])
        ])
      )
    ).toEqual({
      point: 'total',
      found: 'stated (checks: 7, incidents: 0)',
      consequence:
        'a read that holds fewer rows than the stated total missed some while the list moved: the action then proves nothing by it (no create on a name it did not see, no delete by it)',
      advice: 'none needed'
    })
  })

  it('none stated', () => {
    expect(total(seenOf([list('checks', [page(), page()])]))).toEqual({
      point: 'total',
      found: 'no total stated (no X-Total-Count, total or meta.total)',
      consequence:
        'a read that missed a row while the list moved is seen only when another row repeats; the action then proves nothing by it',
      advice: `avoid writing while another job reads the same account: ${CONCURRENCY}`
    })
  })
})

describe('rate-limit headers', () => {
  const followed = {
    sent: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    resets: [{ header: 'X-RateLimit-Reset', value: '30', form: 'seconds from now' as const }],
    limit: { limit: 100, header: 'X-RateLimit-Limit' },
    followed: true
  }

  it('no list read whole: unknown', () => {
    expect(rateLimit(seenOf([list('checks', [], [], 'GET /checks: 500 boom')]))).toEqual({
      point: 'rate-limit headers',
      found: 'unknown',
      why: 'no list could be read',
      consequence: '',
      advice: ''
    })
  })

  it('none sent', () => {
    expect(rateLimit(seenOf([list('checks', [page(), page()])]))).toEqual({
      point: 'rate-limit headers',
      found: 'none (no RateLimit-* or X-RateLimit-*)',
      consequence:
        'the action paces itself to the documented 100 requests a minute, alone: jobs sharing the key cannot see what the others spend, and meet 429s (each waited out as Retry-After says, within limits)',
      advice: 'give jobs that share this key a `concurrency:` group, or a key each'
    })
  })

  it('followed: the first page that sent any, its headers, each reset and the limit', () => {
    expect(rateLimit(seenOf([list('checks', [page(), page({ rate: followed })])]))).toEqual({
      point: 'rate-limit headers',
      found:
        'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset; reset X-RateLimit-Reset seconds from now ("30"); limit 100 (X-RateLimit-Limit)',
      consequence:
        'the action follows the budget the service states, shared by every job on the key: it slows before a 429 and waits for the reset',
      advice: 'none needed'
    })
  })

  it('not followed: no reset, another limit, or none stated', () => {
    const fifty = {
      sent: ['RateLimit-Limit'],
      resets: [],
      limit: { limit: 50, header: 'RateLimit-Limit' },
      followed: false
    }
    expect(rateLimit(seenOf([list('checks', [page({ rate: fifty })])]))).toEqual({
      point: 'rate-limit headers',
      found: 'RateLimit-Limit; reset not stated; limit 50 (RateLimit-Limit) (not the documented 100 a minute)',
      consequence:
        'the action cannot follow the budget from these headers (it needs a remaining count and a reset it reads); it paces to 100 a minute alone',
      advice: 'give jobs that share this key a `concurrency:` group'
    })
    const bare = { sent: ['X-RateLimit-Remaining'], resets: [], followed: false }
    expect(rateLimit(seenOf([list('checks', [page({ rate: bare })])])).found).toBe(
      'X-RateLimit-Remaining; reset not stated; no limit stated'
    )
    const two = {
      ...followed,
      resets: [...followed.resets, { header: 'RateLimit-Reset', value: 'soon', form: 'unreadable' as const }]
    }
    expect(rateLimit(seenOf([list('checks', [page({ rate: two })])])).found).toBe(
      'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset; reset X-RateLimit-Reset seconds from now ("30"), RateLimit-Reset unreadable ("soon"); limit 100 (X-RateLimit-Limit)'
    )
  })
})

describe('createdAt, updatedAt', () => {
  const consequence =
    'racing creates of one name converge on the earliest createdAt; without it on the smallest id, so a run can report an id that another run then removes'

  it('no check seen: unknown', () => {
    expect(createdAt(seenOf([list('history', [page()], [{ id: 'h', createdAt: '2026-11-29T08:00:00Z' }])]))).toEqual({
      point: 'createdAt, updatedAt',
      found: 'unknown',
      why: 'no check to look at',
      consequence,
      advice: 'set check-api-writes: true, or run it on an account with a check'
    })
  })

  it("on every check: none needed; the writes' own check counted once, at its last reading", () => {
    const checks = list('checks', [page()], [{ id: 'a', createdAt: '2026-11-29T08:00:00Z', updatedAt: null }])
    const writes: WritesSeen = {
      name: 'check-api-0a1b2c3d',
      sent: {},
      created: { id: 'own', createdAt: '2026-11-29T08:00:01Z' },
      afterPut: { id: 'own', createdAt: '2026-11-29T08:00:01Z', updatedAt: '2026-11-29T08:00:02Z' }
    }
    expect(createdAt(seenOf([checks], { writes }))).toEqual({
      point: 'createdAt, updatedAt',
      found: 'createdAt on 2 of 2 checks, updatedAt on 1',
      consequence,
      advice: 'none needed'
    })
    expect(createdAt(seenOf([list('checks', [page()], [{ id: 'a', createdAt: '2026-11-29T08:00:00Z' }])])).found).toBe(
      'createdAt on 1 of 1 check, updatedAt on 0'
    )
  })

  it('on none: the race said, and the concurrency group advised', () => {
    expect(createdAt(seenOf([list('checks', [page()], [{ id: 'a' }, { id: 'b', createdAt: null }])]))).toEqual({
      point: 'createdAt, updatedAt',
      found: 'no createdAt (createdAt on 0 of 2 checks, updatedAt on 0)',
      consequence: `no createdAt: ${consequence}`,
      advice: `${CONCURRENCY}, so that two creates of one name never race`
    })
  })
})

describe('times', () => {
  const PLACES =
    'the action places each time as written (no zone: UTC); a result within its precision of the step start cannot be told before or after it, so a gate waits for the next one'
  const rowsSeen = (...rows: Array<Record<string, unknown>>) => seenOf([list('history', [page()], rows)])

  it('none seen: unknown', () => {
    expect(times(rowsSeen({ checkedAt: null, status: 'up' }))).toEqual({
      point: 'times',
      found: 'unknown',
      why: 'no time was seen (no check has been probed yet)',
      consequence: PLACES,
      advice: 'run it once a check has results'
    })
  })

  it('milliseconds in UTC: each field and form once, with its first example; none needed', () => {
    expect(
      times(
        rowsSeen(
          { checkedAt: '2026-11-29T08:00:00.123Z' },
          { checkedAt: '2026-11-29T08:00:01.456Z', createdAt: '2026-11-29T08:00:00.5z' }
        )
      )
    ).toEqual({
      point: 'times',
      found:
        'checkedAt: milliseconds, UTC (Z) ("2026-11-29T08:00:00.123Z"); createdAt: 100 ms, UTC (Z) ("2026-11-29T08:00:00.5z")',
      consequence: PLACES,
      advice: 'none needed'
    })
  })

  it('whole seconds, an offset (with or without a colon), no zone: a short timeout meets it more often', () => {
    const point = times(
      rowsSeen(
        { lastCheckedAt: '2026-11-29T08:00:00+01:00' },
        { updatedAt: '2026-11-29T08:00:00.123-0100' },
        { checkedAt: '2026-11-29T08:00:00.123' }
      )
    )
    expect(point).toEqual({
      point: 'times',
      found:
        'lastCheckedAt: whole seconds, an offset ("2026-11-29T08:00:00+01:00"); updatedAt: milliseconds, an offset ("2026-11-29T08:00:00.123-0100"); checkedAt: milliseconds, no zone (read as UTC) ("2026-11-29T08:00:00.123")',
      consequence: PLACES,
      advice: 'a short gate timeout meets this more often: keep timeout a few poll intervals long'
    })
    expect(times(rowsSeen({ checkedAt: '2026-11-29T08:00:00.123+01:00' })).advice).toBe('none needed')
  })

  it('a form it cannot place: unknown times, said with what it costs', () => {
    expect(times(rowsSeen({ checkedAt: 'yesterday' }, { checkedAt: '2026-11-29T08:00:00Z' }))).toEqual({
      point: 'times',
      found:
        'checkedAt: a form the action cannot place ("yesterday"); checkedAt: whole seconds, UTC (Z) ("2026-11-29T08:00:00Z")',
      consequence: `${PLACES}; a time it cannot place is unknown: the error budget counts such a row against you, the gate does not count it fresh`,
      advice: 'tell the service owner which form; until then do not rely on gates that read history'
    })
  })
})

describe('history', () => {
  const NEW = 'a history read stops at the first page older than the window it needs'
  const at = (...times: Array<string | undefined>) =>
    seenOf([
      list(
        'history',
        [page()],
        times.map(t => (t === undefined ? { status: 'up' } : { checkedAt: t, status: 'up' }))
      )
    ])

  it('no history read, or one that failed: unknown', () => {
    expect(history(seenOf([list('checks', [page()])]))).toEqual({
      point: 'history',
      found: 'unknown',
      why: 'no check to read the history of',
      consequence: '',
      advice: 'run it on an account with a check that has results'
    })
    expect(history(seenOf([list('history', [], [], 'GET /checks/c/history: 500 boom')]))).toEqual({
      point: 'history',
      found: 'unknown',
      why: 'GET /checks/c/history: 500 boom',
      consequence: '',
      advice: ''
    })
  })

  it('fewer than two entries with a time: the order cannot be told', () => {
    expect(history(at('2026-11-29T08:00:00Z', undefined))).toEqual({
      point: 'history',
      found: 'unknown',
      why: '1 entry with a time: the order cannot be told (fields checkedAt, status)',
      consequence: NEW,
      advice: 'run it again once the check has two results or more'
    })
    expect(history(at()).why).toBe('0 entries with a time: the order cannot be told (fields none)')
    // Two are enough.
    expect(history(at('2026-11-29T08:02:00Z', '2026-11-29T08:01:00Z')).found).toBe(
      'newest first; fields checkedAt, status'
    )
    // The fields by name, in whatever order the rows hold them.
    const unordered = seenOf([
      list(
        'history',
        [page()],
        [
          { status: 'up', responseTime: 1, checkedAt: '2026-11-29T08:02:00Z' },
          { status: 'up', checkedAt: '2026-11-29T08:01:00Z', id: 'h' }
        ]
      )
    ])
    expect(history(unordered).found).toBe('newest first; fields checkedAt, id, responseTime, status')
  })

  it('newest first (equal times too), oldest first, or in no order', () => {
    expect(history(at('2026-11-29T08:02:00Z', '2026-11-29T08:02:00Z', '2026-11-29T08:01:00Z'))).toEqual({
      point: 'history',
      found: 'newest first; fields checkedAt, status',
      consequence: NEW,
      advice: 'none needed'
    })
    const all =
      'the action reads every page of a history (it cannot stop at the window): a long past costs more requests and time'
    expect(history(at('2026-11-29T08:01:00Z', '2026-11-29T08:02:00Z', '2026-11-29T08:02:00Z'))).toEqual({
      point: 'history',
      found: 'oldest first; fields checkedAt, status',
      consequence: all,
      advice: 'keep slo-window and baseline short, so the history read stays small'
    })
    expect(history(at('2026-11-29T08:02:00Z', '2026-11-29T08:01:00Z', '2026-11-29T08:03:00Z')).found).toBe(
      'in no time order; fields checkedAt, status'
    )
    expect(history(at('2026-11-29T08:01:00Z', '2026-11-29T08:03:00Z', '2026-11-29T08:02:00Z')).found).toBe(
      'in no time order; fields checkedAt, status'
    )
  })
})

describe('status values', () => {
  it('none seen: unknown', () => {
    expect(statuses(seenOf([list('checks', [page()], [{ id: 'a', status: 1 }])]))).toEqual({
      point: 'status values',
      found: 'unknown',
      why: 'no status was seen',
      consequence: '',
      advice: ''
    })
  })

  it('where each was seen; only check and history statuses the action does not know are named', () => {
    const seen = seenOf([
      list(
        'checks',
        [page()],
        [
          { id: 'a', status: 'UP' },
          { id: 'b', status: 'ok' },
          { id: 'c', status: 'Paused' }
        ]
      ),
      list('history', [page()], [{ status: 'fine' }, { status: 'ok' }, { status: 'pending' }]),
      list('incidents', [page()], [{ status: 'investigating' }])
    ])
    expect(statuses(seen)).toEqual({
      point: 'status values',
      found: 'checks: UP, ok, Paused; history: fine, ok, pending; incidents: investigating',
      consequence:
        'a gate passes on expected-status (default up); pause and resume send paused and up; ok, fine is not a status the action knows',
      advice: 'if one of them means up, set expected-status to it'
    })
    // Statuses in any two of the three places: seen.
    const two = (a: string, b: string) =>
      statuses(
        seenOf([
          list(a, [page()], [{ id: 'a', status: 'up' }]),
          list(b, [page()], [{ id: 'b', status: 'investigating' }])
        ])
      ).found
    expect(two('history', 'incidents')).toBe('history: up; incidents: investigating')
    expect(two('checks', 'history')).toBe('checks: up; history: investigating')
    expect(statuses(seenOf([list('history', [page()], [{ status: 'down' }])]))).toEqual({
      point: 'status values',
      found: 'history: down',
      consequence: 'a gate passes on expected-status (default up); pause and resume send paused and up',
      advice: 'none needed'
    })
  })
})

describe('envelope', () => {
  it('no list read whole: unknown', () => {
    expect(envelope(seenOf([]))).toEqual({
      point: 'envelope',
      found: 'unknown',
      why: 'no list could be read',
      consequence: '',
      advice: ''
    })
  })

  it('one resource wrapped, bare or not read; each list shape once', () => {
    const lists = [list('checks', [page(), page({ shape: 'a bare array' })]), list('history', [page()])]
    expect(envelope(seenOf(lists, { one: { shape: 'data', check: {} } }))).toEqual({
      point: 'envelope',
      found: 'one resource in {"data": {...}}; lists as {"data": [...]}, a bare array',
      consequence: 'the action reads either form of each ({"data"}, items or results, or bare)',
      advice: 'none needed'
    })
    expect(envelope(seenOf(lists, { one: { shape: 'bare', check: {} } })).found).toBe(
      'one resource bare; lists as {"data": [...]}, a bare array'
    )
    expect(envelope(seenOf(lists)).found).toBe(
      'one resource: not read (no check); lists as {"data": [...]}, a bare array'
    )
  })

  it('every point, in order', () => {
    expect(readPoints(seenOf([])).map(p => p.point)).toEqual([
      'paging',
      'total',
      'rate-limit headers',
      'createdAt, updatedAt',
      'times',
      'history',
      'status values',
      'envelope'
    ])
  })
})

describe('what pages and one resource looked like (seen.ts)', () => {
  const first = new URL('https://api.example.com/v1/checks')
  const seenPage = (body: unknown, headers: Record<string, string> = {}, url = first) =>
    pageSeen({ status: 200, headers, body } as never, url, 0)

  it('the shape and rows of each envelope, and not a list', () => {
    expect(seenPage([1, 2, 3])).toStrictEqual({ rows: 3, shape: 'a bare array', rate: noRate })
    expect(seenPage({ data: [1] })).toStrictEqual({ rows: 1, shape: '{"data": [...]}', rate: noRate })
    expect(seenPage({ items: [1, 2] })).toEqual({ rows: 2, shape: '{"items": [...]}', rate: noRate })
    expect(seenPage({ results: [1, 2, 3] })).toStrictEqual({ rows: 3, shape: '{"results": [...]}', rate: noRate })
    expect(seenPage({ data: 'x', items: [1] })).toEqual({ rows: 1, shape: '{"items": [...]}', rate: noRate })
    expect(seenPage({ data: {} })).toEqual({ rows: 0, shape: 'not a list', rate: noRate })
    expect(seenPage('text')).toEqual({ rows: 0, shape: 'not a list', rate: noRate })
    expect(seenPage(null)).toEqual({ rows: 0, shape: 'not a list', rate: noRate })
  })

  it('how the next page was pointed at, and a stated total', () => {
    const link = { link: '<https://api.example.com/v1/checks?page=2>; rel="next"' }
    expect(seenPage({ data: [1] }, link)).toMatchObject({ next: 'a Link header', alsoInBody: false })
    expect(seenPage({ data: [1], next: 'https://api.example.com/v1/checks?page=2' }, link)).toMatchObject({
      next: 'a Link header',
      alsoInBody: true
    })
    expect(seenPage({ data: [1], next: 'https://api.example.com/v1/checks?page=2' })).toEqual({
      rows: 1,
      shape: '{"data": [...]}',
      next: 'a next link in the body',
      rate: noRate
    })
    expect(seenPage({ data: [1], next_cursor: 'b' }).next).toBe('a cursor in the body')
    // A next link that only repeats this page's cursor is a link, not a cursor.
    const byCursor = new URL('https://api.example.com/v1/checks?cursor=a')
    expect(seenPage({ data: [1], next: 'https://api.example.com/v1/checks?cursor=a&page=2' }, {}, byCursor).next).toBe(
      'a next link in the body'
    )
    expect(seenPage({ data: [1], next_cursor: 'b' }, {}, byCursor).next).toBe('a cursor in the body')
    expect(seenPage({ data: [1] }, { 'x-total-count': '12' })).toEqual({
      rows: 1,
      shape: '{"data": [...]}',
      total: 12,
      rate: noRate
    })
    expect(seenPage({ data: [1], total: 0 })).toMatchObject({ total: 0 })
  })

  it('one resource: in data, bare (an id), or neither', () => {
    expect(oneShape({ data: { id: 'a' } })).toBe('data')
    expect(oneShape({ id: 'a' })).toBe('bare')
    expect(oneShape({ data: 'a' })).toBeUndefined()
    expect(oneShape([{ id: 'a' }])).toBeUndefined()
    expect(oneShape(null)).toBeUndefined()
  })
})

describe('what writes learn (write-points.ts)', () => {
  const base: WritesSeen = {
    name: 'check-api-0a1b2c3d',
    sent: { name: 'check-api-0a1b2c3d', url: 'u', interval: 3600, status: 'paused' }
  }
  const stopped = { ...base, failed: { at: 'POST /checks', why: '500 boom' } }
  const why = 'the writes stopped at POST /checks: 500 boom'

  it('each point stopped before it was reached: where the writes stopped, or not reached', () => {
    expect(writePoints(stopped)).toEqual([
      {
        point: 'create echo',
        found: 'unknown',
        why,
        consequence: 'the action reads the created check from the answer; a field not echoed is read back when needed',
        advice: 'run check-api again'
      },
      {
        point: 'PUT',
        found: 'unknown',
        why,
        consequence:
          'update-check, pause-check and resume-check send the whole check back (every field read), so nothing is lost either way',
        advice: 'run check-api again'
      },
      {
        point: 'pause and resume',
        found: 'unknown',
        why,
        consequence:
          'pause-check sends status paused and resume-check status up; a check counts as paused when it shows paused, as running when it shows up, down or pending',
        advice: 'run check-api again'
      }
    ])
    expect(createEcho(base).why).toBe('not reached')
    expect(pauseResume({ ...base, resumed: 'up' }).why).toBe('not reached')
    expect(pauseResume({ ...base, paused: 'paused' }).why).toBe('not reached')
  })

  it('create echo: fields not echoed, createdAt, and a status other than paused', () => {
    const created = { name: 'check-api-0a1b2c3d', status: 'active', createdAt: '2026-11-29T08:00:00Z' }
    expect(createEcho({ ...base, created })).toEqual({
      point: 'create echo',
      found: 'sent but not echoed: url, interval; createdAt "2026-11-29T08:00:00Z"; status "active"',
      consequence: 'the action reads the created check from the answer; a field not echoed is read back when needed',
      advice: 'the service did not take status paused on create: a check made paused runs until a PUT pauses it'
    })
    const whole = { ...base.sent, status: 'PAUSED', createdAt: 1795939200000 }
    expect(createEcho({ ...base, created: whole })).toMatchObject({
      found: 'every field sent was echoed; no createdAt; status "PAUSED"',
      advice: 'none needed'
    })
  })

  it('PUT: replaces, merges, or cannot tell when the create dropped the interval', () => {
    const consequence =
      'update-check, pause-check and resume-check send the whole check back (every field read), so nothing is lost either way'
    const created = { ...base.sent }
    expect(putSemantics({ ...base, created, afterPut: { interval: 3600 } })).toEqual({
      point: 'PUT',
      found: 'merges (a PUT without interval kept 3600)',
      consequence,
      advice: 'none needed'
    })
    expect(putSemantics({ ...base, created, afterPut: {} })).toEqual({
      point: 'PUT',
      found: 'replaces (a PUT without interval left null)',
      consequence,
      advice: 'a PUT of some fields (by hand, by another tool) clears the others: send whole checks, as the action does'
    })
    expect(putSemantics({ ...base, created, afterPut: { interval: 60 } }).found).toBe(
      'replaces (a PUT without interval left 60)'
    )
    expect(putSemantics({ ...base, created: { ...created, interval: 60 }, afterPut: { interval: 60 } })).toEqual({
      point: 'PUT',
      found: 'unknown',
      why: 'the create did not keep the interval sent (3600), so a PUT without it shows nothing',
      consequence,
      advice: 'none'
    })
  })

  it('pause and resume: what each showed; a pause not shown as paused is said', () => {
    expect(pauseResume({ ...base, resumed: 'up', paused: 'Paused' })).toEqual({
      point: 'pause and resume',
      found: 'after a resume (status up) it showed "up"; after a pause, "Paused"',
      consequence:
        'pause-check sends status paused and resume-check status up; a check counts as paused when it shows paused, as running when it shows up, down or pending',
      advice: 'none needed'
    })
    expect(pauseResume({ ...base, resumed: 'active', paused: 'inactive' }).advice).toBe(
      'the service does not show a pause as paused: auto-resume cannot tell what it paused'
    )
  })
})
