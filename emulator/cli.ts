/**
 * `npm run emulator`: the monitoring API emulator as a local server. The
 * flags are in options.ts (`npm run emulator -- --help`).
 */
import { USAGE, parseCli } from './options.js'
import { Emulator } from './server.js'

const parsed = parseCli(process.argv.slice(2), process.env)
if ('help' in parsed) {
  console.log(USAGE)
  process.exit(0)
}
if ('error' in parsed) {
  console.error(parsed.error)
  process.exit(2)
}
const { options } = parsed
const emulator = new Emulator(options)
let baseUrl: string
try {
  baseUrl = await emulator.start()
} catch (error) {
  const code = (error as { code?: string }).code
  console.error(
    code === 'EADDRINUSE'
      ? `port ${options.port} is in use by another process: stop it, or pick another port with --port (--port 0 takes any free one)`
      : `the emulator could not start: ${error instanceof Error ? error.message : String(error)}`
  )
  process.exit(1)
}
const rate = options.rateLimit ? `${options.rateLimit.limit}/${options.rateLimit.windowMs / 1000}` : 'off'
console.log(`Monitoring API emulator listening: base-url ${baseUrl}`)
// Test keys for a local server, printed so a user can copy them (never use a real key here).
console.log(`API key(s): ${options.apiKeys.join(', ')}; rate limit ${rate}; probing ${options.probe ? 'on' : 'off'}`)
if (options.profiles?.length) console.log(`Profiles: ${options.profiles.join(', ')}`)
const held = Object.entries(emulator.latency)
if (held.length > 0) console.log(`Latency: ${held.map(([route, ms]) => `${route} ${ms} ms`).join(', ')}`)
console.log(
  'Admin: GET /__emulator/requests, GET /__emulator/state, POST /__emulator/faults, POST /__emulator/latency, POST /__emulator/views, POST /__emulator/history, POST /__emulator/reset'
)
const shutdown = () => void emulator.stop().then(() => process.exit(0))
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
