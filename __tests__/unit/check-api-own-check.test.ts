/**
 * check-api's own check, module by module (own-check.ts) over HTTP to the
 * emulator, with a clock whose sleeps pass at once: what the main step saves
 * before and after each write, where a failure is said to have stopped the
 * writes, and what the post step deletes, how long it watches a create sent
 * without an answer (each sleep), and each line it says.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import { OWN_CHECK_STATE, afterCheckApi, ownBody, tryWrites } from '../../src/operations/service/own-check.js'
import type { WritesSeen } from '../../src/operations/service/seen.js'
import { useEmulator } from '../helpers/harness.js'
import { type ContextOptions, contextOn } from '../helpers/operation-context.js'

const emulator = useEmulator({ rateLimit: false })
const NAME = 'check-api-0a1b2c3d'
const START = Date.parse('2026-03-01T10:00:00.000Z')

/** A context whose every save of the own check is kept, in order. */
function recording(options: ContextOptions = {}) {
  const test = contextOn(emulator, options)
  const saves: string[] = []
  const remember = test.ctx.remember
  test.ctx.remember = (name, value) => {
    if (name === OWN_CHECK_STATE) saves.push(value)
    remember(name, value)
  }
  return { ...test, saves }
}

describe('the main step: tryWrites', () => {
  it('saves the name before the create, the time it was sent, then the id; cleared once deleted', async () => {
    const { ctx, saves, lines, state } = recording()
    const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
    await tryWrites(ctx, [], writes)
    const id = writes.id as string
    // The state the runner gives the post step back as STATE_check-api-own-check.
    expect(state).toEqual({ 'check-api-own-check': '' })
    expect(saves).toEqual([
      JSON.stringify({ name: NAME }),
      JSON.stringify({ name: NAME, sentAt: START }),
      JSON.stringify({ name: NAME, id }),
      ''
    ])
    expect(lines).toEqual([
      `info: check-api created its own check ${id} (${NAME}), status paused.`,
      `info: check-api deleted its own check ${id}.`
    ])
    expect(writes).toMatchObject({ resumed: 'up', paused: 'paused', deleted: true })
    // The PUT of name, url and status alone: paused, and the interval it left out gone (the emulator replaces).
    expect(writes.afterPut).toMatchObject({ name: NAME, url: 'https://example.com/', status: 'paused' })
    expect(writes.afterPut?.interval ?? null).toBeNull()
    expect(writes.failed).toBeUndefined()
    expect(emulator.checks.size).toBe(0)
  })

  it('the body of the create: paused, no alert channel, an interval of an hour', () => {
    expect(ownBody(NAME)).toEqual({
      name: NAME,
      url: 'https://example.com/',
      type: 'http',
      interval: 3600,
      alertChannels: [],
      status: 'paused'
    })
  })

  it('a refused create: stopped at POST /checks; nothing of its name is left, and nothing else is touched', async () => {
    const other = emulator.seedCheck({ name: `${NAME}-x`, url: 'https://shop.example.com' })
    emulator.inject({ method: 'POST', path: '/checks', status: 422, body: { error: 'no' } })
    const { ctx, lines } = recording()
    const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
    const error = await tryWrites(ctx, [], writes).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(writes.failed).toEqual({ at: 'POST /checks', why: (error as Error).message })
    expect(writes.deleted).toBe(true)
    expect(lines).toEqual([`info: check-api deleted its own check ${NAME}.`])
    expect([...emulator.checks.keys()]).toEqual([other.id])
  })

  it('a failed PUT: stopped at PUT /checks/{id}; the check is deleted all the same', async () => {
    emulator.inject({ method: 'PUT', path: 're:^/checks/', status: 500, body: { error: 'boom' } })
    const { ctx } = recording()
    const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
    const error = await tryWrites(ctx, [], writes).catch((e: unknown) => e)
    expect(writes.failed).toEqual({ at: `PUT /checks/${writes.id}`, why: (error as Error).message })
    expect(writes.deleted).toBe(true)
    expect(emulator.checks.size).toBe(0)
  })

  it('each later write or read that fails is named where the writes stopped; the check is deleted all the same', async () => {
    const stops = [
      ['updateCheck', 2, 'PUT', '(resume)'],
      ['updateCheck', 3, 'PUT', '(pause)'],
      ['getCheck', 2, 'GET', ''],
      ['getCheck', 3, 'GET', '']
    ] as const
    for (const [method, nth, verb, what] of stops) {
      const { ctx } = recording()
      const api = ctx.api as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
      const real = api[method].bind(ctx.api)
      let calls = 0
      // The nth call of that kind fails at the service (500): the request is sent, and answered so.
      api[method] = (...args: unknown[]) => {
        if (++calls === nth)
          emulator.inject({ method: verb, path: 're:^/checks/', status: 500, body: { error: 'boom' } })
        return real(...args)
      }
      const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
      const error = await tryWrites(ctx, [], writes).catch((e: unknown) => e)
      expect(writes.failed).toEqual({
        at: `${verb} /checks/${writes.id}${what ? ` ${what}` : ''}`,
        why: (error as Error).message
      })
      expect([writes.deleted, emulator.checks.size]).toEqual([true, 0])
    }
  })

  it('a read back that finds the check gone: stopped there, saying so', async () => {
    emulator.inject({ method: 'GET', path: 're:^/checks/[^/]+$', status: 404, body: { error: 'not found' } })
    const { ctx } = recording()
    const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
    const error = await tryWrites(ctx, [], writes).catch((e: unknown) => e)
    expect((error as Error).message).toBe(`GET /checks/${writes.id}: the check was gone`)
    expect(writes.failed).toEqual({
      at: `GET /checks/${writes.id}`,
      why: `GET /checks/${writes.id}: the check was gone`
    })
  })

  it('a delete that fails: warned with the check and why, and left saved for the post step', async () => {
    emulator.inject({ method: 'DELETE', path: 're:^/checks/', status: 500, body: { error: 'boom' } })
    const { ctx, lines, state } = recording()
    const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
    await tryWrites(ctx, [], writes)
    const id = writes.id as string
    expect(typeof writes.deleted).toBe('string')
    expect(lines.at(-1)).toBe(
      `warning: check-api could not delete its own check ${id} (${NAME}): ${writes.deleted as string}. The post step deletes it when the job ends.`
    )
    expect(JSON.parse(state[OWN_CHECK_STATE])).toEqual({ name: NAME, id })
  })

  it('a delete that fails before any id: warned by its name alone', async () => {
    emulator.inject({ method: 'POST', path: '/checks', status: 422, body: { error: 'no' } })
    emulator.inject({ method: 'GET', path: '/checks', status: 500, body: { error: 'boom' } })
    const { ctx, lines } = recording()
    const writes: WritesSeen = { name: NAME, sent: ownBody(NAME) }
    await tryWrites(ctx, [], writes).catch(() => undefined)
    expect(lines).toEqual([
      `warning: check-api could not delete its own check ${NAME}: ${writes.deleted as string}. The post step deletes it when the job ends.`
    ])
  })
})

describe('the post step: afterCheckApi', () => {
  const saved = (own: Record<string, unknown>) => ({ [OWN_CHECK_STATE]: JSON.stringify(own) })
  const summary = (line: string) => ({ title: 'check-api: its own check', lines: [line], tables: [] })

  it('nothing saved, or a name not its own: nothing sent, nothing said', async () => {
    const { ctx, lines } = recording()
    expect(await afterCheckApi(ctx, {})).toBeUndefined()
    expect(await afterCheckApi(ctx, { [OWN_CHECK_STATE]: '' })).toBeUndefined()
    expect(await afterCheckApi(ctx, saved({ name: 'shop', id: 'chk_1' }))).toBeUndefined()
    expect(emulator.requests).toHaveLength(0)
    expect(lines).toEqual([])
  })

  it('an id saved: deleted by it, at once (no watch, even with a time saved)', async () => {
    const own = emulator.seedCheck({ name: NAME, url: 'https://example.com/' })
    const { ctx, lines, slept } = recording()
    const line = `check-api's own check ${own.id} (${NAME}) was left by the main step: deleted.`
    expect(await afterCheckApi(ctx, saved({ name: NAME, id: own.id, sentAt: START }))).toEqual(summary(line))
    expect(lines).toEqual([`info: ${line}`])
    expect(slept).toEqual([])
    expect(emulator.checks.size).toBe(0)
  })

  it('an id saved whose check is gone: nothing to delete', async () => {
    const { ctx, lines } = recording()
    const line = `check-api's own check ${NAME} was not there: nothing to delete.`
    expect(await afterCheckApi(ctx, saved({ name: NAME, id: 'chk_gone' }))).toEqual(summary(line))
    expect(lines).toEqual([`info: ${line}`])
  })

  it("a name alone (never sent): every check of exactly that name, read once; others' alike names kept", async () => {
    const a = emulator.seedCheck({ name: NAME, url: 'https://example.com/' })
    const b = emulator.seedCheck({ name: NAME, url: 'https://example.com/' })
    const kept = [
      emulator.seedCheck({ name: `${NAME}-x`, url: 'https://example.com/' }),
      emulator.seedCheck({ name: NAME.toUpperCase(), url: 'https://example.com/' }),
      emulator.seedCheck({ name: ` ${NAME}`, url: 'https://example.com/' })
    ]
    const { ctx, lines, slept } = recording()
    await afterCheckApi(ctx, saved({ name: NAME }))
    expect(lines).toEqual([
      `info: check-api's own check ${a.id}, ${b.id} (${NAME}) was left by the main step: deleted.`
    ])
    expect(slept).toEqual([])
    expect([...emulator.checks.keys()].sort()).toEqual(kept.map(c => c.id).sort())
  })

  it('a create sent without an answer: the list read each second until twice request-timeout has passed since it was sent', async () => {
    const { ctx, lines, slept } = recording({ requestTimeoutMs: 2_000 })
    // Sent 1.5 s before the post step: 2.5 s of the 4 s are left.
    await afterCheckApi(ctx, saved({ name: NAME, sentAt: START - 1_500 }))
    expect(slept).toEqual([1_000, 1_000, 500])
    expect(emulator.count('GET', '/checks')).toBe(4)
    expect(lines).toEqual([
      `info: check-api's own check ${NAME} was not there when twice the request timeout (4 s) had passed since its create was sent: nothing to delete.`
    ])
  })

  it('a time saved later than now counts as now; one long past is read once', async () => {
    const later = recording({ requestTimeoutMs: 1_500 })
    await afterCheckApi(later.ctx, saved({ name: NAME, sentAt: START + 3_600_000 }))
    expect(later.slept).toEqual([1_000, 1_000, 1_000])
    const past = recording({ requestTimeoutMs: 1_500 })
    await afterCheckApi(past.ctx, saved({ name: NAME, sentAt: START - 3_000 }))
    expect(past.slept).toEqual([])
    // Exactly at its end: no wait of nothing.
    const edge = recording({ requestTimeoutMs: 1_500 })
    await afterCheckApi(edge.ctx, saved({ name: NAME, sentAt: START - 2_000 }))
    expect(edge.slept).toEqual([1_000])
  })

  it('a check of its name that lands during the watch is deleted, and the watch goes on to its end', async () => {
    let landed = ''
    const { ctx, lines, slept } = recording({
      requestTimeoutMs: 2_000,
      onSleep: now => {
        if (now === START + 2_000) landed = emulator.seedCheck({ name: NAME, url: 'https://example.com/' }).id
      }
    })
    await afterCheckApi(ctx, saved({ name: NAME, sentAt: START }))
    expect(slept).toEqual([1_000, 1_000, 1_000, 1_000])
    expect(lines).toEqual([`info: check-api's own check ${landed} (${NAME}) was left by the main step: deleted.`])
    expect(emulator.checks.size).toBe(0)
  })

  it('cancelled during the watch: a warning that says what was deleted and that the create could still land', async () => {
    const controller = new AbortController()
    let landed = ''
    const { ctx, lines, slept } = recording({
      requestTimeoutMs: 5_000,
      signal: controller.signal,
      onSleep: now => {
        if (now === START + 1_000)
          landed = [1, 2].map(() => emulator.seedCheck({ name: NAME, url: 'https://example.com/' }).id).join(', ')
        if (now === START + 3_000) controller.abort()
      }
    })
    const result = await afterCheckApi(ctx, saved({ name: NAME, sentAt: START }))
    const line = `check-api's own check ${NAME} was deleted (${landed}), but the post step was cancelled while its create (sent without an answer) could still land: if a check named ${NAME} appears, delete it.`
    expect(result).toEqual(summary(line))
    expect(lines).toEqual([`warning: ${line}`])
    expect(slept).toEqual([1_000, 1_000, 1_000])
  })

  it('cancelled during the watch with nothing landed: a warning that it was not there yet', async () => {
    const controller = new AbortController()
    const { ctx, lines } = recording({
      requestTimeoutMs: 5_000,
      signal: controller.signal,
      onSleep: now => now === START + 2_000 && controller.abort()
    })
    await afterCheckApi(ctx, saved({ name: NAME, sentAt: START }))
    expect(lines).toEqual([
      `warning: check-api's own check ${NAME} was not there yet, and the post step was cancelled while its create (sent without an answer) could still land: if a check named ${NAME} appears, delete it.`
    ])
  })

  it('cancelled before the first read: the id left to delete by hand, said as a warning', async () => {
    const own = emulator.seedCheck({ name: NAME, url: 'https://example.com/' })
    const controller = new AbortController()
    controller.abort()
    const { ctx, lines } = recording({ signal: controller.signal })
    await afterCheckApi(ctx, saved({ name: NAME, id: own.id }))
    expect(lines).toEqual([
      `warning: check-api's own check ${own.id} (${NAME}) was left by the main step, and the post step was cancelled before it was deleted: delete it by hand.`
    ])
    expect(emulator.checks.size).toBe(1)
  })

  it("a delete the service refuses, not cancelled: the error is the post step's", async () => {
    const own = emulator.seedCheck({ name: NAME, url: 'https://example.com/' })
    emulator.inject({ method: 'DELETE', path: 're:^/checks/', status: 500, body: { error: 'boom' } })
    const { ctx, lines } = recording()
    await expect(afterCheckApi(ctx, saved({ name: NAME, id: own.id }))).rejects.toThrow(`DELETE /checks/${own.id}`)
    expect(lines).toEqual([])
  })
})
