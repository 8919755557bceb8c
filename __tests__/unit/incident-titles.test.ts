import { describe, expect, it } from '@jest/globals'
import { MIN_CUT_TITLE, changedTitle, titleChanges } from '../../src/operations/incidents/titles.js'
import { storedTitle } from '../../emulator/store.js'

describe('changedTitle: a title the service made from ours', () => {
  const ours = 'Deploy  failed on MAIN:\tcheckout-answered-HTTP-502-in-smoke'
  it.each([
    ['blanks collapsed', { collapseBlanks: true }],
    ['lower-cased', { lowerCase: true }],
    ['both', { collapseBlanks: true, lowerCase: true }],
    ['cut at 40', { cutAt: 40 }],
    [`cut at ${MIN_CUT_TITLE}`, { cutAt: MIN_CUT_TITLE }],
    ['collapsed and cut', { collapseBlanks: true, cutAt: 33 }]
  ])('%s: found', (_, form) => {
    const stored = storedTitle(ours, form)
    expect(stored).not.toBe(ours)
    expect(changedTitle(stored, ours)).toBe(true)
  })

  it('the same title is an exact match, not a changed one', () => {
    expect(changedTitle(ours, ours)).toBe(false)
  })

  it(`a cut shorter than ${MIN_CUT_TITLE} characters is another title`, () => {
    expect(changedTitle(ours.replace(/\s+/g, ' ').slice(0, MIN_CUT_TITLE - 1), ours)).toBe(false)
  })

  it('another title, a longer one, an empty one or no string is no match', () => {
    expect(changedTitle('Deploy failed on staging', 'Deploy failed on main')).toBe(false)
    expect(changedTitle(`${ours} and more`, ours)).toBe(false)
    expect(changedTitle('', ours)).toBe(false)
    expect(changedTitle('   ', '  ')).toBe(false)
    expect(changedTitle(undefined, ours)).toBe(false)
    expect(changedTitle(42, '42')).toBe(false)
  })

  it('upper case counts as case changed too', () => {
    expect(changedTitle('DEPLOY FAILED', 'Deploy failed')).toBe(true)
    expect(titleChanges('DEPLOY FAILED', 'Deploy failed')).toBe('case changed')
  })

  it('says what changed', () => {
    expect(titleChanges('Deploy failed on main', 'Deploy  failed on main')).toBe('blanks collapsed')
    expect(titleChanges('deploy failed on main', 'Deploy  failed on main')).toBe('blanks collapsed, case changed')
    expect(
      titleChanges('Deploy failed on main: checkout answered', `Deploy failed on main: checkout answered HTTP 502`)
    ).toBe('cut to 40 characters')
  })
})
