/**
 * `npm run demo`: the three stories, run through the bundled action
 * (dist/index.js) exactly as the runner runs it, against the emulator and a
 * small local "app" on 127.0.0.1. No account, no network.
 *
 *   1. Deploy: upsert the app's check; sync a fleet from a file.
 *   2. Gate: wait until the app's check is up, from a probe after the deploy.
 *   3. Incident: the app goes down, the gate fails, an incident is opened; a
 *      re-run updates it; the app recovers, the incident is resolved.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Emulator } from '../emulator/server.js'
import { PICTURES_PATH, Picture, renderPictures } from './lib/pictures.js'
import { runStep, StepResult } from './lib/runner.js'
import { Target } from './lib/target.js'

const KEY = 'demo-key-5f2a9c'
const c = { bold: '\x1b[1m', dim: '\x1b[2m', green: '\x1b[32m', red: '\x1b[31m', off: '\x1b[0m' }
const color = process.stdout.isTTY && !process.env.NO_COLOR
const paint = (code: string, text: string) => (color ? `${code}${text}${c.off}` : text)

const emulator = new Emulator({ apiKeys: [KEY], probe: true, timeScale: 0.01 })
const app = new Target()
const checks: Array<[string, boolean]> = []
const pictures: Picture[] = []
let story = ''
// --write-pictures: docs/pictures.md; --pictures-to FILE: elsewhere (the test that holds the page).
const flag = (name: string) => process.argv.indexOf(name)
const picturesTo = process.argv.includes('--write-pictures')
  ? fileURLToPath(new URL(`../${PICTURES_PATH}`, import.meta.url))
  : flag('--pictures-to') >= 0
    ? process.argv[flag('--pictures-to') + 1]
    : undefined

function show(title: string, inputs: Record<string, string>, r: StepResult, expectSuccess: boolean): void {
  const ok = (r.code === 0) === expectSuccess
  checks.push([title, ok])
  console.log(paint(c.bold, `\n=== ${title}`))
  console.log(paint(c.dim, '  with:'))
  for (const [k, v] of Object.entries(inputs)) {
    if (k === 'api-key' || k === 'base-url') continue
    console.log(paint(c.dim, `    ${k}: ${v.includes('\n') ? JSON.stringify(v) : v}`))
  }
  const notes = r.stdout
    .split('\n')
    .filter(
      l =>
        l &&
        !l.startsWith('::add-mask') &&
        !l.startsWith('::debug') &&
        !l.startsWith('::group') &&
        !l.startsWith('::endgroup')
    )
  for (const line of notes.slice(0, 12)) console.log(`  | ${line.replace(/^::(error|warning)::/, '$1: ')}`)
  const shown = Object.entries(r.outputs).filter(([k]) => k !== 'result')
  console.log(`  outputs: ${shown.map(([k, v]) => `${k}=${v.length > 60 ? v.slice(0, 57) + '...' : v}`).join('  ')}`)
  console.log(paint(c.dim, '  job summary:'))
  for (const line of r.summary.trim().split('\n').slice(0, 14)) console.log(paint(c.dim, `    ${line}`))
  const verdict = expectSuccess
    ? r.code === 0
      ? 'step succeeded'
      : 'step FAILED'
    : r.code === 0
      ? 'step passed but should have failed'
      : 'step failed, as it should'
  console.log(
    ok
      ? paint(c.green, `  -> ${verdict} (exit ${r.code}, ${r.ms} ms)`)
      : paint(c.red, `  -> ${verdict} (exit ${r.code})`)
  )
}

async function main(): Promise<void> {
  const started = Date.now()
  const baseUrl = await emulator.start()
  const appUrl = await app.start()
  const work = mkdtempSync(join(tmpdir(), 'demo-'))
  const common = { 'api-key': KEY, 'base-url': baseUrl }
  const env = {
    GITHUB_WORKFLOW: 'Deploy shop',
    GITHUB_JOB: 'deploy',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_SHA: '8f14e45fceea167a5a36dedd4bea2543c1f0a9b2',
    GITHUB_RUN_ID: '1001',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SERVER_URL: 'https://github.com'
  }
  const step = async (title: string, inputs: Record<string, string>, expectSuccess = true, extraEnv = {}) => {
    const r = await runStep({ ...common, ...inputs }, { env: { ...env, ...extraEnv }, cwd: work })
    show(title, inputs, r, expectSuccess)
    pictures.push({ story, step: title, summary: r.summary })
    return r
  }
  console.log(paint(c.bold, 'Monitoring action demo'))
  console.log(`emulator: ${baseUrl} (probes every check URL; intervals scaled 100x faster)`)
  console.log(`app:      ${appUrl}`)

  story = 'Story 1: deploy'
  console.log(paint(c.bold, '\n##### Story 1: deploy'))
  const appCheck = {
    operation: 'upsert-check',
    'check-name': 'shop (production)',
    'check-url': appUrl,
    'check-interval': '30',
    'alert-channels': 'email'
  }
  await step("upsert the app's check", appCheck)
  await step('upsert again: nothing differs, nothing sent', appCheck)
  writeFileSync(
    join(work, 'checks.yml'),
    [
      'checks:',
      ...['home', 'cart', 'checkout', 'search'].flatMap(p => [
        `  - name: shop-${p}`,
        `    url: ${appUrl}?page=${p}`,
        '    interval: 30'
      ])
    ].join('\n') + '\n'
  )
  await step('sync the fleet from checks.yml', { operation: 'sync-checks', 'checks-file': 'checks.yml' })
  await step('sync again: the service already equals the file', {
    operation: 'sync-checks',
    'checks-file': 'checks.yml'
  })

  story = 'Story 2: release gate'
  console.log(paint(c.bold, '\n##### Story 2: release gate'))
  await step('gate: wait until the app is up, from a probe after the deploy', {
    operation: 'wait-for-check',
    'check-name': 'shop (production)',
    'max-response-time': '2000',
    timeout: '15s',
    'poll-interval': '500ms'
  })

  story = 'Story 3: incident automation'
  console.log(paint(c.bold, '\n##### Story 3: incident automation'))
  app.mode = 'down'
  // Let the service probe the app once after it went down: a result from before that, within the
  // 5 s clock-skew allowance of require-fresh, would still count as fresh and pass the gate.
  const shopStatus = () => [...emulator.checks.values()].find(check => check.name === 'shop (production)')?.status
  for (let waited = 0; shopStatus() !== 'down' && waited < 5000; waited += 20) {
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  const gate = {
    operation: 'wait-for-check',
    'check-name': 'shop (production)',
    timeout: '3s',
    'poll-interval': '500ms'
  }
  await step('the app goes down: the gate fails', gate, false)
  const incident = { operation: 'open-incident', 'incident-title': 'Deploy of shop failed' }
  const opened = await step('if: failure() -> open an incident naming the run', incident)
  await step('the job is re-run and fails again: the same incident is updated', incident, true, {
    GITHUB_RUN_ATTEMPT: '2'
  })
  app.mode = 'up'
  await step('the app recovers: the gate passes', { ...gate, timeout: '15s' }, true, { GITHUB_RUN_ATTEMPT: '3' })
  await step(
    'if: success() -> resolve the incident',
    { operation: 'resolve-incident', 'incident-title': 'Deploy of shop failed' },
    true,
    {
      GITHUB_RUN_ATTEMPT: '3'
    }
  )

  const incidents = [...emulator.incidents.values()]
  const story3 =
    incidents.length === 1 && incidents[0].status === 'resolved' && incidents[0].id === opened.outputs['incident-id']
  checks.push(['exactly one incident, resolved', story3])
  console.log(`\nincidents on the service: ${incidents.length}; status ${incidents.map(i => i.status).join(', ')}`)
  console.log(
    `checks on the service: ${emulator.checks.size}; requests the service received: ${emulator.requests.length}`
  )
  const failed = checks.filter(([, ok]) => !ok)
  console.log(
    failed.length === 0
      ? paint(
          c.green,
          `\nAll three stories passed (${checks.length} steps) in ${((Date.now() - started) / 1000).toFixed(1)} s.`
        )
      : paint(c.red, `\n${failed.length} step(s) did not behave: ${failed.map(([t]) => t).join('; ')}`)
  )
  if (picturesTo) {
    writeFileSync(picturesTo, renderPictures(pictures))
    console.log(`job summaries written to ${picturesTo}`)
  }
  process.exitCode = failed.length === 0 ? 0 : 1
}

main()
  .catch(error => {
    console.error(error)
    process.exitCode = 1
  })
  .finally(() => Promise.all([emulator.stop(), app.stop()]))
