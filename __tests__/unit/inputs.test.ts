import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { failOnErrorOf, parseConfig } from '../../src/inputs/read.js'
import { INPUTS, RawInputs } from '../../src/inputs/table.js'
import { inputsNotApplying } from '../../src/inputs/warnings.js'

// The YAML parser is loaded before parsing, as main does (src/lazy/modules.cjs).
beforeAll(() => load('yaml'))

const base: RawInputs = { 'api-key': 'k3y', 'base-url': 'https://api.example.com/v1/' }
const parse = (inputs: RawInputs) => parseConfig({ ...base, ...inputs })

describe('parseConfig', () => {
  it('applies defaults', () => {
    const c = parse({ operation: 'list-checks' })
    expect(c).toMatchObject({
      baseUrl: 'https://api.example.com/v1',
      expectedStatus: 'up',
      requireFresh: true,
      timeoutMs: 300_000,
      pollIntervalMs: 10_000,
      dryRun: false,
      failOnError: true,
      maxRetries: 3,
      requestTimeoutMs: 30_000,
      jobSummary: true,
      autoResume: false,
      prune: false
    })
  })

  it('treats empty inputs as not set', () => {
    const c = parse({ operation: 'list-checks', timeout: '', 'max-retries': '  ' })
    expect(c.timeoutMs).toBe(300_000)
    expect(c.maxRetries).toBe(3)
  })

  it('merges the check spec with shorthand inputs, which win', () => {
    const c = parse({
      operation: 'create-check',
      check: '{"name": "a", "url": "https://a.example.com", "interval": 10, "custom": {"x": 1}}',
      'check-url': 'https://b.example.com',
      'check-interval': '20',
      'alert-channels': 'email\nslack',
      'check-type': 'http'
    })
    expect(c.check).toEqual({
      name: 'a',
      url: 'https://b.example.com',
      interval: 20,
      custom: { x: 1 },
      alertChannels: ['email', 'slack'],
      type: 'http'
    })
  })

  it.each<[RawInputs, string]>([
    [{}, 'operation is required'],
    [{ operation: 'explode' }, 'operation must be one of create-check'],
    [{ operation: 'list-checks', 'base-url': undefined }, 'base-url is required'],
    [{ operation: 'list-checks', 'api-key': undefined }, 'api-key is required'],
    [{ operation: 'list-checks', 'base-url': 'ftp://x/v1' }, 'base-url must be an https URL'],
    [{ operation: 'list-checks', 'base-url': 'http://api.example.com/v1' }, 'base-url must use https'],
    [{ operation: 'list-checks', 'base-url': 'not a url' }, 'base-url must be an absolute URL'],
    [{ operation: 'list-checks', 'base-url': 'https://u:p@x.example.com/v1' }, 'base-url must not contain a user name'],
    [{ operation: 'list-checks', timeout: '5 minutes' }, 'timeout must be a duration'],
    [{ operation: 'list-checks', 'dry-run': 'yes' }, 'dry-run must be true or false, got "yes"'],
    [{ operation: 'list-checks', 'max-retries': '11' }, 'max-retries must be between 0 and 10'],
    [{ operation: 'list-checks', 'request-timeout': '10ms' }, 'request-timeout must be at least 100ms'],
    [{ operation: 'create-check', 'check-name': 'a' }, 'create-check needs a check URL'],
    [{ operation: 'create-check', 'check-url': 'https://a.example.com' }, 'create-check needs a check name'],
    [{ operation: 'create-check', 'check-name': 'a', 'check-url': 'nope' }, 'check-url must be an absolute URL'],
    [
      { operation: 'create-check', check: 'name: a\nurl: https://a\ninterval: soon' },
      'check: interval must be a whole number above 0'
    ],
    [{ operation: 'create-check', check: '- a' }, 'the input `check` must be a YAML or JSON mapping'],
    [{ operation: 'get-check' }, 'get-check needs check-id or check-name'],
    [{ operation: 'get-check', 'check-id': 'a,b' }, 'check-id takes one id for get-check, got 2'],
    [{ operation: 'pause-check' }, 'pause-check needs check-id, check-name, name-prefix or name-pattern (one or more)'],
    [
      { operation: 'delete-check', 'name-prefix': '  ' },
      'delete-check needs check-id, check-name, name-prefix or name-pattern'
    ],
    [
      { operation: 'pause-check', 'name-pattern': 'shop-[eu' },
      'name-pattern holds "shop-[eu", which has a [ (character 6) that is never closed by a ]'
    ],
    [
      { operation: 'delete-check', 'name-pattern': 'shop-\\' },
      'name-pattern holds "shop-\\\\", which ends with a lone \\'
    ],
    [{ operation: 'list-checks', 'name-pattern': ' , ' }, 'name-pattern holds no pattern'],
    [
      { operation: 'wait-for-check', 'name-pattern': 'shop-*', exclude: '[z-a]' },
      'exclude holds "[z-a]", which has an empty range'
    ],
    [
      { operation: 'pause-check', 'check-name': 'shop-eu', exclude: 'shop-us-*' },
      'exclude only applies with name-prefix or name-pattern'
    ],
    [{ operation: 'list-checks', exclude: '*-us-*' }, 'exclude only applies with name-prefix or name-pattern'],
    [
      { operation: 'delete-check', 'name-prefix': 'pr-1-', 'check-id': 'a,b' },
      'check-id takes one id for delete-check'
    ],
    [{ operation: 'get-check', 'name-prefix': 'shop-' }, 'get-check needs check-id or check-name'],
    [{ operation: 'update-check', 'check-id': 'chk_1' }, 'update-check needs something to change'],
    [{ operation: 'sync-checks' }, 'sync-checks needs checks-file'],
    [
      { operation: 'sync-checks', 'checks-file': 'f.yml', 'prune-prefix': 'x' },
      'prune-prefix only applies with prune: true'
    ],
    [{ operation: 'open-incident' }, 'open-incident needs an incident title'],
    [{ operation: 'resolve-incident' }, 'resolve-incident needs incident-id or incident-title'],
    [{ operation: 'create-status-page' }, 'create-status-page needs a status page name'],
    [{ operation: 'list-checks', 'check-interval': '0' }, 'check-interval must be between 1'],
    [
      { operation: 'list-checks', 'incident-title': 'a\u0000b' },
      'incident-title must be one line without control characters'
    ]
  ])('%j fails with a message naming the input', (inputs, message) => {
    expect(() => parse(inputs)).toThrow(message)
  })

  it('a baseline in days says the limit, at most 24h', () => {
    for (const baseline of ['7d', '1d', '2w']) {
      expect(() =>
        parse({ operation: 'wait-for-check', 'check-id': 'c', baseline, 'max-response-time-increase': '20%' })
      ).toThrow(
        `baseline must be a duration such as 30m, 1h, 24h or 1h30m (at most 24h${baseline.endsWith('d') ? '; days are not a unit here' : ''}), got "${baseline}"`
      )
    }
  })

  it('an empty base-url says the variable it reads may be unset or withheld', () => {
    for (const empty of ['', '  ', undefined]) {
      expect(() => parse({ operation: 'list-checks', 'base-url': empty })).toThrow(
        'base-url is required. It is empty: the variable it reads is not set in this repository, or is withheld from this run (variables are not passed to a workflow run for a pull request from a fork). Store the API root (https://api.example.com/v1) as a variable (Settings > Secrets and variables > Actions > Variables) and pass it: base-url: ${{ vars.MONITORING_BASE_URL }}'
      )
    }
  })

  it('never echoes the key in an error about it', () => {
    expect(() => parse({ operation: 'list-checks', 'api-key': 'secret value' })).toThrow(
      'api-key must be a single token without spaces'
    )
    try {
      parse({ operation: 'list-checks', 'api-key': 'secret value' })
    } catch (error) {
      expect(String(error)).not.toContain('secret')
    }
  })

  it('accepts http on loopback hosts', () => {
    for (const url of ['http://localhost:8080/v1', 'http://127.0.0.1/v1', 'http://127.1.2.3/v1', 'http://[::1]:9/v1']) {
      expect(parse({ operation: 'list-checks', 'base-url': url }).baseUrl).toBe(url)
    }
  })

  it('lists for multi-check operations', () => {
    const c = parse({ operation: 'wait-for-check', 'check-id': 'chk_1, chk_2, chk_3', 'max-response-time': '800ms' })
    expect(c.checkIds).toEqual(['chk_1', 'chk_2', 'chk_3'])
    expect(parse({ operation: 'wait-for-check', 'check-id': 'chk_1\nchk_2\nchk_3' }).checkIds).toEqual([
      'chk_1',
      'chk_2',
      'chk_3'
    ])
    expect(c.maxResponseTimeMs).toBe(800)
  })

  it('knows every input of action.yml only', () => {
    expect(INPUTS).toHaveLength(new Set(INPUTS).size)
  })
})

describe('baseline and max-response-time-increase', () => {
  const gate = (inputs: RawInputs) => parse({ operation: 'wait-for-check', 'check-id': 'chk_1', ...inputs })

  it('are read together: a window and a percentage or a duration', () => {
    expect(gate({ baseline: '24h', 'max-response-time-increase': '20%' })).toMatchObject({
      baselineMs: 86_400_000,
      maxIncrease: { percent: 20 }
    })
    expect(gate({ baseline: '90m', 'max-response-time-increase': '150ms' })).toMatchObject({
      baselineMs: 5_400_000,
      maxIncrease: { ms: 150 }
    })
    const none = gate({})
    expect(none.baselineMs).toBeUndefined()
    expect(none.maxIncrease).toBeUndefined()
  })

  it('a bad value is an input error naming the input', () => {
    expect(() => gate({ baseline: '24h', 'max-response-time-increase': 'x' })).toThrow(
      'max-response-time-increase must be a percentage (20%) or a duration (150ms), got "x"'
    )
    expect(() => gate({ baseline: '24h', 'max-response-time-increase': '150' })).toThrow(
      'max-response-time-increase "150" has no unit: write 150% or 150ms (at most 24h; a bare number is refused here)'
    )
    expect(() => gate({ baseline: 'yesterday', 'max-response-time-increase': '20%' })).toThrow(
      /^baseline must be a duration/
    )
    expect(() => gate({ baseline: '2d', 'max-response-time-increase': '20%' })).toThrow(/^baseline must be a duration/)
    expect(() => gate({ baseline: '0', 'max-response-time-increase': '20%' })).toThrow(
      /^baseline must be longer than 0/
    )
  })

  it('one without the other is an input error for wait-for-check (a window without a limit would judge nothing)', () => {
    expect(() => gate({ baseline: '24h' })).toThrow(/^baseline needs max-response-time-increase/)
    expect(() => gate({ 'max-response-time-increase': '20%' })).toThrow(/^max-response-time-increase needs baseline/)
  })

  it('another operation ignores them (main warns that they apply to wait-for-check only)', () => {
    expect(() => parse({ operation: 'list-checks', baseline: '24h' })).not.toThrow()
    expect(inputsNotApplying({ baseline: '24h', 'max-response-time-increase': '20%' }, 'list-checks')).toEqual([
      'baseline applies to wait-for-check, not list-checks: it is ignored',
      'max-response-time-increase applies to wait-for-check, not list-checks: it is ignored'
    ])
  })
})

describe('a bare number in a duration input', () => {
  const gate = (inputs: RawInputs) => parse({ operation: 'wait-for-check', 'check-id': 'chk_1', ...inputs })
  const refused = (unit: string) => `(at most ${unit}; a bare number is refused here)`

  it('is refused the same way by every window and increase, naming the input and showing the fix', () => {
    expect(() => gate({ baseline: '45', 'max-response-time-increase': '20%' })).toThrow(
      `baseline "45" has no unit: write 45s or 45m ${refused('24h')}`
    )
    expect(() => gate({ slo: '99.9%', 'slo-window': '45' })).toThrow(
      `slo-window "45" has no unit: write 45h or 45d ${refused('90d')}`
    )
    expect(() => parse({ operation: 'check-history', 'check-id': 'chk_1', since: '45' })).toThrow(
      `since "45" has no unit: write 45m, 45h or 45d ${refused('366d')}`
    )
    expect(() => gate({ baseline: '1h', 'max-response-time-increase': '45' })).toThrow(
      `max-response-time-increase "45" has no unit: write 45% or 45ms ${refused('24h')}`
    )
  })

  it('shows only the forms within the limit (or the units, when none is)', () => {
    expect(() => gate({ baseline: '1.5', 'max-response-time-increase': '20%' })).toThrow(
      'baseline "1.5" has no unit: write 1.5s, 1.5m or 1.5h'
    )
    expect(() => gate({ baseline: '100000', 'max-response-time-increase': '20%' })).toThrow(
      'baseline "100000" has no unit: write it with one of ms, s, m, h'
    )
  })

  it('is plain seconds in timeout, poll-interval and request-timeout, as the contract documents (timeout: 90)', () => {
    expect(gate({ timeout: '90', 'poll-interval': '5', 'request-timeout': '1.5' })).toMatchObject({
      timeoutMs: 90_000,
      pollIntervalMs: 5_000,
      requestTimeoutMs: 1_500
    })
  })

  it('zero needs no unit: a window of 0 is refused as empty, not for its unit', () => {
    expect(() => gate({ baseline: '0', 'max-response-time-increase': '20%' })).toThrow(
      /^baseline must be longer than 0/
    )
  })
})

describe('name-prefix as a target', () => {
  it.each(['pause-check', 'resume-check', 'wait-for-check', 'delete-check'])(
    '%s takes name-prefix alone as its targets, and with check-id / check-name',
    operation => {
      expect(parse({ operation, 'name-prefix': 'shop-' })).toMatchObject({ namePrefix: 'shop-', checkIds: [] })
      expect(parse({ operation, 'name-prefix': 'shop-', 'check-name': 'billing' })).toMatchObject({
        namePrefix: 'shop-',
        checkNames: ['billing']
      })
      expect(inputsNotApplying({ 'name-prefix': 'shop-' }, operation as 'pause-check')).toEqual([])
    }
  )

  it('delete-check with name-prefix reads max-deletions; other check operations are warned that name-prefix does not apply', () => {
    expect(parse({ operation: 'delete-check', 'name-prefix': 'pr-1-', 'max-deletions': '3' }).maxDeletions).toBe(3)
    expect(inputsNotApplying({ 'max-deletions': '3' }, 'delete-check')).toEqual([])
    expect(inputsNotApplying({ 'name-prefix': 'shop-' }, 'get-check')).toEqual([
      'name-prefix applies to export-checks, list-checks, pause-check, resume-check, wait-for-check, delete-check, not get-check: it is ignored'
    ])
  })
})

describe('failOnErrorOf', () => {
  it('is true unless a valid false', () => {
    expect(failOnErrorOf({})).toBe(true)
    expect(failOnErrorOf({ 'fail-on-error': 'False' })).toBe(false)
    expect(failOnErrorOf({ 'fail-on-error': 'nope' })).toBe(true)
  })
})

describe('targets: names with commas, ids that would address another path', () => {
  it('a single-check operation takes the whole check-name, commas included', () => {
    for (const operation of ['get-check', 'update-check', 'delete-check', 'check-history', 'upsert-check']) {
      const c = parse({
        operation,
        'check-name': ' Shop, EU ',
        'check-url': 'https://shop.example.com',
        check: 'interval: 5'
      })
      expect(c.checkNames).toEqual(['Shop, EU'])
    }
    expect(
      parse({ operation: 'create-check', 'check-name': 'Shop, EU', 'check-url': 'https://a.example' }).check.name
    ).toBe('Shop, EU')
  })

  it('a single-check operation refuses several lines', () => {
    expect(() => parse({ operation: 'get-check', 'check-name': 'a\nb' })).toThrow(
      'check-name takes one name for get-check, got 2 lines'
    )
  })

  it('list operations split on newlines when there is one, else on commas', () => {
    expect(parse({ operation: 'pause-check', 'check-name': 'Shop, EU\nShop, US' }).checkNames).toEqual([
      'Shop, EU',
      'Shop, US'
    ])
    expect(parse({ operation: 'wait-for-check', 'check-name': 'a, b' }).checkNames).toEqual(['a', 'b'])
    expect(
      parse({ operation: 'create-check', check: 'name: a\nurl: https://a.example', 'alert-channels': 'x, y' }).check
        .alertChannels
    ).toEqual(['x', 'y'])
  })

  it.each([
    ['check-id', 'get-check', '.'],
    ['check-id', 'delete-check', '..'],
    ['check-id', 'pause-check', 'chk_1, ..'],
    ['incident-id', 'resolve-incident', '..'],
    ['status-page-id', 'get-status-page', '.']
  ])('%s %j for %s is refused, naming the input', (input, operation, value) => {
    expect(() => parse({ operation, [input]: value })).toThrow(
      new RegExp(`^${input} .*"\\.\\.?": an id cannot be empty, "\\." or "\\.\\."`)
    )
  })

  it('an api-key with a character a header cannot carry is an input error that does not echo it', () => {
    for (const key of ['clé-secrète', 'key\u00a0x', 'k\u200bey']) {
      let message = ''
      try {
        parseConfig({ ...base, operation: 'list-checks', 'api-key': key })
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toMatch(/^api-key must /)
      expect(message).not.toContain(key)
    }
  })

  it('a check spec that YAML turns into binary data or a set names the input check', () => {
    expect(() => parse({ operation: 'create-check', check: '!!binary AAAA' })).toThrow(
      /^the input `check` must be a YAML or JSON mapping/
    )
    expect(() => parse({ operation: 'create-check', check: '!!set {a: null}' })).toThrow(
      /^the input `check` must be a YAML or JSON mapping/
    )
  })
})

describe('the inputs written in YAML or JSON', () => {
  it('are the three spec inputs: only they make a step load the YAML parser', async () => {
    const { YAML_INPUTS } = await import('../../src/inputs/table.js')
    expect([...YAML_INPUTS].sort()).toEqual(['check', 'incident', 'status-page'])
  })
})
