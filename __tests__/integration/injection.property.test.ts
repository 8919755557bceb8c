/**
 * Server text is data, never a command. Arbitrary strings from the server
 * (names, ids, URLs, statuses, titles, messages, error bodies) go through
 * every operation; what the real @actions/core prints is read back line by
 * line the way the runner reads it (a line ends at \n, \r or \r\n, blanks
 * before `::` are skipped): the only command lines are the ones the action
 * issued itself, one per call. The summary escapes every value.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import * as core from '@actions/core'
import fc from 'fast-check'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Emulator } from '../../emulator/server.js'
import { runAction, startEmulator } from '../helpers/harness.js'

let emulator: Emulator
const dir = mkdtempSync(join(tmpdir(), 'inject-'))
beforeAll(async () => {
  emulator = await startEmulator({ rateLimit: false })
})
afterAll(() => emulator.stop())

/** Strings built from the pieces that break logs and Markdown, and anything else. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\n::error::pwned',
        '\r::warning::pwned',
        '\r\n::set-output name=x::y',
        '\u2028::error::u2028',
        '\u2029::error::u2029',
        '\u0085::error::nel',
        '::stop-commands::tok',
        '  ::error::indented',
        '::add-mask::x',
        '%0A::error::escaped',
        '<img src=x onerror=alert(1)>',
        '<prod>',
        '|',
        '\\|',
        '`',
        '*bold*',
        '_em_',
        '[link](https://evil.example)',
        '# heading',
        '---',
        '1. item',
        '&amp;'
      ),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 })
    ),
    { minLength: 1, maxLength: 4 }
  )
  .map(parts => parts.join(''))

/** Everything the real core printed to stdout during `fn`, and how many commands it was asked to issue. */
async function capture(
  fn: (c: ReturnType<typeof realLogCore>) => Promise<void>
): Promise<{ out: string; issued: number }> {
  const chunks: string[] = []
  const write = process.stdout.write.bind(process.stdout)
  const c = realLogCore()
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    return true
  }) as typeof process.stdout.write
  try {
    await fn(c)
  } finally {
    process.stdout.write = write
    process.exitCode = 0
  }
  return { out: chunks.join(''), issued: c.issued() }
}

/** A fake core for inputs, outputs, state and summary; the real @actions/core for every log line. */
function realLogCore() {
  let issued = 0
  const count =
    <A extends unknown[]>(f: (...a: A) => void) =>
    (...a: A) => {
      issued++
      f(...a)
    }
  return {
    issued: () => issued,
    info: (m: string) => core.info(m),
    debug: count((m: string) => core.debug(m)),
    warning: count((m: string) => core.warning(m)),
    setFailed: count((m: string) => core.setFailed(m)),
    startGroup: count((n: string) => core.startGroup(n)),
    endGroup: count(() => core.endGroup())
  }
}

/** Lines as the runner splits them, and those it would read as commands. */
function commandLines(out: string): string[] {
  return out.split(/\r\n|\r|\n/).filter(line => /^\s*::/.test(line))
}

/** Table rows whose unescaped pipes do not match their header's: a value split a cell. */
function brokenRows(summary: string): string[] {
  const broken: string[] = []
  let columns = -1
  for (const line of summary.split('\n')) {
    if (!line.startsWith('|')) {
      columns = -1
      continue
    }
    const pipes = line.replace(/\\\\/g, '').replace(/\\\|/g, '').split('|').length - 1
    if (columns < 0) columns = pipes
    else if (pipes !== columns) broken.push(line)
  }
  return broken
}

describe('server text never becomes a workflow command or Markdown', () => {
  it('every operation, with hostile names, ids, URLs, statuses, titles, messages and errors', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          name: hostile,
          id: hostile.filter(id => id.trim() !== '' && id !== '.' && id !== '..'),
          url: hostile,
          status: hostile,
          title: hostile,
          message: hostile,
          error: hostile,
          page: hostile
        }),
        async s => {
          emulator.reset()
          const check = emulator.seedCheck({ id: s.id, name: s.name, url: s.url, status: s.status })
          emulator.history.set(check.id, [{ checkedAt: s.message, status: s.status, responseTime: 5, note: s.error }])
          emulator.seedCheck({ name: 'up one', url: 'https://ok.example.com/', status: 'up' })
          emulator.seedIncident({ title: s.title, message: s.message, status: s.status })
          emulator.statusPages.set('sp_1', { id: 'sp_1', name: s.page, note: s.error })
          writeFileSync(
            join(dir, 'checks.yml'),
            JSON.stringify([{ name: s.name || 'n', url: 'https://a.example.com/' }])
          )
          const runs: Array<Record<string, string>> = [
            { operation: 'get-check', 'check-id': check.id },
            { operation: 'list-checks' },
            { operation: 'check-history', 'check-id': check.id },
            { operation: 'update-check', 'check-id': check.id, 'check-interval': '7' },
            { operation: 'pause-check', 'check-id': check.id, 'auto-resume': 'true' },
            { operation: 'resume-check', 'check-id': check.id },
            { operation: 'wait-for-check', 'check-id': check.id, timeout: '100ms', 'poll-interval': '100ms' },
            { operation: 'sync-checks', 'checks-file': 'checks.yml', prune: 'true', 'dry-run': 'true' },
            { operation: 'list-incidents' },
            { operation: 'open-incident', 'incident-title': s.title || 't', 'incident-message': s.message || 'm' },
            { operation: 'resolve-incident', 'incident-title': s.title || 't' },
            { operation: 'list-status-pages' },
            { operation: 'get-status-page', 'status-page-id': 'sp_1' },
            { operation: 'get-check', 'check-name': s.name || 'missing' },
            { operation: 'delete-check', 'check-id': check.id, 'dry-run': 'true' }
          ]
          emulator.inject({ path: '/checks/nope', status: 400, body: { error: { message: s.error } }, times: Infinity })
          runs.push({ operation: 'get-check', 'check-id': 'nope' })
          for (const inputs of runs) {
            let summary = ''
            const { out, issued } = await capture(
              async real =>
                void (await runAction(emulator, inputs, {
                  env: { GITHUB_WORKSPACE: dir },
                  prepare: fake => {
                    Object.assign(fake, real)
                    fake.summary = { addRaw: (text: string) => ({ write: async () => void (summary += text) }) }
                  }
                }))
            )
            // One command line per command the action issued: nothing injected, nothing split.
            expect({ op: inputs.operation, commands: commandLines(out).length }).toEqual({
              op: inputs.operation,
              commands: issued
            })
            expect(out).not.toMatch(/(^|[\r\n\u2028\u2029])\s*::stop-commands::/)
            expect(summary).not.toMatch(/[\r\u2028\u2029\u0085]/)
            expect(summary).not.toMatch(/<(img|prod)/i)
            expect(brokenRows(summary)).toEqual([])
          }
        }
      ),
      { numRuns: 12 }
    )
  })
})
