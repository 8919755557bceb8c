/**
 * The drift issue (src/github/drift-issue.ts), written through Octokit to
 * the fake GitHub on 127.0.0.1 (scripts/lib/fake-github.ts), on a schedule
 * event (no pull request): which issue is found as ours (the marker, only
 * this token's, never a pull request), when it is opened, updated, reopened
 * and closed, what title and body it gets, what becomes of a second one of
 * ours, and what GitHub refusing (403, 404, 410) leads to: a warning, never
 * a failure. Also the comment's answer to an event that names no pull
 * request, which only such an event shows.
 */
import { describe, expect, it } from '@jest/globals'
import { useGitHubEvent } from '../helpers/pull-request.js'
import { type DriftIssueRequest, keepDriftIssue } from '../../src/github/drift-issue.js'
import { commentOnPullRequest, markerOf } from '../../src/github/pr-comment.js'
import type { FakeIssue } from '../../scripts/lib/fake-github.js'

const { github } = useGitHubEvent('schedule', { schedule: '0 * * * *' }, 'drift-issue-')

/** The job's token: GET /user refused, writes as github-actions[bot]. */
const TOKEN = 'ghs_unitToken0123456789abcdef'
const BOT = { login: 'github-actions[bot]', type: 'Bot' }
const PERSON = { login: 'person', type: 'User' }
const IDENTITY = ['drift-issue', 'Monitor', 'checks.yml', 'https://api.example.com/v1']
const MARKER = markerOf(IDENTITY)
const TITLE = 'Monitoring drift: checks.yml'
const PLAN = '### Plan\n| update | app-web | interval: 60 → 30 |'
const CLOSING = 'No drift any more: the service matches `checks.yml` again. Closing.'

/** Keeps the drift issue once; what it returned and every line it logged. */
async function keep(change: Partial<DriftIssueRequest> = {}): Promise<{ url: string | undefined; lines: string[] }> {
  const lines: string[] = []
  const url = await keepDriftIssue({
    token: TOKEN,
    identity: IDENTITY,
    title: TITLE,
    drift: true,
    markdown: PLAN,
    closing: CLOSING,
    log: {
      debug: () => undefined,
      info: m => void lines.push(`info: ${m}`),
      warning: m => void lines.push(`warning: ${m}`)
    },
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    waitsEndBy: () => Date.now() + 60_000,
    env: { GITHUB_EVENT_NAME: 'schedule' },
    ...change
  })
  return { url, lines }
}

const issues = () => github.issues.get('acme/shop') ?? []
/** An issue already in the repository (ours unless `by` says otherwise). */
const seeded = (fields: Partial<FakeIssue> = {}, by = BOT) =>
  github.seedIssue('acme/shop', { title: TITLE, body: `${MARKER}\nan old plan`, ...fields }, by)
const sent = (method: string, path?: RegExp) =>
  github.requests.filter(r => r.method === method && (path === undefined || path.test(r.path)))
const patchOf = (number: number) =>
  sent('PATCH', new RegExp(`/issues/${number}$`)).map(r => JSON.parse(r.body) as Record<string, unknown>)
const commentsOn = (number: number) => (github.comments.get(`acme/shop#${number}`) ?? []).map(c => c.body)
const warnings = (lines: string[]) => lines.filter(line => line.startsWith('warning: '))

describe('drift, and no issue of ours yet', () => {
  it('one issue is opened: the title, the marker then the plan; its URL returned; nothing else sent', async () => {
    const { url, lines } = await keep()
    expect(issues()).toEqual([
      expect.objectContaining({ number: 1, title: TITLE, body: `${MARKER}\n${PLAN}`, state: 'open', user: BOT })
    ])
    expect(url).toBe(issues()[0].html_url)
    expect(lines).toEqual([`info: drift-issue: opened ${url}`])
    // the one just opened shows this run's plan already: no edit follows
    expect(sent('PATCH')).toEqual([])
    expect(sent('POST')).toHaveLength(1)
    // one page of issues is one request: the list before, the list after the create
    expect(sent('GET', /\/issues\?/)).toHaveLength(2)
    // every state (a closed one of ours is found too), the recently updated first (a live one is on the first pages)
    const query = new URL(sent('GET', /\/issues\?/)[0].path, 'http://x').searchParams
    expect([query.get('state'), query.get('sort'), query.get('direction')]).toEqual(['all', 'updated', 'desc'])
  })

  it('a title with line breaks is one line', async () => {
    await keep({ title: 'Monitoring drift: a\r\n\nb\u2028c\u2029\u2029d' })
    expect(issues()[0].title).toBe('Monitoring drift: a b c d')
  })

  it('a plan over GitHub’s limit: a short note below the marker, never a body GitHub refuses', async () => {
    const markdown = 'x'.repeat(70_000)
    await keep({ markdown })
    const length = MARKER.length + 1 + markdown.length
    expect(issues()[0].body).toBe(
      `${MARKER}\nThe plan is too long for an issue (${length} characters; GitHub takes 65536). See the job summary.`
    )
  })

  it('a person’s issue with the marker, another app’s, a pull request of ours and another file’s issue are not ours, nor touched', async () => {
    const others = [
      seeded({}, PERSON),
      seeded({}, { login: 'other-app[bot]', type: 'Bot' }),
      seeded({ pull_request: { url: 'https://api.example.com/pulls/3' } }),
      seeded({ body: `${markerOf(['drift-issue', 'Monitor', 'other.yml', 'https://api.example.com/v1'])}\nplan` })
    ].map(issue => ({ ...issue }))
    const { url } = await keep()
    expect(issues().slice(0, 4)).toEqual(others)
    expect(issues()).toHaveLength(5)
    expect(url).toBe(issues()[4].html_url)
    expect(sent('PATCH')).toEqual([])
  })
})

describe('drift, and an issue of ours', () => {
  it('open: updated in place (title and body), not reopened, none opened', async () => {
    const ours = seeded({ title: 'an old title' })
    const { url, lines } = await keep()
    expect(url).toBe(ours.html_url)
    expect(issues()).toEqual([
      expect.objectContaining({ number: 1, title: TITLE, body: `${MARKER}\n${PLAN}`, state: 'open' })
    ])
    expect(patchOf(1)).toEqual([{ title: TITLE, body: `${MARKER}\n${PLAN}` }])
    expect(lines).toEqual([`info: drift-issue: updated ${ours.html_url}`])
    expect(sent('POST')).toEqual([])
  })

  it('closed (the drift had ended): reopened with the new plan, none opened', async () => {
    const ours = seeded({ state: 'closed', state_reason: 'completed' })
    const { url, lines } = await keep()
    expect(url).toBe(ours.html_url)
    expect(issues()).toEqual([expect.objectContaining({ number: 1, body: `${MARKER}\n${PLAN}`, state: 'open' })])
    expect(patchOf(1)).toEqual([{ title: TITLE, body: `${MARKER}\n${PLAN}`, state: 'open' }])
    expect(lines).toEqual([`info: drift-issue: drift is back; reopened ${ours.html_url}`])
  })

  it('the marker below a line a person added: still ours', async () => {
    const ours = seeded({ body: `Seen by ops.\n\n${MARKER}\nan old plan` })
    expect((await keep()).url).toBe(ours.html_url)
    expect(issues()).toHaveLength(1)
  })

  it('a personal token: the issues its login wrote are ours, the job bot’s are not', async () => {
    const bots = { ...seeded() }
    const mine = seeded({}, { login: 'octo-pat', type: 'User' })
    const { url } = await keep({ token: 'ghp_personal0123456789' })
    expect(url).toBe(mine.html_url)
    expect(issues()[0]).toEqual(bots)
    expect(sent('POST')).toEqual([])
  })

  it('ours on the tenth page of the repository’s issues (recently updated first) is still found', async () => {
    const ours = seeded()
    for (let i = 0; i < 950; i++) github.seedIssue('acme/shop', {}, PERSON)
    const { url } = await keep()
    expect(url).toBe(ours.html_url)
    expect(sent('POST')).toEqual([])
    expect(sent('GET', /\/issues\?.*page=10\b/)).toHaveLength(1)
  })

  it('two open (a racing run’s): the oldest kept, the other closed as not planned, with a comment naming the kept one', async () => {
    const kept = seeded()
    const second = seeded()
    const { url, lines } = await keep()
    expect(url).toBe(kept.html_url)
    expect(issues().map(i => [i.number, i.state, i.state_reason])).toEqual([
      [1, 'open', undefined],
      [2, 'closed', 'not_planned']
    ])
    expect(commentsOn(2)).toEqual(['Duplicate of #1: the drift is tracked there.'])
    expect(lines).toEqual([
      `info: drift-issue: updated ${kept.html_url}`,
      `info: drift-issue: closed ${second.html_url} as a duplicate of #1`
    ])
  })

  it('another of ours already closed is left alone', async () => {
    seeded()
    seeded({ state: 'closed' })
    await keep()
    expect(patchOf(2)).toEqual([])
    expect(commentsOn(2)).toEqual([])
  })

  it.each([
    [403, 'Resource not accessible by integration'],
    [410, 'This issue was deleted']
  ])(
    'its edit refused (HTTP %i): a new issue opened and kept, the refused one closed as a duplicate',
    async (status, message) => {
      const refused = seeded()
      github.refuseIssue('acme/shop', 1, status)
      const { url, lines } = await keep()
      expect(url).toBe(issues()[1].html_url)
      expect(issues().map(i => [i.number, i.state])).toEqual([
        [1, 'closed'],
        [2, 'open']
      ])
      expect(issues()[1].body).toBe(`${MARKER}\n${PLAN}`)
      expect(lines[0]).toBe(
        `info: drift-issue: GitHub refused to edit ${refused.html_url} (HTTP ${status}: ${message} - https://docs.github.com/rest); another issue is kept.`
      )
      expect(warnings(lines)).toEqual([])
    }
  )
})

describe('no drift', () => {
  it('an open issue of ours is closed as completed, then the closing comment is posted; its URL returned', async () => {
    const ours = seeded()
    const { url, lines } = await keep({ drift: false })
    expect(url).toBe(ours.html_url)
    expect(issues()[0]).toEqual(
      expect.objectContaining({ state: 'closed', state_reason: 'completed', body: ours.body })
    )
    expect(commentsOn(1)).toEqual([CLOSING])
    expect(lines).toEqual([`info: drift-issue: no drift any more; closed ${ours.html_url}`])
    // closed first, so a refused close posts nothing
    expect(github.requests.filter(r => r.method !== 'GET').map(r => r.method)).toEqual(['PATCH', 'POST'])
  })

  it('two open of ours: both closed; the oldest’s URL returned', async () => {
    const first = seeded()
    seeded()
    const { url } = await keep({ drift: false })
    expect(url).toBe(first.html_url)
    expect(issues().map(i => i.state)).toEqual(['closed', 'closed'])
  })

  it('none open (ours closed before): nothing sent, the closed one’s URL returned', async () => {
    const ours = seeded({ state: 'closed' })
    const { url, lines } = await keep({ drift: false })
    expect(url).toBe(ours.html_url)
    expect(lines).toEqual(['info: drift-issue: no drift, and no open drift issue: nothing to do.'])
    expect(github.requests.filter(r => r.method !== 'GET')).toEqual([])
  })

  it('no issue of ours at all (a person’s with the marker is open): nothing sent, no URL', async () => {
    seeded({}, PERSON)
    const { url, lines } = await keep({ drift: false })
    expect(url).toBeUndefined()
    expect(lines).toEqual(['info: drift-issue: no drift, and no open drift issue: nothing to do.'])
    expect(issues()[0].state).toBe('open')
    expect(github.requests.filter(r => r.method !== 'GET')).toEqual([])
  })

  it('GitHub refusing the close: a warning naming its answer, no closing comment, no URL', async () => {
    const ours = seeded()
    github.refuseIssue('acme/shop', 1, 403, ['close'])
    const { url, lines } = await keep({ drift: false })
    expect(url).toBeUndefined()
    expect(issues()[0].state).toBe('open')
    expect(commentsOn(1)).toEqual([])
    expect(lines).toEqual([
      `warning: drift-issue: ${ours.html_url}, one of this step's issues, could not be closed (HTTP 403: Resource not accessible by integration - https://docs.github.com/rest). The step goes on.`
    ])
  })
})

describe('GitHub refusing the issue altogether, or no token: a warning, never a failure', () => {
  it('no token: the fix named, nothing sent', async () => {
    const { url, lines } = await keep({ token: '' })
    expect(url).toBeUndefined()
    expect(lines).toEqual([
      'warning: drift-issue: github-token is empty; no issue written. Leave github-token at its default (the job token).'
    ])
    expect(github.requests).toEqual([])
  })

  it('403: a permission problem, with the fix', async () => {
    github.refuse = 403
    const { url, lines } = await keep()
    expect(url).toBeUndefined()
    expect(lines).toEqual([
      'warning: drift-issue: GitHub refused the issue (HTTP 403: Resource not accessible by integration - https://docs.github.com/rest): a permission problem. Give the job "permissions: issues: write" (and make sure issues are enabled for the repository). The step goes on.'
    ])
  })

  it('404 (issues off, or hidden from the token): not found, with the fix', async () => {
    github.refuse = 404
    const { lines } = await keep({ drift: false })
    expect(lines).toEqual([
      'warning: drift-issue: GitHub refused the issue (HTTP 404: Not Found - https://docs.github.com/rest): not found (GitHub also answers 404 for what a token may not see). Give the job "permissions: issues: write" (and make sure issues are enabled for the repository). The step goes on.'
    ])
  })

  it('a rate limit GitHub asks a short wait for: waited, told as info under the issue’s label', async () => {
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 1, method: 'POST' })
    const { url, lines } = await keep()
    expect(url).toBe(issues()[0].html_url)
    expect(lines[0]).toMatch(/^info: drift-issue: GitHub's secondary rate limit \(POST .*\); trying again in 1 s\.$/)
  })

  it('a job cancelled: nothing written, the warning says so', async () => {
    const job = new AbortController()
    job.abort()
    const { url, lines } = await keep({ signal: job.signal })
    expect(url).toBeUndefined()
    expect(issues()).toEqual([])
    expect(lines).toEqual([
      'warning: drift-issue: the issue could not be written (the job was cancelled). The step goes on.'
    ])
  })
})

describe('the pull-request comment on an event that names no pull request', () => {
  it('a warning, nothing sent', async () => {
    const lines: string[] = []
    const url = await commentOnPullRequest({
      token: TOKEN,
      identity: ['Deploy', 'deploy', 'sync-checks', 'checks.yml'],
      stamp: { runId: 1, attempt: 1, startedAt: 1 },
      markdown: PLAN,
      log: {
        debug: () => undefined,
        info: m => void lines.push(`info: ${m}`),
        warning: m => void lines.push(`warning: ${m}`),
        notice: m => void lines.push(`notice: ${m}`)
      },
      signal: new AbortController().signal,
      timeoutMs: 5_000,
      waitsEndBy: () => Date.now() + 60_000,
      // the event's name says pull request, its payload (this file's) names none
      env: { GITHUB_EVENT_NAME: 'pull_request' }
    })
    expect(url).toBeUndefined()
    expect(lines).toEqual(['warning: pr-comment: the event payload names no pull request; no comment written.'])
    expect(github.requests).toEqual([])
  })
})
