/** The error budget's figures (src/operations/gate/budget.ts) and its inputs (src/values/parse.ts). */
import { describe, expect, it } from '@jest/globals'
import {
  type Budget,
  budgetBar,
  budgetJson,
  budgetOf,
  budgetText,
  resultsIn,
  worstBudget
} from '../../src/operations/gate/budget.js'
import { parseSloWindow } from '../../src/values/parse.js'
import { parseSlo } from '../../src/values/parse-objective.js'

const TO = Date.parse('2026-11-23T08:00:00Z')
const FROM = TO - 30 * 86_400_000
const results = (count: number, down: number) =>
  Array.from({ length: count }, (_, i) => ({
    status: i < down ? 'DOWN' : i % 2 ? 'up' : 'Up',
    checkedAt: new Date(TO - (i + 1) * 60_000).toISOString()
  }))

describe('slo and slo-window', () => {
  it('slo: a percentage with its sign in (0, 100), kept exact', () => {
    expect(parseSlo('99.9%')).toEqual({ percent: 99.9, scaled: 999, scale: 10 })
    expect(parseSlo(' 99.95 % ')).toEqual({ percent: 99.95, scaled: 9995, scale: 100 })
    expect(parseSlo('50%')).toEqual({ percent: 50, scaled: 50, scale: 1 })
    for (const bad of ['99.9', '0.999', '100%', '0%', '0.0%', '101%', '-1%', '99.9999999%', '%', 'ninety%', '99,9%'])
      expect(() => parseSlo(bad)).toThrow()
  })

  it('slo: every refusal states the rule (sign, range, decimals) and what this value broke', () => {
    const rule = 'must be a percentage with its % sign, above 0% and below 100%, with at most 6 decimals'
    for (const bad of ['99.9', '100%', '0%', '101%', '99.1234567%', '%', 'ninety%', '99,9%'])
      expect(() => parseSlo(bad)).toThrow(rule)
    expect(() => parseSlo('99.1234567%')).toThrow('got "99.1234567%": 7 decimals')
    expect(parseSlo('99.123456%')).toEqual({ percent: 99.123456, scaled: 99_123_456, scale: 1_000_000 })
  })

  it('slo-window: a duration with its unit, days allowed, at most 90d; a bare number refused', () => {
    expect(parseSloWindow('30d')).toBe(30 * 86_400_000)
    expect(parseSloWindow('1d12h')).toBe(36 * 3_600_000)
    expect(parseSloWindow('720h')).toBe(30 * 86_400_000)
    expect(parseSloWindow('90d')).toBe(90 * 86_400_000)
    expect(() => parseSloWindow('91d')).toThrow('must be at most 90d')
    expect(() => parseSloWindow('30')).toThrow('"30" has no unit: write 30h or 30d')
    expect(() => parseSloWindow('a month')).toThrow('must be a duration')
  })
})

describe('resultsIn', () => {
  it('states an example only when a row could not be placed', () => {
    expect(resultsIn(results(6, 1), FROM, TO)).toStrictEqual({
      rows: results(6, 1),
      results: 6,
      up: 5,
      unplaced: 0
    })
    expect(resultsIn([{ status: 'down', checkedAt: 'soon' }], FROM, TO)).toStrictEqual({
      rows: [],
      results: 0,
      up: 0,
      unplaced: 1,
      example: '"soon"'
    })
  })
})

describe('budgetOf', () => {
  const slo = parseSlo('99.9%')

  it('exact at the edge: 1 down in 1000 at 99.9% is 0% left, spent; none down is 100% left', () => {
    expect(budgetOf(results(1000, 1), FROM, TO, slo)).toMatchObject({
      results: 1000,
      up: 999,
      availability: 99.9,
      remaining: 0,
      spent: true
    })
    expect(budgetOf(results(1000, 0), FROM, TO, slo)).toMatchObject({ availability: 100, remaining: 100, spent: false })
  })

  it('figures cut to 4 decimals, never rounded up: 2 down in 3001 is 99.9333%, 33.35% left', () => {
    const b = budgetOf(results(3001, 2), FROM, TO, slo)
    expect(b).toMatchObject({ availability: 99.9333, spent: false })
    // 1 - (2/3001)/0.001 = 0.33355...; overspent figures are cut toward minus infinity
    expect(b.remaining).toBe(33.3555)
    expect(budgetOf(results(3001, 4), FROM, TO, slo).remaining).toBe(-33.289)
  })

  it('an entry without a status or outside the window is not a result; a repeated row counts once; an undated one makes the budget unknown', () => {
    const entries = [
      ...results(10, 0),
      { checkedAt: new Date(TO - 1000).toISOString() }, // no status
      { status: 'down', checkedAt: new Date(TO).toISOString() }, // at the start: after the window
      { status: 'down', checkedAt: new Date(FROM - 1).toISOString() }, // before it
      { status: 'down', checkedAt: 'Nov 22 2026 10:00' } // cannot be placed
    ]
    const once = { id: 'h1', status: 'down', checkedAt: new Date(TO - 90_000).toISOString() }
    const budget = budgetOf([...entries, once, once], FROM, TO, slo)
    expect(budget).toMatchObject({ results: 11, up: 10, spent: false })
    // The row whose time cannot be placed may lie in the window: the budget is unknown (it errs closed), not judged on the others.
    expect(budget.unplaced).toEqual({ rows: 1, example: '"Nov 22 2026 10:00"' })
    expect(budget.remaining).toBeUndefined()
  })

  it('fewer than 5 results: skipped, not spent, no figures', () => {
    expect(budgetOf(results(4, 4), FROM, TO, slo)).toEqual({
      from: FROM,
      to: TO,
      objective: 99.9,
      results: 4,
      up: 0,
      spent: false,
      skipped: '4 result(s) with a status in the 30d before the step started (5 needed)'
    })
  })

  it('a degraded result is a failed one, not up (any status other than up fails)', () => {
    const rows = results(1000, 0).map((r, i) => (i === 0 ? { ...r, status: 'degraded' } : r))
    expect(budgetOf(rows, FROM, TO, slo)).toMatchObject({ results: 1000, up: 999, remaining: 0, spent: true })
  })

  it('exactly 5 results (the minimum) are judged, not skipped', () => {
    const b = budgetOf(results(5, 1), FROM, TO, slo)
    expect(b.skipped).toBeUndefined()
    expect(b).toMatchObject({ results: 5, up: 4, availability: 80, spent: true })
  })

  it('the bar: ten cells of the budget left, at least one while any is left, none when spent', () => {
    expect(budgetBar(budgetOf(results(2000, 1), FROM, TO, slo))).toBe('█████░░░░░ 50% left')
    expect(budgetBar(budgetOf(results(1000, 0), FROM, TO, slo))).toBe('██████████ 100% left')
    expect(budgetBar(budgetOf(results(40_000, 39), FROM, TO, slo))).toBe('█░░░░░░░░░ 2.5% left')
    expect(budgetBar(budgetOf(results(1000, 2), FROM, TO, slo))).toBe('░░░░░░░░░░ spent (-100% left)')
  })
})

describe('the figures at their edges (what mutation testing found unguarded)', () => {
  const slo = parseSlo('99.9%')

  it('an overspent budget is cut toward minus infinity, never rounded up: 2 failures of 1.5 allowed leave -33.3334%', () => {
    // 1,500 results at 99.9% allow 1.5 failures; 2 leave 1 - 2 / 1.5 = -1/3 of the budget.
    expect(budgetOf(results(1500, 2), FROM, TO, slo)).toMatchObject({ remaining: -33.3334, spent: true })
    // 1 failure leaves 1/3: cut down to 33.3333, not rounded.
    expect(budgetOf(results(1500, 1), FROM, TO, slo)).toMatchObject({ remaining: 33.3333, spent: false })
    expect(budgetOf(results(1500, 1), FROM, TO, slo).availability).toBe(99.9333)
    // At 99.5%, 1,000 results allow 5 failures: 3 leave 40%, 6 leave -20%.
    expect(budgetOf(results(1000, 3), FROM, TO, parseSlo('99.5%'))).toMatchObject({ remaining: 40, spent: false })
    expect(budgetOf(results(1000, 6), FROM, TO, parseSlo('99.5%'))).toMatchObject({ remaining: -20, spent: true })
  })

  it('a blank status is no status: not a result, and no failed one; ` UP ` with blanks is up', () => {
    const blank = [{ status: '  ', checkedAt: new Date(TO - 2000).toISOString() }]
    expect(budgetOf([...results(10, 0), ...blank], FROM, TO, slo)).toMatchObject({ results: 10, up: 10 })
    // Nor does a blank status with an unplaceable time make the budget unknown.
    expect(
      budgetOf([...results(10, 0), { status: ' ', checkedAt: 'yesterday' }], FROM, TO, slo).unplaced
    ).toBeUndefined()
    const padded = [{ status: ' UP ', checkedAt: new Date(TO - 2000).toISOString() }]
    expect(budgetOf([...results(10, 0), ...padded], FROM, TO, slo)).toMatchObject({ results: 11, up: 11 })
  })

  it('a row whose time cannot be placed: the skipped text names the rows and an example, and says the budget is unknown', () => {
    const b = budgetOf([...results(10, 0), { status: 'up', checkedAt: 'yesterday' }], FROM, TO, slo)
    expect(b.skipped).toBe(
      '1 history row(s) with a time the action cannot place (such as "yesterday"): the budget is unknown'
    )
    const without = budgetOf([...results(10, 0), { status: 'up' }], FROM, TO, slo)
    expect(without.unplaced).toEqual({ rows: 1, example: 'no checkedAt' })
    expect(budgetOf([...results(10, 0), { status: 'up', checkedAt: null }], FROM, TO, slo).unplaced).toEqual({
      rows: 1,
      example: 'no checkedAt'
    })
  })
})

describe('the budget in words and as JSON (the log, the failure, `result`, the outputs)', () => {
  const slo = parseSlo('99.9%')
  const judged = (count: number, down: number) => budgetOf(results(count, down), FROM, TO, slo)

  it('judged: availability, results up, the window and the objective, then what is left or spent', () => {
    expect(budgetText(judged(1000, 2))).toBe(
      'availability 99.8% (998 of 1000 result(s) up) in the 30d before the step started against an objective of 99.9%: error budget spent (-100% left)'
    )
    expect(budgetText(judged(2000, 1))).toBe(
      'availability 99.95% (1999 of 2000 result(s) up) in the 30d before the step started against an objective of 99.9%: error budget 50% left'
    )
  })

  it('not judged: the reason, and that the budget is not judged; a time it cannot place: the budget is unknown', () => {
    expect(budgetText(judged(4, 0))).toBe(
      'no error budget: 4 result(s) with a status in the 30d before the step started (5 needed); the budget is not judged'
    )
    const unplaced = budgetOf([...results(10, 0), { status: 'up', checkedAt: 'yesterday' }], FROM, TO, slo)
    expect(budgetText(unplaced)).toBe(`error budget unknown: ${unplaced.skipped}`)
    expect(budgetBar(judged(4, 0))).toBe('')
  })

  it('as JSON: every figure, the window as ISO times; null where unknown; the reason only when not judged', () => {
    expect(budgetJson(undefined)).toBeNull()
    // Strict: a field the budget lacks is absent, not `undefined`.
    expect(budgetJson(judged(2000, 1))).toStrictEqual({
      objective: 99.9,
      availability: 99.95,
      remaining: 50,
      spent: false,
      results: 2000,
      up: 1999,
      from: '2026-10-24T08:00:00.000Z',
      to: '2026-11-23T08:00:00.000Z'
    })
    const none = judged(1000, 1000)
    expect(budgetJson(none)).toMatchObject({ availability: 0, remaining: -99900, spent: true })
    const skipped = judged(4, 0)
    expect(budgetJson(skipped)).toStrictEqual({
      objective: 99.9,
      availability: null,
      remaining: null,
      spent: false,
      results: 4,
      up: 4,
      from: '2026-10-24T08:00:00.000Z',
      to: '2026-11-23T08:00:00.000Z',
      skipped: skipped.skipped
    })
    const unplaced = budgetOf([...results(10, 0), { status: 'up' }], FROM, TO, slo)
    expect(budgetJson(unplaced)).toMatchObject({
      skipped: unplaced.skipped,
      unplaced: { rows: 1, example: 'no checkedAt' }
    })
  })

  it('the worst: the least left among the judged (the first of equals); none judged, none', () => {
    const t = (name: string, budget?: Budget) => ({ name, ...(budget ? { budget } : {}) })
    const half = judged(2000, 1)
    const spent = judged(1000, 2)
    expect(worstBudget([t('a', half), t('b', spent), t('c', half)])?.name).toBe('b')
    expect(worstBudget([t('a', spent), t('b', half), t('c', judged(1000, 2))])?.name).toBe('a')
    expect(worstBudget([t('a', half), t('b', judged(1000, 1)), t('c', spent)])?.name).toBe('c')
    expect(worstBudget([t('skipped', judged(4, 0)), t('none'), t('half', half)])?.name).toBe('half')
    expect(worstBudget([t('skipped', judged(4, 0)), t('none')])).toBeUndefined()
    expect(worstBudget([])).toBeUndefined()
  })
})
