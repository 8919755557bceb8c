/**
 * What a local job talks to, in this process: the emulator of the monitoring
 * API and the fake GitHub (GITHUB_API_URL points there, so a pull-request
 * comment or a drift issue lands in it, never on github.com). The emulator
 * fetches no URL: the service's probes are played instead, every check up
 * in 50 ms every quarter of a second, so a gate sees fresh results, unless
 * the job's world (world.ts) plays another result for a check, or none. Checks
 * the job's steps expect to find can be seeded, each with a day of hourly up
 * results (an error budget to read).
 */
import { Emulator } from '../../../emulator/server.js'
import { historyEntries, merged } from '../../../emulator/history.js'
import { FakeGitHub } from '../fake-github.js'

export const LOCAL_KEY = 'local-key'
export const PROBE_EVERY_MS = 250
export const PROBE_MS = 50

/** What a probe of a check finds. */
export interface Probe {
  status: string
  responseTime: number
  statusCode: number
}

const UP: Probe = { status: 'up', responseTime: PROBE_MS, statusCode: 200 }

export interface LocalService {
  emulator: Emulator
  github: FakeGitHub
  baseUrl: string
  apiKey: string
  githubUrl: string
  /** By check id: the result each probe of it records (default up in PROBE_MS), or null: not probed. */
  plays: Map<string, Probe | null>
  /** Add a check for each name the service does not have; returns the names added. */
  seed: (names: string[]) => string[]
  stop: () => Promise<void>
}

export async function startLocalService(apiKey = LOCAL_KEY): Promise<LocalService> {
  const emulator = new Emulator({ apiKeys: [apiKey], probe: false })
  const github = new FakeGitHub()
  const baseUrl = await emulator.start()
  const githubUrl = await github.start()
  const plays = new Map<string, Probe | null>()
  const probe = () => {
    for (const check of emulator.checks.values()) {
      const play = plays.get(check.id)
      if (play !== null) emulator.recordProbe(check.id, play ?? UP)
    }
  }
  const player = setInterval(probe, PROBE_EVERY_MS)
  player.unref()
  const seed = (names: string[]) => {
    const have = new Set([...emulator.checks.values()].map(check => check.name))
    const added = names.filter((name, i) => !have.has(name) && names.indexOf(name) === i)
    for (const name of added) {
      const slug = name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
      const check = emulator.seedCheck({ name, url: `https://${slug}.seeded.invalid/health`, interval: 60 })
      const past = historyEntries(
        { checkId: check.id, results: 24, everySeconds: 3600, responseTime: PROBE_MS },
        Date.now()
      )
      emulator.history.set(check.id, merged(emulator.history.get(check.id) ?? [], past.entries))
      emulator.recordProbe(check.id, UP)
    }
    return added
  }
  return {
    emulator,
    github,
    baseUrl,
    apiKey,
    githubUrl,
    plays,
    seed,
    stop: async () => {
      clearInterval(player)
      await Promise.all([emulator.stop(), github.stop()])
    }
  }
}

/** What the fake GitHub was given during the job, one line each: comments and issues. */
export function gitHubLines(github: FakeGitHub): string[] {
  const title = (body: string) =>
    body
      .split('\n')
      .map(line => line.trim())
      .find(line => line !== '' && !line.startsWith('<!--'))
      ?.replace(/^#+\s*/, '') ?? ''
  const lines: string[] = []
  for (const [issue, comments] of github.comments) {
    for (const comment of comments)
      lines.push(`  a comment on ${issue}: "${title(comment.body)}" (${comment.html_url})`)
  }
  for (const [repo, issues] of github.issues) {
    for (const issue of issues) {
      if (issue.pull_request) continue
      lines.push(`  issue ${repo}#${issue.number} (${issue.state}): "${issue.title}" (${issue.html_url})`)
    }
  }
  return lines
}
