import { describe, expect, it } from '@jest/globals'
import { ApiError } from '../../src/api/errors.js'
import type { Check } from '../../src/api/schemas.js'
import { UNANSWERED_STATE, recordedUnanswered, sendTracked } from '../../src/operations/checks/unanswered.js'
import type { OperationContext } from '../../src/operations/types.js'

/** What sendTracked uses of the context: the clock and the post step's state (the last value saved). */
function context() {
  const state: Record<string, string> = {}
  const ctx = {
    clock: { now: () => 1000 },
    remember: (n: string, v: string) => (state[n] = v)
  } as unknown as OperationContext
  return { ctx, recorded: () => recordedUnanswered(state[UNANSWERED_STATE] ?? '') }
}
const check = { id: 'chk_1', name: 'one' } as Check
const failure = (kind: 'network' | 'cancelled' | 'http', status?: number) =>
  new ApiError({ kind: kind as never, method: 'PUT', path: '/checks/chk_1', status, detail: 'x' })

describe('sendTracked: which writes the post step hears of', () => {
  it('kept under the state the post step is given back: "unanswered-writes" (the runner\'s STATE_unanswered-writes)', async () => {
    const state: Record<string, string> = {}
    const ctx = {
      clock: { now: () => 1000 },
      remember: (n: string, v: string) => (state[n] = v)
    } as unknown as OperationContext
    await sendTracked(ctx, [])(check, 'paused', async watch => {
      watch.sent?.(1234)
      expect(state).toEqual({
        'unanswered-writes': JSON.stringify([{ id: 'chk_1', name: 'one', status: 'paused', sentAt: 1234 }])
      })
      return 'ok'
    })
    expect(state).toEqual({ 'unanswered-writes': '' })
  })

  it('never sent (cancelled or refused while waiting for its turn): never recorded', async () => {
    const { ctx, recorded } = context()
    const send = sendTracked(ctx, [])
    await expect(send(check, 'paused', () => Promise.reject(failure('cancelled')))).rejects.toThrow()
    expect(recorded()).toEqual([])
  })

  it('recorded from the moment it is sent; answered: cleared', async () => {
    const { ctx, recorded } = context()
    const send = sendTracked(ctx, [])
    let during: unknown
    await send(check, 'paused', async watch => {
      watch.sent?.(1234)
      during = recorded()
      return 'ok'
    })
    expect(during).toEqual([{ id: 'chk_1', name: 'one', status: 'paused', sentAt: 1234 }])
    expect(recorded()).toEqual([])
  })

  it('an attempt without an answer, then an answered retry: kept, at the lost attempt', async () => {
    const { ctx, recorded } = context()
    const send = sendTracked(ctx, [])
    await send(check, 'paused', async watch => {
      watch.sent?.(2000)
      watch.unanswered?.(2000)
      watch.sent?.(2600)
      return 'ok'
    })
    expect(recorded()).toEqual([{ id: 'chk_1', name: 'one', status: 'paused', sentAt: 2000 }])
  })

  it('refused (4xx, a 400 or a 499): cleared; a server error (500) or no answer: kept', async () => {
    for (const [error, kept] of [
      [failure('http', 400), false],
      [failure('http', 499), false],
      [failure('http', 500), true],
      [failure('network'), true]
    ] as const) {
      const { ctx, recorded } = context()
      const send = sendTracked(ctx, [])
      await expect(
        send(check, 'paused', async watch => {
          watch.sent?.(3000)
          throw error
        })
      ).rejects.toBe(error)
      expect([error.status, recorded().length]).toEqual([error.status, kept ? 1 : 0])
    }
  })
})
