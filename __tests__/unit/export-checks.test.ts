/**
 * export-checks as an operation (export.ts), given a plain fake of what it
 * uses: the list it reads, the file it writes under the workspace, the
 * secrets it lifts (masked from then on), what it logs, its outputs and
 * summary, and each refusal, after which nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Check } from '../../src/api/schemas.js'
import { parseChecksFile } from '../../src/operations/sync/checks-file.js'
import { exportChecks } from '../../src/operations/sync/export.js'
import { OperationError, type OperationContext, type OperationResult } from '../../src/operations/types.js'
import { redact } from '../../src/secrets/secrets.js'

let workspace = ''
// The YAML parser is not loaded here: export-checks loads it itself before it writes a YAML file.
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'export-checks-'))
})
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true })
})

const KEY = 'sk_live_Th3ApiKey'

interface Run {
  ctx: OperationContext
  warnings: string[]
  infos: string[]
  secrets: string[]
  reads: () => number
}

/** A context whose service lists `checks` (each read as given by `read`, when given). */
function contextFor(
  checks: Check[],
  config: { checksFile: string; namePrefix?: string },
  read?: (n: number) => { items: Check[]; shift?: string }
): Run {
  const warnings: string[] = []
  const infos: string[] = []
  const secrets: string[] = []
  let reads = 0
  const ctx = {
    config: { baseUrl: 'https://api.example.com/v1', namePatterns: [], exclude: [], ...config },
    api: { readChecks: async () => (read ? read(++reads) : (++reads, { items: checks.map(c => ({ ...c })) })) },
    log: {
      warning: (message: string) => warnings.push(message),
      info: (message: string) => infos.push(message),
      debug: () => {},
      notice: () => {},
      group: <T>(_name: string, fn: () => Promise<T>) => fn()
    },
    workspace,
    addSecret: (value: string) => secrets.push(value),
    redact: (text: string) => redact(text, [KEY])
  } as unknown as OperationContext
  return { ctx, warnings, infos, secrets, reads: () => reads }
}

const failure = (run: Promise<OperationResult>) =>
  run.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: unknown) => error as OperationError
  )

describe('what export-checks writes and says', () => {
  const fleet: Check[] = [
    { id: 'c2', name: 'web', url: 'https://shop:Pa55word-1@w.example.com/?token=Tok3n-Value', status: 'up' },
    { id: 'c1', name: 'api', url: 'https://a.example.com/health', interval: 30, status: 'paused' },
    { id: 'c3', name: 'other', url: 'https://o.example.com/' }
  ]

  it('the file under the workspace, sorted, secrets as variables; a sync of it with the variables plans nothing', async () => {
    const run = contextFor(fleet, { checksFile: 'out/fleet.yml' })
    const result = await exportChecks(run.ctx)
    const text = await readFile(join(workspace, 'out/fleet.yml'), 'utf8')
    expect(text).toBe(
      [
        '# Checks of https://api.example.com/v1, written by export-checks.',
        '# Keep them as code with sync-checks (checks-file: out/fleet.yml).',
        '# Set these variables for sync-checks, from your secrets: CHECK_WEB_USERINFO, CHECK_WEB_TOKEN.',
        '',
        '- name: "api"',
        '  url: "https://a.example.com/health"',
        '  interval: 30',
        '  status: "paused"',
        '- name: "other"',
        '  url: "https://o.example.com/"',
        '- name: "web"',
        '  url: "https://${secret:CHECK_WEB_USERINFO}@w.example.com/?token=${secret:CHECK_WEB_TOKEN}"',
        ''
      ].join('\n')
    )
    expect(run.secrets).toEqual(['shop:Pa55word-1', 'Tok3n-Value'])
    const env = { CHECK_WEB_USERINFO: 'shop:Pa55word-1', CHECK_WEB_TOKEN: 'Tok3n-Value' }
    expect(parseChecksFile(text, 'fleet.yml', { env })[2].url).toBe(fleet[0].url)
    expect(result.outputs).toEqual({
      count: 3,
      result: { path: 'out/fleet.yml', count: 3, variables: ['CHECK_WEB_USERINFO', 'CHECK_WEB_TOKEN'] }
    })
    const bytes = Buffer.byteLength(text)
    expect(run.infos).toEqual([
      `Wrote 3 check(s) to out/fleet.yml (${bytes} bytes).`,
      'The file holds no secret: 2 value(s) in secret positions are variables. Set them for sync-checks (from your secrets): CHECK_WEB_USERINFO, CHECK_WEB_TOKEN.'
    ])
    expect(run.warnings).toEqual([])
    expect(result.summary).toEqual({
      title: 'Checks exported',
      lines: [
        "Wrote 3 of the service's 3 check(s) to out/fleet.yml.",
        'Right after this export, sync-checks of out/fleet.yml plans nothing.',
        'The file holds no secret: set these 2 variable(s) for sync-checks, from your secrets.'
      ],
      tables: [
        {
          head: ['Variable', 'Check', 'Where'],
          rows: [
            ['CHECK_WEB_USERINFO', 'web', 'userinfo'],
            ['CHECK_WEB_TOKEN', 'web', 'query parameter token']
          ]
        },
        {
          head: ['Check', 'ID', 'URL (as written)'],
          rows: [
            ['api', 'c1', 'https://a.example.com/health'],
            ['other', 'c3', 'https://o.example.com/'],
            ['web', 'c2', 'https://${secret:CHECK_WEB_USERINFO}@w.example.com/?token=${secret:CHECK_WEB_TOKEN}']
          ]
        }
      ]
    })
  })

  it('name-prefix: only the checks under it, said so; no variables, no variables table or line', async () => {
    const run = contextFor(fleet, { checksFile: 'prefixed.json', namePrefix: 'a' })
    const result = await exportChecks(run.ctx)
    expect(JSON.parse(await readFile(join(workspace, 'prefixed.json'), 'utf8'))).toEqual([
      { name: 'api', url: 'https://a.example.com/health', interval: 30, status: 'paused' }
    ])
    expect(result.outputs).toEqual({ count: 1, result: { path: 'prefixed.json', count: 1, variables: [] } })
    expect(result.summary.lines).toEqual([
      'Wrote 1 of the service\'s 3 check(s) whose names start with "a" to prefixed.json.',
      'Right after this export, sync-checks of prefixed.json with prune-prefix "a" plans nothing.'
    ])
    expect(result.summary.tables.map(t => t.head[0])).toEqual(['Check'])
    expect(run.infos).toEqual([
      expect.stringMatching(/^Wrote 1 check\(s\) whose names start with "a" to prefixed\.json \(\d+ bytes\)\.$/)
    ])
    expect(run.secrets).toEqual([])
  })

  it('no check at all, or none under the prefix: the file lists none, and a warning says what a prune would do', async () => {
    const none = contextFor([], { checksFile: 'none.yml' })
    expect((await exportChecks(none.ctx)).outputs.count).toBe(0)
    expect(none.warnings).toEqual([
      'export-checks: no check on the service: the file lists none. sync-checks refuses such a file with prune and no prune-prefix (it would delete every check).'
    ])
    const prefixed = contextFor(fleet, { checksFile: 'none-x.yml', namePrefix: 'x-' })
    await exportChecks(prefixed.ctx)
    expect(prefixed.warnings).toEqual([
      'export-checks: no check whose name starts with "x-": the file lists none. sync-checks refuses such a file with prune and no prune-prefix (it would delete every check).'
    ])
    expect(await readFile(join(workspace, 'none-x.yml'), 'utf8')).toMatch(/\n\[\]\n$/)
  })

  it('warnings: a token-like path segment, and a lifted value that also stands in a field no variable can go', async () => {
    const run = contextFor(
      [
        {
          id: 'c7',
          name: 'hook',
          url: 'https://h.example.com/aZ3kP9qR7sT1uV5wX8yB2cD4?token=Tok3n-Twice',
          notes: 'rotate Tok3n-Twice'
        }
      ],
      { checksFile: 'warned.yml' }
    )
    await exportChecks(run.ctx)
    expect(run.warnings).toEqual([
      'export-checks: check "hook" (c7): a path segment of its URL looks like a token (long and random-looking); it is written as it is. If it is a secret, put ${secret:NAME} in its place in the file and set NAME from your secrets.',
      'export-checks: check c7 ("hook") holds, in the field notes, the same text as a value lifted into a variable; it stays as it is there. Check that field before you commit the file.'
    ])
  })
})

describe('export by pattern and exclude: the file and the summary say the selection, and never to prune', () => {
  const shops: Check[] = [
    { id: 'c2', name: 'shop-eu-web', url: 'https://w.example.com/' },
    { id: 'c1', name: 'shop-us-web', url: 'https://a.example.com/health' },
    { id: 'c3', name: 'shop-eu-api', url: 'https://o.example.com/' }
  ]
  const selected = 'selected by name-pattern "shop-*-web" but exclude "shop-us-*"'

  it('name-pattern with exclude: what it left out in result, the summary and the log; the file header warns of prune', async () => {
    const run = contextFor(shops, { checksFile: 'pattern.yml' })
    Object.assign(run.ctx.config, { namePatterns: ['shop-*-web'], exclude: ['shop-us-*'] })
    const result = await exportChecks(run.ctx)
    expect(result.outputs).toStrictEqual({
      count: 1,
      result: { path: 'pattern.yml', count: 1, variables: [], excluded: [{ id: 'c1', name: 'shop-us-web' }] }
    })
    expect(result.summary.lines).toEqual([
      `Wrote 1 of the service's 3 check(s) ${selected} to pattern.yml.`,
      'Right after this export, sync-checks of pattern.yml without prune plans nothing. Never sync it with prune: the checks the selection left out are not in it, and prune would delete them.',
      'name-pattern "shop-*-web" selects 1 check(s), from the list read at the start.',
      'exclude "shop-us-*" left out 1 check(s), never targets: "shop-us-web" (c1).'
    ])
    expect(run.infos).toEqual([
      expect.stringMatching(
        new RegExp(`^Wrote 1 check\\(s\\) ${selected.replace(/[*]/g, '\\*')} to pattern\\.yml \\(\\d+ bytes\\)\\.$`)
      )
    ])
    const text = await readFile(join(workspace, 'pattern.yml'), 'utf8')
    expect(text.split('\n').slice(0, 2)).toEqual([
      `# Checks of https://api.example.com/v1 ${selected}, written by export-checks.`,
      '# Keep them as code with sync-checks (checks-file: pattern.yml), never with prune: it would delete the checks the selection left out.'
    ])
  })

  it('a prefix with exclude is no longer a prefix a prune can follow: said as a selection; a pattern alone has no excluded', async () => {
    const run = contextFor(shops, { checksFile: 'prefix-exclude.yml', namePrefix: 'shop-eu-' })
    Object.assign(run.ctx.config, { exclude: ['*-api'] })
    const result = await exportChecks(run.ctx)
    expect(result.summary.lines[0]).toBe(
      'Wrote 1 of the service\'s 3 check(s) selected by name-prefix "shop-eu-" but exclude "*-api" to prefix-exclude.yml.'
    )
    expect(result.summary.lines[1]).toMatch(/without prune plans nothing\. Never sync it with prune/)
    const pattern = contextFor(shops, { checksFile: 'pattern-only.yml' })
    Object.assign(pattern.ctx.config, { namePatterns: ['shop-eu-*'] })
    const only = await exportChecks(pattern.ctx)
    expect(only.outputs.result).toStrictEqual({ path: 'pattern-only.yml', count: 2, variables: [] })
    expect(only.summary.lines[1]).toMatch(/Never sync it with prune/)
  })
})

describe('refusals: nothing is written', () => {
  it('a list that could not be read whole', async () => {
    const run = contextFor([], { checksFile: 'shifted.yml' }, () => ({ items: [], shift: 'an id twice' }))
    const error = await failure(exportChecks(run.ctx))
    expect(error).toBeInstanceOf(OperationError)
    expect(error.message).toBe(
      "export-checks: the list could not be read whole in 4 reads (an id twice), so a member may be missing from it; nothing was written. Run the step again when the service's list is steady."
    )
    expect(existsSync(join(workspace, 'shifted.yml'))).toBe(false)
  })

  it("two checks of one name: the ExportError as the step's failure", async () => {
    const run = contextFor(
      [
        { id: 'a1', name: 'twin', url: 'https://a/' },
        { id: 'a2', name: 'twin', url: 'https://b/' }
      ],
      { checksFile: 'twins.yml' }
    )
    const error = await failure(exportChecks(run.ctx))
    expect(error).toBeInstanceOf(OperationError)
    expect(error.message).toMatch(/^export-checks: two checks share the name "twin" \(a1 and a2\);/)
    expect(existsSync(join(workspace, 'twins.yml'))).toBe(false)
  })

  it('the api-key in a field no variable can go: named, never shown, nothing lifted or masked', async () => {
    const run = contextFor(
      [
        { id: 'k1', name: 'fine', url: 'https://f.example.com/?token=Other-Tok3n' },
        { id: 'k2', name: 'echo', url: `https://e.example.com/?note=${KEY}` }
      ],
      { checksFile: 'key.yml' }
    )
    const error = await failure(exportChecks(run.ctx))
    expect(error.message).toBe(
      'export-checks: check k2 ("echo") holds a secret this step knows (the api-key) in the field url, where export-checks cannot put a variable; a checks file is meant to be committed, so nothing was written. Remove the secret from that field, or export a name-prefix that leaves the check out.'
    )
    expect(run.secrets).toEqual([])
    expect(existsSync(join(workspace, 'key.yml'))).toBe(false)
  })

  it('a file of exactly the 10 MiB sync-checks reads is written; one byte more is refused', async () => {
    const base = `${JSON.stringify([{ name: 'big', url: 'https://b.example.com/', notes: '' }], null, 2)}\n`
    const fill = 10 * 1024 * 1024 - Buffer.byteLength(base)
    const exact = contextFor([{ id: 'b0', name: 'big', url: 'https://b.example.com/', notes: 'x'.repeat(fill) }], {
      checksFile: 'exact.json'
    })
    await exportChecks(exact.ctx)
    expect((await readFile(join(workspace, 'exact.json'))).length).toBe(10 * 1024 * 1024)
    const over = contextFor([{ id: 'b0', name: 'big', url: 'https://b.example.com/', notes: 'x'.repeat(fill + 1) }], {
      checksFile: 'over.json'
    })
    expect((await failure(exportChecks(over.ctx))).message).toContain(
      `the checks file would be ${10 * 1024 * 1024 + 1} bytes, more than the 10485760 bytes (10 MiB)`
    )
    expect(existsSync(join(workspace, 'over.json'))).toBe(false)
  })

  it('a file larger than sync-checks reads (10 MiB)', async () => {
    const run = contextFor(
      [{ id: 'b1', name: 'big', url: 'https://b.example.com/', notes: 'x'.repeat(10 * 1024 * 1024) }],
      {
        checksFile: 'big.json'
      }
    )
    const error = await failure(exportChecks(run.ctx))
    expect(error.message).toMatch(
      /^export-checks: the checks file would be \d+ bytes, more than the 10485760 bytes \(10 MiB\) sync-checks reads; nothing was written\. Export the fleet in parts with name-prefix\.$/
    )
    expect(existsSync(join(workspace, 'big.json'))).toBe(false)
  })

  it('a file that cannot be written: the input and the reason', async () => {
    await writeFile(join(workspace, 'blocker'), 'x')
    const run = contextFor([{ id: 'w1', name: 'w', url: 'https://w.example.com/' }], { checksFile: 'blocker/out.yml' })
    const error = await failure(exportChecks(run.ctx))
    expect(error.message).toBe(
      `checks-file blocker/out.yml: cannot write ${join(workspace, 'blocker/out.yml')} (EEXIST); nothing was written`
    )
    expect(await readdir(workspace)).not.toContain('out.yml')
  })
})
