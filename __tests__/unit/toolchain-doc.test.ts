/** What README and CONTRIBUTING say `package.json` asks for is what its `engines` asks for. */
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
