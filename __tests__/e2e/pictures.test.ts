/** docs/pictures.md is what the demo shows: a fresh run of the demo has the same shape. */
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PICTURES_PATH, shapeOf } from '../../scripts/lib/pictures.js'
import { ROOT } from '../helpers/runner.js'

describe('docs/pictures.md', () => {
  it('has the same steps, lines and tables as the job summaries of a fresh demo (npm run demo -- --write-pictures)', async () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'pictures-')), 'pictures.md')
    const code = await new Promise<number>(resolve =>
      execFile(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
          join(ROOT, 'scripts', 'demo.ts'),
          '--pictures-to',
          fresh
        ],
        { cwd: ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
        error => resolve(error ? 1 : 0)
      )
    )
    expect(code).toBe(0)
    const committed = readFileSync(join(ROOT, PICTURES_PATH), 'utf8')
    expect(shapeOf(readFileSync(fresh, 'utf8'))).toEqual(shapeOf(committed))
    // the page shows every story
    for (const story of ['Story 1: deploy', 'Story 2: release gate', 'Story 3: incident automation']) {
      expect(committed).toContain(`## ${story}`)
    }
  }, 60_000)
})
