/**
 * The emulator's command line (`npm run emulator -- ...`), parsed and checked:
 * every flag has a clear message when it is wrong, and `--help` says them all.
 * Pure, so the tests hold it; cli.ts only prints and starts.
 */
import { parseArgs } from 'node:util'
import { PROFILES, unknownProfiles } from './profiles.js'
import type { EmulatorOptions } from './server.js'

export const USAGE = `npm run emulator -- [options]: the monitoring API emulator on 127.0.0.1

Options (or environment variables):
  --port N            EMULATOR_PORT            default 8080; 0 = any free port (printed at start)
  --api-key K[,K]     EMULATOR_API_KEYS        the keys it accepts, default test-key (printed at start)
  --rate-limit N/S    EMULATOR_RATE_LIMIT      N requests per S seconds per key, default 100/60; "off" disables
  --time-scale X      EMULATOR_TIME_SCALE      multiply every check interval by X (0.01 = 100 times faster)
  --no-probe          EMULATOR_PROBE=false     do not probe check URLs
  --page-size N       EMULATOR_PAGE_SIZE       items per page of a list, default 50
  --put MODE          EMULATOR_PUT             PUT semantics: replace (default) or merge
  --profile P[,P]     EMULATOR_PROFILE         a service like yours: one or more of the profiles below
  --create-latency D  EMULATOR_CREATE_LATENCY  hold every create (POST) for D before it takes effect
  --latency R=D       (repeatable)             hold one route: "POST /checks=1s", "GET=200ms", "/incidents=2s"
  --help                                       this text

Profiles (each one answer to a point the API document leaves unsaid; an option above wins over a profile):
${Object.entries(PROFILES)
  .map(([name, { says }]) => `  ${name.padEnd(25)}${says}`)
  .join('\n')}

Durations: a number of seconds (1.5) or a number with ms, s or m (250ms, 1s).
Admin routes: GET /__emulator/requests, GET /__emulator/state, POST /__emulator/faults,
POST /__emulator/latency, POST /__emulator/views, POST /__emulator/history, POST /__emulator/reset.`

export type Parsed =
  { help: true } | { error: string } | { options: EmulatorOptions & { port: number; apiKeys: string[] } }

class FlagError extends Error {}

function durationMs(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim())
  if (!match) {
    throw new FlagError(
      `${flag}: "${text}" is not a duration (a number of seconds, or a number with ms, s or m: 1s, 250ms)`
    )
  }
  const unit = match[2] ?? 's'
  return Math.round(Number(match[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000))
}

function wholeNumber(flag: string, text: string, min: number, max: number): number {
  const n = Number(text)
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) {
    throw new FlagError(`${flag}: "${text}" is not a whole number from ${min} to ${max}`)
  }
  return n
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv): Parsed {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        'rate-limit': { type: 'string' },
        'time-scale': { type: 'string' },
        'no-probe': { type: 'boolean' },
        'page-size': { type: 'string' },
        put: { type: 'string' },
        profile: { type: 'string' },
        'create-latency': { type: 'string' },
        latency: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' }
      }
    })
    if (values.help) return { help: true }
    const port = wholeNumber('--port', values.port ?? env.EMULATOR_PORT ?? '8080', 0, 65535)
    const apiKeys = (values['api-key'] ?? env.EMULATOR_API_KEYS ?? 'test-key').split(',').map(k => k.trim())
    if (apiKeys.some(k => k === '' || /\s/.test(k))) {
      throw new FlagError('--api-key: keys are comma-separated and cannot be empty or hold spaces')
    }
    const rate = (values['rate-limit'] ?? env.EMULATOR_RATE_LIMIT ?? '100/60').trim()
    let rateLimit: EmulatorOptions['rateLimit'] = false
    if (rate !== 'off') {
      const match = /^(\d+)\/(\d+)$/.exec(rate)
      if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
        throw new FlagError(`--rate-limit: "${rate}" should be N/S (requests per seconds, e.g. 100/60) or off`)
      }
      rateLimit = { limit: Number(match[1]), windowMs: Number(match[2]) * 1000 }
    }
    const scaleText = values['time-scale'] ?? env.EMULATOR_TIME_SCALE ?? '1'
    const timeScale = Number(scaleText)
    if (!Number.isFinite(timeScale) || timeScale <= 0 || scaleText.trim() === '') {
      throw new FlagError(`--time-scale: "${scaleText}" is not a number above 0 (0.01 = 100 times faster)`)
    }
    const put = values.put ?? env.EMULATOR_PUT
    if (put !== undefined && put !== 'replace' && put !== 'merge')
      throw new FlagError(`--put: "${put}" should be replace or merge`)
    const profileText = values.profile ?? env.EMULATOR_PROFILE ?? ''
    const profiles = profileText
      .split(',')
      .map(p => p.trim())
      .filter(p => p !== '')
    const unknown = unknownProfiles(profiles)
    if (unknown.length > 0) {
      throw new FlagError(
        `--profile: unknown ${unknown.map(p => `"${p}"`).join(', ')}; the profiles are ${Object.keys(PROFILES).join(', ')}`
      )
    }
    const latency: Record<string, number> = {}
    for (const entry of values.latency ?? []) {
      const at = entry.lastIndexOf('=')
      if (at <= 0) throw new FlagError(`--latency: "${entry}" should be ROUTE=DURATION, e.g. "POST /checks=1s"`)
      latency[entry.slice(0, at).trim().replace(/\s+/g, ' ')] = durationMs('--latency', entry.slice(at + 1))
    }
    const createLatency = values['create-latency'] ?? env.EMULATOR_CREATE_LATENCY
    return {
      options: {
        port,
        apiKeys,
        rateLimit,
        timeScale,
        probe: !(values['no-probe'] || env.EMULATOR_PROBE === 'false'),
        pageSize: wholeNumber('--page-size', values['page-size'] ?? env.EMULATOR_PAGE_SIZE ?? '50', 1, 1000),
        putSemantics: put,
        profiles,
        latency,
        createLatencyMs: createLatency ? durationMs('--create-latency', createLatency) : undefined
      }
    }
  } catch (error) {
    // parseArgs' own errors (an unknown flag, a missing value) are as clear: keep their text, no stack.
    return { error: `${error instanceof Error ? error.message : String(error)}\nSee npm run emulator -- --help` }
  }
}
