/**
 * A fake GitHub for the in-process runs of a test file, and a pull request to
 * comment on: @actions/github reads GITHUB_API_URL, the event and the
 * repository from process.env when it is first imported (the first call to
 * GitHub), so they are set before any run and put back after the file.
 */
import { afterAll, beforeAll, beforeEach } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakeGitHub } from '../../scripts/lib/fake-github.js'

/** The fake GitHub (reset before each test) and a folder holding the event of pull request `number` of acme/shop. */
export function usePullRequest(number: number, prefix: string): { github: FakeGitHub; root: string } {
  return useGitHubEvent('pull_request', { pull_request: { number }, number }, prefix)
}

/** The fake GitHub (reset before each test) and a folder holding `payload`, the event `name` of acme/shop. */
export function useGitHubEvent(
  name: string,
  payload: Record<string, unknown>,
  prefix: string
): { github: FakeGitHub; root: string } {
  const github = new FakeGitHub()
  const root = mkdtempSync(join(tmpdir(), prefix))
  const event = join(root, 'event.json')
  writeFileSync(event, JSON.stringify(payload))
  const saved = { ...process.env }
  beforeAll(async () => {
    await github.start()
    Object.assign(process.env, {
      GITHUB_API_URL: github.url,
      GITHUB_EVENT_PATH: event,
      GITHUB_EVENT_NAME: name,
      GITHUB_REPOSITORY: 'acme/shop'
    })
  })
  afterAll(async () => {
    await github.stop()
    process.env = saved
  })
  beforeEach(() => github.reset())
  return { github, root }
}
