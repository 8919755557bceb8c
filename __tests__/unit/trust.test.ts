/**
 * The rules for trust, at the lowest level that shows each: a
 * resource is never its own duplicate (convergence: list-snapshot.test.ts); secrets are masked in every form and values stay JSON; times
 * without a zone are UTC; whole values are within a reviewer's reach; text
 * from outside never becomes a link, a mention or a reference.
 */
import { describe, expect, it } from '@jest/globals'
import type { Check, Incident } from '../../src/api/schemas.js'
import { findByName } from '../../src/operations/names/check-targets.js'
import { survivorOf, uniqueById } from '../../src/operations/names/converge.js'
import { byTitle } from '../../src/operations/incidents/titles.js'
import { evidenceOf } from '../../src/operations/incidents/evidence.js'
import { PlanEntry, describeChanges, wholeValues } from '../../src/operations/sync/plan.js'
import { planDifferences } from '../../src/operations/sync/plan-file.js'
import { defused } from '../../src/values/markup.js'
import { markdownText } from '../../src/report/text.js'
import { renderSummary } from '../../src/report/summary.js'
import { writeOutputs } from '../../src/report/outputs.js'
import { formsOf, redact, redactValue } from '../../src/secrets/secrets.js'
import { timeOf } from '../../src/values/values.js'
import type { CoreLike } from '../../src/run/runner.js'
import { addFoundSecret } from '../../src/core/context.js'

const NO_EVIDENCE = evidenceOf({ workflow: '', repository: '' })

describe('a resource is never its own duplicate (the same id listed twice is one)', () => {
  const row: Check = { id: 'chk_1', name: 'shop', url: 'https://s.example.com/', type: 'http' }

  it('uniqueById keeps the first of each id', () => {
    expect(uniqueById([row, { ...row }, { ...row, id: 'chk_2' }]).map(c => c.id)).toEqual(['chk_1', 'chk_2'])
  })

  it('findByName: a check listed twice is one check with no duplicates (nothing to remove)', () => {
    expect(findByName([row, { ...row }], 'shop')).toEqual({ check: row, duplicates: [] })
  })

  it('byTitle: an incident listed twice is one incident', () => {
    const incident: Incident = { id: 'inc_1', title: 'Deploy failed', status: 'investigating', message: 'x' }
    expect(byTitle([incident, { ...incident }], 'Deploy failed', NO_EVIDENCE)).toEqual({ incident, duplicates: [] })
  })

  it('survivorOf with the same id twice is that resource', () => {
    expect(survivorOf([row, { ...row }]).id).toBe('chk_1')
  })
})

describe('a secret registered job-wide never registers a short or everyday word among its forms', () => {
  it('%6D%61%69%6E is masked in its own forms, never as "main"', () => {
    const masked: string[] = []
    const runner = { setSecret: (s: string) => void masked.push(s) } as unknown as CoreLike
    const secrets: string[] = []
    addFoundSecret(runner, secrets, '%6D%61%69%6E')
    expect(masked).toContain('%6D%61%69%6E')
    expect(masked).not.toContain('main')
    expect(secrets).toEqual(['%6D%61%69%6E'])
  })
})

describe('secrets in every form', () => {
  const secret = 'p@ss w"o\\rd\t\nx'

  it('every form the action may write is masked: raw, JSON-escaped, percent-encoded (either case, + for space)', () => {
    for (const form of [
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      new URLSearchParams({ t: secret }).toString().slice(2)
    ]) {
      expect(redact(`before ${form} after`, [secret])).toBe('before *** after')
    }
    expect(formsOf('abcd')).toEqual(['abcd'])
  })

  it('a numeric secret masks the number, never a longer one that contains it', () => {
    expect(redact('ttl 3600, not 36000 nor 13600 nor 1.3600; 3600.', ['3600'])).toBe(
      'ttl ***, not 36000 nor 13600 nor 1.3600; ***.'
    )
  })

  it('a secret that holds another is masked whole, never as *** and its rest', () => {
    expect(redact('key abcd1234 and abcd', ['abcd', 'abcd1234'])).toBe('key *** and ***')
    expect(redact('key abcd1234 and abcd', ['abcd1234', 'abcd'])).toBe('key *** and ***')
    // One secret's encoded form holding another secret: abcd1234 in abcd1234%20x.
    expect(redact('?t=abcd1234%20x', ['abcd1234', 'abcd1234 x'])).toBe('?t=***')
  })

  it('values are redacted field by field, then serialised: the JSON stays JSON', () => {
    const value = { tokenTtl: 3600, other: 36000, url: `https://a/?t=${encodeURIComponent(secret)}`, [secret]: 1 }
    const json = JSON.stringify(redactValue(value, ['3600', secret]))
    expect(JSON.parse(json)).toEqual({ tokenTtl: '***', other: 36000, url: 'https://a/?t=***', '***': 1 })
  })

  it('outputs: result stays valid JSON with a numeric secret; text outputs are masked', () => {
    const set: Record<string, string> = {}
    writeOutputs((name, v) => (set[name] = v), { result: { tokenTtl: 3600, n: 36000 }, error: 'failed with 3600' }, [
      '3600'
    ])
    expect(JSON.parse(set.result)).toEqual({ tokenTtl: '***', n: 36000 })
    expect(set.error).toBe('failed with ***')
  })

  it('a plan line is redacted before it is cut: no prefix of a long token shows', () => {
    const token = 'tok_' + 'A1b2C3d4'.repeat(8)
    const entry: PlanEntry = {
      action: 'update',
      name: 'api',
      id: 'chk_1',
      fields: ['url'],
      changes: { url: { from: 'https://a/?token=old', to: `https://a/?token=${token}` } }
    }
    const line = describeChanges(redactValue(entry, [token]))
    expect(line).not.toContain(token.slice(0, 8))
    expect(line).toContain('***')
  })
})

describe('times without a zone are UTC, whatever the runner time zone', () => {
  it('reads an ISO time without a zone as UTC, and leaves zoned ones alone', () => {
    expect(timeOf('2026-11-24T03:30:00')).toBe(Date.UTC(2026, 10, 24, 3, 30, 0))
    expect(timeOf('2026-11-24 03:30:00.250')).toBe(Date.UTC(2026, 10, 24, 3, 30, 0, 250))
    expect(timeOf('2026-11-24T03:30:00+01:00')).toBe(Date.UTC(2026, 10, 24, 2, 30, 0))
    expect(timeOf('2026-11-24T03:30:00Z')).toBe(Date.UTC(2026, 10, 24, 3, 30, 0))
    expect(Number.isNaN(timeOf('yesterday'))).toBe(true)
    expect(Number.isNaN(timeOf(null))).toBe(true)
  })
})

describe('a reviewed plan never hides part of what will be applied', () => {
  const tail = '&notify=https://attacker.example/collect'
  const url = `https://shop.example.com/health?${'region=eu-west&'.repeat(8)}x=1${tail}`
  const plan: PlanEntry[] = [
    { action: 'create', name: 'shop', fields: ['url'], changes: { url: { to: url } } },
    { action: 'delete', name: 'old', id: 'chk_9', fields: ['url'], changes: { url: { from: url } } }
  ]

  it('wholeValues holds each value the table cuts, in full', () => {
    expect(describeChanges(plan[0])).not.toContain('attacker')
    const whole = wholeValues(plan)
    expect(whole).toHaveLength(2)
    for (const line of whole) expect(line).toContain(JSON.stringify(url))
  })

  it('whole values of identical checks of one name name each id, so no two lines read the same', () => {
    const change = { url: { from: 'https://shop.example.com/', to: url } }
    const twins: PlanEntry[] = ['chk_1', 'chk_2'].map(id => ({
      action: 'update',
      name: 'shop',
      id,
      fields: ['url'],
      changes: change
    }))
    const whole = wholeValues(twins)
    expect(whole).toHaveLength(2)
    expect(whole[0]).toMatch(/^update "shop" \(chk_1\) url: /)
    expect(whole[1]).toMatch(/^update "shop" \(chk_2\) url: /)
  })

  it('the summary folds them under the table, whole, where no character of them is live', () => {
    const md = renderSummary(
      { title: 'Plan', lines: [], tables: [], details: [{ title: 'Whole values', lines: wholeValues(plan) }] },
      'sync-checks',
      []
    )
    expect(md).toContain('<details><summary>Whole values</summary>')
    expect(md).toContain(tail)
    expect(md).toMatch(/```+text\n[\s\S]*attacker\.example\/collect[\s\S]*\n```+\n/)
  })

  it('a refused approved plan names what the new entry would change', () => {
    const differences = planDifferences(
      [],
      [
        {
          action: 'update',
          name: 'pr-web',
          id: 'chk_1',
          fields: ['interval'],
          changes: { interval: { from: 45, to: 60 } }
        }
      ]
    )
    expect(differences).toEqual(['now also update "pr-web" (chk_1) (interval: 45 → 60)'])
  })
})

describe('text from outside never becomes a link, a mention or a reference', () => {
  it.each([
    ['https://evil.example/x', /https:\/\//],
    ['see www.evil.example', /www\./],
    ['mail user@example.com', /@example/],
    ['@octocat', /@octocat/],
    ['#123', /#123/],
    ['GH-12', /GH-12/],
    ['deadbeef1234567', /deadbeef1234567/]
  ])('%s', (value, live) => {
    const out = defused(markdownText(value))
    expect(out).not.toMatch(live)
    expect(out.replace(/\u200B/g, '')).toBe(markdownText(value))
  })
})

describe('a secret written percent-encoded comes back decoded', () => {
  it('the decoded form is masked too (a service that decodes ?token=p%40ss%2Fw0rd shows p@ss/w0rd)', () => {
    expect(redact('url: https://shop.example.com/h?token=p@ss/w0rd&v=2', ['p%40ss%2Fw0rd'])).toBe(
      'url: https://shop.example.com/h?token=***&v=2'
    )
    expect(redact('a b+c', ['a+b%2Bc'])).toBe('***')
    // A decoded form shorter than the runner's minimum is not masked everywhere.
    expect(redact('AB here', ['%41%42'])).toBe('AB here')
  })
})
