/**
 * Watching for drift through dist/index.js, as a scheduled workflow runs it:
 * the `drift` output, `fail-on-drift` on a dry run, and the one drift issue
 * against a fake GitHub (opened, updated in place, closed, reopened; a
 * refusal and a hang are warnings; an issue someone else wrote is never ours).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GITHUB_ENV, KEY, useEmulator } from '../helpers/harness.js'
import { FakeGitHub, runStep } from '../helpers/runner.js'
import { markerOf } from '../../src/github/sticky.js'

const emulator = useEmulator()
const github = new FakeGitHub()
beforeAll(() => github.start())
afterAll(() => github.stop())
beforeEach(() => github.reset())

const dir = mkdtempSync(join(tmpdir(), 'drift-'))
writeFileSync(join(dir, 'checks.yml'), '- name: web\n  url: https://web.example.com/\n  interval: 60\n')
const TOKEN = 'ghs_driftToken0123456789abcdef'

const step = (inputs: Record<string, string>, timeoutMs?: number) =>
  runStep(
    {
      'api-key': KEY,
      'base-url': emulator.baseUrl,
      'github-token': TOKEN,
      operation: 'sync-checks',
      'checks-file': 'checks.yml',
      'dry-run': 'true',
      ...inputs
    },
    {
      env: { ...GITHUB_ENV, GITHUB_EVENT_NAME: 'schedule', GITHUB_API_URL: github.url, GITHUB_WORKSPACE: dir },
      cwd: dir,
      timeoutMs
    }
  )
/** Everything a step wrote but the ::add-mask:: lines that tell the runner what to mask. */
const shown = (r: { all: string }) =>
  r.all
    .split('\n')
    .filter(line => !line.startsWith('::add-mask::'))
    .join('\n')
const issues = () => github.issues.get('acme/shop') ?? []
const marker = () => markerOf(['drift-issue', GITHUB_ENV.GITHUB_WORKFLOW, 'checks.yml', emulator.baseUrl])

describe('export-checks (dist/index.js)', () => {
  it('exports with the token as a variable (never printed), and the sync of the file with it set plans nothing', async () => {
    const token = 'tok-e2e-5a4b3c2d1e'
    emulator.seedCheck({ name: 'shop', url: `https://shop.example.com/health?token=${token}`, interval: 30 })
    emulator.seedCheck({ name: 'yes', url: 'https://yes.example.com/', status: 'paused' })
    const exported = await step({ operation: 'export-checks', 'checks-file': 'adopted.yml', 'dry-run': 'false' })
    expect(exported.code).toBe(0)
    expect(exported.outputs.count).toBe('2')
    // Masked: the runner is told (::add-mask::), and nothing else the step wrote holds it.
    expect(exported.stdout).toContain(`::add-mask::${token}`)
    expect(shown(exported)).not.toContain(token)
    expect(exported.stdout).toContain('CHECK_SHOP_TOKEN')
    const text = readFileSync(join(dir, 'adopted.yml'), 'utf8')
    expect(text).toContain('url: "https://shop.example.com/health?token=${secret:CHECK_SHOP_TOKEN}"')
    expect(text).not.toContain(token)
    const plan = await runStep(
      {
        'api-key': KEY,
        'base-url': emulator.baseUrl,
        operation: 'sync-checks',
        'checks-file': 'adopted.yml',
        'dry-run': 'true',
        prune: 'true'
      },
      { env: { ...GITHUB_ENV, GITHUB_WORKSPACE: dir, CHECK_SHOP_TOKEN: token }, cwd: dir }
    )
    expect(plan.code).toBe(0)
    expect(plan.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0', unchanged: '2', drift: 'false' })
    expect(shown(plan)).not.toContain(token)
  })
})

describe('export-checks under hostile conditions (dist/index.js)', () => {
  const exportTo = (file: string, options: Parameters<typeof runStep>[1] = {}) =>
    runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'export-checks', 'checks-file': file },
      { env: { ...GITHUB_ENV, GITHUB_WORKSPACE: dir }, cwd: dir, ...options }
    )

  it('hostile names never become workflow commands, and the file reads them back', async () => {
    emulator.seedCheck({ name: 'x\n::error::pwned', url: 'https://a.example.com/' })
    emulator.seedCheck({ name: 'lone\r::warning::cr <img src=x> | cell', url: 'https://b.example.com/' })
    const r = await exportTo('hostile.yml')
    expect(r.code).toBe(0)
    const commands = r.stdout
      .split(/\r\n|\r|\n/)
      .filter(line => /^\s*::/.test(line) && !line.startsWith('::add-mask::'))
    expect(commands.filter(line => !line.startsWith('::debug::'))).toEqual([])
    const plan = await step({ 'checks-file': 'hostile.yml', prune: 'true' })
    expect(plan.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0', unchanged: '2' })
  })

  it('a cancel (SIGINT, then SIGTERM) during a slow list leaves the file from before, and nothing half-written', async () => {
    emulator.seedCheck({ name: 'a', url: 'https://a.example.com/' })
    writeFileSync(join(dir, 'kept.yml'), 'the file from before\n')
    emulator.inject({ method: 'GET', path: '/checks', delayMs: 5_000 })
    const r = await exportTo('kept.yml', {
      onSpawn: child => {
        setTimeout(() => child.kill('SIGINT'), 500)
        setTimeout(() => child.kill('SIGTERM'), 1_500)
      }
    })
    expect(r.code).not.toBe(0)
    expect(r.ms).toBeLessThan(4_000)
    expect(readFileSync(join(dir, 'kept.yml'), 'utf8')).toBe('the file from before\n')
    expect(readdirSync(dir).filter(f => f.endsWith('.tmp'))).toEqual([])
  })

  it('two exports to one file at once (one behind a slow answer) end with one whole file', async () => {
    for (let i = 0; i < 5; i++) emulator.seedCheck({ name: `c${i}`, url: `https://c${i}.example.com/` })
    emulator.inject({ method: 'GET', path: '/checks', delayMs: 300, times: 2 })
    const [a, b] = await Promise.all([exportTo('both.yml'), exportTo('both.yml')])
    expect([a.code, b.code]).toEqual([0, 0])
    expect([...readFileSync(join(dir, 'both.yml'), 'utf8').matchAll(/^- name: /gm)]).toHaveLength(5)
    const plan = await step({ 'checks-file': 'both.yml', prune: 'true' })
    expect(plan.outputs).toMatchObject({ created: '0', updated: '0', deleted: '0' })
  })
})

describe('drift (dist/index.js)', () => {
  it('drift is false when the service matches the file, true when it does not', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 60 })
    const same = await step({})
    expect(same.code).toBe(0)
    expect(same.outputs.drift).toBe('false')
    const check = [...emulator.checks.values()][0]
    check.interval = 300
    const drifted = await step({})
    expect(drifted.code).toBe(0)
    expect(drifted.outputs.drift).toBe('true')
  })

  it('fail-on-drift fails the dry run naming each entry and its change; fail-on-error false does not hide it', async () => {
    const web = emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    const r = await step({ 'fail-on-drift': 'true', 'fail-on-error': 'false' })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      `::error::sync-checks: drift: 1 check(s) differ from checks-file checks.yml: update "web" (${web.id}): interval: 300 → 60.`
    )
    expect(r.outputs).toMatchObject({ drift: 'true', updated: '1' })
    expect(r.summary).toContain('### Drift: the service differs from the checks file')
    expect(emulator.count('PUT')).toBe(0)
  })

  it('a check paused in the service that the file states as running is drift: fail-on-drift names it; an apply keeps it paused', async () => {
    const web = emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 60, status: 'paused' })
    const r = await step({ 'fail-on-drift': 'true' })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(
      `::error::sync-checks: drift: 1 check(s) differ from checks-file checks.yml: paused "web" (${web.id}): status: paused in the service`
    )
    expect(r.outputs).toMatchObject({ drift: 'true', unchanged: '1', updated: '0' })
    expect(JSON.parse(r.outputs.result)).toEqual([
      expect.objectContaining({ action: 'unchanged', name: 'web', id: web.id, paused: true })
    ])
    expect(r.summary).toContain('| paused | web |')

    // An apply keeps it paused (a deploy's pause window is never undone by a sync), and says so.
    const applied = await step({ 'dry-run': 'false' })
    expect(applied.code).toBe(0)
    expect(emulator.count('PUT')).toBe(0)
    expect(emulator.checks.get(web.id)?.status).toBe('paused')
    expect(applied.outputs).toMatchObject({ drift: 'true', changed: 'false' })
    expect(applied.stdout).toMatch(/paused\s+web \(chk_[0-9a-f]+\): status: paused in the service/)

    // The file saying so ends the drift: status: paused keeps it, status: up resumes it.
    writeFileSync(
      join(dir, 'paused.yml'),
      '- name: web\n  url: https://web.example.com/\n  interval: 60\n  status: paused\n'
    )
    const stated = await step({ 'fail-on-drift': 'true', 'checks-file': 'paused.yml' })
    expect(stated.code).toBe(0)
    expect(stated.outputs.drift).toBe('false')
    writeFileSync(join(dir, 'up.yml'), '- name: web\n  url: https://web.example.com/\n  interval: 60\n  status: up\n')
    const resumed = await step({ 'dry-run': 'false', 'checks-file': 'up.yml' })
    expect(resumed.code).toBe(0)
    expect(emulator.checks.get(web.id)?.status).toBe('up')
  })

  it('fail-on-drift without dry-run is an input error before any request', async () => {
    const r = await step({ 'fail-on-drift': 'true', 'dry-run': 'false' })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/::error::fail-on-drift applies to a dry run/)
    expect(emulator.count()).toBe(0)
  })
})

describe('drift-issue (dist/index.js, a fake GitHub)', () => {
  it('opens one issue, updates it in place, closes it with a comment, and reopens it when drift comes back', async () => {
    const web = emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    const first = await step({ 'drift-issue': 'true' })
    expect(first.code).toBe(0)
    expect(issues()).toHaveLength(1)
    const [issue] = issues()
    expect(issue).toMatchObject({ title: 'Monitoring drift: checks.yml', state: 'open' })
    expect(issue.body.startsWith(`${marker()}\n`)).toBe(true)
    expect(issue.body).toContain('| update | web |')
    expect(issue.body).toContain('interval: 300 → 60')
    expect(first.outputs['issue-url']).toBe(issue.html_url)

    emulator.checks.get(web.id)!.interval = 45
    const second = await step({ 'drift-issue': 'true' })
    expect(second.code).toBe(0)
    expect(issues()).toHaveLength(1)
    expect(issues()[0].body).toContain('interval: 45 → 60')

    emulator.checks.get(web.id)!.interval = 60
    const clean = await step({ 'drift-issue': 'true' })
    expect(clean.outputs.drift).toBe('false')
    expect(issues()[0]).toMatchObject({ state: 'closed', state_reason: 'completed' })
    expect(github.comments.get('acme/shop#1')?.[0].body).toMatch(
      /^No drift any more: the service matches `checks.yml` again/
    )
    expect(clean.outputs['issue-url']).toBe(issue.html_url)

    // Closed already and still no drift: nothing is written.
    const writes = () => github.requests.filter(r => r.method !== 'GET').length
    const before = writes()
    const quiet = await step({ 'drift-issue': 'true' })
    expect(quiet.code).toBe(0)
    expect(writes()).toBe(before)

    emulator.checks.get(web.id)!.interval = 10
    const back = await step({ 'drift-issue': 'true' })
    expect(issues()).toHaveLength(1)
    expect(issues()[0]).toMatchObject({ state: 'open' })
    expect(issues()[0].body).toContain('interval: 10 → 60')
    expect(back.stdout).toContain('drift-issue: drift is back; reopened')
  })

  it('an issue a person edited (a line above the marker, one below) stays the one issue: updated, then closed', async () => {
    const web = emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    const first = await step({ 'drift-issue': 'true' })
    expect(first.code).toBe(0)
    expect(issues()).toHaveLength(1)
    // A person edits the issue: a line above the marker and one below the plan.
    const edited = issues()[0]
    edited.body = `Looking into this, @someone\n\n${edited.body}\n\nNote: the interval was raised by hand.`

    emulator.checks.get(web.id)!.interval = 45
    const second = await step({ 'drift-issue': 'true' })
    expect(second.code).toBe(0)
    expect(issues()).toHaveLength(1)
    expect(issues()[0].body).toContain('interval: 45 → 60')
    expect(second.outputs['issue-url']).toBe(edited.html_url)

    // Edited again, then the drift is gone: that same issue is closed.
    issues()[0].body = `Above\n${issues()[0].body}\nBelow`
    emulator.checks.get(web.id)!.interval = 60
    const clean = await step({ 'drift-issue': 'true' })
    expect(clean.outputs.drift).toBe('false')
    expect(issues()).toHaveLength(1)
    expect(issues()[0]).toMatchObject({ state: 'closed', state_reason: 'completed' })
    expect(clean.outputs['issue-url']).toBe(edited.html_url)
  })

  it('an issue someone else wrote with the marker is never edited; a pull request is not an issue: a new one is opened', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    github.seedIssue('acme/shop', { title: 'copied', body: `${marker()}\nby a person` })
    github.seedIssue('acme/shop', { title: 'bot', body: `${marker()}\nby a bot` }, { login: 'other[bot]', type: 'Bot' })
    github.seedIssue(
      'acme/shop',
      { title: 'a pull request', body: `${marker()}\n`, pull_request: { url: 'https://x' } },
      { login: 'github-actions[bot]', type: 'Bot' }
    )
    const r = await step({ 'drift-issue': 'true' })
    expect(r.code).toBe(0)
    expect(issues()).toHaveLength(4)
    expect(issues()[3]).toMatchObject({ title: 'Monitoring drift: checks.yml', user: { login: 'github-actions[bot]' } })
    expect(issues()[0].body).toBe(`${marker()}\nby a person`)
    expect(issues()[1].body).toBe(`${marker()}\nby a bot`)
  })

  it('a 403 is a warning that names permissions: issues: write; the step goes on', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    github.refuse = 403
    const r = await step({ 'drift-issue': 'true' })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/::warning::drift-issue: GitHub refused the issue \(HTTP 403.*permissions: issues: write/)
    expect(r.outputs['issue-url']).toBeUndefined()
  })

  it('a GitHub that never answers: a warning within the request bound, and the step ends', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    github.hang = true
    const r = await step({ 'drift-issue': 'true', 'request-timeout': '1s' }, 30_000)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /::warning::drift-issue: the issue could not be written \(no answer within request-timeout/
    )
    expect(r.ms).toBeLessThan(8_000)
  })

  it('racing runs that each opened an issue end with one open: the oldest; a run without drift closes every open one', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    // GitHub slow enough that every run lists the issues before any create lands, even on a loaded machine.
    github.delayMs = 1000
    const runs = await Promise.all([1, 2, 3].map(() => step({ 'drift-issue': 'true' })))
    expect(runs.map(r => r.code)).toEqual([0, 0, 0])
    // They raced: each found none and opened one.
    expect(issues().length).toBe(3)
    const open = issues().filter(i => i.state === 'open')
    expect(open.map(i => i.number)).toEqual([1])
    expect(new Set(runs.map(r => r.outputs['issue-url']))).toEqual(new Set([issues()[0].html_url]))
    for (const closed of issues().filter(i => i.state === 'closed')) {
      expect(github.comments.get(`acme/shop#${closed.number}`)?.[0].body).toMatch(/^Duplicate of #1/)
    }

    // Two of ours left open (a run stopped before closing its duplicate): the next run closes the extra one.
    github.delayMs = 0
    const extra = github.seedIssue(
      'acme/shop',
      { title: 'Monitoring drift: checks.yml', body: `${marker()}\nleft open` },
      { login: 'github-actions[bot]', type: 'Bot' }
    )
    await step({ 'drift-issue': 'true' })
    expect(issues().find(i => i.number === extra.number)?.state).toBe('closed')
    expect(
      issues()
        .filter(i => i.state === 'open')
        .map(i => i.number)
    ).toEqual([1])
  })

  it('after a sync that did not apply its plan, the issue says so (never "the file\'s values were put back")', async () => {
    const web = emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    emulator.inject({ method: 'PUT', path: `/checks/${web.id}`, status: 400, body: { error: 'interval not allowed' } })
    const r = await step({ 'drift-issue': 'true', 'dry-run': 'false' })
    expect(r.code).toBe(1)
    expect(emulator.checks.get(web.id)?.interval).toBe(300)
    const body = issues()[0]?.body ?? ''
    expect(body).toContain('did not apply the whole plan')
    expect(body).not.toContain("put the file's values back")
  })
})

describe('fail-on-drift with another failure (dist/index.js)', () => {
  it('a plan refused by max-deletions still fails for its drift, fail-on-error false or not, naming both', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    for (let i = 0; i < 12; i++) emulator.seedCheck({ name: `extra-${i}`, url: 'https://extra.example.com/' })
    const r = await step({ 'fail-on-drift': 'true', prune: 'true', 'fail-on-error': 'false' })
    expect(r.code).toBe(1)
    expect(r.outputs.drift).toBe('true')
    const error = r.stdout.split('\n').find(line => line.startsWith('::error::')) ?? ''
    expect(error).toContain('sync-checks: drift: 13 check(s) differ')
    expect(error).toContain('update "web"')
    expect(error).toContain('Also: sync-checks refused: the plan deletes 12 checks')
  })

  it('a plan-file that cannot be written still leaves drift set, and the drift fails the step', async () => {
    emulator.seedCheck({ name: 'web', url: 'https://web.example.com/', interval: 300 })
    const r = await step({ 'fail-on-drift': 'true', 'plan-file': '.', 'fail-on-error': 'false' })
    expect(r.code).toBe(1)
    expect(r.outputs.drift).toBe('true')
    expect(r.stdout).toMatch(/::error::sync-checks: drift: 1 check\(s\) differ.*Also: /)
  })
})

describe('secrets by position after a rotation (dist/index.js, a fake GitHub)', () => {
  it('old, new and deleted secrets appear in no output, log line, summary, plan file or drift issue', async () => {
    emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/health?token=OLDSECRET123&x=1' })
    emulator.seedCheck({ name: 'ops', url: 'https://ops:OLDPASSWORD9@ops.example.com/' })
    const exported = await step({ operation: 'export-checks', 'checks-file': 'rotate.yml', 'dry-run': 'false' })
    expect(exported.code).toBe(0)
    emulator.seedCheck({ name: 'gone', url: 'https://gone.example.com/#access_token=GONESECRET77' })
    // Rotated: the variables hold new values; the service still has the old ones.
    const rotated = { CHECK_SHOP_TOKEN: 'NEWSECRET456', CHECK_OPS_USERINFO: 'ops:NEWPASSWORD7' }
    const r = await runStep(
      {
        'api-key': KEY,
        'base-url': emulator.baseUrl,
        'github-token': TOKEN,
        operation: 'sync-checks',
        'checks-file': 'rotate.yml',
        'dry-run': 'true',
        'fail-on-drift': 'true',
        'drift-issue': 'true',
        prune: 'true',
        'plan-file': 'rotate-plan.json'
      },
      {
        env: { ...GITHUB_ENV, GITHUB_API_URL: github.url, GITHUB_WORKSPACE: dir, ...rotated },
        cwd: dir
      }
    )
    expect(r.code).toBe(1)
    expect(r.outputs).toMatchObject({ drift: 'true', updated: '2', deleted: '1' })
    expect(issues()).toHaveLength(1)
    const body = issues()[0].body
    expect(body).toContain('(secret changed)')
    const plan = readFileSync(join(dir, 'rotate-plan.json'), 'utf8')
    const sent = github.requests.map(q => q.body).join('\n')
    // Every form: raw, percent-encoded, JSON-escaped (these values read the same in all three).
    const everything = [shown(r), plan, body, sent].join('\n')
    for (const secret of ['OLDSECRET123', 'OLDPASSWORD9', 'GONESECRET77', 'NEWSECRET456', 'NEWPASSWORD7']) {
      for (const form of [secret, encodeURIComponent(secret), JSON.stringify(JSON.stringify(secret))]) {
        expect(everything).not.toContain(form.replace(/^"+|"+$/g, ''))
      }
    }
    expect(r.stdout).toContain('url: "https://shop.example.com/health?token=***&x=1" (secret changed)')
  })
})
