/**
 * The workflows, validated and not only linted: every file of .github/workflows/
 * and examples/ passes actionlint and GitHub's own workflow parser; the
 * project's workflows pin every action by commit SHA with its version, keep
 * write permissions to the jobs that need them, and do what the README and
 * docs/releasing.md say. Each checker first refuses a known-bad control.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { lintWorkflow } from '../../scripts/lib/workflow-lint.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const yamlIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter(f => /\.ya?ml$/.test(f))
    .map(f => `${dir}/${f}`)
const WORKFLOWS = yamlIn('.github/workflows')
const EXAMPLES = yamlIn('examples')

interface Workflow {
  on: unknown
  permissions?: Record<string, string> | string
  jobs: Record<
    string,
    {
      permissions?: Record<string, string> | string
      strategy?: { matrix?: Record<string, unknown> }
      steps?: Array<{ uses?: string; run?: string; if?: string; with?: Record<string, unknown> }>
    }
  >
}
const workflow = (path: string) => parse(read(path)) as Workflow

describe("every workflow passes actionlint and GitHub's workflow parser", () => {
  it('the readers say no to a known-bad workflow, and yes to the vars context', async () => {
    const bad = [
      'on: push',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    permissions:',
      '      id-token: writ',
      '    steps:',
      '      - run: echo ${{ foo.bar }}',
      '        bogus: 1',
      '      - uses: acme/monitoring-action@v1',
      '        with:',
      '          operation: upsert-checks',
      '          check_name: shop',
      ''
    ].join('\n')
    const findings = await lintWorkflow(bad, 'bad.yml')
    const by = (reader: string) => findings.filter(f => f.by === reader).map(f => `${f.line}: ${f.message}`)
    expect(by('actionlint')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^6: "writ" is invalid for permission of scope "id-token"/),
        expect.stringMatching(/^8: undefined variable "foo"/),
        expect.stringMatching(/^9: unexpected key "bogus" for "step" section/)
      ])
    )
    expect(by('workflow-parser')).toEqual(
      expect.arrayContaining([
        "6: Unexpected value 'writ'",
        "8: Unrecognized named-value: 'foo'",
        "9: Unexpected value 'bogus'"
      ])
    )
    expect(by('action.yml')).toEqual([
      expect.stringMatching(/^12: operation "upsert-checks" is not one of this action's operations/),
      expect.stringMatching(/^13: input "check_name" is not an input of this action .*did you mean "check-name"\?/)
    ])

    const withVars = [
      'on: push',
      'permissions: {}',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "$URL"',
      '        env:',
      '          URL: ${{ vars.MONITORING_BASE_URL }}',
      ''
    ].join('\n')
    expect(await lintWorkflow(withVars, 'vars.yml')).toEqual([])
  })

  it.each([...WORKFLOWS, ...EXAMPLES])('%s has no finding', async path => {
    expect(await lintWorkflow(read(path), path)).toEqual([])
  })

  it('covers the release, code scanning, Dependabot and CI workflows and every example', () => {
    for (const name of ['ci', 'check-dist', 'self-test', 'release', 'codeql', 'dependabot-dist'])
      expect(WORKFLOWS).toContain(`.github/workflows/${name}.yml`)
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(7)
  })
})

/** Every `uses:` of an action that is not in this repository: a full commit SHA and, in a comment, its version. */
function pinProblems(text: string, file: string): string[] {
  const problems: string[] = []
  text.split('\n').forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(['"]?)([^\s'"#]+)\1\s*(#.*)?$/.exec(line)
    if (!m || m[2].startsWith('./') || m[2].startsWith('docker://')) return
    const [, , uses, comment] = m
    if (!/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/.test(uses))
      problems.push(`${file}:${i + 1}: ${uses} is not pinned by a full commit SHA`)
    else if (!/^# v\d+\.\d+\.\d+\s*$/.test(comment ?? ''))
      problems.push(`${file}:${i + 1}: ${uses} has no "# vX.Y.Z" comment naming its version`)
  })
  return problems
}

type Permissions = Record<string, string> | string | undefined
const writes = (p: Permissions) =>
  typeof p === 'string'
    ? p === 'write-all'
      ? ['write-all']
      : []
    : Object.keys(p ?? {}).filter(k => p?.[k] === 'write')

/** Least permissions: a read-only (or empty) default, writes only in jobs, the signing ones only where provenance is attested. */
function permissionProblems(w: Workflow, file: string): string[] {
  const problems: string[] = []
  if (w.permissions === undefined) problems.push(`${file}: no top-level permissions (the default may be write-all)`)
  for (const scope of writes(w.permissions))
    problems.push(`${file}: top-level ${scope}: write (give it to the job that needs it)`)
  for (const [id, job] of Object.entries(w.jobs)) {
    for (const scope of writes(job.permissions)) {
      if (['id-token', 'attestations'].includes(scope) && !(file.endsWith('/release.yml') && id === 'provenance'))
        problems.push(`${file}: job ${id} has ${scope}: write, which only release.yml's provenance job may have`)
      if (scope === 'write-all') problems.push(`${file}: job ${id} has write-all`)
    }
  }
  return problems
}

describe("the project's workflows: pinned, least permissions", () => {
  const sha = 'a'.repeat(40)

  it('refuse known-bad controls first', () => {
    expect(pinProblems('      - uses: actions/checkout@v4\n', 'x.yml')).toEqual([
      'x.yml:1: actions/checkout@v4 is not pinned by a full commit SHA'
    ])
    expect(pinProblems(`      - uses: actions/checkout@${sha}\n`, 'x.yml')).toEqual([
      `x.yml:1: actions/checkout@${sha} has no "# vX.Y.Z" comment naming its version`
    ])
    expect(pinProblems(`  uses: actions/checkout@${sha.slice(1)} # v4.2.2\n`, 'x.yml')).toHaveLength(1)
    expect(pinProblems(`      - uses: actions/checkout@${sha} # v4.2.2\n      - uses: ./\n`, 'x.yml')).toEqual([])

    const bad: Workflow = {
      on: 'push',
      permissions: { contents: 'write' },
      jobs: { build: { permissions: { 'id-token': 'write' } } }
    }
    expect(permissionProblems(bad, '.github/workflows/ci.yml')).toEqual([
      '.github/workflows/ci.yml: top-level contents: write (give it to the job that needs it)',
      ".github/workflows/ci.yml: job build has id-token: write, which only release.yml's provenance job may have"
    ])
    expect(permissionProblems({ on: 'push', jobs: {} }, 'y.yml')).toEqual([
      'y.yml: no top-level permissions (the default may be write-all)'
    ])
  })

  it.each(WORKFLOWS)('%s pins every action by SHA and keeps writes in its jobs', path => {
    expect([...pinProblems(read(path), path), ...permissionProblems(workflow(path), path)]).toEqual([])
  })

  it('id-token and attestations are written only by the provenance job of release.yml', () => {
    const release = workflow('.github/workflows/release.yml')
    expect(release.jobs.provenance.permissions).toEqual({
      contents: 'read',
      'id-token': 'write',
      attestations: 'write'
    })
    expect(release.permissions).toEqual({})
  })
})

describe('CI matches the README', () => {
  const steps = (w: Workflow) => Object.values(w.jobs).flatMap(job => job.steps ?? [])
  const runs = (w: Workflow) =>
    steps(w)
      .map(s => s.run ?? '')
      .join('\n')

  it.each(['ci', 'self-test'])('%s.yml installs with npm ci and tests on Node 22 and 24', name => {
    const w = workflow(`.github/workflows/${name}.yml`)
    expect(runs(w)).toMatch(/^npm ci\b/m)
    expect(runs(w)).not.toMatch(/npm install/)
    const job = Object.values(w.jobs)[0]
    expect(job.strategy?.matrix?.node).toEqual([22, 24])
    expect(steps(w).find(s => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(
      '${{ matrix.node }}'
    )
  })

  it('no workflow installs with npm install; ci.yml audits what ships', () => {
    for (const path of WORKFLOWS) expect([path, /npm install\b/.test(read(path))]).toEqual([path, false])
    expect(runs(workflow('.github/workflows/ci.yml'))).toMatch(/^npm audit --omit=dev$/m)
  })

  it('check-dist.yml uploads the expected dist/ as an artifact when it differs', () => {
    const upload = steps(workflow('.github/workflows/check-dist.yml')).find(s =>
      s.uses?.startsWith('actions/upload-artifact@')
    )
    expect(upload?.if).toBe("failure() && steps.diff.outcome == 'failure'")
    expect(upload?.with).toMatchObject({ name: 'dist', path: 'dist/' })
  })

  it('release.yml rebuilds and compares dist/, tests, attests, releases with the notes and moves the major tag', () => {
    const w = workflow('.github/workflows/release.yml')
    expect(w.on).toEqual({ push: { tags: ['v*.*.*'] } })
    const verify = runs({ ...w, jobs: { verify: w.jobs.verify } })
    for (const command of [
      'npm ci',
      'npm run --silent release-notes',
      'npm run build',
      'git status --porcelain -- dist',
      'npm test'
    ])
      expect(verify).toContain(command)
    expect(w.jobs.provenance.steps?.some(s => s.uses?.startsWith('actions/attest-build-provenance@'))).toBe(true)
    const release = runs({ ...w, jobs: { release: w.jobs.release } })
    expect(release).toContain('gh release create "$TAG"')
    expect(release).toContain('--notes-file release-notes.md')
    expect(release).toContain('git/refs/tags/$MAJOR')
  })

  it('dependabot.yml updates npm (production, development, the @actions/* packages together) and the actions, weekly', () => {
    const config = parse(read('.github/dependabot.yml')) as {
      updates: Array<{ 'package-ecosystem': string; schedule: { interval: string }; groups?: Record<string, object> }>
    }
    const npm = config.updates.find(u => u['package-ecosystem'] === 'npm')
    const actions = config.updates.find(u => u['package-ecosystem'] === 'github-actions')
    expect(npm?.schedule.interval).toBe('weekly')
    expect(actions?.schedule.interval).toBe('weekly')
    expect(npm?.groups).toEqual({
      'actions-toolkit': { patterns: ['@actions/*'] },
      production: { 'dependency-type': 'production', 'exclude-patterns': ['@actions/*'] },
      development: { 'dependency-type': 'development', 'exclude-patterns': ['@actions/*'] }
    })
  })
})

describe('docs/releasing.md is true to the workflows', () => {
  const doc = read('docs/releasing.md')
  /** The pins the doc's table states, as `action version sha`. */
  const stated = (text: string) =>
    [...text.matchAll(/^\|\s*`([\w.-]+\/[\w.-]+)`\s*\|\s*(v\S+)\s*\|\s*`([0-9a-f]{40})`\s*\|/gm)]
      .map(m => `${m[1]} ${m[2]} ${m[3]}`)
      .sort()

  it('its table of pinned actions is the one the workflows make (run npm run docs to refresh)', async () => {
    const { pinsOf, projectWorkflows, renderReleasing } = await import('../../scripts/docs.js')
    const pinned = pinsOf(projectWorkflows()).map(p => `${p.action} ${p.version} ${p.sha}`)
    // A known-bad control first: a stale SHA in the table is seen.
    const stale = doc.replace(pinned[0].split(' ')[2], 'f'.repeat(40))
    expect(stated(stale)).not.toEqual(pinned.sort())
    expect(pinned.length).toBeGreaterThanOrEqual(6)
    expect(stated(doc)).toEqual(pinned.sort())
    expect(await renderReleasing(doc)).toBe(doc)
  })

  it('names the workflows and commands it describes', () => {
    for (const text of [
      '.github/workflows/release.yml',
      '.github/workflows/dependabot-dist.yml',
      '.github/workflows/check-dist.yml',
      '.github/dependabot.yml',
      'gh attestation verify',
      'npm run --silent release-notes',
      'id-token: write`, `attestations: write`, in this job only'
    ])
      expect([text, doc.includes(text)]).toEqual([text, true])
  })
})

describe('release notes (npm run release-notes)', () => {
  const changelog = [
    '# Changelog',
    '',
    '## 1.2.0 (2026-12-01)',
    '',
    '- New: x.',
    '',
    '## 1.1.0 (2026-11-01)',
    '',
    '- Old.',
    ''
  ].join('\n')

  it('refuse a tag that is not a version, a version package.json does not have, and an unreleased section', async () => {
    const { releaseOf } = await import('../../scripts/release-notes.js')
    expect(() => releaseOf('1.2.0', '1.2.0', changelog)).toThrow('is not a release tag')
    expect(() => releaseOf('v1.2', '1.2', changelog)).toThrow('is not a release tag')
    expect(() => releaseOf('v1.2.0', '1.1.0', changelog)).toThrow('package.json says 1.1.0')
    expect(() => releaseOf('v1.3.0', '1.3.0', changelog)).toThrow('has no "## 1.3.0" section')
    expect(() => releaseOf('v1.2.0', '1.2.0', changelog.replace('(2026-12-01)', '(unreleased)'))).toThrow(
      'still says "1.2.0 (unreleased)"'
    )
  })

  it("are the version's section, without its heading; a pre-release does not move the major tag", async () => {
    const { releaseOf } = await import('../../scripts/release-notes.js')
    expect(releaseOf('v1.2.0', '1.2.0', changelog)).toEqual({
      version: '1.2.0',
      major: 'v1',
      prerelease: false,
      notes: '- New: x.'
    })
    expect(releaseOf('v1.1.0', '1.1.0', changelog).notes).toBe('- Old.')
    const rc = changelog.replace('## 1.2.0 (2026-12-01)', '## 1.2.0-rc.1 (2026-11-20)')
    expect(releaseOf('v1.2.0-rc.1', '1.2.0-rc.1', rc)).toMatchObject({ major: 'v1', prerelease: true })
  })

  it("this repository's own CHANGELOG: 1.0.0 is not released yet, so no tag may be cut", async () => {
    const { releaseOf } = await import('../../scripts/release-notes.js')
    const { version } = JSON.parse(read('package.json')) as { version: string }
    expect(() => releaseOf(`v${version}`, version, read('CHANGELOG.md'))).toThrow('(unreleased)')
  })
})
