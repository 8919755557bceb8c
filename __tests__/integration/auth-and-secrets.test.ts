/** Authentication: a 401 names where keys are found; the key never shows, also when pasted with a line break. */
import { describe, expect, it } from '@jest/globals'
import { KEY, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

describe('authentication', () => {
  it('a 401 says where keys are found, is not retried, and never shows the key', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': 'wrong-key-value-123' })
    expect(core.failed).toContain('GET /checks failed: HTTP 401 Unauthorized: Invalid API key')
    expect(core.failed).toContain('account settings, under "API access"')
    expect(emulator.count()).toBe(1)
    expect(core.everything()).not.toContain('wrong-key-value-123')
  })

  it('a server that echoes the key in its error never gets it into outputs or the summary', async () => {
    emulator.inject({ path: '/checks', status: 400, body: { error: `bad key ${KEY}` } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('bad key ***')
    expect(core.everything()).not.toContain(KEY)
  })
})

describe('secrets', () => {
  it('the key is masked before anything else is printed or sent', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    const firstNonInput = core.calls.find(c => c !== 'getInput')
    expect(firstNonInput).toBe('setSecret')
    expect(emulator.requests.length).toBe(1)
  })
})

describe('a key pasted with a line break', () => {
  it('is masked whole and line by line, and refused before any request', async () => {
    const { core } = await runAction(emulator, {
      operation: 'list-checks',
      'api-key': 'first-half-1234\nsecond-half-5678'
    })
    expect(core.secrets).toEqual(
      expect.arrayContaining(['first-half-1234\nsecond-half-5678', 'first-half-1234', 'second-half-5678'])
    )
    expect(core.failed).toBe('api-key must be a single token without spaces, line breaks or control characters')
    expect(emulator.count()).toBe(0)
  })
})
