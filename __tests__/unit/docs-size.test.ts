/**
 * Pages a reader can take in: no Markdown page under docs/ over 30 KB
 * (30,000 bytes), and the README, the first screen, within 12 KiB. A page
 * that grows past it is split by topic, never trimmed of what it must say.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DOCS_LIMIT = 30_000
const README_LIMIT = 12 * 1024

/** Every Markdown page under docs/, relative to the root. */
const docPages = () =>
  readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.md'))
    .map(f => `docs/${f}`)
    .sort()

/** The pages over `limit` bytes, each with its size. */
function oversized(pages: Array<{ page: string; text: string }>, limit: number): string[] {
  return pages
    .map(({ page, text }) => ({ page, bytes: Buffer.byteLength(text) }))
    .filter(({ bytes }) => bytes > limit)
    .map(({ page, bytes }) => `${page}: ${bytes} bytes, more than ${limit}`)
}

describe('the size of the docs', () => {
  it('refuses a known-bad control: a page one byte over, counted in bytes (not characters)', () => {
    expect(oversized([{ page: 'docs/x.md', text: 'a'.repeat(DOCS_LIMIT) }], DOCS_LIMIT)).toEqual([])
    expect(oversized([{ page: 'docs/x.md', text: 'a'.repeat(DOCS_LIMIT + 1) }], DOCS_LIMIT)).toEqual([
      `docs/x.md: ${DOCS_LIMIT + 1} bytes, more than ${DOCS_LIMIT}`
    ])
    expect(oversized([{ page: 'docs/x.md', text: 'é'.repeat(DOCS_LIMIT / 2 + 1) }], DOCS_LIMIT)).toHaveLength(1)
  })

  it('finds the pages in the folders under docs/ too', () => {
    expect(docPages()).toEqual(
      expect.arrayContaining(['docs/troubleshooting.md', 'docs/guides/deploy.md', 'docs/reference/inputs.md'])
    )
  })

  it(`no page under docs/ is over ${DOCS_LIMIT} bytes`, () => {
    const pages = docPages().map(page => ({ page, text: readFileSync(join(ROOT, page), 'utf8') }))
    expect(oversized(pages, DOCS_LIMIT)).toEqual([])
  })

  it(`the README is at most ${README_LIMIT} bytes`, () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8')
    expect(oversized([{ page: 'README.md', text }], README_LIMIT)).toEqual([])
  })
})
