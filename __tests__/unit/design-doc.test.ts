/**
 * docs/design.md's table of the operations floor names every file of every story folder (and the
 * shared modules beside them) in its row, so a newcomer finds each file's room; and its recipes
 * name the files they tell you to edit.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../helpers/runner.js'

const design = readFileSync(join(ROOT, 'docs/design.md'), 'utf8')
const rowOf = (folder: string) => design.split('\n').find(line => line.startsWith(`| \`${folder}\``)) ?? ''
const operations = join(ROOT, 'src/operations')
const stories = readdirSync(operations, { withFileTypes: true }).filter(e => e.isDirectory())

describe('docs/design.md: the operations floor', () => {
  it.each(stories.map(e => e.name))('src/operations/%s/: every file is named in its row', story => {
    const row = rowOf(`src/operations/${story}/`)
    expect(row).not.toBe('')
    const files = readdirSync(join(operations, story)).filter(f => f.endsWith('.ts'))
    expect(files.filter(file => !row.includes(`\`${file}\``))).toEqual([])
  })

  it('the shared modules beside the folders are named in theirs', () => {
    const row = rowOf('src/operations/*.ts')
    const files = readdirSync(operations).filter(f => f.endsWith('.ts'))
    expect(files.filter(file => !row.includes(`\`${file}\``))).toEqual([])
  })
})

describe('docs/design.md: the recipes', () => {
  it('has one for an operation, an input, an output and an emulator route', () => {
    for (const heading of [
      '### Add an operation',
      '### Add an input',
      '### Add an output',
      '### Add an emulator route'
    ]) {
      expect([heading, design.includes(heading)]).toEqual([heading, true])
    }
  })

  it('every file a recipe names exists', () => {
    const recipes = design.slice(design.indexOf('## Recipes'), design.indexOf('## Tests'))
    const named = [...recipes.matchAll(/`((?:src|emulator|scripts|__tests__)\/[\w./-]+\.(?:ts|cjs))`/g)].map(m => m[1])
    expect(named.length).toBeGreaterThan(5)
    expect(named.filter(path => !existsSync(join(ROOT, path)))).toEqual([])
  })
})
