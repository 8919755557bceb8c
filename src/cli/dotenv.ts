/**
 * The outputs as a GitLab dotenv report (`artifacts: reports: dotenv:`), by
 * GitLab's own rules for that file: one `NAME=value` a line, no blank lines
 * or comments; names of ASCII letters, digits and `_`; a value on one line
 * that GitLab keeps as written (no quotes are taken off, no escapes read, no
 * variables put in, blanks at either end dropped); at most 20 variables and 5
 * KB in all. An output GitLab could not carry as it is, is left out, and
 * named, never changed.
 */
import { envName } from './args.js'

/** GitLab's limits on a dotenv report: the file's size in bytes, and its variables (the default of GitLab's instance limit). */
export const DOTENV_MAX_BYTES = 5 * 1024
export const DOTENV_MAX_VARIABLES = 20

export interface DotenvReport {
  text: string
  /** Each output left out, with why. */
  leftOut: Array<{ name: string; why: string }>
}

/** The dotenv report of `outputs` (name -> value, in order). */
export function dotenvReport(outputs: ReadonlyMap<string, string>): DotenvReport {
  const lines: string[] = []
  const leftOut: DotenvReport['leftOut'] = []
  let bytes = 0
  for (const [output, value] of outputs) {
    const name = envName(output)
    const line = `${name}=${value}\n`
    const why = /[\r\n]/.test(value)
      ? 'its value has a line break, which a dotenv report cannot hold'
      : /^\s|\s$/.test(value)
        ? 'its value starts or ends with a blank, which GitLab would drop'
        : lines.length >= DOTENV_MAX_VARIABLES
          ? `GitLab takes at most ${DOTENV_MAX_VARIABLES} variables from a report`
          : bytes + Buffer.byteLength(line) > DOTENV_MAX_BYTES
            ? `the report would pass GitLab's ${DOTENV_MAX_BYTES / 1024} KB (this value is ${Buffer.byteLength(value)} bytes)`
            : undefined
    if (why) {
      leftOut.push({ name: output, why })
      continue
    }
    lines.push(line)
    bytes += Buffer.byteLength(line)
  }
  return { text: lines.join(''), leftOut }
}
