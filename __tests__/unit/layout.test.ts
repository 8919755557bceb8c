/**
 * The house's layout holds (docs/design.md): no file in src/ or emulator/
 * over 300 lines unless design.md gives the reason, src/'s root holds the
 * entry points only, and every story folder under src/operations/ exists and
 * is named in the map.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { STORIES } from '../../scripts/check-imports.js'
import { ROOT } from '../helpers/runner.js'

const MAX_LINES = 300
const design = readFileSync(join(ROOT, 'docs/design.md'), 'utf8')

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap(name => {
    const path = join(dir, name)
    return statSync(join(ROOT, path)).isDirectory() ? files(path) : /\.(ts|cjs)$/.test(name) ? [path] : []
  })
}

describe('the layout of the house', () => {
  it(`no file in src/ or emulator/ is over ${MAX_LINES} lines without a reason in docs/design.md`, () => {
    const long = [...files('src'), ...files('emulator')]
      .map(file => ({
        file: relative('.', file),
        lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1
      }))
      .filter(({ file, lines }) => lines > MAX_LINES && !design.includes(`\`${file}\` (${lines} lines)`))
    expect(long).toEqual([])
  })

  it("src/'s root holds the entry points only: the doors (index.ts) and the step's entry over the core (main.ts)", () => {
    const loose = readdirSync(join(ROOT, 'src')).filter(name => !statSync(join(ROOT, 'src', name)).isDirectory())
    expect(loose.sort()).toEqual(['index.ts', 'main.ts'])
  })

  it('every story folder exists, holds its operations, and is named in the map', () => {
    expect(STORIES.length).toBeGreaterThanOrEqual(4)
    for (const story of STORIES) {
      expect(files(`src/operations/${story}`).length).toBeGreaterThan(0)
      expect(design).toContain(`\`src/operations/${story}/\``)
    }
  })
})
