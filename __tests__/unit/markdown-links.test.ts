/**
 * Every relative link and #anchor in every Markdown file of the project (not
 * only the README) resolves, as GitHub renders and resolves it; every file of
 * the repository a document names in code exists.
 */
import { describe, expect, it } from '@jest/globals'
import { fileURLToPath } from 'node:url'
import { anchorsOf, brokenLinks, markdownFiles, missingPaths, slug } from '../helpers/markdown-links.js'
import { renderGfm } from '../helpers/consumers.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const FILES = markdownFiles(ROOT)

describe('links in the Markdown files', () => {
  it('refuse known-bad controls first: a missing file, a link resolved from the wrong folder, a missing anchor', () => {
    const control = [
      '# Control',
      '',
      'Good: [help](troubleshooting.md), [rely](troubleshooting.md#behaviour-you-can-rely-on), [here](#control), [up](../README.md),',
      '[a folder](../examples/), [code](../src/main.ts), [a guide](guides/deploy.md#upsert-check), [a page](https://example.com/x.md#nothing).',
      '',
      'Bad: [gone](missing.md), [twice](docs/troubleshooting.md), [anchor](troubleshooting.md#no-such-heading),',
      '[here](#nowhere).',
      '',
      '```md',
      '[in a code block](not-a-link.md)',
      '```',
      ''
    ].join('\n')
    expect(brokenLinks(ROOT, 'docs/control.md', control)).toEqual([
      'docs/control.md: missing.md (no docs/missing.md)',
      'docs/control.md: docs/troubleshooting.md (no docs/docs/troubleshooting.md)',
      'docs/control.md: troubleshooting.md#no-such-heading (no heading #no-such-heading there)',
      'docs/control.md: #nowhere (no heading #nowhere there)'
    ])
  })

  it("anchors are GitHub's heading slugs, repeats numbered", () => {
    expect(slug("Verify the bundle's provenance")).toBe('verify-the-bundles-provenance')
    expect(slug('`sync-checks`: keep a fleet in sync')).toBe('sync-checks-keep-a-fleet-in-sync')
    expect([...anchorsOf(renderGfm('## Notes\n\n## Notes\n\n### `a_b` & c\n'))]).toEqual(['notes', 'notes-1', 'a_b--c'])
  })

  it('cover every Markdown file of the project', () => {
    for (const file of ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md', 'docs/releasing.md'])
      expect(FILES).toContain(file)
    expect(FILES.some(f => f.startsWith('node_modules') || f.startsWith('dist'))).toBe(false)
  })

  it('refuse a file named in code that does not exist', () => {
    const control =
      'Tests: `__tests__/integration/faults.test.ts`, `integration/nope.test.ts`, `src/main.ts`, `unit/parse.test.ts`, `npm test`, `dist/*.js`.\n'
    expect(missingPaths(ROOT, 'SECURITY.md', control)).toEqual([
      'SECURITY.md: `__tests__/integration/faults.test.ts` (no such file)',
      'SECURITY.md: `integration/nope.test.ts` (no such file)'
    ])
  })

  it.each(FILES)('%s: every relative link and anchor resolves, every file named in code exists', file => {
    expect([...brokenLinks(ROOT, file), ...missingPaths(ROOT, file)]).toEqual([])
  })
})
