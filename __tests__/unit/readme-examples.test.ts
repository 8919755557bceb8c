/** The README's table of examples lists every workflow in examples/, each linked, so a new one is not missed. */
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
const examples = readdirSync(new URL('../../examples/', import.meta.url)).filter(name => /\.ya?ml$/.test(name))
/** The rows of the table under "Copy a workflow": `| [`name`](examples/name) | what it does |`. */
const rows = readme
  .slice(readme.indexOf('**Copy a workflow**'))
  .split('\n')
  .filter(line => /^\s*\| \[`/.test(line))

describe("the README's examples table", () => {
  it('finds the table and the examples', () => {
    expect(rows.length).toBeGreaterThan(0)
    expect(examples.length).toBeGreaterThan(0)
  })

  it.each(examples)('lists examples/%s, linked, with what it does', name => {
    const row = rows.find(line => line.includes(`[\`${name}\`](examples/${name})`))
    expect([name, row !== undefined]).toEqual([name, true])
    expect((row ?? '').split('|')[2].trim().length).toBeGreaterThan(10)
  })

  it('lists no example that is not there', () => {
    for (const row of rows) expect(examples).toContain(/\[`([^`]+)`\]/.exec(row)?.[1])
  })
})
