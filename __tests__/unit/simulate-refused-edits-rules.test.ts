/**
 * The simulation's rules where GitHub refuses edits (refused-edits.ts; issue
 * 50, break 6) can say no: each is fed what the bundle of 1cf6920 left on
 * GitHub (a new drift issue or comment at every look, the refused one left
 * open, the live issue never closed once the drift ended) and must name it;
 * what the fixed bundle leaves passes, also where GitHub refuses to close or
 * delete the refused one. The generator draws what the rules assume of it,
 * and the fake GitHub refuses by a rule chosen before the issue or comment
 * exists.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { FakeGitHub, type FakeComment, type FakeIssue } from '../../scripts/lib/fake-github.js'
import type { StepResult } from '../../scripts/lib/runner.js'
import { type After, type Executed, driftIssueRules } from '../../scripts/lib/simulate/invariants.js'
import { oneCommentRule } from '../../scripts/lib/simulate/refused-edits-rules.js'
import { COMMENT_REFUSALS, ISSUE_REFUSALS } from '../../scripts/lib/simulate/refused-edits.js'
import { drawRound } from '../../scripts/lib/simulate/schedule.js'
import { EDITS_FILE, type Run, WATCH_EVENT, WATCH_PR, driftTitle } from '../../scripts/lib/simulate/world.js'

const TITLE = driftTitle(EDITS_FILE)
const MARKER = `<!-- monitoring-action: ${'ab'.repeat(16)} -->`
const OTHER_MARKER = `<!-- monitoring-action: ${'cd'.repeat(16)} -->`
const BOT = { login: 'github-actions[bot]', type: 'Bot' }

const issue = (number: number, state: 'open' | 'closed', user = BOT): FakeIssue => ({
  number,
  title: TITLE,
  body: `${MARKER}\nthe plan`,
  state,
  html_url: `https://github.example.com/acme/sim/issues/${number}`,
  user
})
const comment = (id: number, body = `${MARKER}\nthe plan`, user = BOT): FakeComment & { on: string } => ({
  id,
  body,
  html_url: `https://github.example.com/acme/sim/pull/8#issuecomment-${id}`,
  user,
  on: `acme/sim#${WATCH_PR}`
})

const afterOf = (
  issues: FakeIssue[],
  comments: Array<FakeComment & { on: string }>,
  refused: { issues?: Array<[number, string[]]>; comments?: Array<[number, string[]]> }
) =>
  ({
    issues,
    comments,
    refused: { issues: new Map(refused.issues ?? []), comments: new Map(refused.comments ?? []) }
  }) as unknown as After

/** A watch whose looks ended as given, one after another (drift true or false). */
function watch(looks: Array<{ what: string; drift: boolean; code?: number }>): Executed {
  const inputs = { operation: 'sync-checks', 'checks-file': EDITS_FILE, 'drift-issue': 'true', 'dry-run': 'true' }
  const run = { n: 3, kind: 'watch', inputs, env: {}, startMs: 0, writes: false } as Run
  return {
    run,
    secrets: [],
    steps: looks.map(({ what, drift, code }, i) => ({
      what,
      bound: 60_000,
      startedAt: i * 1_000,
      inputs,
      result: {
        code: code ?? (drift ? 1 : 0),
        signal: null,
        stdout: '',
        stderr: '',
        outputs: { drift: String(drift) },
        summary: '',
        state: {},
        ms: 900,
        all: ''
      } as StepResult
    }))
  }
}

describe('driftIssueRules where GitHub refuses the edit of the first drift issue', () => {
  const twoLooks = [
    watch([
      { what: 'main', drift: true },
      { what: 'next look', drift: true }
    ])
  ]
  const driftEnds = [
    watch([
      { what: 'main', drift: true },
      { what: 'next look', drift: true },
      { what: 'apply', drift: true, code: 0 },
      { what: 'last look', drift: false }
    ])
  ]

  it('the refused issue left open beside a new one (1cf6920, its edit refused) is named', () => {
    const after = afterOf([issue(1, 'open'), issue(2, 'open')], [], { issues: [[1, ['edit']]] })
    expect(driftIssueRules(after, twoLooks)).toEqual([
      `2 drift issues titled "${TITLE}" are open (#1, #2): one workflow and checks file keep one (#1: GitHub refuses edit)`
    ])
  })

  it('the refused one closed and the new one kept (the fixed bundle) passes', () => {
    const after = afterOf([issue(1, 'closed'), issue(2, 'open')], [], { issues: [[1, ['edit']]] })
    expect(driftIssueRules(after, twoLooks)).toEqual([])
  })

  it('the live issue left open once the drift ended, its closing stopped at the refused one (1cf6920), is named', () => {
    const after = afterOf([issue(1, 'open'), issue(2, 'closed'), issue(3, 'open')], [], {
      issues: [[1, ['edit', 'close']]]
    })
    expect(driftIssueRules(after, driftEnds)).toEqual([
      `run 3 (watch) last look found no drift in ${EDITS_FILE}, and drift issue #3 is still open (#1: GitHub refuses edit, close)`
    ])
  })

  it('one GitHub refuses to close is none of the runs: beside the live one it passes, and closed once drift ends', () => {
    const refused = { issues: [[1, ['edit', 'close']]] as Array<[number, string[]]> }
    expect(driftIssueRules(afterOf([issue(1, 'open'), issue(2, 'open')], [], refused), twoLooks)).toEqual([])
    expect(driftIssueRules(afterOf([issue(1, 'open'), issue(2, 'closed')], [], refused), driftEnds)).toEqual([])
  })

  it('an issue GitHub refuses only to edit still counts, and so does a person’s issue never', () => {
    const person = { login: 'person', type: 'User' }
    const after = afterOf([issue(1, 'open'), issue(2, 'open', person)], [], { issues: [[1, ['edit']]] })
    expect(driftIssueRules(after, driftEnds)).toEqual([
      `run 3 (watch) last look found no drift in ${EDITS_FILE}, and drift issue #1 is still open (#1: GitHub refuses edit)`
    ])
  })
})

describe('oneCommentRule', () => {
  it('a new comment at every look beside the refused one (1cf6920) is named', () => {
    const after = afterOf([], [comment(1000), comment(1002), comment(1003)], { comments: [[1000, ['edit']]] })
    expect(oneCommentRule(after)).toEqual([
      `3 comments of one step are on acme/sim#${WATCH_PR} (1000, 1002, 1003): one step keeps one comment (1000: GitHub refuses edit)`
    ])
  })

  it('one GitHub will neither edit nor delete is not counted, but a pile beside it is', () => {
    const refused = { comments: [[1000, ['edit', 'delete']]] as Array<[number, string[]]> }
    expect(oneCommentRule(afterOf([], [comment(1000), comment(1002)], refused))).toEqual([])
    expect(oneCommentRule(afterOf([], [comment(1000), comment(1002), comment(1003)], refused))).toEqual([
      expect.stringContaining('2 comments of one step are on acme/sim#8 (1002, 1003)')
    ])
  })

  it('the refused one deleted or pointed, one comment a step, a person’s copy of the marker: passes', () => {
    const pointer = comment(
      1000,
      'This step’s comment is now https://github.example.com/acme/sim/pull/8#issuecomment-1002.'
    )
    const person = comment(1001, `${MARKER}\nquoted`, { login: 'person', type: 'User' })
    const other = comment(1004, `${OTHER_MARKER}\nanother step's plan`)
    const after = afterOf([], [pointer, person, comment(1002), other], { comments: [[1000, ['delete']]] })
    expect(oneCommentRule(after)).toEqual([])
  })
})

describe('drawRefusedEdits (through drawRound)', () => {
  const rounds = Array.from({ length: 600 }, (_, i) => drawRound(i + 9000))

  it('only in rounds that draw issue 50’s shapes: a watch on the pull request that refusals reach', () => {
    const drawn = rounds.filter(r => r.refusedEdits.drawn)
    expect(drawn.length).toBeGreaterThan(60)
    for (const r of drawn) {
      expect(r.twoReaders.drawn).toBe(true)
      const watches = r.runs.filter(run => run.kind === 'watch')
      expect(watches).toHaveLength(1)
      const [run] = watches
      expect(run).toMatchObject({
        writes: false,
        env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: WATCH_EVENT }
      })
      expect(run.cancelMs).toBeUndefined()
      expect(run.inputs).toMatchObject({ 'checks-file': EDITS_FILE, 'dry-run': 'true', 'fail-on-drift': 'true' })
      const { issue: refusedIssue, comment: refusedComment } = r.refusedEdits
      expect(refusedIssue !== undefined || refusedComment !== undefined).toBe(true)
      if (refusedIssue) {
        expect(run.inputs['drift-issue']).toBe('true')
        expect(ISSUE_REFUSALS).toContain(refusedIssue.status)
      }
      if (refusedComment) {
        expect(run.inputs['pr-comment']).toBe('true')
        expect(COMMENT_REFUSALS).toContain(refusedComment.status)
      }
      expect(r.files[EDITS_FILE]).toContain('sim-edit-1')
    }
    // Each of the four ways: edit alone, with close or delete, the drift ending or not.
    const ways = new Set(
      drawn.map(
        r =>
          `${r.refusedEdits.issue?.refused.join('+')} ${r.refusedEdits.comment?.refused.join('+')} ${r.refusedEdits.ends}`
      )
    )
    for (const way of ['edit', 'edit+close'])
      for (const ends of [true, false])
        expect([...ways].some(w => w.startsWith(`${way} `) && w.endsWith(` ${ends}`))).toBe(true)
    expect(rounds.filter(r => !r.refusedEdits.drawn).every(r => !r.runs.some(run => run.kind === 'watch'))).toBe(true)
  })

  it('the rounds the tests pin by seed draw none', () => {
    for (const seed of [9259, 3020, 2456, 1628, 866, 65]) expect(drawRound(seed).refusedEdits.drawn).toBe(false)
  })
})

describe('FakeGitHub.refuseMade', () => {
  const github = new FakeGitHub()
  const headers = { authorization: 'token ghs_test', 'content-type': 'application/json' }
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${github.url}${path}`, { method, headers, body: JSON.stringify(body) })

  beforeAll(async () => {
    await github.start()
  })
  afterAll(() => github.stop())

  it('refuses the first issue made with the title and the first comment made on the pull request, not the others', async () => {
    github.reset()
    github.refuseMade({ kind: 'issue', repo: 'acme/sim', title: TITLE, status: 410, refused: ['edit', 'close'] })
    github.refuseMade({ kind: 'comment', on: 'acme/sim#8', status: 422, refused: ['edit'] })
    await send('POST', '/repos/acme/sim/issues', { title: 'another title', body: 'x' })
    await send('POST', '/repos/acme/sim/issues', { title: TITLE, body: 'x' })
    await send('POST', '/repos/acme/sim/issues', { title: TITLE, body: 'x' })
    expect((await send('PATCH', '/repos/acme/sim/issues/1', { body: 'y' })).status).toBe(200)
    expect((await send('PATCH', '/repos/acme/sim/issues/2', { body: 'y' })).status).toBe(410)
    expect((await send('PATCH', '/repos/acme/sim/issues/2', { state: 'closed' })).status).toBe(410)
    expect((await send('PATCH', '/repos/acme/sim/issues/3', { body: 'y' })).status).toBe(200)
    expect(github.refusedOfIssue('acme/sim', 2)).toEqual(['edit', 'close'])
    expect(github.refusedOfIssue('acme/sim', 3)).toBeUndefined()

    const made = async (on: number) =>
      ((await (await send('POST', `/repos/acme/sim/issues/${on}/comments`, { body: 'c' })).json()) as { id: number }).id
    const [on7, first, second] = [await made(7), await made(8), await made(8)]
    const edit = async (id: number) =>
      (await send('PATCH', `/repos/acme/sim/issues/comments/${id}`, { body: 'd' })).status
    expect([await edit(on7), await edit(first), await edit(second)]).toEqual([200, 422, 200])
    expect(
      (await fetch(`${github.url}/repos/acme/sim/issues/comments/${first}`, { method: 'DELETE', headers })).status
    ).toBe(204)
    expect(github.refusedOfComment(first)).toEqual(['edit'])
  })
})
