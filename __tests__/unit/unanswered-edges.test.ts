/**
 * A status write sent without an answer (src/operations/checks/unanswered.ts):
 * what the main step records for the post step (sendTracked), what the post
 * step reads back of it (recordedUnanswered), and its watch (watchUnanswered)
 * over HTTP to the emulator, on a clock whose sleeps pass at once: each check
 * whose pause may still land is read until the request timeout has passed
 * since that pause was sent, resumed whenever it reads paused, and every such
 * write is reported with what was seen.
 */
import { describe, expect, it } from '@jest/globals'
import type { Stored } from '../../emulator/store.js'
import { ApiError } from '../../src/api/errors.js'
import type { Check } from '../../src/api/schemas.js'
import {
  UNANSWERED_STATE,
  type Unanswered,
  recordedUnanswered,
  sendTracked,
  watchUnanswered,
  watchedWrite
} from '../../src/operations/checks/unanswered.js'
import { writableOf } from '../../src/operations/common.js'
import type { OperationContext } from '../../src/operations/types.js'
import { useEmulator } from '../helpers/harness.js'
import { type ContextOptions, contextOn } from '../helpers/operation-context.js'

const emulator = useEmulator({ rateLimit: false })
const T0 = Date.parse('2026-03-01T10:00:00.000Z')
const AT = '2026-03-01T10:00:00.000Z'
const TIMEOUT = 3_000

const failure = (kind: 'network' | 'timeout' | 'http' | 'redirect', status?: number) =>
  new ApiError({ kind: kind as never, method: 'PUT', path: '/checks/chk_1', status, detail: 'x' })

describe('sendTracked: what the post step is left', () => {
  const check = { id: 'chk_1', name: 'one' } as Check
  const tracked = () => {
    const { ctx, state } = contextOn(emulator)
    const pending: Unanswered[] = []
    return { send: sendTracked(ctx, pending), pending, saved: () => state[UNANSWERED_STATE] }
  }

  it('the last write answered: the state saved is empty, not a list', async () => {
    const { send, saved, pending } = tracked()
    await send(check, 'paused', async watch => watch.sent?.(T0))
    expect(saved()).toBe('')
    expect(pending).toEqual([])
  })

  it('each attempt moves the time to when it was sent; no answer at the last: kept at it', async () => {
    const { send, saved } = tracked()
    const error = failure('timeout')
    await expect(
      send(check, 'paused', async watch => {
        watch.sent?.(T0)
        watch.sent?.(T0 + 700)
        throw error
      })
    ).rejects.toBe(error)
    expect(recordedUnanswered(saved())).toEqual([{ id: 'chk_1', name: 'one', status: 'paused', sentAt: T0 + 700 }])
  })

  it('an attempt known lost before it was sent on is recorded at once', async () => {
    const { send, saved } = tracked()
    let during: Unanswered[] = []
    await send(check, 'up', async watch => {
      watch.unanswered?.(T0 + 5)
      during = recordedUnanswered(saved())
    })
    expect(during).toEqual([{ id: 'chk_1', name: 'one', status: 'up', sentAt: T0 + 5 }])
    // Answered after it: still kept, at the lost attempt.
    expect(recordedUnanswered(saved())).toEqual(during)
  })

  it('a refusal (4xx) after a lost attempt: kept, the lost one may still land', async () => {
    const { send, saved } = tracked()
    const refused = failure('http', 409)
    await expect(
      send(check, 'paused', async watch => {
        watch.sent?.(T0)
        watch.unanswered?.(T0)
        watch.sent?.(T0 + 900)
        throw refused
      })
    ).rejects.toBe(refused)
    expect(recordedUnanswered(saved())).toEqual([{ id: 'chk_1', name: 'one', status: 'paused', sentAt: T0 }])
  })

  it('kept: no answer, a timeout, a redirect refused, any error that is not an answer of the API; cleared: 400 to 499', async () => {
    for (const [error, kept] of [
      [failure('network'), true],
      [failure('timeout'), true],
      [failure('redirect', 302), true],
      [failure('http', 399), true],
      [failure('http', 400), false],
      [failure('http', 404), false],
      [failure('http', 499), false],
      [failure('http', 500), true],
      [failure('http', 503), true],
      [new TypeError('socket closed'), true]
    ] as const) {
      const { send, saved } = tracked()
      await expect(
        send(check, 'paused', async watch => {
          watch.sent?.(T0)
          throw error
        })
      ).rejects.toBe(error)
      expect([
        error.message,
        error instanceof ApiError ? error.status : 'no status',
        recordedUnanswered(saved()).length
      ]).toEqual([error.message, error instanceof ApiError ? error.status : 'no status', kept ? 1 : 0])
    }
  })

  it('several writes: only those left without an answer stay, in the order they were sent, each with its check', async () => {
    const { send, saved } = tracked()
    const checks = ['a', 'b', 'c'].map(n => ({ id: `chk_${n}`, name: n }) as Check)
    await expect(
      send(checks[0], 'paused', async watch => {
        watch.sent?.(T0)
        throw failure('network')
      })
    ).rejects.toThrow()
    await send(checks[1], 'paused', async watch => watch.sent?.(T0 + 1))
    await expect(
      send(checks[2], 'paused', async watch => {
        watch.sent?.(T0 + 2)
        throw failure('network')
      })
    ).rejects.toThrow()
    expect(recordedUnanswered(saved()).map(w => [w.id, w.sentAt])).toEqual([
      ['chk_a', T0],
      ['chk_c', T0 + 2]
    ])
  })

  it('a check without a name is recorded with an empty one', async () => {
    const { send, saved } = tracked()
    await expect(
      send({ id: 'chk_9' } as Check, 'paused', async watch => {
        watch.sent?.(T0)
        throw failure('network')
      })
    ).rejects.toThrow()
    expect(recordedUnanswered(saved())).toEqual([{ id: 'chk_9', name: '', status: 'paused', sentAt: T0 }])
  })
})

describe('recordedUnanswered: the state read back', () => {
  it('nothing, or text that is not a JSON list, is no write', () => {
    for (const text of ['', 'not json', '{"id":"chk_1"}', '"chk_1"', 'null', '3'])
      expect(recordedUnanswered(text)).toEqual([])
  })

  it('keeps each write with an id, a status and a finite time; drops any other entry', () => {
    const good = { id: 'chk_1', name: 'one', status: 'paused', sentAt: T0 }
    const text = `[${[
      JSON.stringify(good),
      'null',
      '"chk_2"',
      '7',
      JSON.stringify({ ...good, id: '' }),
      JSON.stringify({ ...good, id: 3 }),
      JSON.stringify({ name: 'x', status: 'paused', sentAt: T0 }),
      JSON.stringify({ ...good, status: 1 }),
      JSON.stringify({ id: 'chk_3', sentAt: T0 }),
      JSON.stringify({ ...good, sentAt: String(T0) }),
      JSON.stringify({ id: 'chk_4', status: 'up', sentAt: 0 }),
      '{"id":"chk_5","status":"paused","sentAt":1e999}'
    ].join(',')}]`
    expect(recordedUnanswered(text)).toEqual([good, { id: 'chk_4', status: 'up', sentAt: 0 }])
  })
})

describe('watchedWrite', () => {
  it('only a pause of a check the post step is to undo', () => {
    const w = (status: string): Unanswered => ({ id: 'chk_1', name: 'one', status, sentAt: T0 })
    expect(watchedWrite(w('paused'), new Set(['chk_1']))).toBe(true)
    expect(watchedWrite(w('paused'), new Set(['chk_2']))).toBe(false)
    expect(watchedWrite(w('up'), new Set(['chk_1']))).toBe(false)
    expect(watchedWrite(w('Paused'), new Set(['chk_1']))).toBe(false)
  })
})

describe('watchUnanswered: the post step over HTTP', () => {
  /** A check on the emulator, and the pause of it sent `ago` ms before the post step's start, never answered. */
  const pausedWrite = (name: string, ago = 0, status = 'up') => {
    const check = emulator.seedCheck({ name, url: 'https://shop.example.com', status })
    const write: Unanswered = { id: check.id, name, status: 'paused', sentAt: T0 - ago }
    return { check, write }
  }
  const stored = (id: string) => emulator.checks.get(id) as Stored
  const setStatus = (id: string, status: string) => void (stored(id).status = status)
  const statusOf = (id: string) => stored(id).status
  const getsOf = (id: string) => emulator.requests.filter(r => r.method === 'GET' && r.path === `/checks/${id}`).length
  const putsOf = (id: string) => emulator.requests.filter(r => r.method === 'PUT' && r.path === `/checks/${id}`).length
  const resumeWith = (ctx: OperationContext) => (check: Check) =>
    ctx.api.updateCheck(check.id, { ...writableOf(check), status: 'up' })
  /** The watch, on a context whose clock starts at T0, with a request timeout of 3 s unless told. */
  async function watch(writes: Unanswered[], toUndo: string[], options: ContextOptions = {}) {
    const test = contextOn(emulator, { requestTimeoutMs: TIMEOUT, start: T0, ...options })
    const outcome = await watchUnanswered(test.ctx, writes, new Set(toUndo), resumeWith(test.ctx))
    return { ...outcome, log: test.lines, slept: test.slept }
  }
  const notPausedLine = (w: Unanswered, seconds = 3) =>
    `the pause of ${w.id} (${JSON.stringify(w.name)}) sent at ${new Date(w.sentAt).toISOString()} was never answered, and ${w.id} was not paused when the request timeout (${seconds} s) had passed since: a service may still apply it later. Check ${w.id}'s status, and resume it if it is paused.`
  const resumedLine = (w: Unanswered, seconds = 3) =>
    `the pause of ${w.id} (${JSON.stringify(w.name)}) sent at ${new Date(w.sentAt).toISOString()} was never answered; ${w.id} was paused, and the post step resumed it, watching it until the request timeout (${seconds} s) had passed since. A service may still apply such a write later: if ${w.id} is paused again, resume it.`

  it('nothing to watch: no request, nothing said', async () => {
    const run = await watch([], ['chk_1'])
    expect(run).toMatchObject({ resumed: [], lines: [], failed: [] })
    expect(emulator.requests).toHaveLength(0)
  })

  it('a pause that never lands: read each second until the request timeout has passed since it was sent, then reported', async () => {
    const { check, write } = pausedWrite('shop')
    const run = await watch([write], [check.id])
    expect(getsOf(check.id)).toBe(4) // at 0, 1, 2 and 3 s
    expect(run.slept).toEqual([1000, 1000, 1000])
    expect(putsOf(check.id)).toBe(0)
    expect(run.resumed).toEqual([])
    expect(run.failed).toEqual([])
    expect(run.lines).toEqual([notPausedLine(write)])
    expect(run.lines[0]).toContain(`sent at ${AT}`)
    expect(run.lines[0]).toContain(`Check ${check.id}'s status`)
    expect(run.log.filter(l => l.startsWith('warning: '))).toEqual([`warning: ${notPausedLine(write)}`])
  })

  it('the deadline counts from when the pause was sent: a pause sent 2.5 s before the post step is watched 0.5 s', async () => {
    const { check, write } = pausedWrite('shop', 2500)
    const run = await watch([write], [check.id])
    expect(run.slept).toEqual([500])
    expect(getsOf(check.id)).toBe(2)
    expect(run.lines).toEqual([notPausedLine(write)])
  })

  it('sent exactly the request timeout ago, or longer: read once, then reported', async () => {
    for (const ago of [TIMEOUT, TIMEOUT + 1, 60_000]) {
      emulator.reset()
      const { check, write } = pausedWrite('shop', ago)
      const run = await watch([write], [check.id])
      expect([ago, getsOf(check.id), run.slept]).toEqual([ago, 1, []])
      expect(run.lines).toEqual([notPausedLine(write)])
    }
  })

  it('one ms short of the timeout: read once more, a ms later', async () => {
    const { check, write } = pausedWrite('shop', TIMEOUT - 1)
    const run = await watch([write], [check.id])
    expect(run.slept).toEqual([1])
    expect(getsOf(check.id)).toBe(2)
  })

  it("the request timeout in the report is the step's, in seconds", async () => {
    const { check, write } = pausedWrite('shop', 30_000)
    const run = await watch([write], [check.id], { requestTimeoutMs: 2_500 })
    expect(run.lines).toEqual([notPausedLine(write, 2.5)])
  })

  it('a pause that had landed: resumed at the first read, still watched to the deadline, reported as resumed', async () => {
    const { check, write } = pausedWrite('shop', 0, 'paused')
    const run = await watch([write], [check.id])
    expect(putsOf(check.id)).toBe(1)
    expect(statusOf(check.id)).toBe('up')
    expect(run.resumed.map(c => [c.id, c.status])).toEqual([[check.id, 'up']])
    expect(getsOf(check.id)).toBe(4)
    expect(run.lines).toEqual([resumedLine(write)])
    expect(run.failed).toEqual([])
  })

  it('a pause that lands late, during the watch: resumed when read paused', async () => {
    const { check, write } = pausedWrite('shop')
    const run = await watch([write], [check.id], {
      onSleep: now => {
        if (now === T0 + 2000) setStatus(check.id, 'paused')
      }
    })
    expect(putsOf(check.id)).toBe(1)
    expect(statusOf(check.id)).toBe('up')
    expect(run.resumed.map(c => c.id)).toEqual([check.id])
    expect(run.lines).toEqual([resumedLine(write)])
  })

  it('a status read paused in other letters is paused', async () => {
    const { check, write } = pausedWrite('shop', 0, 'PAUSED')
    const run = await watch([write], [check.id])
    expect(putsOf(check.id)).toBe(1)
    expect(run.resumed.map(c => c.id)).toEqual([check.id])
  })

  it('paused twice (the retry\'s pause, then the lost one landing): resumed twice, counted once, the second said "again"', async () => {
    const { check, write } = pausedWrite('shop', 0, 'paused')
    const run = await watch([write], [check.id], {
      onSleep: now => {
        if (now === T0 + 2000) setStatus(check.id, 'paused')
      }
    })
    expect(putsOf(check.id)).toBe(2)
    expect(statusOf(check.id)).toBe('up')
    expect(run.resumed.map(c => c.id)).toEqual([check.id])
    expect(run.lines).toEqual([resumedLine(write)])
  })

  it('logs each resume, the second as "again", and each report as a warning', async () => {
    const { check, write } = pausedWrite('shop', 0, 'paused')
    const test = contextOn(emulator, {
      requestTimeoutMs: TIMEOUT,
      start: T0,
      onSleep: now => {
        if (now === T0 + 1000) setStatus(check.id, 'paused')
      }
    })
    const run = await watchUnanswered(test.ctx, [write], new Set([check.id]), resumeWith(test.ctx))
    expect(test.lines.filter(l => !l.startsWith('info: GET') && !l.startsWith('info: PUT'))).toEqual([
      `info: auto-resume: ${check.id} was paused: resumed.`,
      `info: auto-resume: ${check.id} was paused again: resumed.`,
      `warning: ${resumedLine(write)}`
    ])
    expect(run.lines).toEqual([resumedLine(write)])
  })

  it('writes it does not watch are reported at once, first, without a read: a resume, a pause of a check not to undo, another status', async () => {
    const { check, write } = pausedWrite('shop')
    const resume: Unanswered = { id: 'chk_r', name: 'r', status: 'up', sentAt: T0 }
    const other: Unanswered = { id: 'chk_o', name: 'o', status: 'paused', sentAt: T0 }
    const odd: Unanswered = { id: 'chk_d', name: 'd', status: 'down', sentAt: T0 }
    const test = contextOn(emulator, { requestTimeoutMs: TIMEOUT, start: T0 })
    const run = await watchUnanswered(test.ctx, [resume, write, other, odd], new Set([check.id]), resumeWith(test.ctx))
    const unwatched = (what: string, w: Unanswered) =>
      `the ${what} of ${w.id} (${JSON.stringify(w.name)}) sent at ${AT} was never answered (the step was cancelled or the connection failed): the service may still apply it. Check ${w.id}'s status.`
    expect(run.lines).toEqual([
      unwatched('resume', resume),
      unwatched('pause', other),
      unwatched('write of status "down"', odd),
      notPausedLine(write)
    ])
    expect(test.lines.filter(l => l.startsWith('warning: '))).toEqual(run.lines.map(l => `warning: ${l}`))
    expect(emulator.requests.map(r => r.path).filter(p => !p.endsWith(check.id))).toEqual([])
  })

  it('a check deleted meanwhile: said once, nothing to resume, not read again', async () => {
    const { check, write } = pausedWrite('shop')
    emulator.checks.delete(check.id)
    const run = await watch([write], [check.id])
    expect(getsOf(check.id)).toBe(1)
    expect(run.slept).toEqual([])
    expect(run.lines).toEqual([
      `the pause of ${check.id} ("shop") sent at ${AT} was never answered, and ${check.id} no longer exists: nothing to resume.`
    ])
    expect(run.failed).toEqual([])
  })

  it('a check that cannot be read: a failure naming it and why, not read again; the others still watched', async () => {
    const a = pausedWrite('a')
    const b = pausedWrite('b')
    emulator.inject({ method: 'GET', path: `/checks/${a.check.id}`, status: 500 })
    const run = await watch([a.write, b.write], [a.check.id, b.check.id])
    expect(run.failed).toHaveLength(1)
    expect(run.failed[0]).toMatch(
      new RegExp(
        `^${a.check.id} \\(its pause was never answered, and it could not be read to see whether it landed\\): GET /checks/${a.check.id} .*500`
      )
    )
    expect(getsOf(a.check.id)).toBe(1)
    expect(getsOf(b.check.id)).toBe(4)
    expect(run.lines).toEqual([notPausedLine(b.write)])
  })

  it('a resume that fails: a failure naming the check, not read again', async () => {
    const { check, write } = pausedWrite('shop', 0, 'paused')
    emulator.inject({ method: 'PUT', path: `/checks/${check.id}`, status: 500 })
    const run = await watch([write], [check.id])
    expect(run.failed).toHaveLength(1)
    expect(run.failed[0]).toMatch(new RegExp(`^${check.id}: PUT /checks/${check.id} .*500`))
    expect(run.resumed).toEqual([])
    expect(getsOf(check.id)).toBe(1)
    expect(run.lines).toEqual([])
  })

  it('a failure that is not an Error is still named', async () => {
    const { check, write } = pausedWrite('shop', 0, 'paused')
    const test = contextOn(emulator, { requestTimeoutMs: TIMEOUT, start: T0 })
    const run = await watchUnanswered(test.ctx, [write], new Set([check.id]), () => Promise.reject('refused'))
    expect(run.failed).toEqual([`${check.id}: refused`])
  })

  it('several writes: each read until its own deadline, the wait never past the nearest one', async () => {
    const early = pausedWrite('early', 2700) // its deadline 0.3 s in
    const late = pausedWrite('late') // 3 s in
    const run = await watch([early.write, late.write], [early.check.id, late.check.id])
    expect(run.slept).toEqual([300, 1000, 1000, 700])
    expect(getsOf(early.check.id)).toBe(2)
    expect(getsOf(late.check.id)).toBe(5)
    expect(run.lines).toEqual([notPausedLine(early.write), notPausedLine(late.write)])
  })

  it('cancelled during the watch: what it could not tell is said, naming the check, and nothing more is read', async () => {
    const { check, write } = pausedWrite('shop', 0, 'paused')
    const cancel = new AbortController()
    const test = contextOn(emulator, { requestTimeoutMs: TIMEOUT, start: T0, signal: cancel.signal })
    const resume = resumeWith(test.ctx)
    const run = await watchUnanswered(test.ctx, [write], new Set([check.id]), async c => {
      const done = await resume(c)
      cancel.abort()
      return done
    })
    expect(run.resumed.map(c => c.id)).toEqual([check.id])
    expect(test.slept).toEqual([])
    expect(getsOf(check.id)).toBe(1)
    expect(run.lines).toEqual([
      `the pause of ${check.id} ("shop") sent at ${AT} was never answered, and the post step was cancelled before it could tell whether it landed. Check ${check.id} by hand.`
    ])
  })
})
