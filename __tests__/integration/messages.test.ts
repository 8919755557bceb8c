/** Messages that help: each asserts the helpful part, not only that something failed. */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const warnings = (logs: string[]) => logs.filter(l => l.startsWith('warning: '))

describe('did you mean', () => {
  it('an operation name with a slip', async () => {
    const { core } = await runAction(emulator, { operation: 'upsert-chek' })
    expect(core.failed).toContain('got "upsert-chek" (did you mean "upsert-check"?)')
    expect(emulator.count()).toBe(0)
  })

  it('a check name not found names the closest names on the service', async () => {
    emulator.seedCheck({ name: 'shop-checkout', url: 'https://s.example.com/' })
    emulator.seedCheck({ name: 'shop-catalog', url: 'https://s.example.com/c' })
    const { core } = await runAction(emulator, { operation: 'get-check', 'check-name': 'shop-chekout' })
    expect(core.failed).toContain(
      'no check named "shop-chekout" (looked through 2 checks) (did you mean "shop-checkout"?)'
    )
  })

  it('an incident placeholder with a slip is a warning naming the right one; the placeholder is sent as written', async () => {
    const { core } = await runAction(emulator, {
      operation: 'open-incident',
      'incident-title': 'Down',
      'incident-message': 'See {runurl}'
    })
    expect(core.failed).toBeUndefined()
    expect(warnings(core.logs)[0]).toContain(
      'incident-message: {runurl} is not a placeholder (did you mean {run_url}?)'
    )
    expect([...emulator.incidents.values()][0].message).toBe('See {runurl}\nSent by workflow "Deploy" in acme/shop.')
  })
})

describe('a name with a comma in a list of names', () => {
  const COMMA =
    'check-name is a list for this operation: without a line break it splits on commas, so "Shop, EU" was read as the names "Shop" and "EU". Put names that hold a comma one per line (check-name: |)'

  it.each(['wait-for-check', 'pause-check', 'resume-check'])(
    '%s: a name not found explains the comma split',
    async operation => {
      emulator.seedCheck({ name: 'Shop, EU', url: 'https://s.example.com/' })
      const { core } = await runAction(emulator, {
        operation,
        'check-name': 'Shop, EU',
        timeout: '1s',
        'poll-interval': '1s'
      })
      expect(core.failed).toContain('no check named "Shop", "EU"')
      expect(core.failed).toContain(COMMA)
    }
  )

  it('names one per line are found; a name not found among them gets no comma hint', async () => {
    emulator.seedCheck({ name: 'Shop, EU', url: 'https://s.example.com/', status: 'up' })
    const { core } = await runAction(emulator, { operation: 'pause-check', 'check-name': 'Shop, EU\n' })
    expect(core.failed).toBeUndefined()
    const missing = await runAction(emulator, { operation: 'pause-check', 'check-name': 'Shop, EU\nShop, US' })
    expect(missing.core.failed).toContain('no check named "Shop, US"')
    expect(missing.core.failed).not.toContain('splits on commas')
  })

  it('names without a comma that are not found get no comma hint', async () => {
    const { core } = await runAction(emulator, { operation: 'pause-check', 'check-name': 'nope' })
    expect(core.failed).toContain('no check named "nope"')
    expect(core.failed).not.toContain('splits on commas')
  })
})

describe('inputs and values that will not do what was meant', () => {
  it('an input the operation does not read, set to a non-default value, is a warning; a default is silent', async () => {
    emulator.seedCheck({ name: 'shop', url: 'https://s.example.com/' })
    const { core } = await runAction(emulator, {
      operation: 'get-check',
      'check-name': 'shop',
      timeout: '10m',
      'poll-interval': '10s',
      prune: 'true'
    })
    expect(core.failed).toBeUndefined()
    expect(warnings(core.logs)).toEqual([
      'warning: prune applies to sync-checks, not get-check: it is ignored.',
      'warning: timeout applies to wait-for-check, not get-check: it is ignored.'
    ])
  })

  it('an expected-status the service never reports is a warning at the start, before any wait', async () => {
    const c = emulator.seedCheck({ name: 'g', url: 'https://g.example.com/', status: 'up' })
    const { core } = await runAction(emulator, {
      operation: 'wait-for-check',
      'check-id': c.id,
      'expected-status': 'upp',
      timeout: '1s',
      'poll-interval': '1s'
    })
    expect(core.logs[0]).toBe(
      'warning: expected-status "upp" is not a status the service is known to report (up, down, paused, pending) (did you mean "up"?): the gate waits for it anyway, and will time out unless the service reports it.'
    )
  })

  it('a base-url without the version segment: the 404 suggests /v1', async () => {
    const { core } = await runAction(emulator, {
      operation: 'list-checks',
      'base-url': emulator.baseUrl.replace(/\/v1$/, '')
    })
    expect(core.failed).toMatch(
      /HTTP 404.*The base-url http:\/\/127\.0\.0\.1:\d+ has no version segment, and the API answered 404: did you mean http:\/\/127\.0\.0\.1:\d+\/v1\?$/
    )
  })

  it.each([
    ['/checks', 'list-checks'],
    ['/checks/chk_1/history', 'list-checks'],
    ['/incidents', 'open-incident']
  ])(
    'a base-url with a resource path (%s): the 404 suggests the API root, not a path past it',
    async (path, operation) => {
      const { core } = await runAction(emulator, {
        operation,
        'base-url': emulator.baseUrl + path,
        'incident-title': 'Down'
      })
      const root = emulator.baseUrl.replace(/[.]/g, '\\.')
      expect(core.failed).toMatch(
        new RegExp(
          `HTTP 404.*The base-url ${root}${path} goes past the API root \\(its path continues after the version segment\\), and the API answered 404: did you mean ${root}\\?$`
        )
      )
      expect(core.failed).not.toContain(`${path}/v1`)
    }
  )

  it('a base-url with a resource path and no version segment: the 404 suggests the root with /v1', async () => {
    const origin = emulator.baseUrl.replace(/\/v1$/, '')
    const { core } = await runAction(emulator, { operation: 'list-checks', 'base-url': `${origin}/checks` })
    expect(core.failed).toContain(
      `The base-url ${origin}/checks has no version segment, and the API answered 404: did you mean ${origin}/v1?`
    )
  })

  it('an empty base-url says the variable may be unset or withheld (forks), before any request', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks', 'base-url': '' })
    expect(core.failed).toContain(
      'base-url is required. It is empty: the variable it reads is not set in this repository, or is withheld from this run (variables are not passed to a workflow run for a pull request from a fork)'
    )
    expect(core.failed).toContain('base-url: ${{ vars.MONITORING_BASE_URL }}')
    expect(emulator.count()).toBe(0)
  })

  it('an empty api-key and base-url: each is explained, named, in one message', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': '', 'base-url': '' })
    expect(core.failed).toMatch(
      /^api-key is required; base-url is required\. It is empty: the variable it reads .*base-url: \$\{\{ vars\.MONITORING_BASE_URL \}\}\. api-key is empty: the secret it reads .*api-key: \$\{\{ secrets\.MONITORING_API_KEY \}\}\./
    )
    expect(emulator.count()).toBe(0)
  })

  it('a missing checks file mentions actions/checkout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-checkout-'))
    const { core } = await runAction(
      emulator,
      { operation: 'sync-checks', 'checks-file': 'monitoring/checks.yml' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.failed).toContain(
      '(ENOENT); is the repository checked out? Add `- uses: actions/checkout@v4` before this step'
    )
  })

  it('an empty api-key on a pull request (a fork) or a Dependabot run explains why and how to skip the step', async () => {
    for (const env of [
      { GITHUB_EVENT_NAME: 'pull_request' },
      { GITHUB_ACTOR: 'dependabot[bot]', GITHUB_EVENT_NAME: 'push' }
    ]) {
      const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': '' }, { env })
      expect(core.failed).toContain(
        'api-key is required. Secrets are not passed to a workflow run for a pull request from a fork'
      )
      expect(core.failed).toContain(
        "if: github.event.pull_request.head.repo.fork != true && github.actor != 'dependabot[bot]'"
      )
    }
  })

  it('an empty api-key anywhere says the secret may be unset or withheld, and where keys come from', async () => {
    const { core } = await runAction(emulator, { operation: 'list-checks', 'api-key': '' })
    expect(core.failed).toBe(
      "api-key is required. It is empty: the secret it reads is not set in this repository, or is withheld from this run (secrets are not passed to a workflow run for a pull request from a fork, nor to one Dependabot triggers). Store the key as a secret (Settings > Secrets and variables > Actions) and pass it: api-key: ${{ secrets.MONITORING_API_KEY }}. Keys are created in the service's account settings (API access)"
    )
    expect(emulator.count()).toBe(0)
  })
})

describe('green runs stay green', () => {
  it('retries that end in success are log lines, not warnings', async () => {
    emulator.inject({ path: '/checks', status: 503, times: 2 })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toBeUndefined()
    expect(warnings(core.logs)).toEqual([])
    expect(core.logs.filter(l => /retry \d of 3/.test(l))).toHaveLength(2)
  })

  it('the post step prints nothing with nothing to do; resuming, one line and a summary', async () => {
    const quiet = await runAction(
      emulator,
      { operation: 'get-check', 'check-id': 'chk_1' },
      { state: { isPost: 'true' } }
    )
    expect(quiet.core.logs).toEqual([])
    expect(quiet.core.summaryText).toBe('')

    const c = emulator.seedCheck({ name: 'paused', url: 'https://p.example.com/', status: 'up' })
    const main = await runAction(emulator, { operation: 'pause-check', 'check-id': c.id, 'auto-resume': 'true' })
    const post = await runAction(
      emulator,
      { operation: 'pause-check', 'check-id': c.id, 'auto-resume': 'true' },
      { state: { ...main.core.state, isPost: 'true' } }
    )
    expect(post.core.logs.filter(l => !l.startsWith('debug: '))).toEqual([
      `info: auto-resume: resumed 1 check(s) this job paused: ${c.id} (paused).`
    ])
    expect(post.core.summaryText).toContain('auto-resume: checks resumed')
  })
})
