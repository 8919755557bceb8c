/**
 * One comment, one issue, even when GitHub refuses an edit: keepOne keeps the
 * oldest of ours that GitHub lets this run bring up to date, makes a new one
 * when it refuses every one found, and takes the others out of the way
 * (tidy): one already gone is as good, any other failure is a warning naming
 * GitHub's answer, and the rest are still tidied. Driven here with plain
 * in-memory writings, no HTTP.
 */
import { describe, expect, it, jest } from '@jest/globals'
import { getEventListeners } from 'node:events'
import { type Writings, keepOne, oursAfterMaking, refusalOf, tidy } from '../../src/github/keep-one.js'

interface Item {
  id: number
  retired?: boolean
}

/** A GitHub failure as Octokit throws it. */
const answer = (status: number, message = 'Resource not accessible by integration', headers = {}) =>
  Object.assign(new Error(message), { status, response: { headers } })

interface World {
  items: Item[]
  /** id -> what GitHub answers an update of it with. */
  refuseEdit: Map<number, Error>
  refuseRetire: Map<number, Error>
  /** What a list answers before the made one shows (a lagging list), counted down per read. */
  lag: number
  log: string[]
  updated: number[]
  retiredIds: number[]
  made: number[]
}

function world(ids: number[], options: Partial<Pick<World, 'lag'>> = {}): World {
  return {
    items: ids.map(id => ({ id })),
    refuseEdit: new Map(),
    refuseRetire: new Map(),
    lag: options.lag ?? 0,
    log: [],
    updated: [],
    retiredIds: [],
    made: []
  }
}

function writings(w: World): Writings<Item> {
  let next = 100
  let hidden: Item[] = []
  return {
    label: 'pr-comment',
    noun: 'comment',
    idOf: item => item.id,
    nameOf: item => `#${item.id}`,
    listOurs: async () => {
      if (w.lag > 0) {
        w.lag--
        return w.items.filter(item => !hidden.includes(item))
      }
      hidden = []
      return [...w.items]
    },
    make: async () => {
      const item = { id: next++ }
      w.items.push(item)
      if (w.lag > 0) hidden.push(item)
      w.made.push(item.id)
      return item
    },
    update: async candidate => {
      const refused = w.refuseEdit.get(candidate.id)
      if (refused) throw refused
      w.updated.push(candidate.id)
    },
    retired: item => item.retired === true,
    retire: async (other, kept) => {
      const refused = w.refuseRetire.get(other.id)
      if (refused) throw refused
      w.retiredIds.push(other.id)
      return `#${other.id} deleted (the comment is #${kept.id})`
    },
    retiring: 'deleted or edited into a pointer',
    log: {
      debug: () => undefined,
      info: m => void w.log.push(`info: ${m}`),
      warning: m => void w.log.push(`warning: ${m}`)
    } as Writings<Item>['log'],
    signal: new AbortController().signal,
    timeoutMs: 1000
  }
}

describe('keepOne: which of ours is kept', () => {
  it('none found: one is made and kept, nothing tidied', async () => {
    const w = world([])
    const kept = await keepOne(writings(w))
    expect(kept.id).toBe(100)
    expect(w.made).toEqual([100])
    expect(w.updated).toEqual([100])
    expect(w.retiredIds).toEqual([])
    expect(w.log).toEqual([])
  })

  it('several found: the oldest is brought up to date, the others taken out of the way', async () => {
    const w = world([3, 5, 9])
    const kept = await keepOne(writings(w))
    expect(kept.id).toBe(3)
    expect(w.updated).toEqual([3])
    expect(w.retiredIds).toEqual([5, 9])
    expect(w.made).toEqual([])
    expect(w.log).toEqual([
      'info: pr-comment: #5 deleted (the comment is #3)',
      'info: pr-comment: #9 deleted (the comment is #3)'
    ])
  })

  it('one already out of the way (a closed issue) is not taken out again', async () => {
    const w = world([3, 5, 9])
    w.items[1].retired = true
    await keepOne(writings(w))
    expect(w.retiredIds).toEqual([9])
  })

  it.each([403, 404, 410, 422])('the oldest refused (%i): the next is kept, and the refusal is said', async status => {
    const w = world([3, 5])
    w.refuseEdit.set(3, answer(status, 'No'))
    const kept = await keepOne(writings(w))
    expect(kept.id).toBe(5)
    expect(w.updated).toEqual([5])
    expect(w.made).toEqual([])
    expect(w.log[0]).toBe(`info: pr-comment: GitHub refused to edit #3 (HTTP ${status}: No); another comment is kept.`)
    // The refused one is tidied like any other of ours.
    expect(w.retiredIds).toEqual([3])
  })

  it('every one found refused: a new one is made and kept, the refused ones tidied', async () => {
    const w = world([3, 5])
    w.refuseEdit.set(3, answer(403))
    w.refuseEdit.set(5, answer(422, 'Validation Failed'))
    const kept = await keepOne(writings(w))
    expect(kept.id).toBe(100)
    expect(w.made).toEqual([100])
    expect(w.updated).toEqual([100])
    expect(w.retiredIds).toEqual([3, 5])
    expect(w.log.filter(l => l.includes('refused to edit'))).toHaveLength(2)
  })

  it('the new one is listed late (GitHub lags): it is still kept, and nothing is made twice', async () => {
    const w = world([3], { lag: 2 })
    w.refuseEdit.set(3, answer(403))
    const kept = await keepOne(writings(w))
    expect(kept.id).toBe(100)
    expect(w.made).toEqual([100])
  })

  it('a refusal of the one this run just made is thrown, not hidden', async () => {
    const w = world([])
    w.refuseEdit.set(100, answer(403, 'Forbidden'))
    await expect(keepOne(writings(w))).rejects.toThrow('Forbidden')
  })

  it('a failure that is no refusal (a 500, a rate limit) is thrown as it came', async () => {
    for (const error of [
      answer(500, 'Server Error'),
      answer(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0' })
    ]) {
      const w = world([3, 5])
      w.refuseEdit.set(3, error)
      await expect(keepOne(writings(w))).rejects.toBe(error)
      expect(w.updated).toEqual([])
      expect(w.made).toEqual([])
    }
  })

  it('a run after one that made a new one edits that one in place: one kept, none made', async () => {
    const w = world([3])
    w.refuseEdit.set(3, answer(403))
    w.refuseRetire.set(3, answer(403))
    await keepOne(writings(w))
    const again = await keepOne(writings(w))
    expect(again.id).toBe(100)
    expect(w.made).toEqual([100])
  })
})

describe('tidy: the others taken out of the way', () => {
  it('one already gone (404) is as good: no warning, and the rest are tidied', async () => {
    const w = world([3, 5, 9])
    w.refuseRetire.set(5, answer(404, 'Not Found'))
    const done = await tidy(writings(w), [{ id: 5 }, { id: 9 }], other => writings(w).retire(other, { id: 3 }), {
      id: 3
    })
    expect(done.map(item => item.id)).toEqual([9])
    expect(w.log.filter(l => l.startsWith('warning'))).toEqual([])
  })

  it("another failure is a warning naming GitHub's answer and the live one; the rest are still tidied", async () => {
    const w = world([3, 5, 9])
    w.refuseRetire.set(5, answer(403))
    const done = await tidy(writings(w), [{ id: 5 }, { id: 9 }], other => writings(w).retire(other, { id: 3 }), {
      id: 3
    })
    expect(done.map(item => item.id)).toEqual([9])
    expect(w.log).toContain(
      "warning: pr-comment: #5, another of this step's comments, could not be deleted or edited into a pointer (HTTP 403: Resource not accessible by integration); the comment is #3. The step goes on."
    )
  })

  it('with none kept (the drift ended), the warning says so without a live one', async () => {
    const w = world([5])
    w.refuseRetire.set(5, answer(422, 'Validation Failed'))
    await tidy(writings(w), [{ id: 5 }], other => writings(w).retire(other, { id: 0 }), undefined)
    expect(w.log).toEqual([
      "warning: pr-comment: #5, one of this step's comments, could not be deleted or edited into a pointer (HTTP 422: Validation Failed). The step goes on."
    ])
  })
})

describe('refusalOf: what GitHub refusing a change is', () => {
  it('403 (no rate limit), 404, 410 and 422, with its message; nothing else', () => {
    expect(refusalOf(answer(403, 'Resource not accessible by integration'))).toBe(
      'HTTP 403: Resource not accessible by integration'
    )
    expect(refusalOf(answer(404, 'Not Found'))).toBe('HTTP 404: Not Found')
    expect(refusalOf(answer(410, 'Gone'))).toBe('HTTP 410: Gone')
    expect(refusalOf(answer(422, ''))).toBe('HTTP 422')
    for (const status of [400, 401, 409, 429, 500, 502]) expect(refusalOf(answer(status))).toBeUndefined()
    expect(refusalOf(answer(403, 'You have exceeded a secondary rate limit', { 'retry-after': '30' }))).toBeUndefined()
    expect(refusalOf(new Error('socket hang up'))).toBeUndefined()
  })
})

describe('oursAfterMaking: the list read again until it shows the one made', () => {
  const ids = (items: Item[]) => items.map(item => item.id)
  const never = new AbortController().signal

  it('all of ours, oldest first, the one made once', async () => {
    const made = { id: 7 }
    const ours = await oursAfterMaking(
      made,
      async () => [{ id: 9 }, made, { id: 3 }],
      item => item.id,
      never
    )
    expect(ids(ours)).toEqual([3, 7, 9])
  })

  it('a racing run’s one that the list shows only a moment later is found, with ours', async () => {
    const made = { id: 100 }
    const started = Date.now()
    const list = async () => (Date.now() - started < 200 ? [] : [made, { id: 50 }])
    expect(ids(await oursAfterMaking(made, list, item => item.id, never))).toEqual([50, 100])
  })

  it('the one made, never listed in the time allowed, is still among ours', async () => {
    const made = { id: 100 }
    expect(
      ids(
        await oursAfterMaking(
          made,
          async () => [{ id: 4 }],
          item => item.id,
          never
        )
      )
    ).toEqual([4, 100])
  }, 15_000)

  it('a cancel during the wait ends it at once with the cancel’s reason', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(new Error('cancelled')), 100)
    let reads = 0
    const started = Date.now()
    await expect(
      oursAfterMaking(
        { id: 1 },
        async () => (reads++, []),
        item => item.id,
        controller.signal
      )
    ).rejects.toThrow('cancelled')
    expect(Date.now() - started).toBeLessThan(1000)
    // the cancel came during the first wait (250 ms): the list was not read again
    expect(reads).toBe(1)
  })

  it('a job already cancelled: no wait is begun, the cancel’s reason thrown after the first read', async () => {
    const controller = new AbortController()
    controller.abort(new Error('cancelled'))
    let reads = 0
    await expect(
      oursAfterMaking(
        { id: 1 },
        async () => (reads++, []),
        item => item.id,
        controller.signal
      )
    ).rejects.toThrow('cancelled')
    expect(reads).toBe(1)
  })

  it('its waits leave nothing behind: no timer after a cancel, no listener on the job’s signal once they end', async () => {
    jest.useFakeTimers()
    try {
      const made = { id: 100 }
      let reads = 0
      const ended = new AbortController()
      // the one made shows at the third read, after two waits
      const settled = oursAfterMaking(
        made,
        async () => (++reads >= 3 ? [made] : []),
        item => item.id,
        ended.signal
      )
      await jest.advanceTimersByTimeAsync(1_000)
      expect(ids(await settled)).toEqual([100])
      expect(reads).toBe(3)
      expect(getEventListeners(ended.signal, 'abort')).toEqual([])

      const cancelled = new AbortController()
      const waiting = oursAfterMaking(
        { id: 1 },
        async () => [],
        item => item.id,
        cancelled.signal
      )
      await jest.advanceTimersByTimeAsync(100) // in the first wait (250 ms)
      expect(jest.getTimerCount()).toBe(1)
      cancelled.abort(new Error('cancelled'))
      await expect(waiting).rejects.toThrow('cancelled')
      // nothing holds the step's process after a cancel, nor listens on the signal
      expect(jest.getTimerCount()).toBe(0)
      expect(getEventListeners(cancelled.signal, 'abort')).toEqual([])
    } finally {
      jest.useRealTimers()
    }
  })
})

describe('keepOne after a race', () => {
  it('an older one of a racing run that GitHub will not let this run edit: the one this run made is kept', async () => {
    const w = world([])
    const writing = writings(w)
    const make = writing.make
    writing.make = async () => {
      w.items.push({ id: 3 }) // another run's, made at the same moment
      w.refuseEdit.set(3, answer(403))
      return make()
    }
    const kept = await keepOne(writing)
    expect(kept.id).toBe(100)
    expect(w.made).toEqual([100])
    expect(w.retiredIds).toEqual([3])
  })
})
