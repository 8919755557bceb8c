import { describe, expect, it } from '@jest/globals'
import { MAX_RESULT_BYTES, capText, outputValue } from '../../src/report/outputs.js'
import { JOB_SUMMARY, MAX_SUMMARY_BYTES, PR_COMMENT, renderSummary } from '../../src/report/summary.js'
import { MAX_TABLE_ROWS, type SummaryTable, tableOf } from '../../src/operations/types.js'
import { cutToBytes, logLine, markdownText } from '../../src/report/text.js'

describe('logLine: one line that is never a workflow command', () => {
  it('other control characters are shown as codes, never written (ESC colours a terminal, NUL cuts text)', () => {
    expect(logLine('x\u0000y\u001b[31mz\u007f\u009b\tw')).toBe('x\\u0000y\\u001b[31mz\\u007f\\u009b\tw')
  })

  it.each([
    ['x\n::error::pwned', 'x\\n::error::pwned'],
    ['x\r::error::pwned', 'x\\r::error::pwned'],
    ['x\r\n::error::pwned', 'x\\r\\n::error::pwned'],
    ['x\u2028y\u2029z\u0085w', 'x\\u2028y\\u2029z\\u0085w'],
    ['::stop-commands::token', '\\::stop-commands::token'],
    ['   ::error::indented', '\\   ::error::indented'],
    ['\t::warning::tab', '\\\t::warning::tab'],
    ['plain text: a::b', 'plain text: a::b']
  ])('%j -> %j', (input, expected) => {
    expect(logLine(input)).toBe(expected)
    expect(logLine(input)).not.toMatch(/[\r\n\u2028\u2029\u0085]/)
    expect(logLine(input)).not.toMatch(/^\s*::/)
  })
})

describe('markdownText: values show as written', () => {
  it('control characters become U+FFFD in the summary', () => {
    expect(markdownText('a\u0000b\u001b[31mc')).toBe('a\uFFFDb\uFFFD\\[31mc')
  })

  it.each([
    ['<prod>', '&lt;prod&gt;'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['a|b', 'a\\|b'],
    ['a\rb', 'a b'],
    ['a\r\nb\nc\u2028d', 'a b c d'],
    ['*bold* _em_ `code` [x](y) ~s~', '\\*bold\\* \\_em\\_ \\`code\\` \\[x\\](y) \\~s\\~'],
    ['# heading', '\\# heading'],
    ['- item', '\\- item'],
    ['1. item', '1\\. item'],
    ['&amp;', '&amp;amp;'],
    ['back\\slash', 'back\\\\slash'],
    [undefined, ''],
    [42, '42']
  ])('%j -> %j', (input, expected) => expect(markdownText(input)).toBe(expected))
})

describe('cutToBytes', () => {
  it('cuts at a character boundary and never splits a surrogate pair', () => {
    const text = '€'.repeat(10) + '😀'.repeat(10)
    for (let max = 3; max < Buffer.byteLength(text); max++) {
      const cut = cutToBytes(text, max)
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(max)
      expect(cut).not.toMatch(/\uFFFD/)
      expect(cut.endsWith('…')).toBe(true)
      expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut)
    }
    expect(cutToBytes('short', 10)).toBe('short')
    expect(cutToBytes('€€', 2)).toBe('')
  })
})

describe('sizes are bytes', () => {
  it('a summary of multi-byte names stays under 1 MiB with a "not shown" line', () => {
    const name = '€'.repeat(1000) // 3,000 bytes, 1,000 characters
    const rows = Array.from({ length: 450 }, (_, i) => [name, `chk_${i}`])
    const text = renderSummary(
      { title: 'Checks', lines: [], tables: [{ head: ['Check', 'ID'], rows }] },
      'list-checks',
      []
    )
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SUMMARY_BYTES)
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024)
    const shown = text.split('\n').filter(l => l.startsWith('| €')).length
    expect(shown).toBeGreaterThan(250)
    expect(text).toContain(`_${450 - shown} more rows not shown._`)
  })

  it('a table that lists only the rows a reader is shown, with its total, renders as the whole table does', () => {
    const checks = Array.from({ length: 2000 }, (_, i) => ({ name: `fleet-${i}`, id: `chk_${i}` }))
    const whole = { head: ['Check', 'ID'], rows: checks.map(c => [c.name, c.id]) }
    const listed = tableOf(['Check', 'ID'], checks, c => [c.name, c.id])
    expect(listed.rows).toHaveLength(MAX_TABLE_ROWS)
    expect(listed.total).toBe(2000)
    for (const options of [JOB_SUMMARY, PR_COMMENT]) {
      const render = (table: SummaryTable) =>
        renderSummary({ title: 'Checks', lines: [], tables: [table] }, 'list-checks', [], options)
      expect(render(listed)).toBe(render(whole))
    }
    expect(renderSummary({ title: 'Checks', lines: [], tables: [whole] }, 'list-checks', [])).toContain(
      '_1500 more rows not shown._'
    )
    expect(tableOf(['Check'], checks.slice(0, 3), c => [c.name])).toEqual({
      head: ['Check'],
      rows: [['fleet-0'], ['fleet-1'], ['fleet-2']]
    })
  })

  it('one huge value is cut inside its cell, the row still renders', () => {
    const text = renderSummary(
      { title: 'Check', lines: ['😀'.repeat(100_000)], tables: [{ head: ['Check'], rows: [['€'.repeat(100_000)]] }] },
      'get-check',
      []
    )
    expect(Buffer.byteLength(text)).toBeLessThan(40 * 1024)
    expect(text).toMatch(/^\| €+… \|$/m)
  })

  it('the result output is capped in bytes, not characters', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ id: `chk_${i}`, name: '€'.repeat(1000) }))
    const json = JSON.stringify(items)
    expect(json.length).toBeLessThan(512 * 1024)
    expect(Buffer.byteLength(json)).toBeGreaterThan(512 * 1024)
    const value = JSON.parse(outputValue('result', items)) as { truncated: boolean; note: string }
    expect(value.truncated).toBe(true)
    expect(value.note).toContain(`result (200 items) is ${Buffer.byteLength(json)} bytes`)
  })
})

describe('capText: a text output within the cap', () => {
  it('at the cap exactly: as it is; one byte more: cut, with the note, within the cap', () => {
    const at = 'a'.repeat(MAX_RESULT_BYTES)
    expect(capText('check-name', at)).toBe(at)
    const over = capText('check-name', `${at}b`)
    expect(Buffer.byteLength(over)).toBe(MAX_RESULT_BYTES)
    expect(over).toMatch(/a… \[truncated: check-name is 524289 bytes, more than the 524288 an output holds here\]$/)
  })

  it('never cuts a character in two (a four-byte emoji across the cut)', () => {
    const text = `${'a'.repeat(MAX_RESULT_BYTES - 100)}${'😀'.repeat(100)}`
    const out = capText('error', text)
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(MAX_RESULT_BYTES)
    expect(Buffer.from(out).toString('utf8')).toBe(out)
    expect(out).not.toContain('\ufffd')
    expect(out.split(' [truncated')[0].endsWith('😀…')).toBe(true)
  })
})
