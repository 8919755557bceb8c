/**
 * The sticky comment on the pull request (src/github/pr-comment.ts), written
 * through Octokit to the fake GitHub on 127.0.0.1 (scripts/lib/fake-github.ts):
 * when a comment is written at all, which comment is found as ours (the
 * marker, and only this token's), what body it gets (the marker, the run's
 * stamp, the result, or a note when that is over GitHub's limit), which run's
 * result a re-run leaves, what becomes of a second one of ours, and what
 * GitHub refusing (403, 404, 422, a rate limit) leads to: a warning, never a
 * failure.
 */
import { describe, expect, it } from '@jest/globals'
import { usePullRequest } from '../helpers/pull-request.js'
import { type CommentRequest, commentOnPullRequest, markerOf } from '../../src/github/pr-comment.js'
import type { RunStamp } from '../../src/github/sticky.js'

const { github } = usePullRequest(7, 'pr-comment-writes-')

/** The job's token: GET /user refused, writes as github-actions[bot]. */
const TOKEN = 'ghs_unitToken0123456789abcdef'
const BOT = { login: 'github-actions[bot]', type: 'Bot' }
const IDENTITY = ['Deploy', 'deploy', 'sync-checks', 'checks.yml', 'https://api.example.com/v1']
const MARKER = markerOf(IDENTITY)
const PLAN = '### Plan\n| create | app-web |'

const stamp = (runId: number, attempt = 1, startedAt = 1000): RunStamp => ({ runId, attempt, startedAt })
const stampText = (s: RunStamp) => `<!-- monitoring-action run: ${s.runId}.${s.attempt} at ${s.startedAt} -->`
/** The body a run with this stamp and result writes. */
const bodyOf = (s: RunStamp, markdown = PLAN) => `${MARKER}\n${stampText(s)}\n${markdown}`

/** Runs the comment once; what it returned and every line it logged. */
async function comment(change: Partial<CommentRequest> = {}): Promise<{ url: string | undefined; lines: string[] }> {
  const lines: string[] = []
  const url = await commentOnPullRequest({
    token: TOKEN,
    identity: IDENTITY,
    stamp: stamp(100),
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
    env: { GITHUB_EVENT_NAME: 'pull_request' },
    ...change
  })
  return { url, lines }
}

const all = () => github.comments.get('acme/shop#7') ?? []
/** A comment already on the pull request, by `by` (the job's bot unless said). */
const seeded = (body: string, by = BOT) => {
  github.seed('acme/shop#7', 1, () => body, by)
  return all().at(-1)!
}
const sent = (method: string, path?: RegExp) =>
  github.requests.filter(r => r.method === method && (path === undefined || path.test(r.path)))
const warnings = (lines: string[]) => lines.filter(line => line.startsWith('warning: '))

describe('when a comment is written at all', () => {
  it.each([
    ['push', 'this is a push'],
    ['', 'this is a run without an event'],
    [undefined, 'this is a run without an event']
  ])('on %j: a notice, nothing sent to GitHub', async (event, said) => {
    const { url, lines } = await comment({ env: { GITHUB_EVENT_NAME: event } })
    expect(url).toBeUndefined()
    expect(lines).toEqual([`notice: pr-comment: ${said}, not a pull_request event; no comment written.`])
    expect(github.requests).toEqual([])
  })

  it('on pull_request_target too (a fork’s pull request commented from the base)', async () => {
    const ours = seeded(bodyOf(stamp(99)))
    const { url } = await comment({ env: { GITHUB_EVENT_NAME: 'pull_request_target' } })
    expect(url).toBe(ours.html_url)
    expect(all()[0].body).toBe(bodyOf(stamp(100)))
  })

  it.each([[''], [undefined]])('with github-token %j: a warning naming the fix, nothing sent', async token => {
    const { url, lines } = await comment({ token })
    expect(url).toBeUndefined()
    expect(lines).toEqual([
      'warning: pr-comment: github-token is empty; no comment written. Leave github-token at its default (the job token) or pass a token that may write pull-request comments.'
    ])
    expect(github.requests).toEqual([])
  })
})

describe('the first comment and its re-runs', () => {
  it('none yet: one comment, the marker, the run’s stamp, then the result; its URL returned', async () => {
    const { url, lines } = await comment()
    expect(all()).toHaveLength(1)
    const [made] = all()
    expect(made.body).toBe(bodyOf(stamp(100)))
    expect(url).toBe(made.html_url)
    expect(lines).toEqual([`info: pr-comment: wrote ${made.html_url}`])
    expect(sent('POST')).toHaveLength(1)
    expect(sent('PATCH')).toEqual([])
    expect(sent('DELETE')).toEqual([])
    // one page of comments is one request: the list before, the list after the create
    expect(sent('GET', /\/issues\/7\/comments/)).toHaveLength(2)
  })

  it('a later run with a new result: the same comment edited in place, none made', async () => {
    const first = seeded(bodyOf(stamp(100)))
    const { url, lines } = await comment({ stamp: stamp(101), markdown: '### Plan\n| update | app-web |' })
    expect(all()).toEqual([
      expect.objectContaining({ id: first.id, body: bodyOf(stamp(101), '### Plan\n| update | app-web |') })
    ])
    expect(url).toBe(first.html_url)
    expect(lines).toEqual([`info: pr-comment: updated ${first.html_url}`])
    expect(sent('POST')).toEqual([])
  })

  it('a re-run that writes the same body: nothing sent, the comment left as it is', async () => {
    const first = seeded(bodyOf(stamp(100)))
    const { url, lines } = await comment()
    expect(url).toBe(first.html_url)
    expect(lines).toEqual([`info: pr-comment: ${first.html_url} already shows the result of this run; left as it is.`])
    expect(sent('PATCH')).toEqual([])
    expect(sent('POST')).toEqual([])
  })

  it('an older run after a later one: the later run’s result stays, and the log names that run', async () => {
    const first = seeded(bodyOf(stamp(102, 3), 'the later plan'))
    const { url, lines } = await comment({ stamp: stamp(101), markdown: 'the older plan' })
    expect(url).toBe(first.html_url)
    expect(all()[0].body).toBe(bodyOf(stamp(102, 3), 'the later plan'))
    expect(lines).toEqual([
      `info: pr-comment: ${first.html_url} already shows the result of a later run (102, attempt 3); left as it is.`
    ])
    expect(sent('PATCH')).toEqual([])
  })

  it('a comment written before stamps counts as older than any run: it is given this run’s result', async () => {
    const old = seeded(`${MARKER}\nan old plan`)
    const { url } = await comment()
    expect(url).toBe(old.html_url)
    expect(all()[0].body).toBe(bodyOf(stamp(100)))
  })

  it('a result over GitHub’s limit: a short note below the marker and the stamp, never a body GitHub refuses', async () => {
    const ours = seeded(bodyOf(stamp(99)))
    const markdown = 'x'.repeat(70_000)
    const { url, lines } = await comment({ markdown })
    const head = `${MARKER}\n${stampText(stamp(100))}`
    const length = head.length + 1 + markdown.length
    expect(all()[0].body).toBe(
      `${head}\nThe result is too long for a comment (${length} characters; GitHub takes 65536). See the job summary.`
    )
    expect(url).toBe(ours.html_url)
    expect(warnings(lines)).toEqual([])
  })
})

describe('which comment is ours', () => {
  it('a person’s comment, another app’s and one of ours without the marker are never taken for ours, nor touched', async () => {
    const others = [
      seeded(`${MARKER}\ncopied by a person`, { login: 'person', type: 'User' }),
      seeded(`${MARKER}\nanother app's`, { login: 'other-app[bot]', type: 'Bot' }),
      seeded(`${markerOf(['Deploy', 'deploy', 'sync-checks', 'other.yml'])}\nanother step's`),
      seeded('a comment of the bot without a marker')
    ].map(c => ({ ...c }))
    const { url } = await comment()
    expect(all()).toHaveLength(5)
    expect(all().slice(0, 4)).toEqual(others)
    expect(url).toBe(all()[4].html_url)
    expect(sent('PATCH')).toEqual([])
    expect(sent('DELETE')).toEqual([])
  })

  it('the marker anywhere in our comment (a line added above it): still ours, edited in place', async () => {
    const ours = seeded(`A note added by hand.\n${MARKER}\nan old plan`)
    const { url } = await comment()
    expect(url).toBe(ours.html_url)
    expect(all()).toHaveLength(1)
  })

  it('a personal token: its own login’s comments are ours, the job bot’s are not', async () => {
    const bots = { ...seeded(`${MARKER}\nthe job token's`) }
    const mine = seeded(`${MARKER}\nan old plan`, { login: 'octo-pat', type: 'User' })
    const { url } = await comment({ token: 'ghp_personal0123456789' })
    expect(url).toBe(mine.html_url)
    expect(all()).toEqual([bots, expect.objectContaining({ id: mine.id, body: bodyOf(stamp(100)) })])
    expect(sent('POST')).toEqual([])
  })

  it('ours on the second page (150 comments before it) is found: edited, none made', async () => {
    github.seed('acme/shop#7', 150)
    const ours = seeded(`${MARKER}\nan old plan`)
    const { url } = await comment()
    expect(url).toBe(ours.html_url)
    expect(sent('POST')).toEqual([])
    expect(sent('GET', /\/issues\/7\/comments\?.*page=2/)).toHaveLength(1)
    expect(sent('GET', /\/issues\/7\/comments\?.*page=3/)).toEqual([])
  })

  it('ours on the fiftieth page is still found', async () => {
    github.seed('acme/shop#7', 49 * 100)
    const ours = seeded(`${MARKER}\nan old plan`)
    const { url } = await comment()
    expect(url).toBe(ours.html_url)
    expect(sent('POST')).toEqual([])
  })
})

describe('a second comment of ours (a racing run’s, one left by a run that stopped)', () => {
  it('is deleted; the oldest is kept and given the result', async () => {
    const kept = seeded(bodyOf(stamp(90), 'old'))
    const second = seeded(bodyOf(stamp(91), 'old too'))
    const { url, lines } = await comment()
    expect(url).toBe(kept.html_url)
    expect(all()).toEqual([expect.objectContaining({ id: kept.id, body: bodyOf(stamp(100)) })])
    expect(lines).toEqual([
      `info: pr-comment: updated ${kept.html_url}`,
      `info: pr-comment: deleted ${second.html_url}, a second comment of this step; the comment is ${kept.html_url}`
    ])
    expect(sent('DELETE')).toHaveLength(1)
  })

  it('holding a later run’s result: the kept one is given that result, not this run’s', async () => {
    const kept = seeded(bodyOf(stamp(90), 'old'))
    seeded(bodyOf(stamp(105, 2), 'the later plan'))
    const { url } = await comment({ stamp: stamp(100) })
    expect(url).toBe(kept.html_url)
    expect(all()).toEqual([expect.objectContaining({ id: kept.id, body: bodyOf(stamp(105, 2), 'the later plan') })])
  })

  it('GitHub refusing its deletion (403): edited into a pointer without the marker, which no later run takes for ours', async () => {
    const kept = seeded(bodyOf(stamp(90), 'old'))
    const second = seeded(bodyOf(stamp(91), 'old too'))
    github.refuseComment(second.id, 403, ['delete'])
    const { url, lines } = await comment()
    expect(url).toBe(kept.html_url)
    expect(all()[1].body).toBe(`This step's comment is now ${kept.html_url}.`)
    expect(lines).toContain(
      `info: pr-comment: GitHub refused to delete ${second.html_url} (HTTP 403: Resource not accessible by integration - https://docs.github.com/rest); it now points to ${kept.html_url}`
    )
    expect(warnings(lines)).toEqual([])
    github.requests.length = 0
    await comment({ stamp: stamp(101) })
    expect(github.requests.filter(r => r.path.includes(`/comments/${second.id}`))).toEqual([])
  })

  it('already gone when deleted (404: another run got there first): no pointer, no warning', async () => {
    const kept = seeded(bodyOf(stamp(90), 'old'))
    const second = seeded(bodyOf(stamp(91), 'old too'))
    github.refuseComment(second.id, 404, ['delete'])
    const { url, lines } = await comment()
    expect(url).toBe(kept.html_url)
    expect(lines).toEqual([`info: pr-comment: updated ${kept.html_url}`])
    expect(sent('PATCH', new RegExp(`/comments/${second.id}$`))).toEqual([])
  })

  it('its deletion stopped by a rate limit: no pointer written, a warning that names GitHub’s answer and the live comment', async () => {
    const kept = seeded(bodyOf(stamp(90), 'old'))
    const second = seeded(bodyOf(stamp(91), 'old too'))
    github.fail({ failure: 'primary-rate-limit', resetInSeconds: 3600, method: 'DELETE', times: Infinity })
    const { url, lines } = await comment()
    expect(url).toBe(kept.html_url)
    expect(sent('PATCH', new RegExp(`/comments/${second.id}$`))).toEqual([])
    expect(warnings(lines)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warning: pr-comment: ${escape(second.html_url)}, another of this step's comments, could not be deleted or edited into a pointer \\(HTTP 403: API rate limit exceeded.*\\); the comment is ${escape(kept.html_url)}\\. The step goes on\\.$`
        )
      )
    ])
  })
})

describe('GitHub refusing the kept comment’s edit', () => {
  it.each([403, 422])('(HTTP %i): a new comment is made and kept, the refused one deleted', async status => {
    const refused = seeded(bodyOf(stamp(90), 'old'))
    github.refuseComment(refused.id, status)
    const { url, lines } = await comment()
    expect(all()).toHaveLength(1)
    const [made] = all()
    expect(made.id).not.toBe(refused.id)
    expect(made.body).toBe(bodyOf(stamp(100)))
    expect(url).toBe(made.html_url)
    expect(lines[0]).toMatch(
      new RegExp(
        `^info: pr-comment: GitHub refused to edit ${escape(refused.html_url)} \\(HTTP ${status}: .*\\); another comment is kept\\.$`
      )
    )
    expect(lines).toContain(`info: pr-comment: wrote ${made.html_url}`)
    expect(warnings(lines)).toEqual([])
  })
})

describe('two racing runs, the older first, each making a comment before either is listed', () => {
  it('one comment is left, the older run’s, showing the later run’s result; both give its URL', async () => {
    github.listDelayMs = 300
    const older = comment({ stamp: stamp(100), markdown: 'the older plan' })
    while (sent('POST').length === 0) await new Promise(resolve => setTimeout(resolve, 5))
    const later = comment({ stamp: stamp(101), markdown: 'the later plan' })
    const [a, b] = await Promise.all([older, later])
    expect(sent('POST')).toHaveLength(2)
    expect(all()).toHaveLength(1)
    const [kept] = all()
    expect(kept.body).toBe(bodyOf(stamp(101), 'the later plan'))
    expect([a.url, b.url]).toEqual([kept.html_url, kept.html_url])
    // the older run made the kept one, then gave it the later run's result
    expect(a.lines[0]).toBe(`info: pr-comment: wrote ${kept.html_url}`)
    expect([...warnings(a.lines), ...warnings(b.lines)]).toEqual([])
  })
})

describe('GitHub refusing the comment altogether: a warning, never a failure', () => {
  it('403 (a fork’s read-only token): a permission problem, with the fix', async () => {
    github.refuse = 403
    const { url, lines } = await comment()
    expect(url).toBeUndefined()
    expect(lines).toEqual([
      'warning: pr-comment: GitHub refused the comment (HTTP 403: Resource not accessible by integration - https://docs.github.com/rest): a permission problem. The token may not write to this pull request: give the job "permissions: pull-requests: write"; a pull request from a fork gets a read-only token (comment from a pull_request_target or workflow_run job instead). The step goes on.'
    ])
  })

  it('404: not found, with the fix', async () => {
    github.refuse = 404
    const { url, lines } = await comment()
    expect(url).toBeUndefined()
    expect(lines).toEqual([
      'warning: pr-comment: GitHub refused the comment (HTTP 404: Not Found - https://docs.github.com/rest): not found (GitHub also answers 404 for what a token may not see). The token may not write to this pull request: give the job "permissions: pull-requests: write"; a pull request from a fork gets a read-only token (comment from a pull_request_target or workflow_run job instead). The step goes on.'
    ])
  })

  it('a job cancelled: nothing written, the warning says so', async () => {
    const job = new AbortController()
    job.abort()
    const { url, lines } = await comment({ signal: job.signal })
    expect(url).toBeUndefined()
    expect(all()).toEqual([])
    expect(lines).toEqual([
      'warning: pr-comment: the comment could not be written (the job was cancelled). The step goes on.'
    ])
  })

  it('a rate limit GitHub asks a short wait for: waited, told as info under the comment’s label', async () => {
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 1, method: 'POST' })
    const { url, lines } = await comment()
    expect(url).toBe(all()[0].html_url)
    expect(lines[0]).toMatch(/^info: pr-comment: GitHub's secondary rate limit \(POST .*\); trying again in 1 s\.$/)
  })
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
