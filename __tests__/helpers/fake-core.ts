/** A CoreLike that records everything, for in-process runs of run(). */
import type { Annotation, CoreLike } from '../../src/run/runner.js'

export interface FakeCore extends CoreLike {
  inputs: Record<string, string>
  outputs: Record<string, string>
  state: Record<string, string>
  failed?: string
  secrets: string[]
  logs: string[]
  summaryText: string
  /** Warnings and errors that point at a place in a file. */
  annotations: Array<Annotation & { kind: 'warning' | 'error'; message: string }>
  /** The name of every core function called, in order. */
  calls: string[]
  /** Every line any channel printed (logs, failure, summary, outputs). */
  everything: () => string
}

export function fakeCore(inputs: Record<string, string>, state: Record<string, string> = {}): FakeCore {
  const fake: FakeCore = {
    inputs,
    outputs: {},
    state: { ...state },
    secrets: [],
    logs: [],
    summaryText: '',
    annotations: [],
    getInput: name => fake.inputs[name] ?? '',
    setSecret: s => void fake.secrets.push(s),
    setOutput: (name, value) => void (fake.outputs[name] = value),
    setFailed: message => void (fake.failed = message),
    info: m => void fake.logs.push(`info: ${m}`),
    debug: m => void fake.logs.push(`debug: ${m}`),
    warning: (m, place) => {
      fake.logs.push(`warning: ${m}`)
      if (place) fake.annotations.push({ kind: 'warning', message: m, ...place })
    },
    error: (m, place) => {
      // Only a failure with a place in a file is an error annotation (ActionLog.fail).
      fake.failed = m
      fake.annotations.push({ kind: 'error', message: m, ...place })
    },
    notice: m => void fake.logs.push(`notice: ${m}`),
    startGroup: n => void fake.logs.push(`group: ${n}`),
    endGroup: () => void fake.logs.push('endgroup'),
    saveState: (n, v) => void (fake.state[n] = v),
    getState: n => fake.state[n] ?? '',
    summary: {
      addRaw: (text: string) => ({
        write: async () => {
          fake.summaryText += text
        }
      })
    },
    calls: [],
    everything: () => [...fake.logs, fake.failed ?? '', fake.summaryText, JSON.stringify(fake.outputs)].join('\n')
  }
  for (const name of [
    'getInput',
    'setSecret',
    'setOutput',
    'setFailed',
    'info',
    'debug',
    'warning',
    'startGroup',
    'endGroup',
    'saveState',
    'getState'
  ] as const) {
    const original = fake[name] as (...args: never[]) => unknown
    ;(fake as unknown as Record<string, unknown>)[name] = (...args: never[]) => {
      fake.calls.push(name)
      return original(...args)
    }
  }
  return fake
}
