/**
 * The look-up of an incident by title (titles.ts): which unresolved incident a
 * title means, the forms of a title a service may have made from ours, and
 * what the run says about the others (left alone, ambiguous, cut before the
 * key, identical duplicates). Pure: the incidents are given, the log is kept.
 */
import { describe, expect, it } from '@jest/globals'
import type { Incident } from '../../src/api/schemas.js'
import { evidenceOf, showsEvidence } from '../../src/operations/incidents/evidence.js'
import {
  type Titled,
  MIN_CUT_TITLE,
  byTitle,
  changedTitle,
  keepsKey,
  matchOf,
  meansTitle,
  newestUnresolved,
  titleChanges,
  titleFound,
  titleNotes
} from '../../src/operations/incidents/titles.js'
import { OperationError, type OperationContext } from '../../src/operations/types.js'

const TITLE = 'Deploy failed: payments-api production EU'
/** Our title as a service that cuts at 38 characters shows it. */
const CUT = 'Deploy failed: payments-api production'
/** A message that shows an incident is this workflow's (workflow "Deploy" in acme/shop). */
const OURS = 'Workflow "Deploy" (job deploy) failed in acme/shop on refs/heads/main.'
const PERSON = 'Payments are down, looking into it (Jane)'
const EVIDENCE = evidenceOf({ workflow: 'Deploy', repository: 'acme/shop' })
const NO_EVIDENCE = evidenceOf({ workflow: '', repository: '' })

const incident = (id: string, fields: Partial<Incident> = {}): Incident => ({
  id,
  title: TITLE,
  message: OURS,
  status: 'investigating',
  ...fields
})

/** A context whose log is kept: what titleNotes uses. */
function logged() {
  const lines: string[] = []
  const ctx = {
    log: {
      debug: () => {},
      info: (line: string) => void lines.push(`info: ${line}`),
      warning: (line: string) => void lines.push(`warning: ${line}`),
      notice: (line: string) => void lines.push(`notice: ${line}`)
    }
  } as unknown as OperationContext
  return { ctx, lines }
}

describe('byTitle: the exact title first', () => {
  it('one unresolved incident of the title: it, with no duplicates and no other field', () => {
    const one = incident('inc_1')
    expect(byTitle([one], TITLE, EVIDENCE)).toEqual({ incident: one, duplicates: [] })
  })

  it('identical unresolved incidents (concurrent runs of one step): the first in survival order, the others named', () => {
    const later = incident('inc_a', { createdAt: '2026-01-01T00:00:02Z' })
    const first = incident('inc_b', { createdAt: '2026-01-01T00:00:01Z' })
    const third = incident('inc_c', { createdAt: '2026-01-01T00:00:03Z' })
    expect(byTitle([later, first, third], TITLE, EVIDENCE)).toEqual({ incident: first, duplicates: [later, third] })
  })

  it('two identical ones, the usual race: the first in survival order (the earliest createdAt), the other named', () => {
    const later = incident('inc_a', { createdAt: '2026-01-01T00:00:02Z' })
    const first = incident('inc_b', { createdAt: '2026-01-01T00:00:01Z' })
    expect(byTitle([later, first], TITLE, EVIDENCE)).toEqual({ incident: first, duplicates: [later] })
  })

  it('unresolved incidents of the title that differ: the newest, and none of them a duplicate', () => {
    const old = incident('inc_1', { message: 'old', createdAt: '2026-01-01T00:00:00Z' })
    const newer = incident('inc_2', { message: 'new', createdAt: '2026-02-01T00:00:00Z' })
    expect(byTitle([newer, old], TITLE, EVIDENCE)).toEqual({ incident: newer, duplicates: [] })
  })

  it('a resolved incident is never the one a title means, exact or changed', () => {
    expect(byTitle([incident('inc_1', { status: 'resolved' })], TITLE, EVIDENCE)).toEqual({ duplicates: [] })
    expect(byTitle([incident('inc_1', { title: CUT, status: 'Resolved' })], TITLE, EVIDENCE)).toEqual({
      duplicates: []
    })
    const open = incident('inc_2', { message: 'open' })
    expect(byTitle([incident('inc_1', { status: 'resolved' }), open], TITLE, EVIDENCE)).toEqual({
      incident: open,
      duplicates: []
    })
  })

  it('an exact title wins over forms the service may have made, and over an ambiguity among them', () => {
    const exact = incident('inc_3', { message: PERSON })
    const titled = byTitle(
      [incident('inc_1', { title: CUT }), incident('inc_2', { title: TITLE.toLowerCase() }), exact],
      TITLE,
      EVIDENCE
    )
    expect(titled).toEqual({ incident: exact, duplicates: [] })
  })
})

describe('byTitle: with no exact title, a form the service made counts only with evidence, and only alone', () => {
  it('none of any form: nothing found', () => {
    const titled = byTitle([incident('inc_1', { title: 'Deploy failed: search-api' })], TITLE, EVIDENCE)
    expect(titled).toEqual({ duplicates: [] })
    expect(titleFound(titled)).toBe(false)
  })

  it('an incident of this workflow under another title is not ours: the evidence never stands for the title', () => {
    const other = incident('inc_1', { title: 'Nightly backup failed' })
    expect(byTitle([other], TITLE, EVIDENCE)).toEqual({ duplicates: [] })
    expect(matchOf(other, TITLE, EVIDENCE)).toBeUndefined()
    expect(meansTitle(other, TITLE, EVIDENCE)).toBe(false)
  })

  it('one changed form with evidence: it, said to be changed', () => {
    const cut = incident('inc_1', { title: CUT })
    expect(byTitle([cut], TITLE, EVIDENCE)).toEqual({ incident: cut, duplicates: [], changed: true })
  })

  it('two changed forms with evidence: ambiguous, never a guess', () => {
    const a = incident('inc_1', { title: CUT })
    const b = incident('inc_2', { title: TITLE.toLowerCase() })
    const titled = byTitle([a, b], TITLE, EVIDENCE)
    expect(titled).toEqual({ duplicates: [], ambiguous: [a, b] })
    expect(titleFound(titled)).toBe(true)
  })

  it("a changed form without evidence is someone else's, named beside ours", () => {
    const theirs = incident('inc_1', { title: CUT, message: PERSON })
    const mine = incident('inc_2', { title: TITLE.toLowerCase() })
    expect(byTitle([theirs], TITLE, EVIDENCE)).toEqual({ duplicates: [], foreign: [theirs] })
    expect(byTitle([theirs, mine], TITLE, EVIDENCE)).toEqual({
      incident: mine,
      duplicates: [],
      changed: true,
      foreign: [theirs]
    })
  })

  it('with an incident-key, a form cut before the key is a leg that cannot be told, whatever else matches', () => {
    const keyed = evidenceOf({ workflow: 'Deploy', repository: 'acme/shop' }, 'linux-x64')
    const title = `${TITLE} [linux-x64]`
    const lost = incident('inc_1', { title: TITLE })
    const kept = incident('inc_2', { title: title.toLowerCase() })
    expect(byTitle([lost, kept], title, keyed)).toEqual({ duplicates: [], keyCut: [lost] })
    expect(byTitle([kept], title, keyed)).toEqual({ incident: kept, duplicates: [], changed: true })
  })
})

describe('matchOf and meansTitle: what the create and the races count as ours', () => {
  const keyed = evidenceOf({ workflow: 'Deploy', repository: 'acme/shop' }, 'eu')
  const title = `${TITLE} [eu]`

  it.each([
    ['the exact title, even without evidence', { title, message: PERSON }, 'exact', true],
    ['a changed form with evidence, the key kept', { title: title.toUpperCase() }, 'changed', true],
    ['a changed form with evidence, cut before the key', { title: TITLE }, 'keyCut', false],
    ['a changed form without evidence', { title: title.toLowerCase(), message: PERSON }, 'foreign', false],
    ['another title', { title: 'Deploy failed: search-api [eu]' }, undefined, false],
    ['no title', { title: undefined }, undefined, false]
  ])('%s', (_, fields, match, ours) => {
    const listed = incident('inc_1', fields)
    expect(matchOf(listed, title, keyed)).toBe(match)
    expect(meansTitle(listed, title, keyed)).toBe(ours)
  })
})

describe('keepsKey: the incident-key in a title as the service shows it', () => {
  it('no key: every title keeps it', () => {
    expect(keepsKey('anything', undefined)).toBe(true)
    expect(keepsKey(undefined, undefined)).toBe(true)
  })

  it('the key in brackets, in any case and with blanks folded; never the bare word or another key', () => {
    expect(keepsKey('Deploy failed [Linux-X64]', 'linux-x64')).toBe(true)
    expect(keepsKey('Deploy failed [linux-x64]…', 'linux-x64')).toBe(true)
    expect(keepsKey('Deploy failed [linux  x64]', 'linux x64')).toBe(true)
    expect(keepsKey('Deploy failed on linux-x64', 'linux-x64')).toBe(false)
    expect(keepsKey('Deploy failed [linux-x64-gpu]', 'linux-x64')).toBe(false)
    expect(keepsKey('Deploy failed [linux-x6', 'linux-x64')).toBe(false)
    expect(keepsKey(undefined, 'linux-x64')).toBe(false)
  })
})

describe('titleFound: whether the look-up found something to stop a create', () => {
  const one = incident('inc_1')
  it.each<[string, Titled, boolean]>([
    ['an incident', { incident: one, duplicates: [] }, true],
    ['an ambiguity', { duplicates: [], ambiguous: [one, one] }, true],
    ['a leg cut before its key', { duplicates: [], keyCut: [one] }, true],
    ["only someone else's", { duplicates: [], foreign: [one] }, false],
    ['nothing', { duplicates: [] }, false]
  ])('%s: %s', (_, titled, found) => {
    expect(titleFound(titled)).toBe(found)
  })
})

describe('newestUnresolved: the latest createdAt, else updatedAt, else the last listed', () => {
  it('by createdAt, whatever the list order; a resolved one or another title is never it', () => {
    const newest = incident('inc_2', { createdAt: '2026-03-01T00:00:00Z' })
    const list = [
      incident('inc_1', { createdAt: '2026-02-01T00:00:00Z' }),
      newest,
      incident('inc_3', { createdAt: '2026-01-01T00:00:00Z' }),
      incident('inc_4', { createdAt: '2026-04-01T00:00:00Z', status: 'resolved' }),
      incident('inc_5', { createdAt: '2026-05-01T00:00:00Z', title: 'Other' })
    ]
    expect(newestUnresolved(list, TITLE)).toBe(newest)
  })

  it('updatedAt when there is no createdAt; an incident with a time is newer than one without', () => {
    const updated = incident('inc_2', { updatedAt: '2026-01-01T00:00:00Z' })
    expect(newestUnresolved([updated, incident('inc_1')], TITLE)).toBe(updated)
    expect(newestUnresolved([incident('inc_1'), updated], TITLE)).toBe(updated)
  })

  it('a createdAt it cannot place (an epoch number, a word) gives way to updatedAt', () => {
    const placed = incident('inc_2', { createdAt: 1795939200000, updatedAt: '2026-03-01T00:00:00Z' })
    const older = incident('inc_1', { createdAt: '2026-02-01T00:00:00Z' })
    expect(newestUnresolved([placed, older], TITLE)).toBe(placed)
    expect(newestUnresolved([older, placed], TITLE)).toBe(placed)
    const word = incident('inc_3', { createdAt: 'yesterday', updatedAt: '2026-01-01T00:00:00Z' })
    expect(newestUnresolved([word, older], TITLE)).toBe(older)
    // Neither placed: as no time, behind one that has a time, whatever the order.
    const neither = incident('inc_4', { createdAt: 1795939200000, updatedAt: 1795939200000 })
    expect(newestUnresolved([older, neither], TITLE)).toBe(older)
    expect(newestUnresolved([neither, older], TITLE)).toBe(older)
  })

  it('the same time, or none: the last in list order', () => {
    const at = '2026-01-01T00:00:00Z'
    const list = [incident('inc_1', { createdAt: at }), incident('inc_2', { createdAt: at }), incident('inc_3')]
    expect(newestUnresolved(list, TITLE)?.id).toBe('inc_2')
    expect(newestUnresolved([incident('inc_1'), incident('inc_2'), incident('inc_3')], TITLE)?.id).toBe('inc_3')
  })

  it('none of the title: undefined', () => {
    expect(newestUnresolved([], TITLE)).toBeUndefined()
    expect(newestUnresolved([incident('inc_1', { status: 'resolved' })], TITLE)).toBeUndefined()
  })
})

describe('changedTitle at its edges', () => {
  it('blanks the service trimmed at the ends, or added there, are a changed form', () => {
    expect(changedTitle('Deploy failed on main', '  Deploy failed on main ')).toBe(true)
    expect(changedTitle('Deploy failed on main ', 'Deploy failed on main')).toBe(true)
  })

  it('words the service ran together are another title', () => {
    expect(changedTitle('Deployfailed on main', 'Deploy failed on main')).toBe(false)
    expect(
      changedTitle('Deploy failedon main: checkout answered', 'Deploy failed on main: checkout answered 502')
    ).toBe(false)
  })

  it('a title lower-cased by the service is found, letters whose lower case is longer included (İ)', () => {
    const ours = 'İstanbul deploy failed'
    expect(changedTitle(ours.toLowerCase(), ours)).toBe(true)
    expect(titleChanges(ours.toLowerCase(), ours)).toBe('case changed')
  })

  it('a title upper-cased by the service is found, letters whose capital is two letters included (ß as SS)', () => {
    const ours = 'Straßensperre: deploy failed on main'
    expect(ours.toUpperCase()).toBe('STRASSENSPERRE: DEPLOY FAILED ON MAIN')
    expect(changedTitle(ours.toUpperCase(), ours)).toBe(true)
    expect(titleChanges(ours.toUpperCase(), ours)).toBe('case changed')
    expect(changedTitle(ours.toUpperCase().slice(0, 32), ours)).toBe(true)
    expect(changedTitle('Strassensperre: deploy failed on main', ours)).toBe(true)
  })

  it('case is folded alike in a message: an upper-cased one still shows the evidence', () => {
    const evidence = evidenceOf({ workflow: 'Maßnahmen', repository: 'acme/shop' }, 'süß')
    const message = 'Workflow "Maßnahmen" failed in acme/shop.'
    expect(showsEvidence(message.toUpperCase(), evidence)).toBe(true)
    expect(showsEvidence(message.toLowerCase(), evidence)).toBe(true)
    expect(showsEvidence('SENT WITH INCIDENT-KEY "SÜSS".', evidence)).toBe(true)
    expect(keepsKey('DEPLOY FAILED [SÜSS]', 'süß')).toBe(true)
  })

  it('only an ellipsis at the end marks a cut: one inside the title is part of it', () => {
    const ours = 'Deploy... failed on main: checkout answered HTTP 502'
    expect(changedTitle(ours.slice(0, 36), ours)).toBe(true)
    expect(changedTitle(`${ours.slice(0, 36)}…`, ours)).toBe(true)
  })

  it('a title of blanks or of an ellipsis alone, however long, is no form of ours', () => {
    expect(changedTitle(' '.repeat(MIN_CUT_TITLE + 5), TITLE)).toBe(false)
    expect(changedTitle(`${' '.repeat(MIN_CUT_TITLE)}...`, TITLE)).toBe(false)
    expect(changedTitle('…', TITLE)).toBe(false)
  })
})

describe('titleChanges: what the service changed, in words', () => {
  it.each([
    ['blanks trimmed at the ends', 'Deploy failed on main', '  Deploy failed on main  ', 'blanks collapsed'],
    ['one blank trimmed at the start', 'Deploy failed on main', ' Deploy failed on main', 'blanks collapsed'],
    ['case changed, blanks kept as sent', 'deploy  failed on main', 'Deploy  failed on main', 'case changed'],
    [
      'lower-cased and cut',
      'deploy failed on main: checkout',
      'Deploy failed on main: checkout answered HTTP 502',
      'case changed, cut to 31 characters'
    ],
    ['cut with an ellipsis', 'Deploy failed: payments-api product...', TITLE, 'cut to 38 characters'],
    ['an ellipsis added, nothing cut', `${TITLE}…`, TITLE, 'changed']
  ])('%s', (_, stored, ours, said) => {
    expect(changedTitle(stored, ours)).toBe(true)
    expect(titleChanges(stored, ours)).toBe(said)
  })
})

describe('titleNotes: what a look-up by title tells the run', () => {
  it('an exact match alone: nothing to say', () => {
    const { ctx, lines } = logged()
    expect(titleNotes(ctx, { incident: incident('inc_1'), duplicates: [] }, TITLE, EVIDENCE)).toEqual([])
    expect(titleNotes(ctx, { duplicates: [] }, TITLE, EVIDENCE)).toEqual([])
    expect(lines).toEqual([])
  })

  it("someone else's incident: a line naming it and why it was left alone, logged and returned", () => {
    const { ctx, lines } = logged()
    const theirs = incident('inc_9', { title: CUT, message: PERSON })
    const said = `Left incident inc_9 alone: its title "${CUT}" may be one the service made from "${TITLE}" (cut to 38 characters), but its message does not show it is this workflow's (it names no workflow "Deploy" in acme/shop as the action writes them), so it is someone else's.`
    expect(titleNotes(ctx, { duplicates: [], foreign: [theirs] }, TITLE, EVIDENCE)).toEqual([said])
    expect(lines).toEqual([`info: ${said}`])
  })

  it("someone else's incident when the run has nothing to look for: says so", () => {
    const { ctx } = logged()
    const theirs = incident('inc_9', { title: TITLE.toLowerCase(), message: PERSON })
    const [line] = titleNotes(ctx, { duplicates: [], foreign: [theirs] }, TITLE, NO_EVIDENCE)
    expect(line).toBe(
      `Left incident inc_9 alone: its title "${TITLE.toLowerCase()}" may be one the service made from "${TITLE}" (case changed), but its message does not show it is this workflow's (this run has no workflow, repository or incident-key to look for), so it is someone else's.`
    )
  })

  it('a changed title: a line naming the form and the incident used, after the lines about the others', () => {
    const { ctx, lines } = logged()
    const mine = incident('inc_1', { title: CUT })
    const theirs = incident('inc_9', { title: TITLE.toUpperCase(), message: PERSON })
    const notes = titleNotes(ctx, { incident: mine, duplicates: [], changed: true, foreign: [theirs] }, TITLE, EVIDENCE)
    const changed = `The service changed this incident's title: it shows "${CUT}" for "${TITLE}" (cut to 38 characters). Matched in that form: using inc_1.`
    expect(notes).toHaveLength(2)
    expect(notes[0]).toMatch(/^Left incident inc_9 alone: .*\(case changed\)/)
    expect(notes[1]).toBe(changed)
    expect(lines).toEqual([`info: ${notes[0]}`, `info: ${changed}`])
  })

  it('identical duplicates: a warning naming the one used and the others left', () => {
    const { ctx, lines } = logged()
    const titled = { incident: incident('inc_1'), duplicates: [incident('inc_2'), incident('inc_3')] }
    const said = `3 identical unresolved incidents are titled "${TITLE}": using inc_1; the others (inc_2, inc_3) are left as they are, since they may have existed before this step and the action never resolves those. Resolve the ones you do not want with resolve-incident and incident-id.`
    expect(titleNotes(ctx, titled, TITLE, EVIDENCE)).toEqual([said])
    expect(lines).toEqual([`warning: ${said}`])
  })

  it('two forms it cannot choose between: an error naming each, after the lines about the others', () => {
    const { ctx, lines } = logged()
    const titled = {
      duplicates: [],
      ambiguous: [incident('inc_1', { title: CUT }), incident('inc_2', { title: TITLE.toLowerCase() })],
      foreign: [incident('inc_9', { title: CUT, message: PERSON })]
    }
    const thrown = (() => {
      try {
        titleNotes(ctx, titled, TITLE, EVIDENCE)
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toBeInstanceOf(OperationError)
    expect((thrown as Error).message).toBe(
      `no unresolved incident is titled "${TITLE}", and 2 have a title the service may have made from it (blanks collapsed, case changed, or cut): inc_1 ("${CUT}"), inc_2 ("${TITLE.toLowerCase()}"). The action does not guess; target one by incident-id, or resolve the others.`
    )
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^info: Left incident inc_9 alone/)
  })

  it('cut before the incident-key: an error saying the leg cannot be told, for one or for several', () => {
    const { ctx } = logged()
    const one = { duplicates: [], keyCut: [incident('inc_1', { title: CUT })] }
    expect(() => titleNotes(ctx, one, `${TITLE} [eu]`, EVIDENCE)).toThrow(
      new OperationError(
        `no unresolved incident is titled "${TITLE} [eu]", and the service cut the title of one that may be this one before its incident-key, so which matrix leg it belongs to cannot be told (inc_1 ("${CUT}")); the action does not guess: use a shorter incident-title, so that the key survives the cut, or target one by incident-id.`
      )
    )
    const two = { duplicates: [], keyCut: [incident('inc_1', { title: CUT }), incident('inc_2', { title: TITLE })] }
    expect(() => titleNotes(ctx, two, `${TITLE} [eu]`, EVIDENCE)).toThrow(
      `the service cut the titles of some that may be this one before its incident-key, so which matrix leg it belongs to cannot be told (inc_1 ("${CUT}"), inc_2 ("${TITLE}"))`
    )
  })
})
