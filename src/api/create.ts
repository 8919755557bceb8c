/**
 * POST a new resource, never making a duplicate. After an ambiguous failure
 * (5xx, timeout, dropped connection) the collection is listed: an item that
 * `matches` and whose id is not in `before` is the one created. If there is
 * none, the POST is sent again, within the retry budget. (Runs racing on one
 * name are a different matter: operations/names/converge.ts. There a found create
 * is marked `recovered`: it may be another run's; after a confirmed miss that
 * does not matter, since every same-named one was made during the step.)
 */
import type * as z from 'zod/mini'
import type { ApiClient } from './client.js'
import type { AttemptWatch } from './types.js'
import { ApiError, isAmbiguous } from './errors.js'
import { backoffMs } from './retry.js'

/** A resource a POST created. */
export interface Created<T> {
  item: T
  /** Found by looking after an ambiguous failure, rather than in the answer. */
  recovered: boolean
  /** How long the create took to be answered (the last attempt), for the settle wait of converge. */
  tookMs: number
}

export interface Recovery<T> {
  /** Ids in the collection before the create. */
  before: ReadonlySet<string>
  /** Is this item the one the POST would have made? */
  matches: (item: T) => boolean
  /** Told of each attempt of the POST sent, and of each without an answer (ApiClient.send). */
  watch?: AttemptWatch
}

export async function createResource<S extends z.ZodMiniType<{ id: string }>>(
  client: ApiClient,
  path: string,
  body: Record<string, unknown>,
  schema: S,
  what: string,
  recovery: Recovery<z.output<S>>
): Promise<Created<z.output<S>>> {
  const { maxRetries, requestTimeoutMs } = client.settings
  for (let attempt = 1; ; attempt++) {
    const started = client.clock.now()
    try {
      const response = await client.send('POST', path, body, undefined, recovery.watch)
      if (response.body.trim() === '') {
        throw new ApiError({
          kind: 'invalid-response',
          method: 'POST',
          path,
          status: response.status,
          detail: `returned HTTP ${response.status} with an empty body; expected the created ${what}`
        })
      }
      const item = client.readOne(schema, 'POST', response, `the created ${what}`)
      return { item, recovered: false, tookMs: response.tookMs }
    } catch (error) {
      const unreadable = error instanceof ApiError && error.kind === 'invalid-response'
      if (!isAmbiguous(error) && !unreadable) throw error
      const failure = error as ApiError
      const failedAt = client.clock.now()
      client.log.warning(`${failure.message}. Looking ${path} up to see whether the ${what} was created anyway.`)
      if (failure.kind === 'timeout') {
        // The server may still be working on it: give it as long again before looking.
        await client.waitToRetry(requestTimeoutMs, 'POST', path, failure.detail)
      }
      const found = (await client.list(path, schema, what)).filter(
        item => !recovery.before.has(item.id) && recovery.matches(item)
      )
      if (found.length > 0) {
        // Racing runs may have created the same meanwhile: which one is ours is unknown. Take the
        // smallest id, as every such run does; convergence (operations/names/converge.ts) then keeps one.
        const item = found.reduce((a, b) => (b.id < a.id ? b : a))
        client.log.info(`The ${what} was created despite the failure: ${item.id}`)
        // How long the create took is unknown: at least until the failure.
        return { item, recovered: true, tookMs: failedAt - started }
      }
      // A 2xx said it was created: sending it again could only make a second one.
      if (unreadable) throw failure
      if (attempt > maxRetries) {
        throw new ApiError({
          kind: failure.kind,
          method: 'POST',
          path,
          status: failure.status,
          serverMessage: failure.serverMessage,
          detail: `${failure.detail} (${attempt} attempts; no ${what} was created: checked after each failure)`
        })
      }
      const ms = backoffMs(attempt, client.random)
      await client.waitToRetry(ms, 'POST', path, failure.detail, () =>
        client.log.warning(
          `No ${what} was created; sending POST ${path} again (retry ${attempt} of ${maxRetries}) in ${(ms / 1000).toFixed(1)} s`
        )
      )
    }
  }
}
