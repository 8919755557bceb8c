/** fail-on-error: false, and bad input that fails before any request. */
import { describe, expect, it } from '@jest/globals'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/'

describe('fail-on-error: false', () => {
  it('ends green with a warning and the error output', async () => {
    const { core } = await runAction(emulator, {
      operation: 'get-check',
      'check-id': 'chk_none',
      'fail-on-error': 'false'
    })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.error).toContain('check chk_none not found')
    expect(core.logs.some(l => l.startsWith('warning:') && l.includes('fail-on-error is false'))).toBe(true)
  })

  it('also in the post step: a resume that fails is a warning', async () => {
    const check = emulator.seedCheck({ name: 'p', url: site, status: 'up' })
    const inputs = {
      operation: 'pause-check',
      'check-id': check.id,
      'auto-resume': 'true',
      'fail-on-error': 'false',
      'max-retries': '0'
    }
    const main = await runAction(emulator, inputs)
    emulator.inject({ method: 'PUT', status: 500, times: Infinity })
    const post = await runAction(emulator, inputs, { state: main.core.state })
    expect(post.core.failed).toBeUndefined()
    expect(
      post.core.logs.some(
        l =>
          l.startsWith('warning: auto-resume could not resume 1 of 1 check(s)') &&
          l.includes(`PUT /checks/${check.id} failed: HTTP 500`)
      )
    ).toBe(true)
    const strict = await runAction(emulator, { ...inputs, 'fail-on-error': 'true' }, { state: main.core.state })
    expect(strict.core.failed).toContain(`PUT /checks/${check.id} failed: HTTP 500`)
  })

  it('also for bad input', async () => {
    const { core } = await runAction(emulator, { operation: 'get-check', 'fail-on-error': 'false', timeout: 'soon' })
    expect(core.failed).toBeUndefined()
    expect(core.outputs.error).toContain('timeout must be a duration')
  })
})

describe('bad input', () => {
  it('fails before any request, naming the input', async () => {
    const { core } = await runAction(emulator, {
      operation: 'create-check',
      'check-name': 'x',
      'check-url': site,
      'check-interval': 'abc'
    })
    expect(core.failed).toBe('check-interval must be a whole number, got "abc"')
    expect(emulator.count()).toBe(0)
  })

  it('refuses plain http to a non-loopback host', async () => {
    const { core } = await runAction(undefined, { operation: 'list-checks', 'base-url': 'http://api.example.com/v1' })
    expect(core.failed).toContain('base-url must use https')
  })
})

describe('an unexpected error', () => {
  it('fails with its message; its stack goes to the debug log only', async () => {
    const { core } = await runAction(
      undefined,
      { operation: 'list-checks', 'base-url': 'http://127.0.0.1:9/v1' },
      {
        makeApi: () => {
          throw new TypeError('something is not a function')
        }
      }
    )
    expect(core.failed).toBe('something is not a function')
    const debug = core.logs.filter(l => l.startsWith('debug: '))
    expect(debug).toContainEqual(expect.stringContaining('unexpected error; its stack'))
    expect(debug.some(l => /at .*core\/run\.ts/.test(l))).toBe(true)
    expect(core.logs.filter(l => !l.startsWith('debug: ')).join('\n')).not.toContain(' at ')
  })
})
