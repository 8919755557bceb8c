import { describe, expect, it } from '@jest/globals'
import { markerOf } from '../../src/github/pr-comment.js'

describe('the comment marker', () => {
  it('is a digest of workflow, job, operation and target: the same for the same step, of one size, never ending the HTML comment early', () => {
    const marker = markerOf(['Deploy', 'deploy', 'sync-checks', 'checks.yml'])
    expect(marker).toMatch(/^<!-- monitoring-action: [0-9a-f]{32} -->$/)
    expect(markerOf(['Deploy', 'deploy', 'sync-checks', 'checks.yml'])).toBe(marker)
    const hostile = markerOf(['x --> <img src=x>', 'a\nb', 'sync-checks', '|'])
    expect(hostile.indexOf('-->')).toBe(hostile.length - 3)
    expect(hostile.slice(4, -3)).not.toMatch(/[<>\n|]/)
    // A gate on 250 long check names: the marker does not grow with its target (GitHub counts it).
    expect(markerOf(['Deploy', 'gate', 'wait-for-check', 'x'.repeat(100_000)]).length).toBe(marker.length)
  })

  it('differs when any part differs (another job or checks file gets its own comment)', () => {
    const base = ['Deploy', 'deploy', 'sync-checks', 'checks.yml']
    const others = [0, 1, 2, 3].map(i => markerOf(base.map((p, j) => (j === i ? `${p}2` : p))))
    expect(new Set([markerOf(base), ...others]).size).toBe(5)
  })
})

describe('the comment body', () => {
  it('mentions nobody and links no issue from a value, in the comment and in the job summary alike', async () => {
    const { JOB_SUMMARY, PR_COMMENT, renderSummary } = await import('../../src/report/summary.js')
    const summary = {
      title: 'Plan',
      lines: ['from @octocat about #12'],
      tables: [{ head: ['Check'], rows: [['@team/ops']] }]
    }
    const comment = renderSummary(summary, 'sync-checks', [], PR_COMMENT)
    expect(comment).toContain('from @\u200Boctocat about #\u200B12')
    expect(comment).toContain('| @\u200Bteam/ops |')
    expect(comment).not.toMatch(/@[a-z]/)
    expect(renderSummary(summary, 'sync-checks', [], JOB_SUMMARY)).toContain('from @\u200Boctocat about #\u200B12')
  })
})
