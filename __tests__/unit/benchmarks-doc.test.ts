/**
 * The docs' figures come from the bench's output, not by hand:
 * docs/benchmarks.md holds the table `npm run bench -- --write` wrote (with the
 * run's duration), its bundle size is the committed bundle's, and no other
 * page (but docs/benchmark-rows.md, which says what each row measures)
 * states a figure of the bench.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const KiB = (bytes: number) => bytes / 1024

/** The bundle as it is: what every step loads (the entry and main.js), and the chunks loaded when needed. */
function bundle(): { main: number; lazy: number; chunks: number } {
  const chunks = readdirSync(join(ROOT, 'dist')).filter(f => /^\d+\.index\.js$/.test(f))
  return {
    main: KiB(statSync(join(ROOT, 'dist/index.js')).size + statSync(join(ROOT, 'dist/main.js')).size),
    lazy: KiB(chunks.reduce((sum, f) => sum + statSync(join(ROOT, 'dist', f)).size, 0)),
    chunks: chunks.length
  }
}

/** What is wrong with a benchmarks page, against the bundle: a table not written by the bench, a stale size. */
function problems(page: string, actual: ReturnType<typeof bundle>): string[] {
  const out: string[] = []
  if (
    !/^Measured with `npm run bench[^`]*` on \d{4}-\d{2}-\d{2} \(Node v[\d.]+ runs the bench; \d+ cores; the run took \d+ s\)\.$/m.test(
      page
    )
  )
    out.push('no "Measured with `npm run bench` on <date> (...; the run took N s)." line: run npm run bench -- --write')
  const size =
    /^\| bundle size: dist\/index\.js and dist\/main\.js \(loaded at start\)\s*\| (\d+) KiB\s*\| (\d+) KiB in (\d+) chunk\(s\)/m.exec(
      page
    )
  if (!size) return [...out, 'no bundle size row']
  // 10% of slack: a small change to the source does not make the page wrong; a larger one does.
  const off = (stated: number, real: number) => Math.abs(stated - real) > real * 0.1
  if (off(Number(size[1]), actual.main) || off(Number(size[2]), actual.lazy) || Number(size[3]) !== actual.chunks)
    out.push(
      `the bundle size row says ${size[1]} KiB + ${size[2]} KiB in ${size[3]} chunk(s); dist/ has ${actual.main.toFixed(0)} KiB + ${actual.lazy.toFixed(0)} KiB in ${actual.chunks}: run npm run bench -- --write`
    )
  return out
}

/** Lines of a page that speak of the bench and state a time or a size: a figure typed by hand. */
function figuresByHand(text: string): string[] {
  return text
    .split('\n')
    .filter(line => /\bbench\b/i.test(line) && /\b\d+(\.\d+)?\s?(s|ms|KiB|MiB|minutes?)\b/.test(line))
}

describe('docs/benchmarks.md', () => {
  it('refuses known-bad controls first: a stale bundle size, a table without the run, a figure by hand', () => {
    const actual = { main: 622, lazy: 1414, chunks: 3 }
    const stale = [
      'Measured with `npm run bench` on 2026-11-23 (Node v20.20.2 runs the bench; 2 cores; the run took 194 s).',
      '| bundle size: dist/index.js and dist/main.js (loaded at start) | 550 KiB | 1414 KiB in 3 chunk(s) loaded when needed | |'
    ].join('\n')
    expect(problems(stale, actual)).toEqual([
      expect.stringContaining('says 550 KiB + 1414 KiB in 3 chunk(s); dist/ has 622 KiB')
    ])
    expect(problems(stale.replace('550', '620'), actual)).toEqual([])
    expect(problems(stale.replace('; the run took 194 s', ''), { ...actual, main: 550 })).toHaveLength(1)
    expect(figuresByHand('npm run bench         # the benchmark (takes about 90 s)')).toHaveLength(1)
    expect(figuresByHand('npm run bench         # the benchmark (minutes: see docs/benchmarks.md)')).toEqual([])
  })

  it('is the table the bench wrote, with the size of the committed bundle', () => {
    expect(problems(read('docs/benchmarks.md'), bundle())).toEqual([])
  })

  it('no other page states a figure of the bench', () => {
    // docs/benchmark-rows.md says what each row of docs/benchmarks.md measures: the bench's own pages.
    const own = ['docs/benchmarks.md', 'docs/benchmark-rows.md']
    const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).map(f => `docs/${f}`)
    const pages = ['README.md', 'CONTRIBUTING.md', ...docs].filter(p => p.endsWith('.md') && !own.includes(p))
    expect(pages).toContain('docs/guides/release-gates.md')
    for (const page of pages) expect([page, figuresByHand(read(page))]).toEqual([page, []])
  })
})
