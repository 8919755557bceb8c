/**
 * Every zone-less time is UTC, in every form the action accepts, and a form
 * it cannot place is an unknown time (never fresh), never local time. The
 * runner's time zone is fixed when Node starts, so each case runs in a child
 * Node under TZ=America/New_York (west of UTC: a local reading is 5 hours
 * late, so a stale result would look fresh).
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { ROOT } from '../helpers/runner.js'

/** Run `body` (an async function body that returns JSON-able data) in a child Node under `tz`. */
function under(tz: string, body: string): unknown {
  const script = `
    const values = await import('./src/values/values.ts')
    const judge = await import('./src/operations/gate/judge.ts')
    const ledger = await import('./src/operations/gate/ledger.ts')
    const parse = await import('./src/values/parse.ts')
    const out = await (async () => { ${body} })()
    process.stdout.write(JSON.stringify(out))`
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, TZ: tz },
    encoding: 'utf8'
  })
  if (child.status !== 0) throw new Error(child.stderr)
  return JSON.parse(child.stdout)
}

const UTC = (...parts: [number, number, number, number?, number?, number?, number?]) => {
  const [y, mo, d, h = 0, mi = 0, s = 0, ms = 0] = parts
  return Date.UTC(y, mo - 1, d, h, mi, s, ms)
}

const PLACED: Array<[string, number, number]> = [
  // form, UTC time, precision (ms)
  ['2026/11/25 04:43:11', UTC(2026, 11, 25, 4, 43, 11), 1000],
  ['2026/11/25 04:43', UTC(2026, 11, 25, 4, 43), 60_000],
  ['2026-11-25 04:43:11', UTC(2026, 11, 25, 4, 43, 11), 1000],
  ['2026-11-25T04:43:11', UTC(2026, 11, 25, 4, 43, 11), 1000],
  ['2026-11-25T04:43', UTC(2026, 11, 25, 4, 43), 60_000],
  ['2026-11-25T04:43:11.123456', UTC(2026, 11, 25, 4, 43, 11, 123), 1],
  ['2026-11-25T04:43:11.5', UTC(2026, 11, 25, 4, 43, 11, 500), 100],
  ['2026-11-25', UTC(2026, 11, 25), 86_400_000],
  ['2026-11-25T04:43:11Z', UTC(2026, 11, 25, 4, 43, 11), 1000],
  ['2026-11-25t04:43:11.000z', UTC(2026, 11, 25, 4, 43, 11), 1],
  ['2026-11-25 04:43:11 UTC', UTC(2026, 11, 25, 4, 43, 11), 1000],
  ['2026-11-25T04:43:11+01:00', UTC(2026, 11, 25, 3, 43, 11), 1000],
  ['2026-11-25T04:43:11+0100', UTC(2026, 11, 25, 3, 43, 11), 1000],
  ['2026-11-25T04:43:11+01', UTC(2026, 11, 25, 3, 43, 11), 1000],
  ['2026-11-25T04:43:11-05:30', UTC(2026, 11, 25, 10, 13, 11), 1000],
  // an HTTP date (RFC 1123 / IMF-fixdate) says GMT
  ['Wed, 25 Nov 2026 04:43:11 GMT', UTC(2026, 11, 25, 4, 43, 11), 1000],
  [' 2026-11-25T04:43:11Z\n', UTC(2026, 11, 25, 4, 43, 11), 1000]
]

/** Forms Date.parse reads as local time, or as something else, or at all: none can be placed. */
const UNKNOWN = [
  'Nov 25 2026 04:43:11',
  'Wed, 25 Nov 2026 04:43:11',
  'Thu, 25 Nov 2026 04:43:11 GMT', // the day name does not fit the date
  'Wed, 25 Nov 2026 04:43:11 EST',
  '25/11/2026 04:43:11',
  '11/25/2026 04:43:11',
  '2026-11-25T04:43:11 EST',
  '1795581791',
  '1795581791000',
  '2026-02-30T04:43:11Z',
  '2026-11-25T24:00:00Z',
  '2026-11-25T04:43:60Z',
  '2026-11-25T04:43:11+24:00',
  '+002026-11-25T04:43:11Z',
  'yesterday',
  ''
]

describe('times under TZ=America/New_York', () => {
  it('every zone-less form the action accepts is UTC; zoned ones keep their zone; each with its precision', () => {
    const got = under(
      'America/New_York',
      `return ${JSON.stringify(PLACED.map(p => p[0]))}.map(t => { const p = values.placeTime(t); return p ? [p.ms, p.precisionMs] : null })`
    )
    expect(got).toEqual(PLACED.map(([, ms, precision]) => [ms, precision]))
  })

  it('a form it cannot place is an unknown time (NaN), never local time', () => {
    const got = under('America/New_York', `return ${JSON.stringify(UNKNOWN)}.map(t => String(values.timeOf(t)))`)
    expect(got).toEqual(UNKNOWN.map(() => 'NaN'))
  })

  it('require-fresh: "2026/11/25 04:43:11", 10 minutes before the step (UTC), is stale; an unknown form is never fresh', () => {
    const start = UTC(2026, 11, 25, 4, 53, 11)
    const got = under(
      'America/New_York',
      `const rules = { expectedStatus: 'up', requireFresh: true }
       const check = t => ({ id: 'chk_1', status: 'up', lastCheckedAt: t })
       const fresh = ledger.openLedger({ id: 'chk_1' }, ${start}, true)
       const at = t => [ledger.decide(fresh, ledger.checkReading(check(t))), judge.judge(check(t), rules).missed]
       return [at('2026/11/25 04:43:11'), at('Nov 25 2026 04:54:00'), at('2026/11/25 04:54:00')]`
    )
    expect(got).toEqual([
      ['before-step', []],
      [
        'unplaceable',
        ['last checked "Nov 25 2026 04:54:00", a time in a form the action cannot read: never counted as fresh']
      ],
      ['new', []]
    ])
  })

  it('since: a date or a time with its offset, the same under any zone', () => {
    const got = under(
      'America/New_York',
      `return [parse.parseSince('2026-11-23'), parse.parseSince('2026-11-23T08:00:00+02:00')]`
    )
    expect(got).toEqual([{ at: UTC(2026, 11, 23) }, { at: UTC(2026, 11, 23, 6) }])
  })
})
