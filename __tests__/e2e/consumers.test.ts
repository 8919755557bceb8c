/**
 * What the action writes, read by the tools users feed it to (through
 * dist/index.js, as the runner runs it): job summaries and pull-request
 * comments rendered by GitHub's Markdown renderer (cmark-gfm), JUnit reports
 * checked against a published JUnit schema and read by the parser a JUnit
 * reporter uses, and every request to GitHub checked against GitHub's
 * OpenAPI description. Each checker first refuses a known-bad control, so
 * it can say no.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  RENDERER,
  githubRequestProblems,
  junitSchemaErrors,
  readJunit,
  renderGfm,
  renderedProblems
} from '../helpers/consumers.js'
import { GITHUB_ENV, KEY, afterFirstRead, useEmulator } from '../helpers/harness.js'
import { FakeGitHub, runStep } from '../helpers/runner.js'

const emulator = useEmulator()
const github = new FakeGitHub()
beforeAll(() => github.start())
afterAll(() => github.stop())
beforeEach(() => github.reset())

const dir = mkdtempSync(join(tmpdir(), 'consumers-'))
const EVENT = join(dir, 'event.json')
writeFileSync(EVENT, JSON.stringify({ pull_request: { number: 7 }, number: 7 }))
const TOKEN = 'ghs_consumerToken0123456789'

/** A workflow whose name mentions, links and references. */
const WORKFLOW = 'Deploy @octocat see https://attacker.example/w #12 <img src=x>'
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...GITHUB_ENV,
  GITHUB_WORKFLOW: WORKFLOW,
  GITHUB_EVENT_NAME: 'pull_request',
  GITHUB_EVENT_PATH: EVENT,
  GITHUB_API_URL: github.url,
  GITHUB_WORKSPACE: dir,
  ...extra
})
const step = (inputs: Record<string, string>, extra: NodeJS.ProcessEnv = {}) =>
  runStep(
    { 'api-key': KEY, 'base-url': emulator.baseUrl, 'github-token': TOKEN, ...inputs },
    { env: env(extra), cwd: dir }
  )

/** Server data that tries everything GitHub would make live or break. */
const HOSTILE = [
  'shop @octocat #12 GH-34 | cell <img src=x onerror=alert(1)>',
  'api https://attacker.example/x www.attacker.example mail@attacker.example',
  'lone\rcr ~~struck~~ <script>alert(1)</script> <details>',
  '# heading | - list `code` [link](https://attacker.example/l) ![i](https://attacker.example/i.png)'
]
/** Links the action writes itself: the run, the job, the comment. */
const OWN_LINKS = [GITHUB_ENV.GITHUB_SERVER_URL]

const expectRendersSafely = (markdown: string, whole: string[]) => {
  const html = renderGfm(markdown)
  const problems = renderedProblems(html, { ownLinks: OWN_LINKS, whole })
  expect(problems.length === 0 ? problems : { problems, html }).toEqual([])
}

describe(`GitHub's Markdown renderer (${RENDERER})`, () => {
  it('the checker refuses a known-bad control: links, images, raw elements, mentions, references, split rows', () => {
    const bad = [
      '| name | id |',
      '|---|---|',
      '| x|y | chk_1 |',
      '| https://attacker.example @octocat #12 <img src=x> | chk_2 |',
      '',
      '<script>alert(1)</script>'
    ].join('\n')
    const problems = renderedProblems(renderGfm(bad), { ownLinks: OWN_LINKS, whole: ['x|y'] })
    expect(problems).toEqual(
      expect.arrayContaining([
        'a link to https://attacker.example',
        'a raw <img> element',
        'a mention of @octocat',
        'a reference #12',
        '"x|y" not shown whole in one element'
      ])
    )
    // tagfilter is on: <script> is shown as text, never an element.
    expect(renderGfm('<script>x</script>')).toContain('&lt;script>')
  })

  it('list-checks: every hostile name shows whole in its own cell, with nothing live', async () => {
    for (const [i, name] of HOSTILE.entries()) {
      emulator.seedCheck({ name, url: `https://s${i}.example.com/?next=https://attacker.example/${i}` })
    }
    const r = await step({ operation: 'list-checks' })
    expect(r.code).toBe(0)
    expectRendersSafely(r.summary, HOSTILE)
  })

  it('sync-checks plan: the summary and the pull-request comment render safely, long URLs whole', async () => {
    const long = `https://shop.example.com/health?${'a=1&'.repeat(40)}notify=https://attacker.example/collect`
    emulator.seedCheck({ name: HOSTILE[0], url: 'https://old.example.com/', interval: 300 })
    writeFileSync(
      join(dir, 'checks.yml'),
      [HOSTILE[0], HOSTILE[1], 'plain']
        .map(name => `- name: ${JSON.stringify(name)}\n  url: ${JSON.stringify(long)}\n  interval: 60\n`)
        .join('')
    )
    const r = await step({
      operation: 'sync-checks',
      'checks-file': 'checks.yml',
      'dry-run': 'true',
      'pr-comment': 'true'
    })
    expect(r.code).toBe(0)
    const comment = github.comments.get('acme/shop#7')?.[0]?.body ?? ''
    expect(comment).toContain('Sync plan')
    for (const markdown of [r.summary, comment]) expectRendersSafely(markdown, [HOSTILE[0], HOSTILE[1], long])
  })

  it('the gate: summary and comment with a failed check whose name and server error are hostile', async () => {
    emulator.seedCheck({ id: 'chk_g1', name: HOSTILE[2], url: 'https://a.example.com/', status: 'down' })
    emulator.seedCheck({
      id: 'chk_g2',
      name: HOSTILE[3],
      url: 'https://b.example.com/',
      status: 'up',
      lastCheckedAt: new Date(Date.now() + 60_000).toISOString()
    })
    const r = await step({
      operation: 'wait-for-check',
      'check-id': 'chk_g1\nchk_g2',
      timeout: '1s',
      'poll-interval': '300ms',
      'pr-comment': 'true'
    })
    expect(r.outputs.outcome).toBe('timed-out')
    const comment = github.comments.get('acme/shop#7')?.[0]?.body ?? ''
    expect(comment).not.toBe('')
    for (const markdown of [r.summary, comment]) expectRendersSafely(markdown, [HOSTILE[2], HOSTILE[3]])
  })

  it('the drift issue: its body (the plan, hostile names) and the comment that closes it render safely', async () => {
    const web = emulator.seedCheck({ name: HOSTILE[0], url: 'https://old.example.com/', interval: 300 })
    writeFileSync(
      join(dir, 'drift.yml'),
      `- name: ${JSON.stringify(HOSTILE[0])}\n  url: https://new.example.com/\n  interval: 60\n`
    )
    const sync = { operation: 'sync-checks', 'checks-file': 'drift.yml', 'dry-run': 'true', 'drift-issue': 'true' }
    expect((await step(sync)).code).toBe(0)
    const issue = github.issues.get('acme/shop')?.[0]
    expect(issue?.title).toBe('Monitoring drift: drift.yml')
    expectRendersSafely(issue?.body ?? '', [HOSTILE[0]])
    Object.assign(emulator.checks.get(web.id) ?? {}, { url: 'https://new.example.com/', interval: 60 })
    expect((await step(sync)).code).toBe(0)
    const closing = github.comments.get('acme/shop#1')?.[0]?.body ?? ''
    expect(closing).toContain('No drift any more')
    expectRendersSafely(closing, [])
  })

  it('incidents: a hostile title and workflow name in the summary', async () => {
    const r = await step({ operation: 'open-incident', 'incident-title': HOSTILE[0] })
    expect(r.code).toBe(0)
    expectRendersSafely(r.summary, [HOSTILE[0]])
  })
})

describe('JUnit: a published schema and the parser a reporter reads it with', () => {
  it('the schema refuses a known-bad control (a testcase without a name, a failure outside a testcase)', async () => {
    expect(
      await junitSchemaErrors('<testsuites><testsuite name="s" tests="1"><testcase/></testsuite></testsuites>')
    ).not.toEqual([])
    expect(await junitSchemaErrors('<testsuite name="s" tests="1"><failure/></testsuite>')).not.toEqual([])
    expect(await junitSchemaErrors('<testsuite name="s" tests="1"><testcase name="t"/></testsuite>')).toEqual([])
  })

  it('a gate with a pass, a timed-out and an error (hostile names): valid, and read back case by case', async () => {
    emulator.seedCheck({
      id: 'chk_ok',
      name: 'ok <b>&amp; "quoted"',
      url: 'https://ok.example.com/',
      status: 'up',
      lastCheckedAt: new Date(Date.now() - 60_000).toISOString()
    })
    emulator.seedCheck({ id: 'chk_down', name: HOSTILE[2], url: 'https://d.example.com/', status: 'down' })
    // A probe after the step's first read of chk_ok: a fresh result.
    afterFirstRead(emulator, { chk_ok: { lastCheckedAt: new Date(Date.now() + 60_000).toISOString() } })
    const file = join(dir, 'reports', 'gate.xml')
    const timedOut = await step({
      operation: 'wait-for-check',
      'check-id': 'chk_ok\nchk_down',
      timeout: '1s',
      'poll-interval': '300ms',
      'junit-file': file
    })
    expect(timedOut.outputs.outcome).toBe('timed-out')
    const xml = readFileSync(file, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    const read = readJunit(xml)
    expect(read).toMatchObject({ tests: 2, failures: 1, errors: 0 })
    // XML reads a line break inside an attribute as a space: the rest comes back exactly, markup as text.
    expect(read.cases.map(c => c.name.replace(/\s+/g, ' '))).toEqual([
      'ok <b>&amp; "quoted" (chk_ok)',
      'lone cr ~~struck~~ <script>alert(1)</script> <details> (chk_down)'
    ])
    expect(read.cases[0].failure).toBeUndefined()
    expect(read.cases[1].failure).toMatchObject({ kind: 'failure' })
    expect(read.cases[1].failure?.message).toBe('status is down, expected up; never checked')
    expect(read.cases.every(c => Number.isFinite(c.time))).toBe(true)

    emulator.inject({ path: '/checks/chk_ok', status: 400, body: { error: 'bad <xml> & "things" ]]>' }, times: 5 })
    const errored = await step({
      operation: 'wait-for-check',
      'check-id': 'chk_ok',
      timeout: '1s',
      'junit-file': file
    })
    expect(errored.outputs.outcome).toBe('error')
    const xml2 = readFileSync(file, 'utf8')
    expect(await junitSchemaErrors(xml2)).toEqual([])
    const read2 = readJunit(xml2)
    expect(read2).toMatchObject({ tests: 1, failures: 0, errors: 1 })
    expect(read2.cases[0].failure).toMatchObject({ kind: 'error' })
    expect(read2.cases[0].failure?.message).toContain('bad <xml> & "things" ]]>')
  })
})

describe('JUnit of a gate closed by a spent error budget', () => {
  it('a failure of type budget-exhausted for the spent check, the other skipped: valid, and read back', async () => {
    const now = Date.now()
    const history = (down: number) =>
      Array.from({ length: 100 }, (_, i) => ({
        checkedAt: new Date(now - (i + 1) * 60_000).toISOString(),
        status: i < down ? 'down' : 'up',
        responseTime: 100
      }))
    emulator.seedCheck({ id: 'chk_spent', name: HOSTILE[2], url: 'https://s.example.com/', status: 'up' })
    emulator.seedCheck({ id: 'chk_fine', name: 'fine <b>', url: 'https://f.example.com/', status: 'up' })
    emulator.history.set('chk_spent', history(3))
    emulator.history.set('chk_fine', history(0))
    const file = join(dir, 'reports', 'budget.xml')
    const r = await step({
      operation: 'wait-for-check',
      'check-id': 'chk_spent,chk_fine',
      slo: '99%',
      timeout: '30s',
      'junit-file': file
    })
    expect(r.outputs.outcome).toBe('budget-exhausted')
    const xml = readFileSync(file, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    const read = readJunit(xml)
    expect(read).toMatchObject({ tests: 2, failures: 1, errors: 0 })
    expect(read.cases[0].failure).toMatchObject({ kind: 'failure' })
    expect(read.cases[0].failure?.message).toMatch(/^error budget spent: availability 97% /)
    expect(read.cases[1].failure).toBeUndefined()
    expect(xml).toMatch(/skipped="1"/)
    expectRendersSafely(r.summary, [HOSTILE[2]])
  })
})

describe("GitHub's OpenAPI description", () => {
  it('refuses a known-bad control: an unknown path, a wrong method, an unknown query, a bad body', () => {
    expect(githubRequestProblems({ method: 'GET', path: '/repos/a/b/issue/7/comments', body: '' })).toHaveLength(1)
    expect(githubRequestProblems({ method: 'DELETE', path: '/user', body: '' })).toHaveLength(1)
    expect(
      githubRequestProblems({ method: 'GET', path: '/repos/a/b/issues/7/comments?per_pag=100', body: '' })
    ).toEqual(['GET /repos/a/b/issues/7/comments: query parameter per_pag is not one the operation takes'])
    expect(
      githubRequestProblems({ method: 'PATCH', path: '/repos/a/b/issues/comments/12', body: '{"bdy":"x"}' })[0]
    ).toMatch(/body does not match/)
    expect(
      githubRequestProblems({ method: 'POST', path: '/repos/a/b/issues/7/comments', body: '{"body":"x"}' })
    ).toEqual([])
  })

  it('every request of a comment created, found on a later page and edited, and of {job_url}, is one GitHub documents', async () => {
    writeFileSync(join(dir, 'checks.yml'), '- name: web\n  url: https://web.example.com/\n')
    const sync = { operation: 'sync-checks', 'checks-file': 'checks.yml', 'dry-run': 'true', 'pr-comment': 'true' }
    expect((await step(sync)).code).toBe(0)
    github.seed('acme/shop#7', 120)
    const list = github.comments.get('acme/shop#7')!
    list.push(list.shift()!)
    expect((await step({ ...sync, 'dry-run': 'false' })).code).toBe(0)
    github.jobs = [
      {
        id: 99,
        name: 'deploy',
        status: 'in_progress',
        runner_name: 'runner-1',
        html_url: 'https://github.example.com/acme/shop/actions/runs/4242/job/99'
      }
    ]
    const incident = await step(
      { operation: 'open-incident', 'incident-title': 'Deploy failed', 'incident-message': 'See {job_url}' },
      { RUNNER_NAME: 'runner-1' }
    )
    expect(incident.code).toBe(0)
    const seen = github.requests.map(r => `${r.method} ${r.path.split('?')[0]}`)
    expect(seen).toEqual(
      expect.arrayContaining([
        'GET /user',
        'GET /repos/acme/shop/issues/7/comments',
        'POST /repos/acme/shop/issues/7/comments',
        expect.stringMatching(/^PATCH \/repos\/acme\/shop\/issues\/comments\/\d+$/),
        'GET /repos/acme/shop/actions/runs/4242/attempts/1/jobs'
      ])
    )
    expect(github.requests.flatMap(githubRequestProblems)).toEqual([])
  })

  it('every request of the drift issue (opened, updated, closed with a comment, reopened) is one GitHub documents', async () => {
    const web = emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    writeFileSync(join(dir, 'watch.yml'), '- name: web\n  url: https://web.example.com/\n  interval: 60\n')
    github.seedIssue('acme/shop', { title: 'a pull request', pull_request: { url: 'https://x' } })
    const sync = { operation: 'sync-checks', 'checks-file': 'watch.yml', 'dry-run': 'true', 'drift-issue': 'true' }
    for (const interval of [300, 45, 60, 10]) {
      emulator.checks.get(web.id)!.interval = interval
      expect((await step(sync)).code).toBe(0)
    }
    const seen = github.requests.map(r => `${r.method} ${r.path.split('?')[0]}`)
    expect(seen).toEqual(
      expect.arrayContaining([
        'GET /repos/acme/shop/issues',
        'POST /repos/acme/shop/issues',
        'PATCH /repos/acme/shop/issues/2',
        'POST /repos/acme/shop/issues/2/comments'
      ])
    )
    expect(github.requests.flatMap(githubRequestProblems)).toEqual([])
  })
})
