/**
 * `${NAME}` in a checks file's values (checks-file-templates.ts): what a
 * filled value reads as (a plain one as YAML reads the result, a quoted one
 * text), the variables a file may never read, and the one error that names
 * every unset variable with its lines.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { ChecksFileError, parseChecksFile } from '../../src/operations/sync/checks-file.js'
import { OFF_LIMITS, failUnset, filledValue } from '../../src/operations/sync/checks-file-templates.js'

beforeAll(() => load('yaml'))

/** Each variable's value; a marked one (`${secret:NAME}`) shows as `secret(NAME)`. */
const VALUES: Record<string, string> = { PORT: '8443', HOST: 'shop.example.com', EMPTY: '' }
const valueOf = (name: string, marked: boolean) => (marked ? `secret(${name})` : (VALUES[name] ?? `<${name}>`))

/** The message and the line of the error failUnset gives for `unset`. */
function unsetError(unset: Array<[string, number[]]>): { message: string; line?: number } {
  try {
    failUnset(new Map(unset), (message, line) => {
      throw Object.assign(new Error(message), { line })
    })
  } catch (error) {
    return { message: (error as Error).message, line: (error as { line?: number }).line }
  }
  throw new Error('failUnset returned')
}

describe('filledValue', () => {
  it('leaves a value without ${ as written, whatever it looks like', () => {
    expect(filledValue('7', true, valueOf)).toBe('7')
    expect(filledValue('true', true, valueOf)).toBe('true')
    expect(filledValue('$HOST and {HOST}', true, valueOf)).toBe('$HOST and {HOST}')
  })

  it('fills every template of a value, in place, with the text around it kept', () => {
    expect(filledValue('https://${HOST}:${PORT}/${HOST}', false, valueOf)).toBe(
      'https://shop.example.com:8443/shop.example.com'
    )
    expect(filledValue('x ${PORT} y', true, valueOf)).toBe('x 8443 y')
    expect(filledValue('a${EMPTY}b', true, valueOf)).toBe('ab')
  })

  it('$${ is a literal ${, never a template, and the rest of the value is still filled', () => {
    expect(filledValue('$${HOST}', true, valueOf)).toBe('${HOST}')
    expect(filledValue('$${HOST} is ${HOST}', false, valueOf)).toBe('${HOST} is shop.example.com')
    expect(filledValue('cost: $${', false, valueOf)).toBe('cost: ${')
  })

  it('${secret:NAME} reads NAME, told that it is a secret; ${NAME} is not', () => {
    const asked: Array<[string, boolean]> = []
    const record = (name: string, marked: boolean) => (asked.push([name, marked]), 'v')
    filledValue('${secret:API_TOKEN}/${HOST}/${_under_9}', false, record)
    expect(asked).toEqual([
      ['API_TOKEN', true],
      ['HOST', false],
      ['_under_9', false]
    ])
  })

  it('what is not a variable name is left as written, and asks for no variable', () => {
    const asked: string[] = []
    const record = (name: string) => (asked.push(name), 'v')
    for (const text of ['${1ST}', '${}', '${HOST', '${A-B}', '${secret:}', '${ HOST}', '${HOST }'])
      expect(filledValue(text, true, record)).toBe(text)
    expect(asked).toEqual([])
  })

  it('a plain value that becomes a number or a boolean is one, as YAML reads it', () => {
    const plain = (value: string) => filledValue('${V}', true, () => value)
    expect(plain('8443')).toBe(8443)
    expect(plain('0')).toBe(0)
    expect(plain('-1.5e3')).toBe(-1500)
    expect(plain('+2')).toBe(2)
    expect(plain('.5')).toBe(0.5)
    expect(plain('1E3')).toBe(1000)
    expect(plain('2e-2')).toBe(0.02)
    expect(plain(' 7 ')).toBe(7)
    expect(plain('1e999')).toBe(Infinity)
    for (const word of ['true', 'True', 'TRUE']) expect(plain(word)).toBe(true)
    for (const word of ['false', 'False', 'FALSE']) expect(plain(word)).toBe(false)
  })

  it('a plain value that only looks like a number or a boolean stays text', () => {
    const plain = (value: string) => filledValue('${V}', true, () => value)
    for (const text of ['tRue', 'yes', 'on', 'truer', 'untrue', 'false-ish', '8443x', 'x8443', '1.2.3', '--1', '1e'])
      expect(plain(text)).toBe(text)
    expect(plain('')).toBe('')
    expect(filledValue('port ${V}', true, () => '80')).toBe('port 80')
  })

  it('a quoted value stays text, whatever it becomes', () => {
    expect(filledValue('${PORT}', false, valueOf)).toBe('8443')
    expect(filledValue('${V}', false, () => 'true')).toBe('true')
  })
})

describe('OFF_LIMITS: the variables a checks file never reads', () => {
  it("are the runner's and the action's own", () => {
    for (const name of ['ACTIONS_RUNTIME_TOKEN', 'RUNNER_TEMP', 'INPUT_API_KEY', 'STATE_run', 'GITHUB_TOKEN'])
      expect(OFF_LIMITS.test(name)).toBe(true)
  })

  it('and only those: a name that merely holds such a word, or the others of GitHub, is readable', () => {
    for (const name of ['MY_RUNNER_TEMP', 'GITHUB_TOKEN_2', 'MY_GITHUB_TOKEN', 'GITHUB_SHA', 'ACTIONS', 'INPUTS_X'])
      expect(OFF_LIMITS.test(name)).toBe(false)
  })

  it('refusing one names the variable and its line, annotated there; no other variable is asked for', () => {
    const text = '- name: a\n  url: https://a/\n- name: b\n  url: https://b/?t=${STATE_X}\n'
    let error: unknown
    try {
      parseChecksFile(text, 'checks.yml', { env: { STATE_X: 'kept' }, annotateAs: 'ops/checks.yml' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ChecksFileError)
    expect((error as ChecksFileError).message).toBe(
      'checks-file checks.yml: line 4: ${STATE_X} is a variable of the runner or of the action; a checks file cannot read it'
    )
    expect((error as ChecksFileError).place).toEqual({ file: 'ops/checks.yml', line: 4 })
  })

  it('a readable variable of the same look is read', () => {
    const [spec] = parseChecksFile('- name: a\n  url: https://a/?t=${MY_RUNNER_TEMP}\n', 'checks.yml', {
      env: { MY_RUNNER_TEMP: 'tmp' }
    })
    expect(spec.url).toBe('https://a/?t=tmp')
  })
})

describe('failUnset: one error for every unset variable', () => {
  const LITERAL = '(write $${ for a literal ${)'

  it('one variable: its name without ${ } or secret:, its line, at that line', () => {
    expect(unsetError([['${API_TOKEN}', [7]]])).toEqual({
      message: `line 7: \${API_TOKEN} names the environment variable API_TOKEN, which is not set ${LITERAL}`,
      line: 7
    })
    expect(unsetError([['${secret:API_TOKEN}', [9, 4, 9]]])).toEqual({
      message: `lines 9, 4: \${secret:API_TOKEN} names the environment variable API_TOKEN, which is not set ${LITERAL}`,
      line: 9
    })
  })

  it('several: each as written with its lines, "and" before the last, at the first one\'s line', () => {
    expect(
      unsetError([
        ['${A}', [3]],
        ['${secret:B}', [5, 6, 5]],
        ['${C}', [1]]
      ])
    ).toEqual({
      message: `\${A} (line 3), \${secret:B} (lines 5, 6) and \${C} (line 1) name 3 environment variables that are not set; set each in the step's env: (a secret as NAME: \${{ secrets.NAME }}) ${LITERAL}`,
      line: 3
    })
    expect(
      unsetError([
        ['${A}', [2]],
        ['${B}', [4]]
      ]).message
    ).toMatch(/^\$\{A\} \(line 2\) and \$\{B\} \(line 4\) name 2 environment variables/)
  })

  it('names 20 at most: 20 are all named, past that the rest are counted', () => {
    const unset = (n: number) => Array.from({ length: n }, (_, i): [string, number[]] => [`\${V${i}}`, [i + 1]])
    const twenty = unsetError(unset(20)).message
    expect(twenty).toMatch(/\$\{V18\} \(line 19\) and \$\{V19\} \(line 20\) name 20 environment variables/)
    expect(twenty).not.toContain('more')
    const many = unsetError(unset(22)).message
    expect(many).toMatch(/\$\{V18\} \(line 19\), \$\{V19\} \(line 20\) and 2 more name 22 environment variables/)
    expect(many).not.toContain('${V20}')
  })

  it('through parseChecksFile: an unset ${secret:NAME} is named as written, at the first line', () => {
    let message = ''
    try {
      parseChecksFile('- name: a\n  url: https://a/?k=${secret:KEY}\n  note: ${secret:KEY}\n', 'checks.yml', {})
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe(
      `checks-file checks.yml: lines 2, 3: \${secret:KEY} names the environment variable KEY, which is not set ${LITERAL}`
    )
  })
})
