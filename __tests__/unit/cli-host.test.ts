/**
 * The command's host: the log on standard error as plain lines, a failure
 * kept for the door to tell once, and progress rewritten on one line in a
 * terminal (a line each in a log), cleared before any other line.
 */
import { describe, expect, it } from '@jest/globals'
import { commandHost } from '../../src/cli/host.js'

function host(terminal: boolean, colour = false) {
  let text = ''
  const h = commandHost({
    inputs: { 'check-name': '  shop  ' },
    write: (t, newline = true) => void (text += newline ? `${t}\n` : t),
    debug: false,
    colour,
    terminal
  })
  return { h, text: () => text }
}

describe('the command host', () => {
  it('hands inputs trimmed, as the runner does, and empty when not given', () => {
    const { h } = host(false)
    expect(h.getInput('check-name')).toBe('shop')
    expect(h.getInput('check-id')).toBe('')
  })

  it('writes plain lines; warnings and notices say so; debug only with --debug; failures are kept, not written', () => {
    const { h, text } = host(false)
    h.info('one')
    h.warning('careful', { file: 'checks.yml', startLine: 3 })
    h.notice('note')
    h.debug('hidden')
    h.setFailed('broke')
    h.error('also', { file: 'f.yml' })
    expect(text()).toBe('one\nwarning: careful (checks.yml:3)\nnotice: note\n')
    expect(h.failures()).toEqual(['broke', 'also (f.yml)'])
  })

  it('colours the warning word only when asked', () => {
    const { h, text } = host(true, true)
    h.warning('x')
    expect(text()).toBe('\u001b[33mwarning:\u001b[0m x\n')
  })

  it('in a log, progress is a line each', () => {
    const { h, text } = host(false)
    h.progress?.('Poll 1: 0 of 2 passed')
    h.progress?.('Poll 2: 1 of 2 passed')
    expect(text()).toBe('Poll 1: 0 of 2 passed\nPoll 2: 1 of 2 passed\n')
  })

  it('in a terminal, progress rewrites one line, and the next plain line clears it first', () => {
    const { h, text } = host(true)
    h.progress?.('Poll 1: 0 of 2 passed')
    h.progress?.('Poll 2: 1 of 2 passed')
    h.info('Gate passed')
    h.info('done')
    expect(text()).toBe('Poll 1: 0 of 2 passed\r\u001b[KPoll 2: 1 of 2 passed\r\u001b[KGate passed\ndone\n')
  })

  it('keeps outputs in the order set, state in the process, and the summary', async () => {
    const { h } = host(false)
    h.setOutput('b', '2')
    h.setOutput('a', '1')
    h.setOutput('b', '3')
    expect([...h.outputs]).toEqual([
      ['b', '3'],
      ['a', '1']
    ])
    h.saveState('paused', '["chk_1"]')
    expect(h.getState('paused')).toBe('["chk_1"]')
    expect(h.getState('other')).toBe('')
    await h.summary.addRaw('### One\n').write()
    await h.summary.addRaw('more\n').write()
    expect(h.summaryText()).toBe('### One\nmore\n')
  })
})
