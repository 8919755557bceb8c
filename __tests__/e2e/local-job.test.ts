/**
 * `npm run local -- WORKFLOW.yml`: every example of examples/ runs as a whole job (the committed
 * dist/ as the runner starts it, against the emulator and the fake GitHub) and ends as it intends;
 * a pause with auto-resume is resumed by the post step, also when the job fails; --fail-step on a
 * deploy runs the `if: failure()` steps and the post steps; a step that fails under
 * continue-on-error does not fail the job; the workspace is a copy, the repository untouched; the
 * single-step form is still there for an inputs file. The if: rules themselves, first.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../helpers/runner.js'
import { historyEntries } from '../../emulator/history.js'
import { CannotEvaluate, Contexts, condition, interpolate } from '../../scripts/lib/local-job/expressions.js'
import { decide } from '../../scripts/lib/local-job/job.js'
import { LocalJobOptions, runLocalJob } from '../../scripts/lib/local-job/local.js'
import { LocalService, startLocalService } from '../../scripts/lib/local-job/service.js'
import type { Step } from '../../scripts/lib/local-job/workflow.js'

// Each run leaves its temporary folder (its workspace) to look at: here, under one folder removed at the end.
const TMP = mkdtempSync(join(tmpdir(), 'local-job-test-'))
afterAll(() => rmSync(TMP, { recursive: true, force: true }))

const EXAMPLES = readdirSync(join(ROOT, 'examples')).filter(name => /\.ya?ml$/.test(name))
const ran = new Set<string>()

/** One job of an example, its lines kept; no secret or variable from this process's environment. */
async function job(example: string, options: Partial<LocalJobOptions> = {}) {
  ran.add(example)
  const lines: string[] = []
  const result = await runLocalJob({
    file: join(ROOT, 'examples', example),
    env: {},
    tmpDir: TMP,
    print: line => lines.push(line),
    ...options
  })
  return { ...result, lines, text: lines.join('\n'), last: lines[lines.length - 1] }
}

/** An emulator and a fake GitHub of the test's own, to set up before and look at after. */
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

describe('the if: rules of a local job', () => {
  const contexts = (steps: Contexts['steps'] = {}): Contexts => ({
    github: { event_name: 'push', ref_name: 'hotfix/x', event: {} },
    env: {},
    vars: {},
    secrets: {},
    inputs: {},
    needs: {},
    steps,
    job: { status: 'success' },
    runner: {}
  })
  const gate = { gate: { outputs: { outcome: 'timed-out' }, outcome: 'failure', conclusion: 'failure' } }

  it('reads an if: without a status function as success() && (...), and none as success()', () => {
    expect(condition(undefined, contexts(), 'success')).toBe(true)
    expect(condition(undefined, contexts(), 'failure')).toBe(false)
    expect(condition("github.event_name == 'push'", contexts(), 'failure')).toBe(false)
    expect(condition('failure()', contexts(), 'failure')).toBe(true)
    expect(condition('always()', contexts(), 'failure')).toBe(true)
    expect(condition('cancelled()', contexts(), 'failure')).toBe(false)
    expect(condition("${{ failure() && steps.gate.outputs.outcome == 'timed-out' }}", contexts(gate), 'failure')).toBe(
      true
    )
  })

  it("compares step outputs as GitHub does: ==, !=, &&, ||, !, and GitHub's functions", () => {
    const c = contexts(gate)
    expect(
      condition("steps.gate.outputs.outcome != 'passed' && !(steps.gate.outcome == 'success')", c, 'success')
    ).toBe(true)
    expect(condition("steps.gate.outputs.outcome == 'TIMED-OUT' || false", c, 'success')).toBe(true)
    expect(condition("startsWith(github.ref_name, 'hotfix/')", c, 'success')).toBe(true)
    expect(condition('steps.missing.outputs.x', c, 'success')).toBe(false)
    expect(interpolate('pr-${{ github.event.number }}-web', c, 'success')).toBe('pr--web')
  })

  it('refuses what it cannot evaluate, rather than guess', () => {
    expect(() => condition("hashFiles('x') != ''", contexts(), 'success')).toThrow(CannotEvaluate)
    expect(() => condition('matrix.os', contexts(), 'success')).toThrow(CannotEvaluate)
    const step: Step = { number: 1, with: {}, env: {}, thisAction: true, uses: './' }
    expect(decide({ step, holds: new CannotEvaluate('no'), runSteps: false }).kind).toBe('cannot')
    expect(decide({ step, holds: false, failStep: step, runSteps: false }).kind).toBe('skip')
    expect(decide({ step, holds: true, failStep: step, runSteps: false }).kind).toBe('fail')
    const run: Step = { number: 2, with: {}, env: {}, thisAction: false, run: 'exit 1' }
    expect(decide({ step: run, holds: true, runSteps: false }).kind).toBe('not-run')
    expect(decide({ step: run, holds: true, runSteps: true }).kind).toBe('shell')
  })
})

describe('npm run local -- examples/<workflow>.yml: every example, as it intends', () => {
  // The release gate waits three polls 15 s apart, as written: started first, it runs while the others do.
  let gate: Promise<{ result?: Awaited<ReturnType<typeof job>>; error?: unknown }>
  beforeAll(() => {
    gate = job('release-gate.yml').then(
      result => ({ result }),
      error => ({ error })
    )
  })
  // Run alone (-t), the other tests leave it running: it ends before the file does.
  afterAll(() => gate, 120_000)

  it('deploy-upsert: the check of what was deployed is created; run: steps are shown, not run', async () => {
    await withService(async service => {
      const r = await job('deploy-upsert.yml', { service })
      expect(r.status).toBe('success')
      const id = checkNamed(service, 'shop (production)')?.id
      expect(r.steps[2].outputs['check-id']).toBe(id)
      expect(r.steps.map(s => s.decision.kind)).toEqual(['not-run', 'not-run', 'action', 'not-run'])
      // The report step's env, from the upsert's outputs.
      expect(r.text).toContain(`env: CHECK_ID="${id}", CHANGED="true"`)
      expect(r.text).toContain('  $ echo "check $CHECK_ID changed=$CHANGED"')
      expect(r.text).toContain('a run: step, shown and not run (--run-steps runs it)')
      expect(r.text).toContain('    ### Check created')
      expect(r.last).toBe('job deploy: success (1 step, 1 post step)')
    })
  }, 60_000)

  it('pause-during-deploy: the post step resumes the checks the pause paused (auto-resume)', async () => {
    await withService(async service => {
      const r = await job('pause-during-deploy.yml', { service })
      expect(r.status).toBe('success')
      expect(r.text).toContain('seeded: "shop (production)", "shop checkout"')
      expect(r.steps[1].outputs['check-status']).toBe('paused')
      expect(r.steps[1].state['paused-check-ids']).toContain(checkNamed(service, 'shop checkout')?.id)
      expect(r.posts).toHaveLength(1)
      expect(r.posts[0].summary).toContain('auto-resume: checks resumed')
      expect(r.text).toContain('state saved by its main step: paused-check-ids')
      for (const name of ['shop (production)', 'shop checkout']) expect(checkNamed(service, name)?.status).toBe('up')
      expect(r.last).toBe('job deploy: success (1 step, 1 post step)')
    })
  }, 60_000)

  it('pause-during-deploy, the deploy failing (--fail-step): the job fails and the post step still resumes', async () => {
    await withService(async service => {
      const r = await job('pause-during-deploy.yml', { service, failStep: 'Deploy' })
      expect(r.status).toBe('failure')
      expect(r.steps[2]).toMatchObject({ outcome: 'failure', decision: { kind: 'fail' } })
      expect(r.posts.map(p => p.outcome)).toEqual(['success'])
      for (const name of ['shop (production)', 'shop checkout']) expect(checkNamed(service, name)?.status).toBe('up')
      expect(r.last).toBe('job deploy: failure (2 steps, 1 post step)')
    })
  }, 60_000)

  it('incident-on-failure: a failed deploy opens the incident (if: failure()), a later success resolves it', async () => {
    await withService(async service => {
      const green = await job('incident-on-failure.yml', { service })
      expect(green.steps.map(s => s.decision.kind)).toEqual(['not-run', 'not-run', 'skip', 'action'])
      expect(green.text).toContain('No unresolved incident titled Deploy of shop failed: nothing to resolve.')
      expect(green.last).toBe('job deploy: success (1 step, 1 post step)')

      const red = await job('incident-on-failure.yml', { service, failStep: 'Deploy' })
      expect(red.status).toBe('failure')
      expect(red.steps.map(s => s.decision.kind)).toEqual(['not-run', 'fail', 'action', 'skip'])
      const [incident] = service.emulator.incidents.values()
      expect(incident).toMatchObject({ title: 'Deploy of shop failed', status: 'investigating' })
      expect(red.steps[2].outputs['incident-id']).toBe(incident.id)
      // The post steps of the steps of this action that started, last first.
      expect(red.text).toContain('== Post 3. Open or update the incident [this action: open-incident]')
      expect(red.last).toBe('job deploy: failure (2 steps, 1 post step)')

      const fixed = await job('incident-on-failure.yml', { service, github: [['run_attempt', '2']] })
      expect(fixed.status).toBe('success')
      expect(service.emulator.incidents.get(incident.id)?.status).toBe('resolved')
    })
  }, 90_000)

  it("error-budget-gate: the job's if: skips it for an unmerged pull request; on a push the budget is read", async () => {
    const closed = await job('error-budget-gate.yml')
    expect(closed.status).toBe('skipped')
    expect(closed.text).toContain(
      "The job's if: github.event_name == 'push' || github.event.pull_request.merged == true"
    )
    expect(closed.last).toBe('job budget: skipped (0 steps, 0 post steps)')

    const push = await job('error-budget-gate.yml', { github: [['event_name', 'push']] })
    expect(push.status).toBe('success')
    expect(push.steps[0].outputs).toMatchObject({ outcome: 'passed', 'error-budget-remaining': '100' })
    expect(push.steps.map(s => s.decision.kind)).toEqual(['action', 'skip', 'skip'])
    expect(push.last).toBe('job budget: success (1 step, 1 post step)')
  }, 60_000)

  it('error-budget-gate, the budget spent: the step fails under continue-on-error, the job goes on to hold the release', async () => {
    await withService(async service => {
      for (const name of ['shop', 'shop checkout']) {
        const check = service.emulator.seedCheck({ name, url: 'https://shop.example.com/', interval: 60 })
        const past = historyEntries({ checkId: check.id, results: 100, down: 10, everySeconds: 600 }, Date.now())
        service.emulator.history.set(check.id, past.entries)
      }
      const push = { service, github: [['event_name', 'push']] as [string, unknown][] }
      const held = await job('error-budget-gate.yml', push)
      expect(held.steps[0]).toMatchObject({ outcome: 'failure', conclusion: 'success' })
      expect(held.steps[0].outputs.outcome).toBe('budget-exhausted')
      expect(held.text).toContain('-> failure (continue-on-error: the job goes on as succeeded)')
      expect(held.steps.map(s => s.decision.kind)).toEqual(['action', 'skip', 'not-run'])
      // Not run, the step that holds the release is taken as succeeded: the job does too.
      expect(held.status).toBe('success')

      // With --run-steps it runs, and its exit 1 fails the job; on a hotfix branch the fix goes through instead.
      const run = await job('error-budget-gate.yml', { ...push, runSteps: true })
      expect(run.text).toContain('  | The release waits (budget-exhausted): ')
      expect(run.status).toBe('failure')
      const hotfix = await job('error-budget-gate.yml', {
        ...push,
        runSteps: true,
        github: [...push.github, ['ref', 'refs/heads/hotfix/login']]
      })
      expect(hotfix.steps.map(s => s.decision.kind)).toEqual(['action', 'shell', 'skip'])
      expect(hotfix.text).toContain('  | notice: The error budget is spent or burning; releasing this fix anyway.')
      expect(hotfix.last).toBe('job budget: success (2 steps, 1 post step)')
    })
  }, 90_000)

  it('monitoring-as-code applies the file; drift-detection then finds no drift, and on a service that differs opens the issue', async () => {
    await withService(async service => {
      const sync = await job('monitoring-as-code.yml', { service })
      expect(sync.steps[1].inputs['dry-run']).toBe('false')
      expect(sync.steps[1].outputs).toMatchObject({ created: '3', deleted: '0' })
      expect(service.emulator.checks.size).toBe(3)
      expect(sync.last).toBe('job sync: success (1 step, 1 post step)')
      const same = await job('drift-detection.yml', { service })
      expect(same.steps[1].outputs.drift).toBe('false')
      expect(same.last).toBe('job drift: success (1 step, 1 post step)')
    })
    await withService(async service => {
      const drift = await job('drift-detection.yml', { service })
      expect(drift.status).toBe('failure')
      expect(drift.text).toContain('secrets.CHECK_SHOP_API_TOKEN empty')
      const [issue] = service.github.issues.get('acme/shop') ?? []
      expect(issue).toMatchObject({ title: 'Monitoring drift: monitoring/checks.yml', state: 'open' })
      expect(drift.steps[1].outputs['issue-url']).toBe(issue.html_url)
      expect(drift.text).toContain('The fake GitHub was given:')
      expect(drift.last).toBe('job drift: failure (1 step, 1 post step)')
    })
  }, 90_000)

  it('adopt-existing-checks exports the checks into the workspace, a copy: the repository is left alone', async () => {
    const before = readFileSync(join(ROOT, 'examples/monitoring/checks.yml'), 'utf8')
    await withService(async service => {
      service.emulator.seedCheck({ name: 'home', url: 'https://shop.example.com/', interval: 60 })
      service.emulator.seedCheck({ name: 'api', url: 'https://shop.example.com/api?token=s3cr3t', interval: 60 })
      const r = await job('adopt-existing-checks.yml', { service })
      expect(r.status).toBe('success')
      expect(r.steps[1].outputs.count).toBe('2')
      const written = readFileSync(join(r.workspace, 'monitoring/checks.yml'), 'utf8')
      expect(written).toContain('- name: "home"')
      expect(written).not.toContain('s3cr3t')
      expect(r.workspace.startsWith(TMP)).toBe(true)
      // The proposing step is shown with its env: join(fromJSON(...)) of the export's result.
      expect(r.text).toMatch(
        /env: GH_TOKEN="\*\*\*", COUNT="2", VARIABLES="CHECK_API_[A-Z_]+", BRANCH="monitoring\/adopt-1"/
      )
      expect(r.last).toBe('job export: success (1 step, 1 post step)')
    })
    expect(readFileSync(join(ROOT, 'examples/monitoring/checks.yml'), 'utf8')).toBe(before)
    expect(existsSync(join(ROOT, 'monitoring'))).toBe(false)
  }, 60_000)

  it("preview-checks: a pull request's preview checks made when it opens, deleted by prefix when it closes", async () => {
    await withService(async service => {
      const open = await job('preview-checks.yml', { service })
      expect(open.job).toBe('preview-checks')
      expect([...service.emulator.checks.values()].map(c => c.name).sort()).toEqual(['pr-1-api', 'pr-1-web'])
      expect(open.last).toBe('job preview-checks: success (2 steps, 2 post steps)')
      const closed = await job('preview-checks.yml', { service, job: 'cleanup', github: [['event.action', 'closed']] })
      expect(closed.steps[0].outputs.deleted).toBe('2')
      expect(service.emulator.checks.size).toBe(0)
      expect(closed.last).toBe('job cleanup: success (1 step, 1 post step)')
    })
  }, 60_000)

  it('reviewed-plan: the plan commented on the pull request, then on merge exactly that plan applied', async () => {
    await withService(async service => {
      const plan = await job('reviewed-plan.yml', { service })
      expect(plan.status).toBe('success')
      const comments = service.github.comments.get('acme/shop#1') ?? []
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain('Sync plan (dry run: nothing sent)')
      expect(service.emulator.checks.size).toBe(0)
      expect(existsSync(join(plan.workspace, 'monitoring-plan.json'))).toBe(true)
      expect(plan.last).toBe('job plan: success (1 step, 1 post step)')

      // The merge: the apply job, in the same workspace (the artifact's download is not run locally).
      const apply = await job('reviewed-plan.yml', {
        service,
        job: 'apply',
        workspace: plan.workspace,
        github: [
          ['event.action', 'closed'],
          ['event.pull_request.merged', true]
        ]
      })
      expect(apply.steps.map(s => s.decision.kind)).toEqual(['not-run', 'not-run', 'not-run', 'action'])
      expect(apply.steps[3].outputs.created).toBe('3')
      expect(service.emulator.checks.size).toBe(3)
      expect(apply.last).toBe('job apply: success (1 step, 1 post step)')
    })
  }, 60_000)

  it('release-gate: the gate passes on three fresh results in a row (needs: taken as succeeded)', async () => {
    const { result, error } = await gate
    if (error) throw error
    expect(result?.text).toContain('needs: deploy-staging taken as succeeded')
    expect(result?.steps[0].outputs).toMatchObject({ outcome: 'passed', passed: 'true' })
    expect(result?.steps.map(s => s.decision.kind)).toEqual(['action', 'not-run', 'skip'])
    expect(result?.last).toBe('job gate: success (1 step, 1 post step)')
  }, 120_000)

  it('ran every example of examples/', () => {
    expect([...ran].sort()).toEqual(EXAMPLES)
  })
})

describe('npm run local routes a workflow file to the whole-job runner', () => {
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

  it('exits 1 when the job fails, the job line last', async () => {
    const r = await local(['examples/incident-on-failure.yml', '--fail-step', 'Deploy'])
    expect(r.stdout.trimEnd().split('\n').pop()).toBe('job deploy: failure (2 steps, 1 post step)')
    expect(r.code).toBe(1)
  }, 90_000)

  it('--then runs again against the same service: a failed deploy opens, its re-run updates, a success resolves; the last run gives the exit', async () => {
    const r = await local([
      'examples/incident-on-failure.yml',
      '--fail-step',
      'Deploy',
      '--then',
      '--fail-step',
      'Deploy',
      '--github',
      'run_attempt=2',
      '--then'
    ])
    const opened = /Opened incident (inc_\w+)/.exec(r.stdout)?.[1]
    expect(opened).toBeDefined()
    expect(r.stdout).toContain(`Updated incident ${opened}: message`)
    expect(r.stdout).toContain('run attempt 2.')
    expect(r.stdout).toMatch(/incident-status: resolved/)
    expect(r.stdout.match(/^job deploy: .*$/gm)).toEqual([
      'job deploy: failure (2 steps, 1 post step)',
      'job deploy: failure (2 steps, 1 post step)',
      'job deploy: success (1 step, 1 post step)'
    ])
    expect(r.code).toBe(0)
    // The other way round: the last run fails, so the command does.
    const last = await local(['examples/incident-on-failure.yml', '--then', '--fail-step', 'Deploy'])
    expect(last.stdout.trimEnd().split('\n').pop()).toBe('job deploy: failure (2 steps, 1 post step)')
    expect(last.code).toBe(1)
  }, 90_000)

  it('exits 2 on a job or a step that is not there, naming those that are', async () => {
    const r = await local(['examples/incident-on-failure.yml', '--fail-step', 'Deploy it'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('no step "Deploy it" in job deploy; its steps: actions/checkout@v4; Deploy;')
  }, 90_000)
})
