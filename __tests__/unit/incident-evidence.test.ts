/** Whether an incident's text shows it is this workflow's, and the line the action adds to say so. */
import { describe, expect, it } from '@jest/globals'
import {
  evidenceLine,
  evidenceOf,
  evidenceWords,
  showsEvidence,
  withEvidence
} from '../../src/operations/incidents/evidence.js'
import { failureMessage, resolvedMessage } from '../../src/operations/incidents/incident-text.js'
import { byTitle } from '../../src/operations/incidents/titles.js'
import { runContextOf } from '../../src/github/run-facts.js'
import { GITHUB_ENV } from '../helpers/harness.js'

const run = runContextOf(
  {
    workflow: 'Deploy',
    job: 'deploy',
    ref: 'refs/heads/main',
    sha: '0123456789abcdef',
    runId: 4242,
    runNumber: 7,
    runAttempt: 1,
    actor: 'octocat',
    eventName: 'push',
    serverUrl: 'https://github.example.com'
  },
  GITHUB_ENV
)
const ours = evidenceOf(run)

describe('showsEvidence: the message names this workflow and repository as the action writes them', () => {
  it("the action's own messages show it", () => {
    expect(showsEvidence(failureMessage(run), ours)).toBe(true)
    expect(showsEvidence(resolvedMessage(run), ours)).toBe(true)
    expect(showsEvidence(withEvidence('Checkout is failing', ours), ours)).toBe(true)
  })

  it('a message the service folded (case, blanks) still shows it', () => {
    expect(showsEvidence(failureMessage(run).toLowerCase(), ours)).toBe(true)
    expect(showsEvidence('Sent  by\tWORKFLOW "deploy"  in  ACME/Shop', ours)).toBe(true)
  })

  it.each([
    ['a person', 'Payments are failing in production; on it.'],
    ['the workflow named without its repository', 'Workflow "Deploy" failed.'],
    ['the repository named without the workflow', 'Deploy failed in acme/shop.'],
    ['words near the forms', 'The Deploy workflow of acme/shop failed'],
    ['another workflow of the repository', 'Workflow "Deploy EU" (job deploy) failed in acme/shop.'],
    ['a workflow whose name starts like ours', 'Workflow "Deploy-2" failed in acme/shop.'],
    ['another repository whose name starts like ours', 'Workflow "Deploy" failed in acme/shop-eu on main.'],
    ['another repository with a dot', 'Workflow "Deploy" failed in acme/shop.v2 on main.'],
    ['an owner that ends like ours', 'Workflow "Deploy" failed in xacme/shop.'],
    ['no message', undefined],
    ['a message that is no string', 42]
  ])('%s: no evidence', (_, message) => {
    expect(showsEvidence(message, ours)).toBe(false)
  })

  it('the repository may end the message or a sentence', () => {
    expect(showsEvidence('Workflow "Deploy" failed in acme/shop', ours)).toBe(true)
    expect(showsEvidence('Workflow "Deploy" failed in acme/shop. Run: x', ours)).toBe(true)
    expect(showsEvidence('Workflow "Deploy" failed in acme/shop, again', ours)).toBe(true)
  })

  it('an incident-key shows it in the form the action writes, never as a bare word', () => {
    const keyed = evidenceOf(run, 'eu')
    expect(showsEvidence('Checkout down\nSent with incident-key "eu".', keyed)).toBe(true)
    expect(showsEvidence('Checkout down in eu [eu]', keyed)).toBe(false)
    expect(showsEvidence('Sent with incident-key "eu-west".', keyed)).toBe(false)
    expect(showsEvidence('Sent with incident-key "eu".', ours)).toBe(false)
  })

  it('without a workflow and a repository, only a key can show it; with neither, nothing does', () => {
    const bare = evidenceOf({ workflow: '', repository: '' }, 'linux-x64')
    expect(showsEvidence('Workflow "" failed in .', bare)).toBe(false)
    expect(showsEvidence(withEvidence('down', bare), bare)).toBe(true)
    const none = evidenceOf({ workflow: '', repository: '' })
    expect(showsEvidence(withEvidence('down', none), none)).toBe(false)
    expect(withEvidence('down', none)).toBe('down')
    expect(
      showsEvidence('Workflow "Deploy" failed in acme/shop', evidenceOf({ workflow: 'Deploy', repository: '' }))
    ).toBe(false)
  })
})

describe('withEvidence: one short line, only when the message does not show it', () => {
  it('adds the line to a custom message', () => {
    expect(withEvidence('Checkout is failing', ours)).toBe(
      'Checkout is failing\nSent by workflow "Deploy" in acme/shop.'
    )
    expect(evidenceLine(evidenceOf(run, 'linux-x64'))).toBe(
      'Sent by workflow "Deploy" in acme/shop, incident-key "linux-x64".'
    )
    expect(evidenceLine(evidenceOf({ workflow: '', repository: '' }, 'linux-x64'))).toBe(
      'Sent with incident-key "linux-x64".'
    )
  })

  it('leaves a message that already shows it as it is (the default messages)', () => {
    expect(withEvidence(failureMessage(run), ours)).toBe(failureMessage(run))
    expect(withEvidence(resolvedMessage(run), evidenceOf(run, 'eu'))).toBe(resolvedMessage(run))
  })
})

describe('byTitle: a looser title match counts only with evidence', () => {
  const title = 'Deploy failed: payments-api production EU'
  const person = { message: 'Payments are down, looking into it (Jane)', status: 'investigating' }
  it.each([
    ['cut', 'Deploy failed: payments-api production'],
    ['case', 'deploy failed: payments-api production eu'],
    ['blanks', 'Deploy failed:  payments-api   production EU'],
    ['cut with an ellipsis', 'Deploy failed: payments-api product...']
  ])("%s, without evidence: someone else's, left alone", (_, stored) => {
    const titled = byTitle([{ id: 'inc_1', title: stored, ...person }], title, ours)
    expect(titled.incident).toBeUndefined()
    expect(titled.foreign?.map(i => i.id)).toEqual(['inc_1'])
  })

  it('with evidence: ours, as the service changed it', () => {
    const titled = byTitle(
      [{ id: 'inc_1', title: 'Deploy failed: payments-api production', message: failureMessage(run) }],
      title,
      ours
    )
    expect(titled).toMatchObject({ incident: { id: 'inc_1' }, changed: true })
    expect(titled.foreign).toBeUndefined()
  })

  it('an exact title is ours without evidence', () => {
    const titled = byTitle([{ id: 'inc_1', title, ...person }], title, ours)
    expect(titled.incident?.id).toBe('inc_1')
    expect(titled.foreign).toBeUndefined()
  })

  it("someone else's incident never makes ours ambiguous", () => {
    const titled = byTitle(
      [
        { id: 'inc_1', title: 'Deploy failed: payments-api production', ...person },
        { id: 'inc_2', title: title.toLowerCase(), message: failureMessage(run) }
      ],
      title,
      ours
    )
    expect(titled.incident?.id).toBe('inc_2')
    expect(titled.ambiguous).toBeUndefined()
    expect(titled.foreign?.map(i => i.id)).toEqual(['inc_1'])
  })

  it("with an incident-key, a cut before the key is someone else's without evidence, and a leg's we cannot tell with it", () => {
    const keyed = evidenceOf(run, 'linux-x64')
    const keyTitle = 'Nightly deploy failed on the main branch [linux-x64]'
    const cut = 'Nightly deploy failed on the main'
    expect(byTitle([{ id: 'a', title: cut, ...person }], keyTitle, keyed)).toMatchObject({
      foreign: [{ id: 'a' }]
    })
    expect(byTitle([{ id: 'b', title: cut, message: failureMessage(run) }], keyTitle, keyed)).toMatchObject({
      keyCut: [{ id: 'b' }]
    })
  })
})

describe('evidence at its edges: an empty part shows nothing, a repository is matched as written', () => {
  it('a workflow or repository the run does not know is no evidence, whatever the message says', () => {
    expect(showsEvidence('Sent by workflow "" in acme/shop.', { workflow: '', repository: 'acme/shop' })).toBe(false)
    expect(showsEvidence('Sent by workflow "Deploy" in .', { workflow: 'Deploy', repository: '' })).toBe(false)
    expect(showsEvidence('Sent with incident-key "".', { workflow: '', repository: '', key: '' })).toBe(false)
  })

  it('a repository holding a dot or other pattern characters is matched as written, not as a pattern', () => {
    const evidence = { workflow: 'Deploy', repository: 'acme/shop.api+v2' }
    expect(showsEvidence('Sent by workflow "Deploy" in acme/shop.api+v2.', evidence)).toBe(true)
    expect(showsEvidence('Sent by workflow "Deploy" in acme/shopXapi+v2.', evidence)).toBe(false)
  })

  it('a key alone (no workflow or repository known): the line says "Sent with"; an empty message is the line alone', () => {
    const keyOnly = { workflow: 'Deploy', repository: '', key: 'eu' }
    expect(evidenceWords(keyOnly)).toBe('incident-key "eu"')
    expect(evidenceLine(keyOnly)).toBe('Sent with incident-key "eu".')
    expect(evidenceLine({ workflow: '', repository: 'acme/shop', key: 'eu' })).toBe('Sent with incident-key "eu".')
    expect(withEvidence('', keyOnly)).toBe('Sent with incident-key "eu".')
    expect(withEvidence('', { workflow: 'Deploy', repository: 'acme/shop' })).toBe(
      'Sent by workflow "Deploy" in acme/shop.'
    )
    expect(withEvidence('x', { workflow: '', repository: '' })).toBe('x')
  })
})
