/**
 * The runner's files missing or unwritable: the source (src/index.ts, run by
 * tsx as the runner runs the bundle) fails the step with one clear message
 * naming the file's variable, never a second throw that prints a stack; a job
 * summary that cannot be written is a warning that names its variable; no
 * GITHUB_OUTPUT at all is a warning that the outputs go to the deprecated
 * command, not silence.
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, credentialsOf, useEmulator } from '../helpers/harness.js'
import { ROOT, runStep } from '../helpers/runner.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'runner-files-'))
const missing = join(dir, 'no-such-folder', 'output')

/** src/index.ts as the runner starts dist/index.js: INPUT_* variables, the runner's files, a fresh process. */
const step = (inputs: Record<string, string>, env: NodeJS.ProcessEnv) =>
  runStep(
    { ...credentialsOf(emulator), ...inputs },
    { env, nodeArgs: ['--import', 'tsx'], distDir: join(ROOT, 'src'), timeoutMs: 30_000 }
  )
const errors = (stdout: string) => stdout.split('\n').filter(l => l.startsWith('::error'))

describe("the runner's files, missing or unwritable", () => {
  it('GITHUB_OUTPUT under a folder that does not exist: one error naming it, no stack', async () => {
    const r = await step({ operation: 'list-checks' }, { GITHUB_OUTPUT: missing })
    expect(r.code).toBe(1)
    expect(errors(r.stdout)).toEqual([
      `::error::GITHUB_OUTPUT names "${missing}", which does not exist: the step's outputs could not be written. The runner creates this file for each step; an env: that sets GITHUB_OUTPUT, or a step that removed the file or its folder, breaks it`
    ])
    expect(r.stderr).toBe('')
    expect(r.stdout).not.toMatch(/\n\s+at /)
  })

  it('GITHUB_OUTPUT naming a directory, with the operation failing too: one error saying both', async () => {
    const r = await step(
      { operation: 'get-check', 'check-id': 'chk_gone', 'fail-on-error': 'false' },
      { GITHUB_OUTPUT: dir }
    )
    expect(r.code).toBe(1)
    expect(errors(r.stdout)).toEqual([
      `::error::check chk_gone not found (GET /checks/chk_gone answered 404). Also, GITHUB_OUTPUT names "${dir}", a directory: the step's outputs could not be written. The runner creates this file for each step; an env: that sets GITHUB_OUTPUT, or a step that removed the file or its folder, breaks it`
    ])
    expect(r.stderr).toBe('')
    expect(
      r.all
        .split('\n')
        .filter(l => !l.startsWith('::add-mask::'))
        .join('\n')
    ).not.toContain(KEY)
  })

  it('GITHUB_STEP_SUMMARY naming a directory: a warning naming it, and the step passes with its outputs', async () => {
    const r = await step({ operation: 'list-checks' }, { GITHUB_STEP_SUMMARY: dir })
    expect(r.code).toBe(0)
    expect(r.outputs.count).toBe('0')
    expect(r.stdout).toContain(`::warning::GITHUB_STEP_SUMMARY names "${dir}", a directory: the job summary could not`)
    expect(r.stderr).toBe('')
  })

  it('GITHUB_STATE missing when pause-check records what it pauses: one error naming it, nothing paused', async () => {
    const check = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const r = await step(
      { operation: 'pause-check', 'check-id': check.id, 'auto-resume': 'true' },
      { GITHUB_STATE: missing }
    )
    expect(r.code).toBe(1)
    expect(errors(r.stdout)).toEqual([
      expect.stringMatching(/^::error::GITHUB_STATE names ".*", which does not exist: /)
    ])
    expect(emulator.count('PUT')).toBe(0)
    expect(r.stderr).toBe('')
  })

  it('GITHUB_OUTPUT unset or empty: a warning that the outputs go to the deprecated ::set-output command', async () => {
    const r = await step({ operation: 'list-checks' }, { GITHUB_OUTPUT: '' })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      "::warning::GITHUB_OUTPUT is not set: the step's outputs go to the deprecated ::set-output command"
    )
    expect(r.stdout).toContain('::set-output name=count::0')
    const given = await step({ operation: 'list-checks' }, {})
    expect(given.stdout).not.toContain('GITHUB_OUTPUT')
    expect(given.outputs.count).toBe('0')
  })
})
