/**
 * The gate's outcomes: consecutive passes, the three outcomes, failed-checks, the JUnit
 * report, and the summary. The emulator does not probe here: a scripted clock
 * sets each check's next result between polls, so every count is exact.
 */
import { describe, expect, it } from '@jest/globals'
import { EventEmitter } from 'node:events'
import { XMLParser } from 'fast-xml-parser'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { realClock } from '../../src/api/pacer.js'
import { SCRIPT_START, type ScriptedResult, runAction, useEmulator, scriptedClock } from '../helpers/harness.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'gate-outcomes-'))
const START = SCRIPT_START
const at = (s: number) => new Date(START + s * 1000).toISOString()

type Result = ScriptedResult

function gate(inputs: Record<string, string>, script: Record<string, Result[]>) {
  for (const [id, results] of Object.entries(script)) Object.assign(emulator.checks.get(id) as object, results[0])
  return runAction(
    emulator,
    { operation: 'wait-for-check', 'poll-interval': '1s', timeout: '20s', 'require-fresh': 'false', ...inputs },
    { clock: scriptedClock(emulator, script), env: { GITHUB_WORKSPACE: dir } }
  )
}

const up = (s: number, responseTime = 100): Result => ({ status: 'up', lastCheckedAt: at(s), responseTime })
const down = (s: number): Result => ({ status: 'down', lastCheckedAt: at(s), responseTime: 900 })

describe('consecutive-passes', () => {
  it('counts results in a row with distinct lastCheckedAt: a repeat never counts twice, a miss resets', async () => {
    const c = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const { core } = await gate(
      { 'check-id': c.id, 'consecutive-passes': '3' },
      {
        // poll:  1      2 (same)  3      4 (miss)  5      6      7
        [c.id]: [up(1), up(1), up(2), down(3), up(4), up(5), up(6)]
      }
    )
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed', 'failed-checks': '[]' })
    const progress = core.logs.filter(l => l.startsWith('info: shop ')).map(l => l.slice(l.lastIndexOf(': ') + 2))
    expect(progress).toEqual([
      'met the condition (1/3)',
      'no new result since the last poll (1/3)',
      'met the condition (2/3)',
      'status is down, expected up (0/3)',
      'met the condition (1/3)',
      'met the condition (2/3)',
      'passed (3/3)'
    ])
    expect(core.summaryText).toContain('| shop | ✅↺✅❌✅✅✅ | 100 / 233 / 900 | ▁▁█▁▁▁ |') // the timeline, oldest first
  })

  it('results the service recorded between two polls count too: a check that flips faster than the polls never passes', async () => {
    const c = emulator.seedCheck({ name: 'flapping', url: 'https://flap.example.com/' })
    const entry = (r: Result) => ({ status: r.status, responseTime: r.responseTime, checkedAt: r.lastCheckedAt })
    // Each poll sees an up; between every two polls the service also recorded a down.
    const seen = [up(1), up(3), up(5), up(7)]
    const history = [up(1), down(2), up(3), down(4), up(5), down(6), up(7)].map(entry).reverse()
    emulator.history.set(c.id, history)
    // 4 s: the last new result is seen at 3 s, before the deadline (a history read at the deadline itself is
    // never sent: its answer could not count); the poll at 4 s sees it again.
    const { core } = await gate({ 'check-id': c.id, 'consecutive-passes': '2', timeout: '4s' }, { [c.id]: seen })
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    const progress = core.logs.filter(l => l.startsWith('info: flapping ')).map(l => l.slice(l.lastIndexOf(': ') + 2))
    expect(progress).toEqual([...Array(4).fill('met the condition (1/2)'), 'no new result since the last poll (1/2)'])
    expect(core.summaryText).toContain('✅❌✅❌✅❌✅') // every result, in order
    // One history read per poll that saw a newer result, no more.
    expect(emulator.requests.filter(r => r.path.endsWith('/history'))).toHaveLength(3)

    // The same polls, blind to the results in between, would have passed at the second poll.
    emulator.history.set(c.id, [])
    const blind = await gate({ 'check-id': c.id, 'consecutive-passes': '2', timeout: '3s' }, { [c.id]: seen })
    expect(blind.core.outputs).toMatchObject({ passed: 'true' })
  })

  it('an older result coming back (A, B, A), or the same time written another way, never counts again', async () => {
    const c = emulator.seedCheck({ name: 'aba', url: 'https://aba.example.com/' })
    const sameTimeOtherSpelling = { status: 'up', lastCheckedAt: at(2).replace('.000Z', 'Z'), responseTime: 100 }
    const { core } = await gate(
      { 'check-id': c.id, 'consecutive-passes': '3', timeout: '5s' },
      {
        [c.id]: [up(1), up(2), up(1), sameTimeOtherSpelling, up(2)]
      }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'timed-out' })
    expect(JSON.parse(core.outputs['failed-checks'])[0].reason).toBe('met the condition in 2 of 3 results in a row')
  })

  it('a result that now misses resets the count even when its lastCheckedAt is one already seen', async () => {
    const c = emulator.seedCheck({ name: 'flip', url: 'https://flip.example.com/' })
    const { core } = await gate(
      { 'check-id': c.id, 'consecutive-passes': '2', timeout: '5s' },
      {
        [c.id]: [up(1), { status: 'down', lastCheckedAt: at(1), responseTime: 100 }, up(2)]
      }
    )
    const progress = core.logs.filter(l => l.startsWith('info: flip ')).map(l => l.slice(l.lastIndexOf(': ') + 2))
    expect(progress.slice(0, 3)).toEqual([
      'met the condition (1/2)',
      'status is down, expected up (0/2)',
      'met the condition (1/2)'
    ])
    expect(core.outputs.outcome).toBe('timed-out')
  })

  it('with the default of 1, one fresh result that meets the condition passes at once', async () => {
    const c = emulator.seedCheck({ name: 'one', url: 'https://one.example.com/' })
    const { core } = await gate({ 'check-id': c.id }, { [c.id]: [up(1)] })
    expect(core.outputs).toMatchObject({ passed: 'true', outcome: 'passed' })
    expect(core.logs.filter(l => l.startsWith('group: Poll'))).toHaveLength(1)
  })
})

describe('outcomes', () => {
  it('timed-out: failed-checks names the failing check and why; the single-check outputs describe it', async () => {
    const good = emulator.seedCheck({ name: 'good', url: 'https://good.example.com/' })
    const stuck = emulator.seedCheck({ name: 'stuck', url: 'https://stuck.example.com/' })
    const { core } = await gate(
      { 'check-id': `${good.id},${stuck.id}`, 'consecutive-passes': '2', timeout: '5s', 'junit-file': 'gate.xml' },
      { [good.id]: [up(1), up(2)], [stuck.id]: [up(1)] }
    )
    expect(core.outputs).toMatchObject({
      passed: 'false',
      outcome: 'timed-out',
      'check-id': stuck.id,
      'check-name': 'stuck'
    })
    expect(JSON.parse(core.outputs['failed-checks'])).toEqual([
      {
        id: stuck.id,
        name: 'stuck',
        status: 'up',
        responseTime: 100,
        lastCheckedAt: at(1),
        reason: 'met the condition in 1 of 2 results in a row'
      }
    ])
    expect(core.failed).toContain('1 of 2 check(s) did not pass within 5 s')
    expect(core.summaryText).toContain('Release gate closed: the time ran out')
  })

  it('error: an API failure ends the gate with outcome error, the pending checks and the reason', async () => {
    const c = emulator.seedCheck({ name: 'api-down', url: 'https://a.example.com/' })
    const clock = scriptedClock(emulator, { [c.id]: [down(1)] })
    const sleep = clock.sleep
    clock.sleep = async (ms, signal) => {
      emulator.inject({ status: 500, body: { message: 'database on fire' }, times: Infinity })
      return sleep(ms, signal)
    }
    Object.assign(emulator.checks.get(c.id) as object, down(1))
    const { core } = await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, 'poll-interval': '1s', timeout: '20s', 'max-retries': '0' },
      { clock, env: { GITHUB_WORKSPACE: dir } }
    )
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error', 'check-id': c.id })
    const [failed] = JSON.parse(core.outputs['failed-checks']) as Array<{ reason: string }>
    expect(failed.reason).toMatch(
      /^the gate ended with an error: GET \/checks\/chk_\w+ failed: HTTP 500.*database on fire/
    )
    expect(core.failed).toMatch(/HTTP 500/)
    expect(core.summaryText).toContain('Release gate ended with an error')
  })

  it('error: a cancel (SIGINT) during the wait ends the gate at once with outcome error and the pending checks', async () => {
    const c = emulator.seedCheck({ name: 'waiting', url: 'https://w.example.com/', status: 'down' })
    const signals = new EventEmitter()
    const running = runAction(
      emulator,
      {
        operation: 'wait-for-check',
        'check-id': c.id,
        timeout: '30s',
        'poll-interval': '5s',
        'junit-file': 'cancel.xml'
      },
      { clock: realClock, signals, env: { GITHUB_WORKSPACE: dir } }
    )
    setTimeout(() => signals.emit('SIGINT'), 300)
    const started = Date.now()
    const { core } = await running
    expect(Date.now() - started).toBeLessThan(3000)
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error', 'check-id': c.id })
    expect(JSON.parse(core.outputs['failed-checks'])[0].reason).toBe(
      'the gate ended with an error: wait-for-check was cancelled before the checks passed'
    )
    expect(readFileSync(join(dir, 'cancel.xml'), 'utf8')).toContain('<error type="error"')
  })

  it('error: a bad input still sets outcome and passed; failed-checks is not [] (which says the gate passed)', async () => {
    const { core } = await runAction(emulator, { operation: 'wait-for-check', 'check-id': 'chk_1', timeout: 'soon' })
    expect(core.outputs).toMatchObject({ passed: 'false', outcome: 'error' })
    expect(core.outputs['failed-checks']).toBeUndefined()
    expect(core.failed).toMatch(/^timeout /)
    expect(emulator.count()).toBe(0)
  })
})

describe('the timeout', () => {
  it('no request starts more than a second after it, even inside one slow round', async () => {
    const ids = ['a', 'b', 'c', 'd'].map(
      n => emulator.seedCheck({ name: `slow-${n}`, url: 'https://s.example.com/' }).id
    )
    // 550 ms a read: the lookups end about 2.2 s in, 300 ms before the last moment a poll may start (1.5 s
    // + 1 s of grace); that poll ends about 2.75 s in, 250 ms after it: room both ways on a loaded machine.
    emulator.latency = { GET: 550 }
    try {
      const before = Date.now()
      const { core } = await runAction(
        emulator,
        { operation: 'wait-for-check', 'check-id': ids.join(','), timeout: '1500ms', 'poll-interval': '100ms' },
        { clock: realClock, env: { GITHUB_WORKSPACE: dir } }
      )
      const polls = emulator.requests.filter(r => r.method === 'GET').map(r => r.at - before)
      // the 4 lookups, then one poll; none starts after 1.5 s + 1 s of grace (a timer's lateness allowed: the
      // next poll, were it sent, would start after the 550 ms read, 2.75 s or later)
      expect(polls.length).toBe(5)
      expect(Math.max(...polls)).toBeLessThan(2_650)
      expect(core.outputs.outcome).toBe('timed-out')
      expect(core.failed).toContain('polling stopped early: the time ran out during the poll')
    } finally {
      emulator.latency = {}
    }
  })
})

describe('junit-file', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' })

  it('one testsuite, a testcase per check with its time, a failure with the reason; hostile names stay data', async () => {
    const ok = emulator.seedCheck({ name: 'ok <b>&"quoted"', url: 'https://ok.example.com/' })
    const bad = emulator.seedCheck({ name: 'bad\u0001 ]]> </testcase>', url: 'https://bad.example.com/' })
    await gate(
      { 'check-id': `${ok.id},${bad.id}`, timeout: '3s', 'junit-file': 'report.xml' },
      { [ok.id]: [down(1), up(2)], [bad.id]: [down(1)] }
    )
    const xml = readFileSync(join(dir, 'report.xml'), 'utf8')
    const doc = parser.parse(xml) as {
      testsuites: {
        testsuite: { tests: string; failures: string; errors: string; testcase: Array<Record<string, unknown>> }
      }
    }
    const suite = doc.testsuites.testsuite
    expect(suite).toMatchObject({ tests: '2', failures: '1', errors: '0' })
    const [passed, failed] = suite.testcase
    expect(passed).toMatchObject({ name: `ok <b>&"quoted" (${ok.id})`, classname: 'wait-for-check', time: '1.000' })
    expect(passed.failure).toBeUndefined()
    expect(failed).toMatchObject({ name: `bad ]]> </testcase> (${bad.id})` })
    expect(failed.failure).toMatchObject({ type: 'timed-out', message: 'status is down, expected up' })
    // The text adds what the message does not say (the check's last result), never the message again.
    expect((failed.failure as Record<string, string>)['#text']).toMatch(
      /^bad \]\]> <\/testcase> \(chk_\w+\): status down, response time 900 ms, checked /
    )
    expect((failed.failure as Record<string, string>)['#text']).not.toContain('status is down, expected up')
    expect(Number(failed.time)).toBeGreaterThanOrEqual(3)
  })

  it('written on an error too, with <error>; a path that cannot be written is an error naming junit-file', async () => {
    const c = emulator.seedCheck({ name: 'e', url: 'https://e.example.com/' })
    emulator.inject({ status: 500, times: Infinity })
    await runAction(
      emulator,
      { operation: 'wait-for-check', 'check-id': c.id, 'max-retries': '0', 'junit-file': 'error.xml' },
      { env: { GITHUB_WORKSPACE: dir } }
    )
    const doc = parser.parse(readFileSync(join(dir, 'error.xml'), 'utf8')) as {
      testsuites: { testsuite: { errors: string; testcase: { error: { type: string } } } }
    }
    expect(doc.testsuites.testsuite.errors).toBe('1')
    expect(doc.testsuites.testsuite.testcase.error.type).toBe('error')
    emulator.reset()
    const d = emulator.seedCheck({ name: 'w', url: 'https://w.example.com/' })
    writeFileSync(join(dir, 'a-file'), '')
    const { core } = await gate({ 'check-id': d.id, 'junit-file': 'a-file/r.xml' }, { [d.id]: [up(1)] })
    // the report is a warning; the gate's own result stands
    expect(core.failed).toBeUndefined()
    expect(core.outputs).toMatchObject({ outcome: 'passed', passed: 'true' })
    expect(core.logs.find(l => l.startsWith('warning: junit-file'))).toMatch(
      /^warning: junit-file a-file\/r.xml: cannot write .* \((ENOTDIR|EEXIST)\); the gate's result is in the outputs and the summary\.$/
    )
    // A folder that does not exist yet is made for the report.
    const made = await gate({ 'check-id': d.id, 'junit-file': 'reports/gate/r.xml' }, { [d.id]: [up(1)] })
    expect(made.core.logs.filter(l => l.startsWith('warning: '))).toEqual([])
    expect(readFileSync(join(dir, 'reports/gate/r.xml'), 'utf8')).toContain('<testsuite')
  })
})

describe('the gate summary', () => {
  it('marks each check, shows relative times, the timeline and response-time figures, escaped', async () => {
    const a = emulator.seedCheck({ name: 'web | <img src=x>', url: 'https://w.example.com/' })
    const p = emulator.seedCheck({ name: 'paused-one', url: 'https://p.example.com/' })
    const { core } = await gate(
      { 'check-id': `${a.id},${p.id}`, timeout: '2s' },
      { [a.id]: [up(-12, 120), up(1, 80), up(2, 100)], [p.id]: [{ status: 'paused', lastCheckedAt: at(-3600) }] }
    )
    const text = core.summaryText
    expect(text).toContain('### Release gate closed: the time ran out')
    expect(text).toMatch(/\| ✅ \| web \\\| &lt;img src=x&gt; \|/)
    expect(text).toContain('| ⏸ | paused-one |')
    expect(text).toContain('14 s ago (07:59:48 UTC)') // the summary is written 2 s after the start
    expect(text).toContain('1 h ago')
    expect(text).toContain('| 120 / 120 / 120 |')
    expect(text).not.toContain('<img')
    expect(text.replace(/chk\\_[0-9a-f]+/g, 'chk\\_ID')).toMatchSnapshot()
  })
})
