/**
 * `npm run emulator`: the monitoring API emulator as a local server.
 *
 *   npm run emulator -- --port 8080 --api-key demo-key --time-scale 0.1
 *
 * Options (or environment variables):
 *   --port N            EMULATOR_PORT        default 8080 (0 = any free port)
 *   --api-key K[,K]     EMULATOR_API_KEYS    default test-key
 *   --rate-limit N/S    EMULATOR_RATE_LIMIT  requests per window in seconds, default 100/60; "off" disables
 *   --time-scale X      EMULATOR_TIME_SCALE  multiply every check interval by X (0.01 = 100 times faster)
 *   --no-probe          EMULATOR_PROBE=false do not probe check URLs
 *   --page-size N       EMULATOR_PAGE_SIZE   default 50
 *   --put merge         EMULATOR_PUT         PUT semantics: replace (default) or merge
 *   --create-latency D  EMULATOR_CREATE_LATENCY  hold every create (POST) for D before it takes effect (1s, 250ms)
 *   --latency "R=D"     (repeatable)         hold one route: "POST /checks=1s", "GET=200ms", "/incidents=2s"
 *
 * Durations: a number of seconds (1.5) or a number with ms, s or m.
 * Every answer carries X-RateLimit-* and RateLimit-* headers (the key's window).
 */
import { parseArgs } from 'node:util'
import { Emulator } from './server.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'api-key': { type: 'string' },
    'rate-limit': { type: 'string' },
    'time-scale': { type: 'string' },
    'no-probe': { type: 'boolean' },
    'page-size': { type: 'string' },
    put: { type: 'string' },
    'create-latency': { type: 'string' },
    latency: { type: 'string', multiple: true }
  }
})

/** Milliseconds of a duration flag; exits with a clear message when it is not one. */
function durationMs(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim())
  if (!match) {
    console.error(`${flag}: "${text}" is not a duration (a number of seconds, or a number with ms, s or m: 1s, 250ms)`)
    process.exit(2)
  }
  const unit = match[2] ?? 's'
  return Math.round(Number(match[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000))
}

const latency: Record<string, number> = {}
for (const entry of values.latency ?? []) {
  const at = entry.lastIndexOf('=')
  if (at <= 0) {
    console.error(`--latency: "${entry}" should be ROUTE=DURATION, e.g. "POST /checks=1s"`)
    process.exit(2)
  }
  latency[entry.slice(0, at).trim().replace(/\s+/g, ' ')] = durationMs('--latency', entry.slice(at + 1))
}
const createLatency = values['create-latency'] ?? process.env.EMULATOR_CREATE_LATENCY

const env = process.env
const rate = values['rate-limit'] ?? env.EMULATOR_RATE_LIMIT ?? '100/60'
const [limit, seconds] = rate.split('/').map(Number)
const emulator = new Emulator({
  port: Number(values.port ?? env.EMULATOR_PORT ?? 8080),
  apiKeys: (values['api-key'] ?? env.EMULATOR_API_KEYS ?? 'test-key').split(','),
  rateLimit: rate === 'off' ? false : { limit, windowMs: (seconds || 60) * 1000 },
  timeScale: Number(values['time-scale'] ?? env.EMULATOR_TIME_SCALE ?? 1),
  probe: !(values['no-probe'] || env.EMULATOR_PROBE === 'false'),
  pageSize: Number(values['page-size'] ?? env.EMULATOR_PAGE_SIZE ?? 50),
  putSemantics: (values.put ?? env.EMULATOR_PUT) === 'merge' ? 'merge' : 'replace',
  latency,
  createLatencyMs: createLatency ? durationMs('--create-latency', createLatency) : undefined
})

const baseUrl = await emulator.start()
console.log(`Monitoring API emulator listening: base-url ${baseUrl}`)
console.log(
  `API keys: ${emulator.options.apiKeys.length} configured; rate limit ${rate}; probing ${emulator.options.probe ? 'on' : 'off'}`
)
const held = Object.entries(emulator.latency)
if (held.length > 0) console.log(`Latency: ${held.map(([route, ms]) => `${route} ${ms} ms`).join(', ')}`)
console.log(
  'Admin: GET /__emulator/requests, GET /__emulator/state, POST /__emulator/faults, POST /__emulator/latency, POST /__emulator/reset'
)
const shutdown = () => void emulator.stop().then(() => process.exit(0))
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
