/**
 * A fleet by name prefix through the committed bundle, run as the runner runs
 * it: a prefix pause resumed by the post step, and a prefix delete.
 */
import { describe, expect, it } from '@jest/globals'
import { credentialsOf, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'

const emulator = useEmulator({ pageSize: 2 })
const common = credentialsOf(emulator)
const site = 'https://shop.example.com/health'
const step = (inputs: Record<string, string>, options = {}) => runStep({ ...common, ...inputs }, options)
const statuses = (ids: string[]) => ids.map(id => emulator.checks.get(id)?.status)

describe('name-prefix through dist/index.js', () => {
  it('pause-check by prefix with auto-resume: the post step resumes exactly what the main step paused', async () => {
    const ours = ['shop-home', 'shop-cart', 'shop-\n::error::api'].map(
      name => emulator.seedCheck({ name, url: site, status: 'up' }).id
    )
    const before = emulator.seedCheck({ name: 'shop-old', url: site, status: 'paused' }).id
    const other = emulator.seedCheck({ name: 'blog', url: site, status: 'up' }).id
    const inputs = { operation: 'pause-check', 'name-prefix': 'shop-', 'auto-resume': 'true' }
    const main = await step(inputs)
    expect(main.code).toBe(0)
    expect(main.outputs.changed).toBe('true')
    expect(JSON.parse(main.outputs.result).map((c: { id: string }) => c.id)).toEqual([...ours, before])
    expect(statuses([...ours, before, other])).toEqual(['paused', 'paused', 'paused', 'paused', 'up'])
    expect(main.stdout).not.toMatch(/^::error::/m)
    expect(main.summary).toContain('shop-cart')
    const post = await step(inputs, { state: main.state })
    expect(post.code).toBe(0)
    expect(statuses([...ours, before, other])).toEqual(['up', 'up', 'up', 'paused', 'up'])
    expect(post.stdout).toContain('auto-resume: resumed 3 check(s) this job paused')
  })

  it('delete-check by prefix deletes a pull request preview, refuses above max-deletions, and fails when nothing matches', async () => {
    const mine = ['pr-12-web', 'pr-12-api'].map(name => emulator.seedCheck({ name, url: site }).id)
    const theirs = emulator.seedCheck({ name: 'pr-123-web', url: site }).id
    const refused = await step({ operation: 'delete-check', 'name-prefix': 'pr-12', 'max-deletions': '2' })
    expect(refused.code).not.toBe(0)
    expect(refused.stdout).toContain('delete-check refused: 3 checks are targeted')
    expect(emulator.checks.size).toBe(3)
    expect(emulator.count('DELETE')).toBe(0)

    const dry = await step({ operation: 'delete-check', 'name-prefix': 'pr-12-', 'dry-run': 'true' })
    expect(dry.code).toBe(0)
    expect(dry.outputs).toMatchObject({ changed: 'true', deleted: '2' })
    expect(emulator.count('DELETE')).toBe(0)

    const done = await step({ operation: 'delete-check', 'name-prefix': 'pr-12-' })
    expect(done.code).toBe(0)
    expect(done.outputs).toMatchObject({ changed: 'true', deleted: '2' })
    expect(mine.some(id => emulator.checks.has(id))).toBe(false)
    expect(emulator.checks.has(theirs)).toBe(true)

    const again = await step({ operation: 'delete-check', 'name-prefix': 'pr-12-' })
    expect(again.code).not.toBe(0)
    expect(again.stdout).toContain(
      'no check name starts with name-prefix "pr-12-" (looked through 1 checks; the nearest names: "pr-123-web")'
    )
    expect(emulator.count('DELETE')).toBe(2)
  })
})
