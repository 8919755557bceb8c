/**
 * A long checks file is read in parts (checks-file-parts.ts), never as one
 * YAML document, and reads exactly as one parse of the whole file would: the
 * same entries, warnings, secrets and errors (a leading `---` makes the same
 * file go through one parse, to compare with).
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { ChecksFileError, parseChecksFile } from '../../src/operations/sync/checks-file.js'
import type { FilePlace } from '../../src/operations/types.js'

let yaml: { parseDocument: (text: string, options?: unknown) => unknown }
beforeAll(async () => {
  await load('yaml')
  yaml = (await import('yaml')).default as typeof yaml
})

const env = { HOST: 'shop.example.com', API_TOKEN: 's3cr3t-token', PORT: '8443' }

/** Entries in every form: the plainest, and those only YAML reads (quotes, lists, templates, comments, block text). */
function fleet(n: number): string {
  const forms = [
    (i: number) => `- name: fleet-${i}\n  url: https://fleet.example.com/${i}?a=1&b=2\n  interval: 60\n`,
    (i: number) => `- name: "quoted-${i}"\n  url: 'https://q.example.com/${i}'\n  alertChannels: [email, slack]\n`,
    (i: number) => `# a comment\n- name: tpl-${i}\n  url: https://\${HOST}:\${PORT}/\${API_TOKEN}/${i}\n\n`,
    (i: number) =>
      `- name: words-${i}\n  url: https://w.example.com/${i}\n  flag: true\n  note: null\n  intervall: 030\n`,
    (i: number) =>
      `- name: block-${i}\n  url: https://b.example.com/${i}\n  description: |\n    line one\n    - not an entry\n`,
    (i: number) => `- name: flow-${i} # after\n  url: https://f.example.com/${i}#frag\n  interval: 1e3\n  ok: on\n`
  ]
  return Array.from({ length: n }, (_, i) => forms[i % forms.length](i)).join('')
}

/** What a parse gives: the entries, the warnings (with their lines), the secrets. */
function read(text: string, lineShift = 0) {
  const warnings: Array<[string, number | undefined]> = []
  const secrets: string[] = []
  const list = parseChecksFile(text, 'checks.yml', {
    env,
    warn: (message: string, place: FilePlace) => warnings.push([message, place.line && place.line - lineShift]),
    secret: value => secrets.push(value)
  })
  return { list, warnings, secrets }
}

function failure(text: string): ChecksFileError {
  try {
    parseChecksFile(text, 'checks.yml', { env })
  } catch (error) {
    if (error instanceof ChecksFileError) return error
    throw error
  }
  throw new Error('no error')
}

describe('a long checks file, read in parts', () => {
  it('reads as one parse of the whole file: entries, warnings with their lines, secrets', () => {
    const text = fleet(1500)
    const parts = read(text)
    const whole = read(`---\n${text}`, 1)
    // The whole file's lines are one further down (the `---`).
    whole.warnings = whole.warnings.map(([m, l]) => [
      m.replace(/\(line (\d+)\)/, (_, n: string) => `(line ${Number(n) - 1})`),
      l
    ])
    expect(parts.list).toHaveLength(1500)
    expect(parts).toEqual(whole)
    expect(parts.list[0]).toEqual({ name: 'fleet-0', url: 'https://fleet.example.com/0?a=1&b=2', interval: 60 })
    expect(parts.list[3]).toMatchObject({ flag: true, note: null, intervall: 30 })
    expect(parts.warnings.find(([m]) => m.includes('("words-1497") has the field "intervall"'))?.[1]).toBe(
      text.split('\n').findIndex(l => l === '- name: words-1497') + 5
    )
  })

  it('never builds the YAML document of the whole file', () => {
    const text = fleet(3000)
    const sizes: number[] = []
    const original = yaml.parseDocument
    yaml.parseDocument = (t: string, o?: unknown) => (sizes.push(t.length), original(t, o))
    try {
      expect(read(text).list).toHaveLength(3000)
    } finally {
      yaml.parseDocument = original
    }
    expect(Math.max(...sizes)).toBeLessThan(text.length / 10)
  })

  it('says a problem as one parse of the whole file says it: the entry, its line', () => {
    const lines = (t: string, l: number) => t.split('\n').slice(0, l).join('\n')
    const text = fleet(1200)
    const at = text.split('\n').findIndex(l => l === '- name: fleet-1002')
    const broken = text.replace(
      '- name: fleet-1002\n  url: https://fleet.example.com/1002?a=1&b=2\n',
      '- name: fleet-1002\n'
    )
    expect(failure(broken).message).toBe(failure(`---\n${broken}`).message.replace(`line ${at + 2}`, `line ${at + 1}`))
    expect(failure(broken).message).toContain(`entry 1003 (line ${at + 1}) ("fleet-1002") needs a url`)
    expect(failure(broken).place).toEqual({ file: 'checks.yml', line: at + 1 })
    const twice = `${text}- name: fleet-6\n  url: https://x/\n`
    expect(failure(twice).message).toContain('entry 1201')
    expect(failure(twice).message).toContain('is also used by entry 7')
    expect(lines(text, 1)).toBe('- name: fleet-0')
  })

  it('a problem YAML finds in a part (a repeated field, an alias to another part) is told as for the whole file', () => {
    const repeated = fleet(900).replace('- name: fleet-702\n', '- name: fleet-702\n  name: again\n')
    expect(failure(repeated).message).toBe(
      failure(`---\n${repeated}`).message.replace(/line (\d+)/g, (_, n: string) => `line ${Number(n) - 1}`)
    )
    expect(failure(repeated).message).toMatch(/Map keys must be unique/)
    const alias = `${fleet(400)}- name: &n anchored\n  url: https://a/\n- name: *n\n  url: https://b/\n`
    expect(failure(alias).message).toMatch(/is also used by entry 401/)
  })
})
