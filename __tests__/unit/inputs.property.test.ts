/**
 * Property-based tests: random and hostile strings for every input give either
 * a valid config or one InputError that names the input; never a crash, never
 * a request.
 */
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { parseConfig } from '../../src/inputs/read.js'
import { INPUTS, InputError, RawInputs } from '../../src/inputs/table.js'
import { run } from '../../src/main.js'
import { OPERATIONS } from '../../src/operations/registry.js'
import { parseDuration } from '../../src/values/parse.js'
import { hintFor } from '../../src/core/failure.js'
import { fakeCore } from '../helpers/fake-core.js'

const valid: RawInputs = { operation: 'list-checks', 'api-key': 'k-123456', 'base-url': 'https://api.example.com/v1' }
const NAMES: readonly string[] = [...INPUTS, ...OPERATIONS]

/** Hostile strings: any unicode, control characters, YAML/JSON-looking text, huge values. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...' ,\n\t:-[]{}"\'#&*!|>%@`\u0000\u001b\u202e5sm.h'.split('')), maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }).map(v => JSON.stringify(v)),
  fc.constantFrom(
    'yes',
    'on',
    'NaN',
    '-1',
    '1e9',
    'Infinity',
    '0x10',
    '1m30',
    '99999999999999999999',
    '~',
    'null',
    '---'
  ),
  fc.integer({ min: 1, max: 200_000 }).map(n => 'x'.repeat(n))
)

/** Parse; the outcome is a Config or an InputError whose message starts with an input's name. */
function outcome(raw: RawInputs): 'ok' | string {
  try {
    parseConfig(raw)
    return 'ok'
  } catch (error) {
    if (!(error instanceof InputError)) throw new Error(`not an InputError: ${String(error)}`, { cause: error })
    return error.message
  }
}

describe('every input, any string', () => {
  it.each(INPUTS.map(n => [n]))('%s: a config or an error naming an input', name => {
    fc.assert(
      fc.property(hostile, value => {
        const result = outcome({ ...valid, [name]: value })
        if (result !== 'ok') {
          expect(
            NAMES.some(n => result.startsWith(n) || result.startsWith(`the input \`${n}\``)) ||
              result.startsWith('unknown input')
          ).toBe(true)
          expect(result.length).toBeLessThan(2_000)
          expect(result).not.toMatch(/\n\s+at /)
        }
      }),
      { numRuns: 150 }
    )
  })

  it('the api-key value never appears in an error', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 40 }), key => {
        const result = outcome({ ...valid, 'api-key': key })
        if (result !== 'ok' && key.trim().length >= 6) expect(result).not.toContain(key.trim())
      }),
      { numRuns: 300 }
    )
  })
})

describe('durations', () => {
  it('a number with units combined parses to the sum', () => {
    const part = fc.tuple(fc.integer({ min: 0, max: 50 }), fc.constantFrom('ms', 's', 'm'))
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), parts => {
        const text = parts.map(([n, u]) => `${n}${u}`).join('')
        const ms = parts.reduce((sum, [n, u]) => sum + n * { ms: 1, s: 1000, m: 60_000 }[u], 0)
        expect(parseDuration(text)).toBe(ms)
      })
    )
  })

  it('plain seconds are seconds', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 86_400 }), n => expect(parseDuration(String(n))).toBe(n * 1000)))
  })
})

describe('specs', () => {
  it('any JSON object as check is kept field by field (known fields validated)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), spec => {
        const result = (() => {
          try {
            return parseConfig({ ...valid, check: JSON.stringify(spec) })
          } catch (error) {
            expect(error).toBeInstanceOf(InputError)
            expect(String((error as Error).message)).toMatch(/^(check|the input `check`)/)
            return undefined
          }
        })()
        if (result && !['name', 'url', 'type', 'interval', 'alertChannels', 'status'].some(k => k in spec)) {
          expect(result.check).toEqual(JSON.parse(JSON.stringify(spec))) // JSON has no -0
        }
      }),
      { numRuns: 200 }
    )
  })
})

describe('run() with hostile inputs', () => {
  it('never crashes, fails with one message when the inputs are bad, and then sends nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...INPUTS), hostile, { maxKeys: 6 }),
        fc.constantFrom(...OPERATIONS),
        async (inputs, operation) => {
          const raw = { ...valid, operation, ...inputs }
          const core = fakeCore(raw)
          let apis = 0
          await run({
            core,
            clock: { now: () => 0, sleep: async () => {} },
            env: {},
            runContext: async () => {
              throw new Error('not needed')
            },
            makeApi: () => {
              apis++
              throw new Error('stop before any request')
            }
          })
          // The key and the GitHub token (each whole, and each of their lines) are redacted from
          // every message, even where another input holds the same text.
          const secrets: string[] = []
          for (const secret of [raw['api-key'] ?? '', raw['github-token'] ?? '']) {
            for (const form of [secret, ...secret.split(/\r?\n|\r/).map(line => line.trim())]) {
              if (form !== '' && !secrets.includes(form)) secrets.push(form)
            }
          }
          // ... and a control character (ESC, NUL) is never written as it is: shown as its code.
          const shown = (text: string) =>
            secrets
              .filter(s => s.length >= 4)
              .reduce((t, s) => t.split(s).join('***'), text)
              .replace(
                /[\u0000-\u0008\u000e-\u001f\u007f\u0080-\u0084\u0086-\u009f]/g,
                ch => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`
              )
          const result = outcome(raw)
          // The failure is the input error with the hint main adds to some (an empty api-key).
          const hint = result === 'ok' ? '' : hintFor(new InputError(result), {}, undefined)
          const parsed = result === 'ok' ? result : shown(hint ? result.replace(/\.$/, '') + hint : result)
          if (parsed !== 'ok') {
            expect(apis).toBe(0)
            if (core.failed !== undefined) expect(core.failed).toBe(parsed)
            else expect(core.outputs.error).toBe(parsed)
          }
          // the key is masked before anything else happens
          if (raw['api-key']) expect(core.secrets[0]).toBe(raw['api-key'])
        }
      ),
      { numRuns: 300 }
    )
    process.exitCode = 0
  })
})
