/**
 * `npm run local -- examples/<workflow>.yml` with the world that makes each example fail the way
 * its comment says (--check, --budget, --drift, --seed-checks, --fail-step, --with): every example
 * of examples/ fails, with the exit status and the outcome its comment leads one to expect. The
 * happy paths are in local-job.test.ts.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../helpers/runner.js'
import { LocalJobOptions, runLocalJob } from '../../scripts/lib/local-job/local.js'
import { LocalService, startLocalService } from '../../scripts/lib/local-job/service.js'
import { World, emptyWorld } from '../../scripts/lib/local-job/world.js'

const TMP = mkdtempSync(join(tmpdir(), 'local-job-failing-'))
afterAll(() => rmSync(TMP, { recursive: true, force: true }))

const EXAMPLES = readdirSync(join(ROOT, 'examples')).filter(name => /\.ya?ml$/.test(name))
const failed = new Set<string>()

/** One job of an example in the world given; no secret or variable from this process's environment. */
async function job(example: string, world: Partial<World> = {}, options: Partial<LocalJobOptions> = {}) {
  const lines: string[] = []
  const result = await runLocalJob({
    file: join(ROOT, 'examples', example),
    env: {},
    tmpDir: TMP,
    print: line => lines.push(line),
    world: { ...emptyWorld(), ...world },
    ...options
  })
  if (result.status === 'failure') failed.add(example)
  return { ...result, lines, text: lines.join('\n'), last: lines[lines.length - 1] }
}

async function withService<T>(use: (service: LocalService) => Promise<T>): Promise<T> {
  const service = await startLocalService()
  try {
    return await use(service)
  } finally {
    await service.stop()
  }
}

const checkNamed = (service: LocalService, name: string) =>
  [...service.emulator.checks.values()].find(check => check.name === name)

describe('npm run local: every example, failing as its comment says', () => {
  it('release-gate: a check down or slow times the gate out; outcome and failed-checks are set, the failure step runs', async () => {
    // 10 minutes as written; --with makes it 12 s, polled every 2 s.
    const fast: LocalJobOptions['inputs'] = [
      ['gate', 'timeout', '12s'],
      ['gate', 'poll-interval', '2s']
    ]
    const [down, slow] = await Promise.all([
      job('release-gate.yml', { checks: [['shop (staging)', 'down']] }, { inputs: fast, runSteps: true }),
      job('release-gate.yml', { checks: [['shop checkout (staging)', 'slow']] }, { inputs: fast })
    ])
    expect(down.text).toContain('--check: "shop (staging)" probed down (503) from now on')
    expect(down.text).toContain(
      '--with: Wait until staging is up, from a probe made after the deploy given timeout="12s"'
    )
    expect(down.steps[0]).toMatchObject({ outcome: 'failure', outputs: { outcome: 'timed-out', passed: 'false' } })
    const held = JSON.parse(down.steps[0].outputs['failed-checks']) as Array<{ name: string; reason: string }>
    expect(held.map(check => check.name)).toEqual(['shop (staging)'])
    // if: failure() && steps.gate.outputs.outcome == 'timed-out': it runs, naming the check.
    expect(down.steps[2].decision.kind).toBe('shell')
    expect(down.text).toContain('  | Not healthy in time. [{"id":')
    expect(down.last).toBe('job gate: failure (2 steps, 1 post step)')

    expect(slow.steps[0].outputs.outcome).toBe('timed-out')
    expect(slow.steps[0].outputs['failed-checks']).toContain('"name":"shop checkout (staging)"')
    expect(slow.steps[0].outputs['failed-checks']).toContain('response time 3000 ms')
    expect(slow.status).toBe('failure')
  }, 90_000)

  it('error-budget-gate: a spent budget holds the release (budget-exhausted), a burning one too (budget-burning)', async () => {
    const push = { github: [['event_name', 'push']] as [string, unknown][], runSteps: true }
    const [spent, burning] = await Promise.all([
      job('error-budget-gate.yml', { budgets: [['shop', 'spent']] }, push),
      job('error-budget-gate.yml', { budgets: [['shop', 'burning']] }, push)
    ])
    expect(spent.steps[0]).toMatchObject({ outcome: 'failure', conclusion: 'success' })
    expect(spent.steps[0].outputs).toMatchObject({ outcome: 'budget-exhausted', 'burn-rate': '0' })
    expect(spent.text).toContain('  | The release waits (budget-exhausted): ')
    expect(spent.last).toBe('job budget: failure (2 steps, 1 post step)')

    expect(burning.steps[0].outputs).toMatchObject({ outcome: 'budget-burning', 'error-budget-remaining': '50' })
    expect(Number(burning.steps[0].outputs['burn-rate'])).toBeGreaterThan(14.4)
    expect(burning.text).toContain('  | The release waits (budget-burning): ')
    expect(burning.status).toBe('failure')
  }, 90_000)

  it('drift-detection: a check changed by hand fails the run, naming the change, and opens the issue', async () => {
    await withService(async service => {
      const r = await job('drift-detection.yml', { drift: ['shop-api'] }, { service })
      expect(r.text).toContain('"shop-api" changed by hand (interval 30 -> 60)')
      expect(r.steps[1].outputs.drift).toBe('true')
      expect(r.steps[1].outputs.error).toContain('1 check(s) differ')
      expect(r.steps[1].outputs.error).toContain('update "shop-api"')
      expect(r.steps[1].outputs.error).toContain('interval: 60 → 30')
      expect(service.github.issues.get('acme/shop')?.[0]).toMatchObject({ state: 'open' })
      expect(checkNamed(service, 'shop-api')?.interval).toBe(60)
      expect(r.last).toBe('job drift: failure (1 step, 1 post step)')
    })
  }, 60_000)

  it('monitoring-as-code: checks made by hand under the prune prefix, more than max-deletions: refused, nothing written', async () => {
    await withService(async service => {
      const r = await job('monitoring-as-code.yml', { seedChecks: 12 }, { service })
      expect(r.steps[1].outputs.error).toContain('the plan deletes 12 checks, more than max-deletions (10)')
      expect(service.emulator.checks.size).toBe(12)
      expect(r.last).toBe('job sync: failure (1 step, 1 post step)')
    })
  }, 60_000)

  it('reviewed-plan: a check made by hand after the review: the apply refuses the plan, applying nothing', async () => {
    await withService(async service => {
      const plan = await job('reviewed-plan.yml', {}, { service })
      expect(plan.status).toBe('success')
      const apply = await job(
        'reviewed-plan.yml',
        { seedChecks: 1 },
        {
          service,
          job: 'apply',
          workspace: plan.workspace,
          github: [
            ['event.action', 'closed'],
            ['event.pull_request.merged', true]
          ]
        }
      )
      expect(apply.steps[3].outputs.error).toContain('the plan differs from approved-plan monitoring-plan.json')
      expect(apply.steps[3].outputs.error).toContain('now also delete "shop-by-hand-1"')
      expect(service.emulator.checks.size).toBe(1)
      expect(apply.last).toBe('job apply: failure (1 step, 1 post step)')
    })
  }, 60_000)

  it('adopt-existing-checks: checks made by hand exported (their token a variable), the proposal failing fails the job', async () => {
    const r = await job(
      'adopt-existing-checks.yml',
      { seedChecks: 3 },
      { failStep: 'Propose the file in a pull request' }
    )
    expect(r.steps[1].outputs.count).toBe('3')
    expect(JSON.parse(r.steps[1].outputs.result)).toMatchObject({ variables: ['CHECK_SHOP_BY_HAND_1_TOKEN'] })
    const written = readFileSync(join(r.workspace, 'monitoring/checks.yml'), 'utf8')
    expect(written).toContain('shop-by-hand-3')
    expect(written).not.toContain('made-by-hand-0123456789')
    expect(r.last).toBe('job export: failure (2 steps, 1 post step)')
  }, 60_000)

  it('preview-checks: a cleanup whose prefix matches nothing (a re-run after the checks are gone) fails, naming it', async () => {
    const r = await job('preview-checks.yml', {}, { job: 'cleanup', github: [['event.action', 'closed']] })
    expect(r.steps[0].outputs.error).toContain('no check name starts with name-prefix "pr-1-"')
    expect(r.last).toBe('job cleanup: failure (1 step, 1 post step)')
  }, 60_000)

  it('deploy-upsert, incident-on-failure, pause-during-deploy: a failed deploy (--fail-step on the run: step) fails the job', async () => {
    await withService(async service => {
      const deploy = await job('deploy-upsert.yml', {}, { service, failStep: 'Deploy' })
      expect(deploy.steps.map(s => s.outcome)).toEqual(['success', 'failure', 'skipped', 'skipped'])
      expect(checkNamed(service, 'shop (production)')).toBeUndefined()
      expect(deploy.last).toBe('job deploy: failure (1 step, 0 post steps)')

      const incident = await job('incident-on-failure.yml', {}, { service, failStep: 'Deploy' })
      expect(incident.steps[2].outputs['incident-status']).toBe('investigating')
      expect(incident.status).toBe('failure')

      const pause = await job('pause-during-deploy.yml', {}, { service, failStep: 'Deploy' })
      expect(pause.posts[0].summary).toContain('auto-resume: checks resumed')
      expect(pause.status).toBe('failure')
    })
  }, 90_000)

  it('failed every example of examples/', () => {
    expect([...failed].sort()).toEqual(EXAMPLES)
  })
})

describe('npm run local shapes the world from its command line', () => {
  const local = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>(resolve => {
      execFile(
        'bash',
        [join(ROOT, 'scripts/local-action.sh'), ...args],
        { cwd: ROOT, timeout: 90_000, env: { ...process.env, TMPDIR: TMP, INIT_CWD: ROOT } },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
      )
    })

  it('--drift: exit 1, the change named; a world option that cannot be had: exit 2, saying why', async () => {
    const r = await local(['examples/drift-detection.yml', '--drift', 'shop-home'])
    expect(r.stdout).toContain('"shop-home" changed by hand (interval 60 -> 120)')
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('job drift: failure (1 step, 1 post step)')
    expect(r.code).toBe(1)
    const wrong = await local(['examples/drift-detection.yml', '--check', 'shop-home=sideways'])
    expect(wrong.stderr).toContain('--check takes NAME=down|slow')
    expect(wrong.code).toBe(2)
    const none = await local(['examples/release-gate.yml', '--with', 'gate.timout=1m'])
    expect(none.stderr).toContain('--with gate.timout: this action has no input timout')
    expect(none.code).toBe(2)
  }, 90_000)

  it("--seed-checks FILE: the account starts with that checks file's checks (adopt exports them); a file missing or unreadable: exit 2, naming it", async () => {
    const file = join(TMP, 'by-hand.yml')
    writeFileSync(
      file,
      'checks:\n  - name: legacy-home\n    url: https://legacy.example.com/\n  - name: legacy-api\n    url: https://legacy.example.com/api\n    interval: 300\n'
    )
    const r = await local(['examples/adopt-existing-checks.yml', '--seed-checks', file])
    expect(r.stdout).toContain('--seed-checks: 2 checks made by hand on the account ("legacy-home", "legacy-api")')
    expect(r.stdout).toMatch(/^ {4}count: 2$/m)
    expect(r.stdout).toMatch(/\| legacy-api \| chk_\w+ \| https:\/\/legacy\.example\.com\/api \|/)
    expect(r.code).toBe(0)
    const missing = await local(['examples/adopt-existing-checks.yml', '--seed-checks', join(TMP, 'none.yml')])
    expect(missing.stderr).toContain(`no checks file ${join(TMP, 'none.yml')}`)
    expect(missing.code).toBe(2)
    writeFileSync(file, 'checks:\n  - name: legacy-home\n    url: 12\n')
    const bad = await local(['examples/adopt-existing-checks.yml', '--seed-checks', file])
    expect(bad.stderr).toContain(file)
    expect(bad.code).toBe(2)
  }, 90_000)
})
