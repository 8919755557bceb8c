/**
 * How the command reads its arguments and environment (args.ts), and the
 * dotenv report by GitLab's rules (dotenv.ts).
 */
import { describe, expect, it } from '@jest/globals'
import { UsageError, envName, readInvocation } from '../../src/cli/args.js'
import { HELP_ROWS } from '../../src/cli/help-table.js'
import { BOOLEAN_INPUTS } from '../../src/inputs/table.js'
import { DOTENV_MAX_BYTES, DOTENV_MAX_VARIABLES, dotenvReport } from '../../src/cli/dotenv.js'

const read = (argv: string[], env: NodeJS.ProcessEnv = {}) => readInvocation(argv, env)
const usage = (argv: string[]) => {
  try {
    read(argv)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return (error as Error).message
  }
  throw new Error(`no usage error for ${JSON.stringify(argv)}`)
}

describe('the command line', () => {
  it('a flag alone means true exactly for the inputs whose default action.yml states as true or false', () => {
    const stated = HELP_ROWS.filter(row => row.default === 'true' || row.default === 'false').map(row => row.name)
    expect([...BOOLEAN_INPUTS].sort()).toEqual(stated.sort())
    expect(BOOLEAN_INPUTS.has('dry-run')).toBe(true)
    expect(BOOLEAN_INPUTS.has('max-retries')).toBe(false)
  })

  it('names each variable MONITORING_ + the input upper-cased, _ for -', () => {
    expect(envName('api-key')).toBe('MONITORING_API_KEY')
    expect(envName('max-response-time-increase')).toBe('MONITORING_MAX_RESPONSE_TIME_INCREASE')
  })

  it('reads --name value and --name=value; a flag wins over its variable, which fills the rest', () => {
    const got = read(['get-check', '--check-name', 'shop', '--timeout=5m'], {
      MONITORING_CHECK_NAME: 'env-shop',
      MONITORING_BASE_URL: 'https://api.example.com/v1'
    })
    expect(got.operation).toBe('get-check')
    expect(got.inputs).toMatchObject({
      operation: 'get-check',
      'check-name': 'shop',
      timeout: '5m',
      'base-url': 'https://api.example.com/v1'
    })
    expect([...got.fromFlags].sort()).toEqual(['check-name', 'timeout'])
  })

  it('a true-or-false flag alone is true, takes a following true or false, and leaves any other word alone', () => {
    expect(read(['sync-checks', '--dry-run']).inputs['dry-run']).toBe('true')
    expect(read(['sync-checks', '--dry-run', 'false']).inputs['dry-run']).toBe('false')
    expect(read(['sync-checks', '--dry-run', 'FALSE', '--prune']).inputs).toMatchObject({
      'dry-run': 'FALSE',
      prune: 'true'
    })
    expect(read(['--dry-run', 'sync-checks']).inputs).toMatchObject({ 'dry-run': 'true', operation: 'sync-checks' })
    expect(read(['sync-checks', '--dry-run=false']).inputs['dry-run']).toBe('false')
  })

  it('a repeated flag is one line each, as a list written one per line', () => {
    expect(read(['pause-check', '--check-name', 'a, b', '--check-name', 'c']).inputs['check-name']).toBe('a, b\nc')
  })

  it('the words after -- are the command, kept as they are', () => {
    const got = read(['pause-check', '--check-name', 'x', '--', './deploy.sh', '--check-name', '--', 'y'])
    expect(got.command).toEqual(['./deploy.sh', '--check-name', '--', 'y'])
    expect(got.inputs['check-name']).toBe('x')
  })

  it('the command’s own flags', () => {
    const got = read(['list-checks', '--dotenv', 'out.env', '--summary=s.md', '--debug'])
    expect(got).toMatchObject({ dotenv: 'out.env', summary: 's.md', debug: true, help: false })
    expect(read(['-h']).help).toBe(true)
    expect(read(['get-check', '--help']).help).toBe(true)
  })

  it('refuses what it cannot read, naming the flag', () => {
    expect(usage(['get-check', '--chek-name', 'x'])).toMatch(/--chek-name is not a flag.*did you mean "--check-name"/)
    expect(usage(['get-check', '-c', 'x'])).toMatch(/-c is not a flag of monitoring-ci: flags are written --name/)
    expect(usage(['get-check', '--check-name'])).toMatch(
      /--check-name \(or MONITORING_CHECK_NAME\) needs a value: --check-name VALUE/
    )
    expect(usage(['get-check', 'x'])).toMatch(/unexpected argument "x"/)
    expect(usage(['get-check', '--operation', 'list-checks'])).toMatch(/the operation is named twice/)
    expect(usage(['get-check', '--dotenv', 'a', '--dotenv', 'b'])).toMatch(/--dotenv is given 2 times/)
  })
})

describe('the dotenv report, by GitLab’s rules', () => {
  it('one NAME=value a line, in the outputs’ order, values kept as written', () => {
    const report = dotenvReport(
      new Map([
        ['check-id', 'chk_1'],
        ['result', '{"a":"b c","q":"\'x\'"}'],
        ['changed', ''],
        ['error', 'costs $5 and "quotes"']
      ])
    )
    expect(report.text).toBe(
      'MONITORING_CHECK_ID=chk_1\nMONITORING_RESULT={"a":"b c","q":"\'x\'"}\nMONITORING_CHANGED=\nMONITORING_ERROR=costs $5 and "quotes"\n'
    )
    expect(report.leftOut).toEqual([])
  })

  it.each([
    ['a line break', 'two\nlines', /line break/],
    ['a lone carriage return', 'a\rb', /line break/],
    ['a leading blank', ' x', /starts or ends with a blank/],
    ['a trailing tab', 'x\t', /starts or ends with a blank/]
  ])('leaves out a value with %s, and says why', (_, value, why) => {
    const report = dotenvReport(new Map([['error', value]]))
    expect(report.text).toBe('')
    expect(report.leftOut).toEqual([{ name: 'error', why: expect.stringMatching(why) }])
  })

  it(`at most ${DOTENV_MAX_VARIABLES} variables and ${DOTENV_MAX_BYTES} bytes: what would pass is left out, what fits after it is kept`, () => {
    const many = new Map(Array.from({ length: 25 }, (_, i) => [`out-${i}`, `${i}`]))
    const capped = dotenvReport(many)
    expect(capped.text.trimEnd().split('\n')).toHaveLength(DOTENV_MAX_VARIABLES)
    expect(capped.leftOut.map(l => l.name)).toEqual(['out-20', 'out-21', 'out-22', 'out-23', 'out-24'])
    const big = dotenvReport(
      new Map([
        ['count', '3'],
        ['result', 'x'.repeat(DOTENV_MAX_BYTES)],
        ['changed', 'true']
      ])
    )
    expect(big.text).toBe('MONITORING_COUNT=3\nMONITORING_CHANGED=true\n')
    expect(big.leftOut[0]).toMatchObject({ name: 'result', why: expect.stringContaining('5 KB') })
    // Exactly at the limit is kept.
    const line = 'MONITORING_RESULT=\n'
    const exact = dotenvReport(new Map([['result', 'y'.repeat(DOTENV_MAX_BYTES - line.length)]]))
    expect(Buffer.byteLength(exact.text)).toBe(DOTENV_MAX_BYTES)
    expect(exact.leftOut).toEqual([])
  })
})
