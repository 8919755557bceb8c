/**
 * examples/other-ci/: each file parses (YAML; the Jenkinsfile's braces and
 * quotes balance, as no Groovy parser is at hand), and every monitoring-ci
 * line in it names an operation and flags the command reads, so an example
 * cannot drift from the command.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from '@jest/globals'
import { parse } from 'yaml'
import { readInvocation } from '../../src/cli/args.js'
import { isOperationName } from '../../src/operations/registry.js'

const dir = new URL('../../examples/other-ci/', import.meta.url)
const files = readdirSync(dir)
const textOf = (file: string) => readFileSync(new URL(file, dir), 'utf8')

/** Each call of the command in a file: the words after `monitoring-ci` or `dist/cli.js`, up to the line's end. */
function calls(text: string): string[][] {
  const found: string[][] = []
  for (const match of text.matchAll(/(?:^|[\s'])(?:monitoring-ci|\S*dist\/cli\.js)[ \t]+([a-z][^\n'`]*)/gm)) {
    const words = [...match[1].matchAll(/"([^"]*)"|(\S+)/g)].map(m => m[1] ?? m[2])
    found.push(words)
  }
  return found
}

/** Every string value in a parsed YAML document. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf)
  return []
}

describe('examples for other CIs', () => {
  it('are there: GitLab, Jenkins, CircleCI, Buildkite, Azure Pipelines', () => {
    expect(files.sort()).toEqual([
      'Jenkinsfile',
      'azure-pipelines.yml',
      'buildkite-pipeline.yml',
      'circleci-config.yml',
      'gitlab-ci.yml'
    ])
  })

  it.each(files.filter(f => f.endsWith('.yml')))('%s is YAML', file => {
    expect(() => parse(textOf(file))).not.toThrow()
    expect(typeof parse(textOf(file))).toBe('object')
  })

  it('the Jenkinsfile is a declarative pipeline whose braces and quotes balance', () => {
    const text = textOf('Jenkinsfile').replace(/^\s*\/\/[^\n]*/gm, '')
    expect(text.trim().startsWith('pipeline {')).toBe(true)
    let depth = 0
    for (const ch of text.replace(/'[^'\n]*'/g, "''")) {
      if (ch === '{') depth++
      if (ch === '}') depth--
      expect(depth).toBeGreaterThanOrEqual(0)
    }
    expect(depth).toBe(0)
    for (const line of text.split('\n')) expect((line.match(/'/g) ?? []).length % 2).toBe(0)
  })

  it.each(files)('%s: every monitoring-ci call names an operation and flags the command reads', file => {
    // In YAML, the commands as the CI reads them (a folded block is one line): the values, not the source.
    const text = file.endsWith('.yml') ? stringsOf(parse(textOf(file))).join('\n') : textOf(file)
    const found = calls(text)
    expect(found.length).toBeGreaterThan(0)
    for (const words of found) {
      const invocation = readInvocation(words, {})
      expect([file, words.join(' '), isOperationName(invocation.operation ?? '')]).toEqual([
        file,
        words.join(' '),
        true
      ])
    }
  })
})
