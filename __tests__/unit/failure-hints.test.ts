/**
 * The hints a failure gets (core/failure.ts hintFor) where they depend on the
 * door: a key the service refused, and a checks file that is not there, are
 * told as the runner's workflow or the command's environment would fix them.
 */
import { describe, expect, it } from '@jest/globals'
import { ApiError, httpError } from '../../src/api/errors.js'
import { hintFor } from '../../src/core/failure.js'
import { ChecksFileError } from '../../src/operations/sync/checks-file-entries.js'

const refused = httpError('GET', '/checks', 401, '{"error":"bad key"}')
const missing = new ChecksFileError('checks-file checks.yml: cannot read /w/checks.yml (ENOENT)', undefined, 'ENOENT')

describe('a refused key (401)', () => {
  it('the message says where keys come from, the same for both doors', () => {
    expect(refused.message).toContain('account settings, under "API access"')
    expect(refused.message).not.toMatch(/api-key input|MONITORING_API_KEY/)
  })

  it('the runner: pass it from a secret as the api-key input', () => {
    expect(hintFor(refused, {}, undefined, 'runner')).toBe(
      '; pass it from a secret as the api-key input: api-key: ${{ secrets.MONITORING_API_KEY }}'
    )
    expect(hintFor(refused, {}, undefined)).toBe(hintFor(refused, {}, undefined, 'runner'))
  })

  it('the command: the variable, or the flag', () => {
    expect(hintFor(refused, {}, undefined, 'command')).toBe(
      "; set MONITORING_API_KEY in the job's environment from your CI's secret variables (or pass --api-key)"
    )
  })

  it('another status gets neither', () => {
    const forbidden = httpError('GET', '/checks', 403, '')
    expect(hintFor(forbidden, {}, undefined, 'runner')).toBe('')
    expect(hintFor(forbidden, {}, undefined, 'command')).toBe('')
    expect(hintFor(new ApiError({ kind: 'timeout', method: 'GET', path: '/checks', detail: 'x' }), {}, undefined)).toBe(
      ''
    )
  })
})

describe('a checks file that is not there (ENOENT)', () => {
  it('the runner: is the repository checked out?', () => {
    expect(hintFor(missing, { GITHUB_WORKSPACE: '/w' }, undefined, 'runner')).toBe(
      '; is the repository checked out? Add `- uses: actions/checkout@v4` before this step (a relative path is relative to GITHUB_WORKSPACE)'
    )
  })

  it('the command: where a relative path starts (GITHUB_WORKSPACE when set, else the directory it runs in)', () => {
    expect(hintFor(missing, {}, undefined, 'command')).toBe(
      '; a relative path is relative to the directory the command runs in'
    )
    expect(hintFor(missing, { GITHUB_WORKSPACE: '/w' }, undefined, 'command')).toBe(
      '; a relative path is relative to GITHUB_WORKSPACE'
    )
  })

  it('another reason it cannot be opened, or another checks-file problem, gets no such hint', () => {
    const denied = new ChecksFileError(
      'checks-file checks.yml: cannot read /w/checks.yml (EACCES)',
      undefined,
      'EACCES'
    )
    expect(hintFor(denied, {}, undefined, 'runner')).toBe('')
    expect(hintFor(new ChecksFileError('checks-file checks.yml: entry 1 has no name'), {}, undefined, 'command')).toBe(
      ''
    )
  })
})
