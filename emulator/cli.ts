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
    put: { type: 'string' }
  }
})

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
  putSemantics: (values.put ?? env.EMULATOR_PUT) === 'merge' ? 'merge' : 'replace'
})

const baseUrl = await emulator.start()
console.log(`Monitoring API emulator listening: base-url ${baseUrl}`)
console.log(
  `API keys: ${emulator.options.apiKeys.length} configured; rate limit ${rate}; probing ${emulator.options.probe ? 'on' : 'off'}`
)
console.log('Admin: GET /__emulator/requests, GET /__emulator/state, POST /__emulator/faults, POST /__emulator/reset')
const shutdown = () => void emulator.stop().then(() => process.exit(0))
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
