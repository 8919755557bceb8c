import { beforeAll, describe, expect, it } from '@jest/globals'
import { load } from '../../src/lazy/modules.cjs'
import { ChecksFileError, parseChecksFile, suggestField } from '../../src/operations/sync/checks-file.js'
import { editDistance } from '../../src/values/values.js'
import type { FilePlace } from '../../src/operations/types.js'

// The YAML parser is loaded before parsing, as main does (src/lazy/modules.cjs).
beforeAll(() => load('yaml'))

/** The error parseChecksFile throws, with its place. */
function failure(text: string, env: NodeJS.ProcessEnv = {}): ChecksFileError {
  try {
    parseChecksFile(text, 'checks.yml', { env })
  } catch (error) {
    if (error instanceof ChecksFileError) return error
    throw error
  }
  throw new Error('no error')
}

describe('${NAME} in a checks file', () => {
  const env = { HOST: 'shop.example.com', PORT: '8443', ON: 'true', EVIL: 'x\n- name: injected\n  url: https://evil/' }

  it('is replaced from the environment in values, a plain number stays a number, $${ is a literal ${', () => {
    const [spec] = parseChecksFile(
      '- name: shop\n  url: https://${HOST}:${PORT}/health\n  interval: ${PORT}\n  note: "$${HOST} is ${HOST}"\n',
      'checks.yml',
      { env }
    )
    expect(spec).toEqual({
      name: 'shop',
      url: 'https://shop.example.com:8443/health',
      interval: 8443,
      note: '${HOST} is shop.example.com'
    })
  })

  it('a value can never add structure: a variable holding YAML stays text', () => {
    const list = parseChecksFile('- name: ${EVIL}\n  url: https://a/\n', 'checks.yml', { env })
    expect(list).toHaveLength(1)
    expect(list[0].name).toBe(env.EVIL)
  })

  it('an unset variable is an error naming it and its line', () => {
    const error = failure('- name: a\n  url: https://a/\n- name: b\n  url: https://${NOPE}/\n')
    expect(error.message).toBe(
      'checks-file checks.yml: line 4: ${NOPE} names the environment variable NOPE, which is not set (write $${ for a literal ${)'
    )
    expect(error.place).toEqual({ file: 'checks.yml', line: 4 })
  })

  it('every unset variable is named at once, each with its lines, as written', () => {
    const names = ['DB_PASS', 'API_TOKEN', 'REGION', 'STAGE', 'HOOK_SECRET', 'TEAM', 'PORT_X']
    const text =
      names.map((name, i) => `- name: c${i}\n  url: https://a/?v=\${secret:${name}}\n`).join('') +
      '- name: again\n  url: https://a/${secret:REGION}?r=${secret:REGION}\n- name: plain\n  url: https://a/${PLAIN}\n'
    const error = failure(text, { HOST: 'set' })
    expect(error.message).toBe(
      'checks-file checks.yml: ' +
        '${secret:DB_PASS} (line 2), ${secret:API_TOKEN} (line 4), ${secret:REGION} (lines 6, 16), ' +
        '${secret:STAGE} (line 8), ${secret:HOOK_SECRET} (line 10), ${secret:TEAM} (line 12), ${secret:PORT_X} (line 14) and ${PLAIN} (line 18) ' +
        "name 8 environment variables that are not set; set each in the step's env: (a secret as NAME: ${{ secrets.NAME }}) (write $${ for a literal ${)"
    )
    expect(error.place).toEqual({ file: 'checks.yml', line: 2 })
  })

  it('one unset variable on several lines is named once, with its lines', () => {
    expect(failure('- name: a\n  url: https://${NOPE}/\n- name: b\n  url: https://${NOPE}/b\n').message).toBe(
      'checks-file checks.yml: lines 2, 4: ${NOPE} names the environment variable NOPE, which is not set (write $${ for a literal ${)'
    )
  })

  it('past 20 unset variables, the rest are counted', () => {
    const text = Array.from({ length: 25 }, (_, i) => `- name: c${i}\n  url: https://a/\${V${i}}\n`).join('')
    const message = failure(text).message
    expect(message).toContain('${V19} (line 40) and 5 more name 25 environment variables that are not set')
    expect(message).not.toContain('${V20}')
  })

  it('is not read in keys', () => {
    const [spec] = parseChecksFile('- name: a\n  url: https://a/\n  ${HOST}: 1\n', 'checks.yml', { env })
    expect(spec).toHaveProperty('${HOST}', 1)
  })
})

describe('field names close to known ones', () => {
  it('suggests within two edits, case aside; never for a known field or a far one', () => {
    expect(suggestField('alertchannels')).toBe('alertChannels')
    expect(suggestField('intervall')).toBe('interval')
    expect(suggestField('URL')).toBe('url')
    expect(suggestField('stauts')).toBe('status')
    expect(suggestField('url')).toBeUndefined()
    expect(suggestField('owner')).toBeUndefined()
    expect(suggestField('description')).toBeUndefined()
    expect(editDistance('stauts', 'status')).toBe(1)
  })

  it('warns with the entry, the suggestion and the line of the field; the field is still sent', () => {
    const warnings: Array<[string, FilePlace]> = []
    const [spec] = parseChecksFile(
      '# monitoring\n- name: shop\n  url: https://a/\n  alertchannels: [ops]\n',
      'checks.yml',
      { warn: (message, place) => warnings.push([message, place]), annotateAs: 'monitoring/checks.yml' }
    )
    expect(spec.alertchannels).toEqual(['ops'])
    expect(warnings).toEqual([
      [
        'checks-file checks.yml: entry 1 (line 2) ("shop") has the field "alertchannels": did you mean "alertChannels"? It is sent as written (fields the action does not know pass through).',
        { file: 'monitoring/checks.yml', line: 4 }
      ]
    ])
  })
})

describe('a required field written otherwise', () => {
  it.each([
    ['URL', 'url'],
    ['ur', 'url'],
    ['Url', 'url'],
    ['Name', 'name']
  ])('%s: the "needs a %s" error suggests it, at its line', (slip, field) => {
    const other = field === 'url' ? 'name: shop' : 'url: https://a/'
    const error = failure(`- ${other}\n  ${slip}: x\n`)
    expect(error.message).toMatch(new RegExp(`needs a ${field}: it has "${slip}" \\(did you mean "${field}"\\?\\)$`))
    expect(error.place?.line).toBe(2)
  })

  it('beside the right one, it is a warning that it is sent as a field of its own', () => {
    const warnings: string[] = []
    const [spec] = parseChecksFile('- name: shop\n  url: https://a/\n  URL: https://b/\n', 'checks.yml', {
      warn: message => warnings.push(message)
    })
    expect(spec).toEqual({ name: 'shop', url: 'https://a/', URL: 'https://b/' })
    expect(warnings).toEqual([
      'checks-file checks.yml: entry 1 (line 1) ("shop") has both "url" and "URL": "URL" is sent as written, as a field of its own (fields the action does not know pass through).'
    ])
  })
})

describe('errors name the file and the line', () => {
  it.each([
    ['- name: a\n  url: https://a/\n   interval: 30\n', 3, 2],
    ['- name: a\n  url: https://a/\n  interval: 30\n    type: http\n', 4, 3],
    ['checks:\n  - name: a\n     url: https://a/\n', 3, 2]
  ])('a line indented too deep is the line named, not the one above it (%j)', (text, line, above) => {
    const error = failure(text)
    expect(error.message).toBe(
      `checks-file checks.yml: not valid YAML or JSON (line ${line}): this line is indented deeper than the line above it, so YAML reads it as part of the value on line ${above}; indent it as the fields above it`
    )
    expect(error.place?.line).toBe(line)
  })

  const TAB =
    'this line is indented with a tab, and a tab is not allowed for indentation in YAML; indent it with spaces'
  it.each([
    // The parser called this "indented deeper than the line above", naming line 5 as its own line above.
    ['checks:\n  - name: a\n    url: https://a/\n    alertChannels:\n\t- ops\n', 5],
    // ... "All mapping items must start at the same column"
    ['checks:\n  - name: a\n    url: https://a/\n  \tinterval: 60\n', 4],
    // ... "Unexpected scalar at node end"
    ['- name: a\n  url: https://a/\n\tinterval: 60\n', 3],
    ['- name: a\n  url: https://a/\n\t  interval: 60\n', 3],
    // ... and "Tabs are not allowed as indentation", the parser's own words
    ['checks:\n- name: a\n  url: https://a/\n\tinterval: 60\n', 4],
    ['- name: a\n  url: https://a/\n- name: b\n  url: https://b/\n  alertChannels:\n  \t- ops\n', 6]
  ])('a tab in the indentation is named, at its line (%j)', (text, line) => {
    const error = failure(text)
    expect(error.message).toBe(`checks-file checks.yml: not valid YAML or JSON (line ${line}): ${TAB}`)
    expect(error.place?.line).toBe(line)
  })

  it('a JSON file indented with tabs is read; its own errors are not blamed on the tabs', () => {
    expect(parseChecksFile('[\n\t{\n\t\t"name": "a",\n\t\t"url": "https://a/"\n\t}\n]\n', 'checks.yml')).toEqual([
      { name: 'a', url: 'https://a/' }
    ])
    const error = failure('[\n\t{\n\t\t"name": "a"\n\t\t"url": "https://a/"\n\t}\n]\n')
    expect(error.message).not.toContain('tab')
    expect(error.place?.line).toBe(4)
  })

  it('YAML: a bad field points at its own line, a missing one at the entry', () => {
    expect(failure('- name: a\n  url: https://a/\n- name: b\n  url: https://b/\n  interval: soon\n').place).toEqual({
      file: 'checks.yml',
      line: 5
    })
    const missing = failure('- name: a\n  url: https://a/\n\n- name: b\n')
    expect(missing.message).toBe('checks-file checks.yml: entry 2 (line 4) ("b") needs a url')
    expect(missing.place?.line).toBe(4)
  })

  it('JSON: the same lines', () => {
    const text =
      '{\n  "checks": [\n    {"name": "a", "url": "https://a/"},\n    {"name": "b",\n     "url": "ftp://b/"}\n  ]\n}\n'
    const error = failure(text)
    expect(error.message).toContain('entry 2 (line 4) ("b"): url must be an http or https URL')
    expect(error.place?.line).toBe(5)
  })

  it('a syntax error and a duplicate name carry their lines', () => {
    expect(failure('- name: a\n  url: [unclosed\n').place?.line).toBeGreaterThanOrEqual(2)
    expect(failure('- name: a\n  url: https://a/\n- name: a\n  url: https://b/\n').place?.line).toBe(3)
  })
})

describe('secrets and the runner in ${NAME}', () => {
  it("refuses the runner's and the action's own variables", () => {
    for (const name of [
      'ACTIONS_RUNTIME_TOKEN',
      'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
      'RUNNER_TEMP',
      'INPUT_CHECK',
      'GITHUB_TOKEN'
    ]) {
      const error = failure(`- name: a\n  url: https://a/?t=\${${name}}\n`, { [name]: 'value-of-it' })
      expect(error.message).toContain(
        `\${${name}} is a variable of the runner or of the action; a checks file cannot read it`
      )
    }
  })

  it('hands over values of secret-looking names to be masked; others are not', () => {
    const secrets: string[] = []
    parseChecksFile('- name: ${STAGE}\n  url: https://a/?t=${HEALTH_TOKEN}&k=${SERVICE_API_KEY}\n', 'checks.yml', {
      env: { STAGE: 'preview', HEALTH_TOKEN: 'tok-123456', SERVICE_API_KEY: 'key-987654' },
      secret: v => secrets.push(v)
    })
    expect(secrets).toEqual(['tok-123456', 'key-987654'])
  })

  it('a name whose last word is a secret word counts; one that only holds such a word does not', () => {
    const names = ['DB_PASS', 'PASSPHRASE', 'HEALTH_KEY', 'SIGNING_KEY', 'sessionCookie', 'API_TOKEN']
    const others = ['AUTH_MODE', 'KEYCLOAK_REALM', 'KEYWORD', 'AUTH_PORT', 'SESSION_ID', 'CLIENT_CERT', 'SENTRY_DSN']
    const env = Object.fromEntries([...names, ...others].map((n, i) => [n, `value-${i}-of-it`]))
    const secrets: string[] = []
    const url = `https://a/?${[...names, ...others].map(n => `${n.toLowerCase()}=\${${n}}`).join('&')}`
    parseChecksFile(`- name: \${STAGE}\n  url: "${url}"\n  region: \${REGION}\n`, 'checks.yml', {
      env: { ...env, STAGE: 'preview', REGION: 'eu-west' },
      secret: v => secrets.push(v)
    })
    expect(secrets).toEqual(names.map((_, i) => `value-${i}-of-it`))
  })

  it('${secret:NAME} marks any variable a secret; the value is filled in as ${NAME} would be', () => {
    const secrets: string[] = []
    const [spec] = parseChecksFile('- name: a\n  url: https://a/?q=${secret:HEALTH_QUERY}\n', 'checks.yml', {
      env: { HEALTH_QUERY: 'q-0123456789' },
      secret: v => secrets.push(v)
    })
    expect(spec.url).toBe('https://a/?q=q-0123456789')
    expect(secrets).toEqual(['q-0123456789'])
  })
})
