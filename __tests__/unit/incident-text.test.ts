/** The text of incidents: the run's facts in a message, the action's own messages. */
import { describe, expect, it } from '@jest/globals'
import { failureMessage, fillRunFacts } from '../../src/operations/incidents/incident-text.js'
import { newestUnresolved } from '../../src/operations/incidents/titles.js'
import { runContextOf } from '../../src/github/run-facts.js'
import { GITHUB_ENV } from '../helpers/harness.js'

describe('incident helpers', () => {
  const run = runContextOf(
    {
      workflow: 'W',
      job: 'j',
      ref: 'refs/tags/v1',
      sha: 'abcdef123456',
      runId: 9,
      runNumber: 3,
      runAttempt: 2,
      actor: 'me',
      eventName: 'push',
      serverUrl: 'https://ghe.example.com/'
    },
    { ...GITHUB_ENV, GITHUB_REPOSITORY: 'o/r' }
  )
  it('builds the run link from the server URL (GHES too)', () => {
    expect(run.runUrl).toBe('https://ghe.example.com/o/r/actions/runs/9/attempts/2')
    expect(failureMessage(run)).toBe(
      'Workflow "W" (job j) failed in o/r on refs/tags/v1 at commit abcdef1, run attempt 2. Run: https://ghe.example.com/o/r/actions/runs/9/attempts/2'
    )
  })
  it('fills known placeholders and leaves others', () => {
    expect(fillRunFacts('{workflow}@{ref} {unknown} {"json": 1}', run)).toBe('W@refs/tags/v1 {unknown} {"json": 1}')
  })
  it('newest unresolved: latest createdAt, else last in list order', () => {
    const list = [
      { id: 'a', title: 't', status: 'investigating' },
      { id: 'b', title: 't', status: 'identified' },
      { id: 'c', title: 't', status: 'RESOLVED' },
      { id: 'd', title: 'other' }
    ]
    expect(newestUnresolved(list, 't')?.id).toBe('b')
    expect(
      newestUnresolved(
        [
          { id: 'x', title: 't', createdAt: '2026-05-01T00:00:00Z' },
          { id: 'y', title: 't', createdAt: '2026-01-01T00:00:00Z' }
        ],
        't'
      )?.id
    ).toBe('x')
  })
})
