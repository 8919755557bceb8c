/**
 * `{job_url}` falls back to the run's page, and the debug log says why on
 * every path (docs/guides/incidents.md, "The run's facts", says so).
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { findJobUrl } from '../../src/github/job-url.js'

const ENV = {
  RUNNER_NAME: 'runner-1',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_REPOSITORY: 'acme/shop',
  // Nothing listens on port 1: the lookup fails at once.
  GITHUB_API_URL: 'http://127.0.0.1:1'
}

async function lookUp(token: string | undefined, env: NodeJS.ProcessEnv) {
  const debug: string[] = []
  const url = await findJobUrl({
    token,
    env,
    signal: new AbortController().signal,
    timeoutMs: 2000,
    waitsEndBy: () => Date.now(),
    log: { debug: m => debug.push(m), info: () => {}, warning: () => {} }
  })
  return { url, debug }
}

describe('{job_url} when the job cannot be found', () => {
  it.each([
    ['no github-token', undefined, {}, 'github-token'],
    ['no RUNNER_NAME', 'token', { RUNNER_NAME: '' }, 'RUNNER_NAME'],
    ['no GITHUB_RUN_ID', 'token', { GITHUB_RUN_ID: '' }, 'GITHUB_RUN_ID'],
    ['a repository without its owner', 'token', { GITHUB_REPOSITORY: 'shop' }, 'GITHUB_REPOSITORY (owner/repo)'],
    ['no GITHUB_API_URL', 'token', { GITHUB_API_URL: '' }, 'GITHUB_API_URL']
  ])('%s: the run is used, and the debug log names what is missing', async (_case, token, env, named) => {
    const { url, debug } = await lookUp(token, { ...ENV, ...env })
    expect(url).toBeUndefined()
    expect(debug).toEqual([
      `{job_url}: ${named} not set, so this job's page cannot be asked for; the run's page is used`
    ])
  })

  it('GitHub does not answer: the run is used, and the debug log says why', async () => {
    const { url, debug } = await lookUp('token', ENV)
    expect(url).toBeUndefined()
    expect(debug.at(-1)).toMatch(
      /^\{job_url\}: the job's page could not be found \(.*actions: read\); the run's page is used$/
    )
  })

  it('the incidents guide says the debug log says why', () => {
    const guide = readFileSync(new URL('../../docs/guides/incidents.md', import.meta.url), 'utf8')
    expect(guide).toContain("`{job_url}` is the run's link, and the debug log says why")
  })
})
