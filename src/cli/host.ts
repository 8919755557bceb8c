/**
 * What the command is to the core in place of the Actions runner: inputs come
 * from the flags and the environment; the log goes to standard error as plain
 * lines (never a `::` workflow command); outputs are kept for the one JSON
 * object on standard output; state stays in the process (the post stage runs
 * in it, after the wrapped command); the summary is kept for `--summary`.
 */
import type { Annotation, CoreLike } from '../run/runner.js'
import type { RawInputs } from '../inputs/table.js'

export interface CommandHost extends CoreLike {
  /** The outputs set so far, by name, in the order first set. */
  readonly outputs: Map<string, string>
  /** The failures the core told (setFailed or an error annotation; the pause's, then the resume's): the door tells them. */
  readonly failures: () => readonly string[]
  /** The summary's Markdown, as the runner's job summary would get it. */
  readonly summaryText: () => string
}

export interface HostOptions {
  inputs: RawInputs
  /** Where the log goes (standard error): a line, or (`newline` false) text that stays on the line. */
  write: (text: string, newline?: boolean) => void
  debug: boolean
  /** Colour for the words that start warnings and errors (a terminal without NO_COLOR). */
  colour: boolean
  /** Standard error is a terminal: progress is one line, rewritten; else a line each. */
  terminal: boolean
}

const where = (place?: Annotation): string =>
  place?.file ? ` (${place.file}${place.startLine !== undefined ? `:${place.startLine}` : ''})` : ''

export function commandHost(options: HostOptions): CommandHost {
  const { inputs } = options
  // In a terminal, progress stays on one line that the next progress rewrites; any other line clears it first.
  let progressShown = false
  const write = (line: string) => {
    if (progressShown) options.write('\r\u001b[K', false)
    progressShown = false
    options.write(line)
  }
  const outputs = new Map<string, string>()
  const state = new Map<string, string>()
  const failures: string[] = []
  let summary = ''
  const paint = (code: string, word: string) => (options.colour ? `\u001b[${code}m${word}\u001b[0m` : word)
  return {
    outputs,
    failures: () => failures,
    summaryText: () => summary,
    // As the runner hands an input: its value trimmed, '' when not given.
    getInput: name => (inputs[name as keyof RawInputs] ?? '').trim(),
    // Nothing is masked by a runner here: every line the core writes is redacted before it gets here.
    setSecret: () => {},
    setOutput: (name, value) => void outputs.set(name, value),
    // The failure is told once, at the end, by the door (a usage error then names the flag and its variable).
    setFailed: message => void failures.push(message),
    info: message => write(message),
    debug: message => {
      if (options.debug) write(`debug: ${message}`)
    },
    warning: (message, place) => write(`${paint('33', 'warning:')} ${message}${where(place)}`),
    notice: message => write(`notice: ${message}`),
    error: (message, place) => void failures.push(`${message}${where(place)}`),
    startGroup: name => write(name),
    progress: message => {
      if (!options.terminal) return write(message)
      options.write(`${progressShown ? '\r\u001b[K' : ''}${message}`, false)
      progressShown = true
    },
    endGroup: () => {},
    saveState: (name, value) => void state.set(name, value),
    getState: name => state.get(name) ?? '',
    summary: {
      addRaw: text => ({
        write: async () => {
          summary += text
        }
      })
    }
  }
}
