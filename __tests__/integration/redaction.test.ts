/**
 * The key never shows, not even in part: a server that echoes the
 * Authorization header places the key at every offset around each length the
 * action shortens server text to (300 characters of an error message, 120 of a
 * body that is not JSON). Redaction happens before shortening.
 */
import { describe, expect, it } from '@jest/globals'
import { runAction, useEmulator } from '../helpers/harness.js'

const KEY = 'sk_live_9fQ2xZ7LmW3pR8tYv'

const emulator = useEmulator({ apiKeys: [KEY] })

/** Every piece of the key of 5 characters or more that appears in `text`. */
function keyPieces(text: string): string[] {
  const found: string[] = []
  for (let start = 0; start + 5 <= KEY.length; start++) {
    if (text.includes(KEY.slice(start, start + 5))) found.push(KEY.slice(start, start + 5))
  }
  return found
}

/** Pads that put the echoed `Bearer <key>` across `clip`: starting before it and ending after it. */
const padsAround = (clip: number) => {
  const echo = 'Bearer '.length + KEY.length
  const pads: number[] = []
  for (let pad = clip - echo - 2; pad <= clip + 1; pad++) pads.push(pad)
  return pads
}

describe('redact before clipping', () => {
  it('an error message echoing the key across the 300-character cut shows no part of it', async () => {
    for (const pad of padsAround(300)) {
      emulator.inject({
        path: '/checks',
        status: 400,
        body: { error: { message: `${'m'.repeat(pad)}{authorization}` } }
      })
      const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': KEY })
      expect(core.failed).toContain('GET /checks failed: HTTP 400')
      expect({ pad, pieces: keyPieces(core.everything()) }).toEqual({ pad, pieces: [] })
    }
  })

  it('a body that is not JSON, echoing the key across the 120-character cut, shows no part of it', async () => {
    for (const pad of padsAround(120)) {
      emulator.inject({ path: '/checks', status: 200, body: `${'t'.repeat(pad)}{authorization}` })
      const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': KEY })
      expect(core.failed).toContain('but its body is not JSON')
      expect({ pad, pieces: keyPieces(core.everything()) }).toEqual({ pad, pieces: [] })
    }
  })

  it('a 429 whose message echoes the key, given up on, shows no part of it', async () => {
    for (const pad of padsAround(300)) {
      emulator.inject({
        path: '/checks',
        status: 429,
        body: { message: `${'r'.repeat(pad)}{authorization}` },
        times: 1
      })
      const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': KEY, 'max-retries': '0' })
      expect(core.failed).toContain('rate limited')
      expect({ pad, pieces: keyPieces(core.everything()) }).toEqual({ pad, pieces: [] })
    }
  })
})
