/**
 * pr-comment through dist/index.js on a pull_request event, against the
 * emulator and a fake GitHub REST API reached through GITHUB_API_URL: one
 * comment, found again by its marker (also on a later page) and edited in
 * place, one also when two runs race; GitHub's own failures retried; a
 * refusal is a warning; other events send nothing to GitHub.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GITHUB_ENV, KEY, useEmulator, useTarget } from '../helpers/harness.js'
import { FakeGitHub, runStep } from '../helpers/runner.js'
import { markerOf } from '../../src/github/pr-comment.js'

const emulator = useEmulator({ timeScale: 0.001 })
const target = useTarget()
const github = new FakeGitHub()
beforeAll(() => github.start())
afterAll(() => github.stop())
beforeEach(() => github.reset())

const dir = mkdtempSync(join(tmpdir(), 'pr-comment-'))
const EVENT = join(dir, 'event.json')
writeFileSync(EVENT, JSON.stringify({ pull_request: { number: 7 }, number: 7 }))
writeFileSync(join(dir, 'checks.yml'), '- name: app-web\n  url: https://web.example.com/\n  interval: 60\n')
const TOKEN = 'ghs_fakeToken0123456789abcdef'

const prEnv = (event = 'pull_request'): NodeJS.ProcessEnv => ({
  ...GITHUB_ENV,
  GITHUB_EVENT_NAME: event,
  GITHUB_EVENT_PATH: EVENT,
  GITHUB_API_URL: github.url,
  GITHUB_WORKSPACE: dir
})
const step = (inputs: Record<string, string>, env = prEnv()) =>
  runStep(
    {
      'api-key': KEY,
      'base-url': emulator.baseUrl,
      'pr-comment': 'true',
      'github-token': TOKEN,
      ...inputs
    },
    { env, cwd: dir }
  )
const syncPlan = { operation: 'sync-checks', 'checks-file': 'checks.yml', 'dry-run': 'true' }
const ours = () => (github.comments.get('acme/shop#7') ?? []).filter(c => c.user.type === 'Bot')

describe('pr-comment (dist/index.js)', () => {
  it('writes the plan as one comment, then edits that comment on a re-run (its marker on the second page)', async () => {
    github.seed('acme/shop#7', 3)
    const first = await step(syncPlan)
    expect(first.code).toBe(0)
    expect(ours()).toHaveLength(1)
    const comment = ours()[0]
    expect(
      comment.body.startsWith(`${markerOf(['Deploy', 'deploy', 'sync-checks', 'checks.yml', emulator.baseUrl])}\n`)
    ).toBe(true)
    expect(comment.body).toContain('### Sync plan (dry run: nothing sent)')
    expect(comment.body).toContain('| create | app-web |')
    expect(first.outputs['comment-url']).toBe(comment.html_url)
    expect(github.requests.every(r => r.authorization === `token ${TOKEN}`)).toBe(true)

    // 120 comments by people after ours: at 100 a page, ours is on page 1 and theirs run onto page 2.
    // Put ours last instead, on page 2, by moving it behind them.
    github.seed('acme/shop#7', 120)
    const list = github.comments.get('acme/shop#7')!
    list.push(list.splice(list.indexOf(comment), 1)[0])
    emulator.seedCheck({ name: 'app-web', url: 'https://web.example.com/', interval: 30 })
    github.requests.length = 0
    const rerun = await step(syncPlan)
    expect(rerun.code).toBe(0)
    expect(ours()).toHaveLength(1)
    expect(ours()[0].body).toContain('interval: 30 → 60')
    // who the token is (an installation token cannot say: only a bot's comment can be ours), two pages, the edit
    expect(github.requests.map(r => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'GET /user',
      'GET /repos/acme/shop/issues/7/comments',
      'GET /repos/acme/shop/issues/7/comments',
      'PATCH /repos/acme/shop/issues/comments/' + String(comment.id)
    ])
    expect(github.requests[2].path).toContain('page=2')
    expect(rerun.outputs['comment-url']).toBe(comment.html_url)
    // the token is masked first, and never shows anywhere else (the runner consumes ::add-mask:: lines)
    expect(rerun.stdout.split('\n')[1]).toBe(`::add-mask::${TOKEN}`)
    const shown = (rerun.stdout + rerun.stderr)
      .split('\n')
      .filter(l => !l.startsWith('::add-mask::'))
      .join('\n')
    expect(shown + rerun.summary + JSON.stringify(rerun.outputs) + ours()[0].body).not.toContain(TOKEN)
  })

  it("a person's comment that starts with the marker is never taken over; a personal token finds its own", async () => {
    await step(syncPlan)
    const marker = ours()[0].body.split('\n')[0]
    github.comments.set('acme/shop#7', [])
    github.seed('acme/shop#7', 1, () => `${marker}\nfake plan: nothing to see`)
    await step(syncPlan)
    const all = github.comments.get('acme/shop#7')!
    expect(all[0].body).toBe(`${marker}\nfake plan: nothing to see`)
    expect(ours()).toHaveLength(1)

    // a personal token (GET /user says who it is) edits the comment it wrote, not the person's
    const pat = { 'github-token': 'ghp_personal0123456789' }
    const first = await step({ ...syncPlan, ...pat })
    const second = await step({ ...syncPlan, ...pat })
    expect(second.outputs['comment-url']).toBe(first.outputs['comment-url'])
    const now = github.comments.get('acme/shop#7')!
    expect(now.filter(c => c.user.login === 'octo-pat')).toHaveLength(1)
    expect(now[0].body).toBe(`${marker}\nfake plan: nothing to see`)
  })

  it("another bot's comment that copies the marker is never edited: the job token posts its own", async () => {
    await step(syncPlan)
    const marker = ours()[0].body.split('\n')[0]
    github.comments.set('acme/shop#7', [])
    github.seed('acme/shop#7', 1, () => `${marker}\nfake plan by another app`, { login: 'mimic[bot]', type: 'Bot' })
    const r = await step(syncPlan)
    expect(r.code).toBe(0)
    const all = github.comments.get('acme/shop#7')!
    expect(all).toHaveLength(2)
    expect(all[0]).toMatchObject({ body: `${marker}\nfake plan by another app`, user: { login: 'mimic[bot]' } })
    expect(all[1].user.login).toBe('github-actions[bot]')
    expect(r.outputs['comment-url']).toBe(all[1].html_url)
    expect(github.requests.some(q => q.method === 'PATCH')).toBe(false)
  })

  it('when GitHub refuses to edit the comment found, a new one is kept and the refused one deleted; no warning', async () => {
    await step(syncPlan)
    const [refused] = ours()
    github.refuseComment(refused.id, 403)
    for (const run of [1, 2]) {
      const r = await step(syncPlan)
      expect(r.code).toBe(0)
      expect(ours()).toHaveLength(1)
      expect(ours()[0].id).not.toBe(refused.id)
      expect(r.outputs['comment-url']).toBe(ours()[0].html_url)
      if (run === 1) expect(r.stdout).toContain(`GitHub refused to edit ${refused.html_url} (HTTP 403: `)
      expect(r.stdout).not.toContain('::warning::pr-comment')
    }
  })

  it('a gate on 250 long check names: the whole body, marker and footer counted, stays within 65,536 characters', async () => {
    const names = Array.from({ length: 250 }, (_, i) => `gate-${i}-${'n'.repeat(300)}`)
    for (const [i, name] of names.entries()) {
      emulator.seedCheck({ name, url: `https://g.example.com/${i}`, status: 'up' })
    }
    const r = await step({
      operation: 'wait-for-check',
      'check-name': names.join('\n'),
      timeout: '5s',
      'poll-interval': '1s',
      'require-fresh': 'false'
    })
    expect(r.stdout).toContain('pr-comment: wrote')
    const body = ours()[0].body
    expect(body.length).toBeLessThanOrEqual(65_536)
    expect(body).toContain('<sub>Written by')
  })

  it('the gate writes its result table; another job or target gets its own comment', async () => {
    const check = emulator.seedCheck({ name: 'shop', url: target.url, status: 'up' })
    const gate = await step({
      operation: 'wait-for-check',
      'check-id': check.id,
      'require-fresh': 'false',
      timeout: '10s'
    })
    expect(gate.code).toBe(0)
    expect(ours()).toHaveLength(1)
    expect(ours()[0].body).toContain(markerOf(['Deploy', 'deploy', 'wait-for-check', check.id, emulator.baseUrl]))
    await step(syncPlan, { ...prEnv(), GITHUB_JOB: 'plan' })
    expect(ours()).toHaveLength(2)
  })

  it('two runs 150 ms apart, a comment listed only 600 ms after it is made: one comment stays, with the later run’s plan', async () => {
    github.listDelayMs = 600
    // Two pushes of the pull request: each run checks out its own checks file.
    const pushed = (name: string, check: string) => {
      const workspace = join(dir, name)
      mkdirSync(workspace, { recursive: true })
      writeFileSync(join(workspace, 'checks.yml'), `- name: ${check}\n  url: https://${check}.example.com/\n`)
      return { ...prEnv(), GITHUB_WORKSPACE: workspace }
    }
    const older = pushed('older', 'app-old')
    const newer = pushed('newer', 'app-new')
    const [a, b] = await Promise.all([
      step(syncPlan, { ...older, GITHUB_RUN_ID: '5100' }),
      new Promise(resolve => setTimeout(resolve, 150)).then(() => step(syncPlan, { ...newer, GITHUB_RUN_ID: '5101' }))
    ])
    expect([a.code, b.code]).toEqual([0, 0])
    expect(ours()).toHaveLength(1)
    expect(ours()[0].body).toContain('| create | app-new |')
    expect(ours()[0].body).not.toContain('app-old')
    expect([a.outputs['comment-url'], b.outputs['comment-url']]).toEqual([ours()[0].html_url, ours()[0].html_url])
    expect(a.stdout + b.stdout).not.toContain('::warning::')
  })

  it("GitHub's own failures, a 502 and a secondary rate limit (403, retry-after: 1), once each: retried, the comment written, no warning", async () => {
    github.fail({ failure: 'bad-gateway', method: 'GET', path: /\/comments$/ })
    github.fail({ failure: 'secondary-rate-limit', retryAfterSeconds: 1, method: 'POST' })
    const r = await step(syncPlan)
    expect(r.code).toBe(0)
    expect(ours()).toHaveLength(1)
    expect(r.outputs['comment-url']).toBe(ours()[0].html_url)
    expect(r.stdout).not.toContain('::warning::')
    expect(r.stdout).toContain("pr-comment: GitHub's secondary rate limit (POST ")
    expect(github.failures.map(f => f.times)).toEqual([0, 0])
  })

  it('a refusal from GitHub (403, 404) is a warning that names the permission; the step passes', async () => {
    for (const status of [403, 404]) {
      github.refuse = status
      const r = await step(syncPlan)
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(`::warning::pr-comment: GitHub refused the comment (HTTP ${status}`)
      expect(r.stdout).toContain('permissions: pull-requests: write')
      expect(r.outputs['comment-url']).toBeUndefined()
    }
  })

  it('a GitHub that never answers costs at most request-timeout: a warning, the step passes', async () => {
    github.hang = true
    const started = Date.now()
    const r = await step({ ...syncPlan, 'request-timeout': '1s' })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      '::warning::pr-comment: the comment could not be written (no answer within request-timeout (1000 ms))'
    )
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('a cancel (SIGINT) while GitHub hangs ends the comment at once; the job summary was written before it', async () => {
    github.hang = true
    const started = Date.now()
    const r = await runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, 'pr-comment': 'true', 'github-token': TOKEN, ...syncPlan },
      {
        env: prEnv(),
        cwd: dir,
        onSpawn: child => {
          // once GitHub has been asked (the first request arrives), the job is cancelled
          const wait = setInterval(() => {
            if (github.requests.length > 0) {
              clearInterval(wait)
              child.kill('SIGINT')
            }
          }, 20)
        }
      }
    )
    expect(Date.now() - started).toBeLessThan(10_000) // request-timeout is 30 s: the cancel ended it
    expect(r.summary).toContain('### Sync plan (dry run: nothing sent)')
    expect(r.stdout).toContain('::warning::pr-comment: the comment could not be written (the job was cancelled)')
  })

  it('a failed sync still comments (the reviewer sees why), and the step still fails', async () => {
    for (let i = 0; i < 11; i++) emulator.seedCheck({ name: `old-${i}`, url: 'https://old.example.com/' })
    const r = await step({ ...syncPlan, prune: 'true' })
    expect(r.code).toBe(1)
    expect(ours()[0].body).toContain('Sync refused')
    expect(ours()[0].body).toContain('max-deletions')
  })

  it('the workflow name in the footer and URLs in names are defused: no mention, no autolink', async () => {
    writeFileSync(
      join(dir, 'links.yml'),
      '- name: "see https://evil.example/x or www.evil.example, cc @octocat"\n  url: https://l.example.com/\n'
    )
    const r = await step(
      { ...syncPlan, 'checks-file': 'links.yml' },
      { ...prEnv(), GITHUB_WORKFLOW: 'Deploy @octocat see www.evil.example' }
    )
    expect(r.code).toBe(0)
    const body = ours()[0].body
    expect(body).toContain('<sub>Written by [Deploy @\u200Boctocat see www\u200B.evil.example run]')
    expect(body).not.toMatch(/@octocat|https:\/\/evil|www\.evil/)
  })

  it('on a push event: a notice, and no request to GitHub', async () => {
    const r = await step(syncPlan, prEnv('push'))
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('::notice::pr-comment: this is a push, not a pull_request event; no comment written.')
    expect(github.requests).toEqual([])
  })

  it('hostile names are escaped in the comment, and a long plan is folded and capped', async () => {
    const many = Array.from(
      { length: 400 },
      (_, i) =>
        `- name: "app-${i} <img src=x onerror=alert(1)> | ${'x'.repeat(150)}"\n  url: https://w.example.com/${i}\n`
    )
    writeFileSync(join(dir, 'many.yml'), many.join(''))
    const r = await step({ ...syncPlan, 'checks-file': 'many.yml' })
    expect(r.code).toBe(0)
    const body = ours()[0].body
    expect(body).not.toContain('<img')
    expect(body).toContain('<details><summary>400 rows</summary>')
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(65_536)
    expect(body).toMatch(/_\d+ more rows not shown: a comment is kept under GitHub's 65,536 characters/)
  })
})
