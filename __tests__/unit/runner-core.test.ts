/**
 * The runner's door without an outputs file: the first output is preceded by a warning that the
 * outputs go to the deprecated ::set-output command; with one, @actions/core is used as it is.
 */
import { describe, expect, it } from '@jest/globals'
import { OUTPUTS_UNSET, runnerCore } from '../../src/step/dependencies.js'
import { fakeCore } from '../helpers/fake-core.js'

describe("the runner's core", () => {
  it('warns once, before the first output, when GITHUB_OUTPUT is unset or empty', () => {
    for (const env of [{}, { GITHUB_OUTPUT: '' }]) {
      const fake = fakeCore({})
      const core = runnerCore(env, fake)
      core.setOutput('count', '0')
      core.setOutput('result', '[]')
      expect(fake.logs.filter(line => line.startsWith('warning:'))).toEqual([`warning: ${OUTPUTS_UNSET}`])
      expect(fake.outputs).toEqual({ count: '0', result: '[]' })
    }
  })

  it('is @actions/core itself when the runner gives an outputs file', () => {
    const fake = fakeCore({})
    expect(runnerCore({ GITHUB_OUTPUT: '/runner/output' }, fake)).toBe(fake)
  })
})
