/**
 * What docs/troubleshooting.md promises is what the code does: identical
 * checks of one name are kept, and the bounds of the duration inputs are the
 * parsers' own. Each promise is checked against the code, next to the
 * sentence that states it.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import type { Check } from '../../src/api/schemas.js'
import { findByName } from '../../src/operations/names/check-targets.js'
import { duplicatesLine } from '../../src/operations/names/duplicates.js'
import { parseInput } from '../../src/inputs/table.js'
import { durationBounds } from '../../scripts/docs.js'

const page = readFileSync(new URL('../../docs/troubleshooting.md', import.meta.url), 'utf8')
const flat = page.replace(/\s+/g, ' ')

describe('identical checks of one name are kept', () => {
  const twin = (id: string, createdAt: string, url = 'https://shop.example.com/'): Check => ({
    id,
    name: 'shop',
    url,
    type: 'http',
    createdAt
  })

  it('a write by name uses the first and names the others, never removing them; once they differ, it fails naming them', () => {
    const checks = [twin('chk_2', '2026-01-02T00:00:00Z'), twin('chk_1', '2026-01-01T00:00:00Z')]
    const named = findByName(checks, 'shop')
    expect(named.check?.id).toBe('chk_1')
    expect(named.duplicates.map(c => c.id)).toEqual(['chk_2'])
    expect(duplicatesLine(named)).toContain(
      'the others (chk_2) are left as they are, since they may have existed before this step and the action never deletes those. Delete the ones you do not want with delete-check and check-id.'
    )
    // The first changed by an upsert: the next lookup by name meets two checks that differ.
    const changed = [twin('chk_2', '2026-01-02T00:00:00Z'), twin('chk_1', '2026-01-01T00:00:00Z', 'https://new/')]
    expect(() => findByName(changed, 'shop')).toThrow(
      /2 checks are named "shop" \(chk_2, chk_1\) and they differ \(url\)/
    )
  })

  it('the page says so, and no longer that the next write removes them', () => {
    expect(flat).toContain(
      '**Duplicates are kept**: identical checks of one name, left by such a run or made by hand, are never removed by a write you did not ask to delete them'
    )
    expect(flat).toContain('Remove the ones you do not want with `delete-check` and their `check-id`, one each')
    expect(flat).not.toMatch(/duplicates left before are removed/)
  })
})

describe('the bounds of the duration inputs', () => {
  const row = page.split('\n').find(line => line.startsWith('| `baseline must be a duration such as')) ?? ''
  const bounds = durationBounds()

  it('the row is the message a duration without days gives past its bound', () => {
    expect(row).not.toBe('')
    expect(() => parseInput('baseline', '7d')).toThrow('(at most 24h; days are not a unit here)')
  })

  it('"at most 24h" holds for every duration input that takes no days; the ones it names take days', () => {
    expect(row).toContain('The input named takes at most `24h`, in `ms`, `s`, `m` or `h`')
    for (const b of bounds.filter(b => !b.days)) expect([b.input, b.maxMs]).toEqual([b.input, 24 * 3_600_000])
    const named = /Only ((?:`[a-z-]+`, )*`[a-z-]+` and `[a-z-]+`), windows of the past, take days/.exec(row)
    expect([...(named?.[1] ?? '').matchAll(/`([a-z-]+)`/g)].map(m => m[1]).sort()).toEqual(
      bounds
        .filter(b => b.days)
        .map(b => b.input)
        .sort()
    )
    expect(row).toContain('[Durations](reference/inputs.md#durations)')
    expect(flat).not.toContain('Every duration input is at most 24h')
  })
})
