/**
 * pause-check, resume-check and the post step at their edges
 * (src/operations/checks/pause.ts; contract: "pause-check", "auto-resume",
 * "A fleet acts on each check as it is right before the write"): what each
 * says in its log and summary, a check read again right before its write
 * (deleted, paused by someone, unreadable), a failure half-way, dry-run, and
 * what the post step says of each recorded check.
 */
import { describe, expect, it } from '@jest/globals'
import { recordedPauses } from '../../src/operations/checks/pause.js'
import { resultOf, runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()
const url = 'https://shop.example.com/health'
const seed = (id: string, status: string, name = id) => emulator.seedCheck({ id, name, url, status })
const statuses = (...ids: string[]) => ids.map(id => emulator.checks.get(id)?.status)
const pause = (inputs: Record<string, string>) => runAction(emulator, { operation: 'pause-check', ...inputs })
const resume = (inputs: Record<string, string>) => runAction(emulator, { operation: 'resume-check', ...inputs })

describe('what pause-check and resume-check say', () => {
  it('pause: each check paused or left, the ids paused, and what the post step will do', async () => {
    seed('cka', 'up')
    seed('ckb', 'paused')
    seed('ckc', 'down')
    const { core } = await pause({ 'check-name': 'cka, ckb, ckc', 'auto-resume': 'true' })
    expect(core.failed).toBeUndefined()
    expect(core.logs).toEqual(
      expect.arrayContaining([
        'info: cka (cka) is now paused.',
        'info: ckb (ckb) is paused: nothing to send.',
        'info: ckc (ckc) is now paused.'
      ])
    )
    expect(core.summaryText).toContain('Checks paused')
    expect(core.summaryText).toContain('Paused: cka, ckc.')
    expect(core.summaryText).toContain('The post step resumes, when the job ends, the checks this step paused.')
    const again = await pause({ 'check-name': 'cka' })
    expect(again.core.summaryText).toContain('All were already paused: nothing sent.')
    expect(again.core.summaryText).not.toContain('The post step resumes')
  })

  it('resume: each check resumed or left (a check without a status named so), the ids resumed', async () => {
    seed('cka', 'paused')
    seed('ckb', '')
    seed('ckc', 'paused')
    const { core } = await resume({ 'check-name': 'cka, ckb, ckc' })
    expect(core.failed).toBeUndefined()
    expect(core.logs).toContain('info: ckb (ckb) is without status: nothing to send.')
    expect(core.summaryText).toContain('Checks resumed')
    expect(core.summaryText).toContain('Resumed: cka, ckc.')
    const again = await resume({ 'check-name': 'cka' })
    expect(again.core.logs).toContain('info: cka (cka) is up: nothing to send.')
    expect(again.core.summaryText).toContain('None was paused: nothing sent.')
  })

  it('dry-run: the writes it would send, the result as it would be, and nothing sent', async () => {
    seed('cka', 'up')
    seed('ckb', 'up')
    const { core } = await pause({ 'check-name': 'cka, ckb', 'dry-run': 'true' })
    expect(core.logs.filter(l => l.startsWith('info: [dry-run] would send PUT /checks/'))).toHaveLength(2)
    expect(core.summaryText).toContain('Would pause: cka, ckb.')
    expect(resultOf(core)).toEqual([
      expect.objectContaining({ id: 'cka', status: 'paused' }),
      expect.objectContaining({ id: 'ckb', status: 'paused' })
    ])
    expect(statuses('cka', 'ckb')).toEqual(['up', 'up'])
    seed('ckp', 'paused')
    const back = await resume({ 'check-name': 'ckp', 'dry-run': 'true' })
    expect(back.core.summaryText).toContain('Would resume: ckp.')
    expect(statuses('ckp')).toEqual(['paused'])
  })
})

describe('each check as it is right before its write', () => {
  it('a check read by id is read again once an earlier write of the step was made', async () => {
    seed('cka', 'up')
    seed('ckb', 'up')
    await pause({ 'check-id': 'cka\nckb' })
    const order = emulator.requests.map(r => `${r.method} ${r.path.replace(/^\/v\d+/, '')}`)
    const put = order.indexOf('PUT /checks/cka')
    const reread = order.indexOf('GET /checks/ckb', put)
    expect(put).toBeGreaterThan(-1)
    expect(reread).toBeGreaterThan(put)
    expect(order.indexOf('PUT /checks/ckb')).toBeGreaterThan(reread)
  })

  it('deleted meanwhile: skipped with a note; unreadable: a failure that names what was already done', async () => {
    seed('cka', 'up')
    seed('ckb', 'up')
    seed('ckc', 'up')
    emulator.inject({ method: 'GET', path: '/checks/ckb', status: 404 })
    const gone = await pause({ 'check-name': 'cka, ckb, ckc' })
    expect(gone.core.failed).toBeUndefined()
    expect(gone.core.logs).toContain('info: ckb (ckb) was deleted meanwhile: nothing to send.')
    expect(gone.core.summaryText).toContain('Paused: cka, ckc.')
    await resume({ 'check-name': 'cka, ckc' })
    emulator.inject({ method: 'GET', path: '/checks/ckc', status: 400, body: { error: 'no' } })
    const half = await pause({ 'check-name': 'cka, ckb, ckc' })
    expect(half.core.failed).toMatch(/GET \/checks\/ckc.*400.*\(already set to paused: cka, ckb\)$/)
    expect(half.core.outputs.changed).toBe('true')
    expect(statuses('cka', 'ckb', 'ckc')).toEqual(['paused', 'paused', 'up'])
  })

  it('a failure at the first write names nothing done, and changed is false', async () => {
    seed('cka', 'up')
    emulator.inject({ method: 'PUT', path: '/checks/cka', status: 400, body: { error: 'locked' } })
    const { core } = await pause({ 'check-id': 'cka' })
    expect(core.failed).toBe('PUT /checks/cka failed: HTTP 400 Bad Request: locked')
    expect(core.outputs.changed).toBe('false')
  })

  it('identical duplicates, one paused by someone before its write: changed alike is said, since one was', async () => {
    seed('ck1', 'up', 'dup')
    seed('ck2', 'up', 'dup')
    emulator.afterAnswer = record => {
      if (record.method === 'PUT') Object.assign(emulator.checks.get('ck2') ?? {}, { status: 'paused' })
    }
    try {
      const { core } = await pause({ 'check-name': 'dup' })
      expect(core.failed).toBeUndefined()
      expect(core.summaryText).toContain('Paused: ck1.')
      expect(
        core.logs.some(l => l.includes('2 identical checks are named "dup" (ck1, ck2): each was changed alike'))
      ).toBe(true)
    } finally {
      emulator.afterAnswer = undefined
    }
  })
})

describe('the post step', () => {
  const inputs = { operation: 'pause-check', 'check-id': 'cka', 'auto-resume': 'true' }
  const long = Date.now() - 3_600_000 // sent an hour ago: past any request timeout, watched by one read
  const post = (paused: string[], unanswered: unknown[] = []) =>
    runAction(emulator, inputs, {
      state: {
        'paused-check-ids': JSON.stringify(paused),
        ...(unanswered.length > 0 ? { 'unanswered-writes': JSON.stringify(unanswered) } : {})
      }
    })

  it('resumes the paused ones in the order recorded, answered or not, and says which', async () => {
    seed('ckx', 'paused')
    seed('cky', 'paused')
    // ckx's pause was never answered: it is watched, after cky is resumed.
    const { core } = await post(['ckx', 'cky'], [{ id: 'ckx', name: 'ckx', status: 'paused', sentAt: long }])
    expect(core.failed).toBeUndefined()
    expect(statuses('ckx', 'cky')).toEqual(['up', 'up'])
    expect(core.logs).toContain('info: auto-resume: ckx was paused: resumed.') // by the watch
    expect(core.logs).toContain('info: auto-resume: resumed 2 check(s) this job paused: ckx (ckx), cky (cky).')
    expect(core.summaryText).toContain('auto-resume: checks resumed')
  })

  it('a recorded check gone, resumed by someone or without a status is left alone, said at debug level', async () => {
    seed('cky', 'up')
    seed('ckz', '')
    const { core } = await post(['ckx', 'cky', 'ckz'])
    expect(core.failed).toBeUndefined()
    expect(core.logs).toEqual(
      expect.arrayContaining([
        'debug: auto-resume: ckx no longer exists: nothing to resume.',
        'debug: auto-resume: cky is up, not paused: left alone.',
        'debug: auto-resume: ckz is without status, not paused: left alone.'
      ])
    )
    expect(core.summaryText).toBe('')
  })

  it('every failure is tried and reported together; a write without an answer it does not undo (not a recorded pause) is named apart', async () => {
    seed('ckx', 'paused')
    seed('cky', 'paused')
    emulator.inject({ method: 'PUT', status: 400, body: { error: 'locked' }, times: 2 })
    const failing = await post(['ckx', 'cky'])
    expect(failing.core.failed).toMatch(
      /^auto-resume could not resume 2 of 2 check\(s\) this job paused; they stay paused until resumed by hand: ckx: .*locked.* \| cky: .*locked/
    )
    expect(failing.core.summaryText).toContain('auto-resume failed')
    const other = await post([], [{ id: 'ckw', name: 'w', status: 'up', sentAt: long }])
    expect(other.core.failed).toBeUndefined()
    expect(other.core.summaryText).toContain('Writes without an answer')
    expect(other.core.summaryText).toContain('was never answered')
  })

  it('a watched pause that cannot be resumed fails the step', async () => {
    seed('ckx', 'paused')
    emulator.inject({ method: 'PUT', path: '/checks/ckx', status: 400, body: { error: 'locked' } })
    const { core } = await post(['ckx'], [{ id: 'ckx', name: 'ckx', status: 'paused', sentAt: long }])
    expect(core.failed).toMatch(/could not resume 1 of 1 check\(s\).*ckx: .*locked/)
  })
})

describe('the recorded pauses (the state the post step reads)', () => {
  it('a JSON list of ids; anything else, or an entry that is not an id, is none', () => {
    expect(recordedPauses('')).toEqual([])
    expect(recordedPauses('not json')).toEqual([])
    expect(recordedPauses('{"0":"cka"}')).toEqual([])
    expect(recordedPauses('["cka", 1, "", null, "ckb"]')).toEqual(['cka', 'ckb'])
  })
})
