import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { INPUTS, parseInput } from '../../src/inputs/table.js'
import { OPERATIONS } from '../../src/operations/registry.js'
import { OUTPUTS } from '../../src/report/outputs.js'

const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>
  outputs: Record<string, { description: string }>
  runs: Record<string, string>
}

describe('action.yml', () => {
  it('declares exactly the inputs the code reads', () => {
    expect(Object.keys(action.inputs).sort()).toEqual([...INPUTS].sort())
  })

  it('states the defaults the code uses, and requires exactly the inputs the code requires', () => {
    for (const name of INPUTS) {
      const declared = action.inputs[name]
      let unset: unknown
      let required = false
      try {
        unset = parseInput(name, undefined)
      } catch {
        required = true
      }
      expect([name, declared.required === true]).toEqual([name, required])
      if (typeof declared.default === 'string' && /^\$\{\{.*\}\}$/.test(declared.default.trim())) {
        // An expression the runner evaluates (github-token: the job's token): the code has no default of its own.
        expect([name, unset]).toEqual([name, undefined])
      } else if (declared.default !== undefined) {
        expect([name, parseInput(name, declared.default)]).toEqual([name, unset])
      } else if (!required) {
        expect([name, unset]).toEqual([name, undefined])
      }
    }
  })

  it('names every operation of the registry, and no other, in the operation input', () => {
    const named = action.inputs.operation.description.match(/[a-z]+(?:-[a-z]+)+/g) ?? []
    expect([...new Set(named)].sort()).toEqual([...OPERATIONS].sort())
  })

  it('incident-message names every placeholder the code replaces, and no other; docs/guides/incidents.md too', async () => {
    const { PLACEHOLDERS } = await import('../../src/operations/incidents/incident-text.js')
    const named = (text: string) => [...new Set(text.match(/\{[a-z_]+\}/g) ?? [])].map(p => p.slice(1, -1)).sort()
    // The control: a description that forgets one is caught.
    expect(named('{workflow} and {run_url}')).not.toEqual([...PLACEHOLDERS].sort())
    expect(named(action.inputs['incident-message'].description)).toEqual([...PLACEHOLDERS].sort())
    const doc = readFileSync(new URL('../../docs/guides/incidents.md', import.meta.url), 'utf8')
    const facts = doc.slice(doc.indexOf("## The run's facts"), doc.indexOf('## One incident per matrix leg'))
    expect(named(facts)).toEqual(expect.arrayContaining([...PLACEHOLDERS]))
  })

  it('the guides (docs/guides/) have one section for every operation of the registry, and one only', () => {
    const dir = new URL('../../docs/guides/', import.meta.url)
    const guides = readdirSync(dir)
      .filter(f => f.endsWith('.md'))
      .map(f => readFileSync(new URL(f, dir), 'utf8'))
    const sections = (name: string) =>
      guides.reduce((n, doc) => n + doc.split('\n').filter(line => line === `## \`${name}\``).length, 0)
    expect(OPERATIONS.filter(name => sections(name) !== 1)).toEqual([])
  })

  it('declares exactly the outputs the code sets', () => {
    expect(Object.keys(action.outputs).sort()).toEqual([...OUTPUTS].sort())
  })

  it('describes every input and output', () => {
    for (const [name, spec] of Object.entries({ ...action.inputs, ...action.outputs })) {
      expect([name, typeof spec.description === 'string' && spec.description.length > 10]).toEqual([name, true])
    }
  })

  it('runs the bundle on node24, with a post step that always runs', () => {
    expect(action.runs).toMatchObject({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post.js',
      'post-if': 'always()'
    })
  })
})

describe('reference tables', () => {
  const actionYml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')

  it("the README's compact list matches action.yml (run npm run docs to refresh)", async () => {
    const { renderFormatted } = await import('../../scripts/docs.js')
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    expect(await renderFormatted(readme, actionYml)).toBe(readme)
  })

  it('docs/reference/inputs.md and outputs.md have every input and output in full (run npm run docs to refresh)', async () => {
    const { renderReference } = await import('../../scripts/docs.js')
    for (const [which, names] of [
      ['inputs', INPUTS],
      ['outputs', OUTPUTS]
    ] as const) {
      const page = readFileSync(new URL(`../../docs/reference/${which}.md`, import.meta.url), 'utf8')
      expect(await renderReference(which, page, actionYml)).toBe(page)
      const headings = page.split('\n').filter(line => line.startsWith('### '))
      expect([...headings].sort()).toEqual(names.map(name => `### \`${name}\``).sort())
    }
  })

  it('docs/reference/operations.md has every operation of the registry, linked to its guide (run npm run docs to refresh)', async () => {
    const { renderReference } = await import('../../scripts/docs.js')
    const page = readFileSync(new URL('../../docs/reference/operations.md', import.meta.url), 'utf8')
    expect(await renderReference('operations', page, actionYml)).toBe(page)
    for (const name of OPERATIONS)
      expect(page).toMatch(new RegExp(`^\\| \\[\`${name}\`\\]\\(\\.\\./guides/[a-z-]+\\.md#${name}\\)`, 'm'))
  })

  it("the durations' bounds are the parsers' own: every duration input, at its limit and no further", async () => {
    const { durationBounds } = await import('../../scripts/docs.js')
    const { MAX_DURATION_MS, MAX_SLO_WINDOW_MS } = await import('../../src/values/parse.js')
    const bounds = Object.fromEntries(durationBounds().map(b => [b.input, b]))
    expect(Object.keys(bounds).sort()).toEqual(
      [
        'baseline',
        'burn-window',
        'max-response-time',
        'max-response-time-increase',
        'poll-interval',
        'request-timeout',
        'since',
        'slo-window',
        'timeout'
      ].sort()
    )
    for (const name of [
      'baseline',
      'max-response-time',
      'max-response-time-increase',
      'poll-interval',
      'request-timeout',
      'timeout'
    ])
      expect([name, bounds[name].maxMs, bounds[name].days]).toEqual([name, MAX_DURATION_MS, false])
    expect([bounds['slo-window'].maxMs, bounds['slo-window'].days]).toEqual([MAX_SLO_WINDOW_MS, true])
    // burn-window reads as slo-window does; the inputs' pairing rule keeps it within slo-window.
    expect([bounds['burn-window'].maxMs, bounds['burn-window'].days]).toEqual([MAX_SLO_WINDOW_MS, true])
    expect([bounds.since.maxMs, bounds.since.days]).toEqual([366 * 86_400_000, true])
  })
})

describe('the README is for adopters', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

  it('is at most 12 KiB, with the three steps, the three stories and the local quick start', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024)
    for (const heading of ['## Use it in three steps', '## The three stories', '## Try it locally']) {
      expect(readme).toContain(heading)
    }
    for (const command of ['npm ci', 'npm run demo', 'npm test']) expect(readme).toContain(command)
  })

  it('links every example, and every link to a file of the repository resolves', () => {
    for (const example of readdirSync(new URL('../../examples/', import.meta.url)).filter(f => f.endsWith('.yml'))) {
      expect(readme).toContain(`(examples/${example})`)
    }
    const links = [...readme.matchAll(/\]\(((?:docs|examples|schemas)\/[^)#]+|[A-Z]+\.md)(?:#[^)]*)?\)/g)].map(
      m => m[1]
    )
    expect(links.length).toBeGreaterThan(10)
    for (const link of links)
      expect([link, existsSync(new URL(`../../${link}`, import.meta.url))]).toEqual([link, true])
  })
})

describe('the checks file JSON Schema (schemas/checks-file.schema.json)', () => {
  it('is the one generated from the zod schema (run npm run docs to refresh)', async () => {
    const { SCHEMA_PATH, schemaText } = await import('../../scripts/lib/checks-file-schema.js')
    const root = fileURLToPath(new URL('../../', import.meta.url))
    expect(readFileSync(`${root}${SCHEMA_PATH}`, 'utf8')).toBe(await schemaText(root))
  })

  it('knows the fields the action validates, requires name and url, and lets other fields through', async () => {
    const { checksFileJsonSchema } = await import('../../scripts/lib/checks-file-schema.js')
    const check = (checksFileJsonSchema().$defs as Record<string, Record<string, unknown>>).check
    expect(Object.keys(check.properties as object).sort()).toEqual(
      ['alertChannels', 'interval', 'name', 'status', 'type', 'url'].sort()
    )
    expect(check.required).toEqual(['name', 'url'])
    expect(check.additionalProperties).toEqual({})
  })
})

describe('the examples', () => {
  const dir = new URL('../../examples/', import.meta.url)
  const examples = readdirSync(dir).filter(f => f.endsWith('.yml'))

  it('each states its permissions and a concurrency group', () => {
    expect(examples.length).toBeGreaterThanOrEqual(7)
    for (const example of examples) {
      const text = readFileSync(new URL(example, dir), 'utf8')
      expect([example, /^\s*permissions:/m.test(text), /^\s*concurrency:/m.test(text)]).toEqual([example, true, true])
    }
  })
})
