/**
 * The pull-request comment and the drift issue, run from the source in
 * process against the emulator and a fake GitHub (scripts/lib/fake-github.ts):
 * racing runs on one pull request end with one comment, the latest run's;
 * GitHub's own limits (a 502, a secondary or primary rate limit) are retried
 * within a minute and the step's timeout, and a failure that stays names its
 * cause (rate limit, permission, not found); a refused edit leaves one
 * comment and one issue; every call ends within request-timeout.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, writeFileSync } from 'node:fs'
import { EventEmitter } from 'node:events'
import { join } from 'node:path'
import { GITHUB_ENV, runAction, until, useEmulator } from '../helpers/harness.js'
import type { FakeCore } from '../helpers/fake-core.js'
import { usePullRequest } from '../helpers/pull-request.js'
import { gc } from '../helpers/heap.js'
import { gitHubFor } from '../../src/github/octokit.js'
import { failureOf } from '../../src/github/sticky.js'

const emulator = useEmulator()
const TOKEN = 'ghs_sideToken0123456789abcdef'
const { github, root } = usePullRequest(7, 'github-side-')

/** A workspace with its own checks.yml (two pushes of one pull request check out different files). */
function workspace(name: string, checks: string): string {
  const dir = join(root, name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'checks.yml'), checks)
  return dir
}
const plain = workspace('plain', '- name: app-web\n  url: https://web.example.com/\n')

const sync = (
  options: { dir?: string; runId?: string; inputs?: Record<string, string>; signals?: EventEmitter } = {}
) =>
  runAction(
    emulator,
    {
      operation: 'sync-checks',
      'checks-file': 'checks.yml',
      'dry-run': 'true',
      'pr-comment': 'true',
      'github-token': TOKEN,
      ...options.inputs
    },
    {
      env: {
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_API_URL: github.url,
        GITHUB_WORKSPACE: options.dir ?? plain,
        GITHUB_RUN_ID: options.runId ?? GITHUB_ENV.GITHUB_RUN_ID
      },
      signals: options.signals
    }
  ).then(r => r.core)

const ours = () => (github.comments.get('acme/shop#7') ?? []).filter(c => c.user.type === 'Bot')
const warnings = (core: FakeCore) => core.logs.filter(line => line.startsWith('warning: '))
const wait = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

describe('racing runs on one pull request', () => {
  const older = workspace('older', '- name: app-old\n  url: https://old.example.com/\n')
  const newer = workspace('newer', '- name: app-new\n  url: https://new.example.com/\n')

  for (const first of ['older', 'newer'] as const) {
    it(`two runs 150 ms apart (the ${first} first), a comment listed 600 ms after it is made: one comment, the later run's plan`, async () => {
      github.listDelayMs = 600
      const run = (which: 'older' | 'newer') =>
        sync({ dir: which === 'older' ? older : newer, runId: which === 'older' ? '5100' : '5101' })
      const second = first === 'older' ? 'newer' : 'older'
      const runs = [run(first), wait(150).then(() => run(second))]
      const [a, b] = await Promise.all(runs)
      expect(ours()).toHaveLength(1)
      const [comment] = ours()
      expect(comment.body).toContain('| create | app-new |')
      expect(comment.body).not.toContain('app-old')
      expect([a.outputs['comment-url'], b.outputs['comment-url']]).toEqual([comment.html_url, comment.html_url])
      expect([...warnings(a), ...warnings(b)]).toEqual([])
      expect(github.requests.filter(r => r.method === 'DELETE')).toHaveLength(1)
    })
  }

  it('a second comment of ours left by a run that stopped is deleted; an older run leaves a later run’s plan as it is', async () => {
    await sync({ dir: newer, runId: '5101' })
    const [kept] = ours()
    // A run that stopped after posting: a second comment of ours, with an older plan.
    github.seed('acme/shop#7', 1, () => kept.body.replace('app-new', 'app-stale').replace('run: 5101.', 'run: 5099.'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    const r = await sync({ dir: older, runId: '5100' })
    expect(ours()).toEqual([expect.objectContaining({ id: kept.id })])
    expect(ours()[0].body).toContain('| create | app-new |')
    expect(r.logs.join('\n')).toContain('already shows the result of a later run (5101, attempt 1); left as it is')
    expect(r.outputs['comment-url']).toBe(kept.html_url)
  })
})

describe('the plan in the comment', () => {
  it('identical checks of one name: a row for each id, each to be changed alike', async () => {
    const dir = workspace('twins', '- name: app-web\n  url: https://web.example.com/\n  interval: 30\n')
    const ids = [1, 2]
      .map(i =>
        emulator.seedCheck({
          name: 'app-web',
          url: 'https://web.example.com/',
          interval: 60,
          createdAt: `2026-01-0${i}T00:00:00Z`
        })
      )
      .map(c => c.id)
    const core = await sync({ dir })
    expect(core.failed).toBeUndefined()
    const [comment] = ours()
    for (const id of ids) {
      expect(comment.body).toContain(`| update | app-web | ${id.replace(/_/g, '\\_')} | interval: 60 → 30 |`)
    }
  })
})

describe("GitHub's own limits", () => {
  const POST_COMMENT = { method: 'POST', path: /\/issues\/7\/comments$/ }

  it('a 502 once: retried, the comment is written, no warning', async () => {
    github.fail({ failure: 'bad-gateway', ...POST_COMMENT })
    const core = await sync()
    expect(ours()).toHaveLength(1)
    expect(core.outputs['comment-url']).toBe(ours()[0].html_url)
    expect(warnings(core)).toEqual([])
    expect(github.requests.filter(r => r.method === 'POST')).toHaveLength(2)
  })

  it.each([
    ['a secondary rate limit once (403 with retry-after: 1)', 'secondary-rate-limit'],
    ['a 429 with retry-after and no word of a secondary limit, which is one too', 'too-many-requests']
  ] as const)('%s: waited for, retried, no warning', async (_, failure) => {
    github.fail({ failure, retryAfterSeconds: 1, ...POST_COMMENT })
    const started = Date.now()
    const core = await sync()
    expect(ours()).toHaveLength(1)
    expect(warnings(core)).toEqual([])
    expect(core.logs.join('\n')).toMatch(
      /info: pr-comment: GitHub's secondary rate limit \(POST .*\); trying again in 1 s\./
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
  })

  it('the primary rate limit once (x-ratelimit-remaining: 0, reset in 1 s): waited for, retried, no warning', async () => {
    github.fail({ failure: 'primary-rate-limit', resetInSeconds: 1, method: 'GET', path: /\/comments$/ })
    const core = await sync()
    expect(ours()).toHaveLength(1)
    expect(warnings(core)).toEqual([])
    expect(core.logs.join('\n')).toMatch(/info: pr-comment: GitHub's rate limit \(GET .*\); trying again in \d s\./)
  })

  it('a rate limit asking for more than a minute: no wait, a warning that names the rate limit, not permissions', async () => {
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 120, times: Infinity, ...POST_COMMENT })
    const started = Date.now()
    const core = await sync()
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(ours()).toHaveLength(0)
    const [warning] = warnings(core)
    expect(warning).toContain('pr-comment: the comment was not written: a rate limit, not a permission problem.')
    expect(warning).toContain("GitHub's secondary rate limit (too many requests at once) stopped it (HTTP 403")
    expect(warning).toContain('GitHub asked to wait 120 s')
    expect(warning).not.toContain('pull-requests: write')

    github.reset()
    github.fail({ failure: 'primary-rate-limit', resetInSeconds: 3600, times: Infinity })
    const primary = await sync()
    expect(warnings(primary)[0]).toContain("GitHub's rate limit for this token is used up (HTTP 403")
    expect(warnings(primary)[0]).toMatch(/GitHub asked to wait 3[56]\d\d s/)
  })

  it('a refusal without a rate limit names the permission (403) or not found (404)', async () => {
    github.refuse = 403
    const refused = await sync()
    expect(warnings(refused)).toEqual([
      expect.stringMatching(
        /^warning: pr-comment: GitHub refused the comment \(HTTP 403: Resource not accessible by integration.*\): a permission problem\. .*permissions: pull-requests: write/
      )
    ])
    github.refuse = 404
    const missing = await sync()
    expect(warnings(missing)).toEqual([
      expect.stringMatching(/^warning: pr-comment: GitHub refused the comment \(HTTP 404.*\): not found \(/)
    ])
  })

  it("wait-for-check: a wait that would pass the step's timeout is not made", async () => {
    const check = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/', status: 'up' })
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 5, ...POST_COMMENT })
    const started = Date.now()
    const r = await runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': check.id,
        'require-fresh': 'false',
        timeout: '3s',
        'pr-comment': 'true',
        'github-token': TOKEN
      },
      { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_API_URL: github.url } }
    )
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(ours()).toHaveLength(0)
    expect(warnings(r.core)[0]).toContain('a rate limit, not a permission problem')
  })

  it('a cancel (SIGINT) during a wait for a rate limit ends the comment at once', async () => {
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 2, ...POST_COMMENT })
    const signals = new EventEmitter()
    const running = sync({ signals })
    await until(() => github.requests.some(r => r.method === 'POST'))
    await wait(100)
    const cancelled = Date.now()
    signals.emit('SIGINT')
    const core = await running
    expect(Date.now() - cancelled).toBeLessThan(1_000) // the wait (2 s, and 3 s between two posts) was cut short
    expect(warnings(core)).toContain(
      'warning: pr-comment: the comment could not be written (the job was cancelled). The step goes on.'
    )
    expect(ours()).toHaveLength(0)
  })

  it('the drift issue: a secondary rate limit once is waited for and retried, no warning', async () => {
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 1, method: 'POST', path: /\/issues$/ })
    const core = await sync({ inputs: { 'pr-comment': 'false', 'drift-issue': 'true' } }) // the plan creates app-web: drift
    expect(github.issues.get('acme/shop')).toHaveLength(1)
    expect(core.outputs['issue-url']).toBe(github.issues.get('acme/shop')?.[0].html_url)
    expect(warnings(core)).toEqual([])
  })
})

describe('GitHub refusing an edit: one comment, one issue', () => {
  /** Ours that a later run finds again: a comment of this token's that holds the marker. */
  const live = () => ours().filter(c => c.body.startsWith('<!-- monitoring-action: '))
  const posts = () =>
    github.requests.filter(r => r.method === 'POST' && r.path.startsWith('/repos/acme/shop/issues/7/'))
  const infos = (core: FakeCore) => core.logs.filter(line => line.startsWith('info: ')).join('\n')

  it.each([
    [403, 'Resource not accessible by integration'],
    [404, 'Not Found'],
    [422, 'Validation Failed']
  ])(
    'the kept comment’s edit refused (HTTP %i): the new comment is kept, the refused one deleted; four re-runs leave one comment',
    async (status, message) => {
      await sync()
      const [refused] = live()
      github.refuseComment(refused.id, status)
      const runs: FakeCore[] = []
      for (let run = 0; run < 4; run++) {
        const core = await sync()
        runs.push(core)
        expect(ours()).toHaveLength(1)
        expect(core.outputs['comment-url']).toBe(ours()[0].html_url)
        expect(warnings(core)).toEqual([])
      }
      expect(ours()[0].id).not.toBe(refused.id)
      // One comment made after the refusal; the later runs edit it.
      expect(posts()).toHaveLength(2)
      expect(infos(runs[0])).toContain(`GitHub refused to edit ${refused.html_url} (HTTP ${status}: ${message}`)
    }
  )

  it('a comment GitHub will neither edit nor delete: the new one is kept and edited on each re-run; each warning names GitHub’s answer', async () => {
    await sync()
    const [stuck] = live()
    github.refuseComment(stuck.id, 403, ['edit', 'delete'])
    for (let run = 0; run < 4; run++) {
      const core = await sync()
      expect(live()).toHaveLength(2)
      const kept = live().find(c => c.id !== stuck.id)!
      expect(core.outputs['comment-url']).toBe(kept.html_url)
      const [warning, ...more] = warnings(core)
      expect(more).toEqual([])
      expect(warning).toContain(stuck.html_url)
      expect(warning).toContain('HTTP 403: Resource not accessible by integration')
      expect(warning).toContain(kept.html_url)
      expect(warning).not.toContain('pull-requests: write')
    }
    expect(posts()).toHaveLength(2)
  })

  it('a second comment of ours that GitHub will not delete is edited into a pointer to the kept one, which no later run takes for ours', async () => {
    await sync()
    const [kept] = live()
    github.seed('acme/shop#7', 1, () => kept.body.replace('run: 4242.', 'run: 4200.'), {
      login: 'github-actions[bot]',
      type: 'Bot'
    })
    const second = ours()[1]
    github.refuseComment(second.id, 403, ['delete'])
    const core = await sync()
    expect(warnings(core)).toEqual([])
    expect(live()).toEqual([expect.objectContaining({ id: kept.id })])
    expect(ours()[1].body).toContain(kept.html_url)
    expect(core.outputs['comment-url']).toBe(kept.html_url)
    const again = await sync()
    expect(again.outputs['comment-url']).toBe(kept.html_url)
    expect(github.requests.filter(r => r.path.endsWith(`/comments/${second.id}`))).toHaveLength(2) // the delete, the pointer
  })

  const drift = (inputs: Record<string, string> = {}) =>
    sync({ inputs: { 'pr-comment': 'false', 'drift-issue': 'true', ...inputs } }) // the plan creates app-web: drift
  const issues = () => github.issues.get('acme/shop') ?? []
  const open = () => issues().filter(i => i.state === 'open')
  /** The service as the checks file says: no drift. */
  const noDrift = () => drift({ 'dry-run': 'false' }).then(() => drift())

  it.each([
    [403, 'Resource not accessible by integration'],
    [404, 'Not Found'],
    [410, 'This issue was deleted'],
    [422, 'Validation Failed']
  ])(
    'the drift issue’s edit refused (HTTP %i): the new issue is kept, the refused one closed; four re-runs leave one open; drift ending closes it',
    async (status, message) => {
      await drift()
      github.refuseIssue('acme/shop', 1, status)
      const runs: FakeCore[] = []
      for (let run = 0; run < 4; run++) {
        const core = await drift()
        runs.push(core)
        expect(open().map(i => i.number)).toEqual([2])
        expect(core.outputs['issue-url']).toBe(issues()[1].html_url)
        expect(warnings(core)).toEqual([])
      }
      expect(issues()).toHaveLength(2)
      expect(issues()[0].state_reason).toBe('not_planned')
      expect(github.comments.get('acme/shop#1')?.[0].body).toMatch(/^Duplicate of #2\b/)
      expect(infos(runs[0])).toContain(`GitHub refused to edit ${issues()[0].html_url} (HTTP ${status}: ${message}`)

      const ended = await noDrift()
      expect(open()).toEqual([])
      expect(ended.outputs['issue-url']).toBe(issues()[1].html_url)
      expect(warnings(ended)).toEqual([])
    }
  )

  it('an issue GitHub will neither edit nor close: the new one is kept; drift ending closes it; each warning names GitHub’s answer, not permissions', async () => {
    await drift()
    github.refuseIssue('acme/shop', 1, 403, ['edit', 'close'])
    for (let run = 0; run < 4; run++) {
      const core = await drift()
      expect(open().map(i => i.number)).toEqual([1, 2])
      expect(core.outputs['issue-url']).toBe(issues()[1].html_url)
      const [warning, ...more] = warnings(core)
      expect(more).toEqual([])
      expect(warning).toContain(`${issues()[0].html_url}`)
      expect(warning).toContain('HTTP 403: Resource not accessible by integration')
      expect(warning).not.toContain('issues: write')
    }
    expect(issues()).toHaveLength(2)

    const ended = await noDrift()
    expect(open().map(i => i.number)).toEqual([1])
    expect(ended.outputs['issue-url']).toBe(issues()[1].html_url)
    const [warning, ...more] = warnings(ended)
    expect(more).toEqual([])
    expect(warning).toContain('HTTP 403: Resource not accessible by integration')
    expect(warning).not.toContain('issues: write')
  })
})

describe('a GitHub that does not answer: every call ends within request-timeout an attempt', () => {
  // Collections every 200 ms, as a longer run makes: whatever ends an attempt must be held by something.
  let collecting: NodeJS.Timeout | undefined
  beforeEach(() => void (collecting = setInterval(gc, 200)))
  afterEach(() => clearInterval(collecting))

  /** `promise`'s value, or 'still waiting' after `ms` (the call would have held the step). */
  const within = <T>(ms: number, promise: Promise<T>) =>
    Promise.race([promise, wait(ms).then(() => 'still waiting' as const)])
  const silences = [
    ['accepts the connection and never answers', 'hang'],
    ['sends the headers and never the body', 'hangAfterHeaders']
  ] as const

  it.each(silences)(
    'a call with no signal of its own, to a GitHub that %s: ended by request-timeout, said so',
    async (_, how) => {
      github[how] = true
      const log = { info: () => {}, warning: () => {}, debug: () => {} }
      const { octokit } = await gitHubFor(TOKEN, process.env, {
        timeoutMs: 500,
        waitsEndBy: () => Date.now() + 60_000,
        log,
        label: 'test'
      })
      const started = Date.now()
      const outcome = await within(
        10_000,
        octokit.rest.issues.listComments({ owner: 'acme', repo: 'shop', issue_number: 7 }).then(
          () => 'answered',
          (error: unknown) => failureOf(error, new AbortController().signal, 500).said
        )
      )
      expect(outcome).toBe('no answer within request-timeout (500 ms)')
      // Seconds, not the five minutes of the break; room for a loaded CI collecting every 200 ms.
      expect(Date.now() - started).toBeLessThan(500 + 3_000)
    }
  )

  it.each(silences)(
    'the comment, on a GitHub that %s: a warning that names request-timeout, within its bound',
    async (_, how) => {
      github[how] = true
      const started = Date.now()
      const core = await within(15_000, sync({ inputs: { 'request-timeout': '1s' } }))
      expect(core).not.toBe('still waiting')
      // who the token is, then the list: two attempts of 1 s each, beside the sync's own work, which a
      // loaded machine (a CI running mutation beside the suite) stretched to 8 s; the break held 300 s.
      expect(Date.now() - started).toBeLessThan(2 * 1_000 + 10_000)
      expect(warnings(core as FakeCore)).toEqual([
        'warning: pr-comment: the comment could not be written (no answer within request-timeout (1000 ms)). The step goes on.'
      ])
    }
  )

  it('the drift issue, on a GitHub that sends the headers and never the body: a warning that names request-timeout', async () => {
    github.hangAfterHeaders = true
    const core = await within(
      15_000,
      sync({ inputs: { 'pr-comment': 'false', 'drift-issue': 'true', 'request-timeout': '1s' } })
    )
    expect(core).not.toBe('still waiting')
    expect(warnings(core as FakeCore)).toEqual([
      'warning: drift-issue: the issue could not be written (no answer within request-timeout (1000 ms)). The step goes on.'
    ])
  })
})
