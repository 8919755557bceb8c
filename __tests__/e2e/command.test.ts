/**
 * The committed command (dist/cli.js), run as a shell in another CI runs it,
 * against the emulator: one JSON object on standard output, the log on
 * standard error, the exit statuses, --dotenv and --summary, usage errors
 * that send nothing, and pause-check around a command.
 */
import { ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from '@jest/globals'
import { KEY, until, useEmulator } from '../helpers/harness.js'
import { runCommand } from '../../scripts/lib/command.js'
import { OPERATIONS } from '../../src/operations/registry.js'

const emulator = useEmulator()
const site = 'https://shop.example.com/health'
const dir = mkdtempSync(join(tmpdir(), 'command-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const env = (more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  MONITORING_API_KEY: KEY,
  MONITORING_BASE_URL: emulator.baseUrl,
  ...more
})
const cli = (args: string[], more: NodeJS.ProcessEnv = {}, options = {}) =>
  runCommand(args, { env: env(more), ...options })

/** Standard output holds the JSON object and nothing else; neither stream holds a workflow command. */
function expectOneJson(r: { stdout: string; stderr: string }): void {
  const lines = r.stdout.trimEnd().split('\n')
  expect(lines).toHaveLength(1)
  expect(() => JSON.parse(lines[0])).not.toThrow()
  expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/^::/m)
}

describe('monitoring-ci: outputs, log and exit status', () => {
  it('--help lists every operation of the registry; an operation --help lists its flags with defaults and variables', async () => {
    const help = await cli(['--help'])
    expect(help.code).toBe(0)
    for (const op of OPERATIONS) expect(help.stdout).toContain(`  ${op}`)
    const gate = await cli(['wait-for-check', '--help'])
    expect(gate.code).toBe(0)
    expect(gate.stdout).toMatch(/--timeout \(MONITORING_TIMEOUT\)\n\s+.*Default: 5m\./)
    expect(gate.stdout).toContain('--api-key (MONITORING_API_KEY)')
    expect(gate.stdout).not.toContain('--incident-title')
    expect(emulator.count()).toBe(0)
  })

  it('upsert from flags and MONITORING_*: one JSON object on standard output, the log on standard error; a re-run changes nothing', async () => {
    const args = ['upsert-check', '--check-name', 'shop', '--alert-channels', 'email', '--alert-channels', 'pager']
    const first = await cli(args, { MONITORING_CHECK_URL: site })
    expect(first.code).toBe(0)
    expectOneJson(first)
    expect(first.json).toMatchObject({ 'check-name': 'shop', changed: 'true' })
    expect(first.json['check-id']).toMatch(/^chk_/)
    expect(first.stderr).toContain('Created check')
    // A list input may repeat its flag.
    expect([...emulator.checks.values()][0]).toMatchObject({ alertChannels: ['email', 'pager'], url: site })
    const second = await cli(args, { MONITORING_CHECK_URL: site })
    expect(second.code).toBe(0)
    expect(second.json).toMatchObject({ 'check-id': first.json['check-id'], changed: 'false' })
    expect(emulator.checks.size).toBe(1)
  })

  it('a flag wins over its variable', async () => {
    emulator.seedCheck({ name: 'from-flag', url: site })
    const r = await cli(['get-check', '--check-name', 'from-flag'], { MONITORING_CHECK_NAME: 'from-env' })
    expect(r.code).toBe(0)
    expect(r.json['check-name']).toBe('from-flag')
  })

  it('--dotenv writes the outputs by GitLab dotenv rules, leaving out (and naming) what GitLab could not carry; --summary the Markdown', async () => {
    for (let i = 0; i < 60; i++) emulator.seedCheck({ name: `fleet-${i}`, url: `${site}?n=${i}` })
    const dotenv = join(dir, 'list.env')
    const summary = join(dir, 'list.md')
    const r = await cli(['list-checks', '--dotenv', dotenv, '--summary', summary])
    expect(r.code).toBe(0)
    const text = readFileSync(dotenv, 'utf8')
    expect(text).toContain('MONITORING_COUNT=60\n')
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^[A-Za-z0-9_]+=[^\r\n]*$/)
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(5 * 1024)
    // The list's JSON is bigger than a dotenv report may be: left out, named, and still in the JSON.
    expect(text).not.toContain('MONITORING_RESULT=')
    expect(r.stderr).toMatch(/warning: --dotenv: result is left out of the report: the report would pass GitLab's 5 KB/)
    expect(JSON.parse(r.json.result)).toHaveLength(60)
    expect(readFileSync(summary, 'utf8')).toMatch(/^### /m)
  })

  it('an API failure exits 1 naming method, path, status and the server message; with --fail-on-error false it exits 0 and sets error', async () => {
    emulator.inject({ method: 'GET', path: '/checks', status: 500, body: { error: 'database on fire' }, times: 10 })
    const r = await cli(['list-checks', '--max-retries', '0'])
    expect(r.code).toBe(1)
    expectOneJson(r)
    expect(r.stderr).toMatch(/error: GET \/checks.*500.*database on fire/)
    expect(r.json.error).toMatch(/GET \/checks.*500/)
    const tolerated = await cli(['list-checks', '--max-retries', '0', '--fail-on-error', 'false'])
    expect(tolerated.code).toBe(0)
    expect(tolerated.json.error).toMatch(/database on fire/)
  })

  it("a refused key and a missing checks file get the command's hints, not the workflow's", async () => {
    const refused = await cli(['list-checks'], { MONITORING_API_KEY: 'not-the-key' })
    expect(refused.code).toBe(1)
    expect(refused.json.error).toContain('401')
    expect(refused.json.error).toContain("set MONITORING_API_KEY in the job's environment")
    expect(refused.json.error).not.toContain('api-key input')
    const missing = await cli(['sync-checks', '--checks-file', 'nowhere/checks.yml'], {}, { cwd: dir })
    expect(missing.code).toBe(1)
    expect(missing.json.error).toContain('(ENOENT); a relative path is relative to the directory the command runs in')
    expect(missing.json.error).not.toContain('actions/checkout')
  })

  it('a gate that closes exits 1, whatever --fail-on-error says', async () => {
    emulator.seedCheck({ id: 'chk_down', name: 'down', url: site, status: 'down' })
    const r = await cli(['wait-for-check', '--check-id', 'chk_down', '--timeout', '2s', '--poll-interval', '1s'], {
      MONITORING_FAIL_ON_ERROR: 'false'
    })
    expect(r.code).toBe(1)
    expect(r.json).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    // In a log (standard error is no terminal): one line a poll, each check's reading only with --debug.
    const polls = r.stderr.split('\n').filter(line => /^Poll \d+:/.test(line))
    expect(polls.length).toBeGreaterThanOrEqual(2)
    for (const line of polls) expect(line).toMatch(/^Poll \d+: 0 of 1 check\(s\) passed, \d+ s left$/)
    expect(r.stderr).not.toMatch(/^down \(chk_down\): status down/m)
    expect(r.stderr).not.toContain('\u001b[')
    const debug = await cli(['wait-for-check', '--check-id', 'chk_down', '--timeout', '1s', '--debug'])
    expect(debug.stderr).toMatch(/^debug: down \(chk_down\): status down/m)
  })

  it.each([
    [
      ['get-check', '--chek-name', 'x'],
      {},
      /--chek-name is not a flag of monitoring-ci \(did you mean "--check-name"\?\)/
    ],
    [
      ['get-check', '--check-name', 'x', '--timeout', '5x'],
      {},
      /--timeout \(or MONITORING_TIMEOUT\) must be a duration/
    ],
    [['get-check', '--check-name', 'x'], { MONITORING_API_KEY: '' }, /--api-key \(or MONITORING_API_KEY\) is required/],
    [
      ['get-chek'],
      {},
      /the operation \(the first word, or MONITORING_OPERATION\) must be one of .*did you mean "get-check"/
    ],
    [
      ['pause-check', '--check-name', 'x', '--auto-resume'],
      {},
      /--auto-resume \(or MONITORING_AUTO_RESUME\) needs a command .* -- \.\/deploy\.sh/
    ],
    [
      ['sync-checks', '--checks-file', 'x.yml', '--pr-comment'],
      {},
      /--pr-comment \(or MONITORING_PR_COMMENT\) needs GitHub Actions .*outside any CI/
    ],
    [['get-check', '--check-name', 'x', '--', 'true'], {}, /a command after -- runs only around pause-check/],
    [['get-check', 'extra'], {}, /unexpected argument "extra"/],
    [
      ['get-check', '--check-name', 'x', '--summary', '/no/such/folder/s.md'],
      {},
      /--summary "\/no\/such\/folder\/s.md": its folder/
    ]
  ])('usage error %j: exit 2, nothing sent, the flag and its variable named', async (args, more, message) => {
    const r = await cli(args, more as NodeJS.ProcessEnv)
    expect(r.code).toBe(2)
    expectOneJson(r)
    expect(r.stderr).toMatch(message)
    expect(r.json.error).toBeTruthy()
    expect(emulator.count()).toBe(0)
  })

  it.each([
    ['--api-key', true],
    ['MONITORING_API_KEY', false]
  ])(
    'the key from %s never shows: not on either stream, in the dotenv report or the summary, even when the server echoes it',
    async (_, asFlag) => {
      const secret = 'sk_live_Secret_key*[1]&<x>'
      const own = useKey(secret)
      emulator.inject({ method: 'GET', path: '/checks', status: 400, body: { error: 'bad key {authorization}' } })
      const dotenv = join(dir, 'key.env')
      const summary = join(dir, 'key.md')
      const args = ['list-checks', '--dotenv', dotenv, '--summary', summary]
      const r = await cli(asFlag ? [...args, '--api-key', secret] : args, { MONITORING_API_KEY: asFlag ? '' : secret })
      own()
      expect(r.code).toBe(1)
      expect(r.stderr.includes('warning: --api-key on the command line can be read by other users')).toBe(asFlag)
      const everything = [r.stdout, r.stderr, readFileSync(dotenv, 'utf8'), readFileSync(summary, 'utf8')].join('\n')
      expect(everything).toContain('bad key')
      for (const form of [
        secret,
        JSON.stringify(secret).slice(1, -1),
        encodeURIComponent(secret),
        'sk_live_Secret',
        'sk\\_live\\_Secret',
        'Secret_key*[1]&amp;&lt;x&gt;'
      ]) {
        expect(everything).not.toContain(form)
      }
    }
  )
})

describe('monitoring-ci: the run it belongs to', () => {
  const gitlab = {
    GITLAB_CI: 'true',
    CI_COMMIT_SHA: '0123456789abcdef0123456789abcdef01234567',
    CI_COMMIT_REF_NAME: 'main',
    CI_PIPELINE_ID: '991',
    CI_JOB_ID: '4242',
    CI_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_PROJECT_PATH: 'acme/shop',
    CI_PIPELINE_NAME: 'Deploy',
    CI_JOB_NAME: 'deploy-prod'
  }

  it('in GitLab CI an incident names the pipeline, project, branch and commit, links the pipeline, and {job_url} is the job page', async () => {
    const r = await cli(['open-incident', '--incident-title', 'Deploy failed: shop', '--incident-key', 'shop'], gitlab)
    expect(r.code).toBe(0)
    const incident = [...emulator.incidents.values()][0]
    expect(incident.message).toContain(
      'Workflow "Deploy" (job deploy-prod) failed in acme/shop on refs/heads/main at commit 0123456. Run: https://gitlab.example.com/acme/shop/pipelines/991'
    )
    const custom = await cli(
      ['update-incident', '--incident-id', r.json['incident-id'], '--incident-message', 'see {job_url} ({ref_name})'],
      gitlab
    )
    expect(custom.code).toBe(0)
    expect(emulator.incidents.get(r.json['incident-id'])?.message).toContain(
      'see https://gitlab.example.com/acme/shop/-/jobs/4242 (main)'
    )
  })

  it('outside any CI the facts are empty and the text says so; pr-comment names the CI it found', async () => {
    const r = await cli(['create-incident', '--incident-title', 'Broken'])
    expect(r.code).toBe(0)
    expect([...emulator.incidents.values()][0].message).toContain('A run outside any CI failed.')
    const refused = await cli(['sync-checks', '--checks-file', 'x.yml', '--drift-issue'], gitlab)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(
      /--drift-issue \(or MONITORING_DRIFT_ISSUE\) needs GitHub Actions .* in GitLab CI\/CD/
    )
  })
})

/** Accept `key` besides the test key until the returned function is called. */
function useKey(key: string): () => void {
  const keys = (emulator as unknown as { options: { apiKeys: string[] } }).options.apiKeys
  keys.push(key)
  return () => void keys.splice(keys.indexOf(key), 1)
}

/** A wrapped command: a node script that marks its start, notes a signal it gets, and ends as told. */
function script(name: string, body: string): string[] {
  const marker = join(dir, `${name}.started`)
  const got = join(dir, `${name}.signal`)
  const file = join(dir, `${name}.mjs`)
  writeFileSync(
    file,
    `import { writeFileSync } from 'node:fs'
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => { writeFileSync(${JSON.stringify(got)}, s); process.exit(s === 'SIGINT' ? 130 : 143) })
writeFileSync(${JSON.stringify(marker)}, 'yes')
${body}
`
  )
  return [process.execPath, file]
}
const started = (name: string) => existsSync(join(dir, `${name}.started`))
const signalOf = (name: string) => readFileSync(join(dir, `${name}.signal`), 'utf8')

describe('monitoring-ci pause-check -- <command>', () => {
  it('pauses, runs the command, resumes whatever it did: the status is the command’s', async () => {
    emulator.seedCheck({ id: 'chk_w', name: 'wrapped', url: site, status: 'up' })
    const r = await cli(['pause-check', '--check-name', 'wrapped', '--', ...script('fails', 'process.exit(3)')])
    expect(r.code).toBe(3)
    expect(started('fails')).toBe(true)
    expect(emulator.count('PUT', '/checks/chk_w')).toBe(2)
    expect(emulator.checks.get('chk_w')?.status).toBe('up')
    expect(r.stderr).toMatch(/ended with status 3; resuming what the pause paused/)
    expect(r.stderr).toMatch(/resumed 1 check\(s\) this job paused: chk_w/)
  })

  it('a check paused by someone else before is left paused', async () => {
    emulator.seedCheck({ id: 'chk_p', name: 'already', url: site, status: 'paused' })
    const r = await cli(['pause-check', '--check-id', 'chk_p', '--', ...script('ok', 'process.exit(0)')])
    expect(r.code).toBe(0)
    expect(emulator.checks.get('chk_p')?.status).toBe('paused')
  })

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143]
  ] as const)(
    '%s to the wrapper while the command runs: the command gets it, the checks are resumed, exit %d',
    async (signal, status) => {
      emulator.seedCheck({ id: 'chk_s', name: 'signalled', url: site, status: 'up' })
      let child: ChildProcess | undefined
      const name = `waits-${signal}`
      const running = cli(
        ['pause-check', '--check-id', 'chk_s', '--', ...script(name, 'setInterval(() => {}, 1000)')],
        {},
        { onSpawn: (c: ChildProcess) => (child = c) }
      )
      await until(() => started(name))
      child?.kill(signal)
      const r = await running
      expect(r.code).toBe(status)
      expect(signalOf(name)).toBe(signal)
      expect(emulator.checks.get('chk_s')?.status).toBe('up')
      expectOneJson(r)
    }
  )

  it('a resume that fails: exit 1 even though the command passed, naming the check left paused', async () => {
    emulator.seedCheck({ id: 'chk_f', name: 'stuck', url: site, status: 'up' })
    const name = 'then-fault'
    const running = cli([
      'pause-check',
      '--check-id',
      'chk_f',
      '--max-retries',
      '0',
      '--',
      ...script(name, 'setTimeout(() => process.exit(0), 300)')
    ])
    await until(() => started(name))
    emulator.inject({
      method: 'PUT',
      path: '/checks/chk_f',
      status: 500,
      body: { error: 'down for maintenance' },
      times: 5
    })
    const r = await running
    expect(r.code).toBe(1)
    expect(emulator.checks.get('chk_f')?.status).toBe('paused')
    expect(r.stderr).toMatch(/error: .*chk_f/)
    expect(r.json.error).toMatch(/chk_f/)
  })

  it('a pause answered late: watched until request-timeout, and resumed after the command', async () => {
    emulator.seedCheck({ id: 'chk_t', name: 'timed', url: site, status: 'up' })
    emulator.inject({ method: 'PUT', path: '/checks/chk_t', delayMs: 2_500, late: true })
    const r = await cli([
      'pause-check',
      '--check-id',
      'chk_t',
      '--request-timeout',
      '1s',
      '--',
      ...script('late', 'process.exit(0)')
    ])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(
      /the pause of chk_t \("timed"\) sent at .* was never answered; chk_t was paused, and the post step resumed it/
    )
  })
})

describe('monitoring-ci runs the post stage after the main one, as the runner runs the post step', () => {
  const own = () => [...emulator.checks.values()].filter(c => String(c.name).startsWith('check-api-'))
  it.each([[['SIGINT']], [['SIGINT', 'SIGTERM']]] as const)(
    'check-api --check-api-writes true, %j during its create: its own check is deleted before the command ends, exit 130',
    async signals => {
      emulator.seedCheck({ name: 'shop', url: site, status: 'up' })
      emulator.inject({ method: 'POST', path: '/checks', delayMs: 800 })
      let child: ChildProcess | undefined
      const running = cli(
        ['check-api', '--check-api-writes', 'true'],
        {},
        { onSpawn: (c: ChildProcess) => (child = c) }
      )
      await until(() => emulator.count('POST') === 1)
      // One after the other, as a CI cancels (SIGINT, then SIGTERM a moment later): the first one's status.
      for (const signal of signals) {
        child?.kill(signal)
        await new Promise(resolve => setTimeout(resolve, 150))
      }
      const r = await running
      expect(r.code).toBe(130)
      expect(own()).toEqual([])
      expect(emulator.deletedChecks.map(c => String(c.name))).toEqual([
        expect.stringMatching(/^check-api-[0-9a-f]{8}$/)
      ])
      expect(r.stderr).toMatch(
        /check-api's own check chk_\w+ \(check-api-[0-9a-f]{8}\) was left by the main step: deleted\./
      )
      expectOneJson(r)
    }
  )

  it('a run with nothing left for the post stage sends nothing more', async () => {
    emulator.seedCheck({ name: 'shop', url: site, status: 'up' })
    const r = await cli(['check-api', '--check-api-writes', 'true'])
    expect(r.code).toBe(0)
    expect(own()).toEqual([])
    expect(emulator.count('DELETE')).toBe(1)
    // The main stage's DELETE is the last request: the post stage, with nothing saved, sent nothing.
    expect(emulator.requests.at(-1)?.method).toBe('DELETE')
    expect(emulator.requests.filter(q => q.method === 'GET' && q.path === '/checks')).toHaveLength(1)
    expect(r.stderr).not.toContain("check-api's own check")
  })

  it('a clean-up that fails after a cancel: exit 130, and the JSON error names the cancel, then the clean-up', async () => {
    emulator.seedCheck({ name: 'shop', url: site, status: 'up' })
    emulator.inject({ method: 'POST', path: '/checks', delayMs: 800 })
    emulator.inject({
      method: 'DELETE',
      path: 're:^/checks/',
      status: 500,
      body: { error: 'down for maintenance' },
      times: -1
    })
    let child: ChildProcess | undefined
    const running = cli(
      ['check-api', '--check-api-writes', 'true', '--max-retries', '0'],
      {},
      { onSpawn: (c: ChildProcess) => (child = c) }
    )
    await until(() => emulator.count('POST') === 1)
    child?.kill('SIGINT')
    const r = await running
    expect(r.code).toBe(130)
    expectOneJson(r)
    expect(r.json.error).toMatch(
      /the job is being cancelled.*\. Then the clean-up failed: DELETE \/checks\/chk_\w+ failed: HTTP 500/
    )
    expect(own()).toHaveLength(1)
  })
})
