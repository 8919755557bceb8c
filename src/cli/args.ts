/**
 * The command's arguments: `monitoring-ci <operation> [--<input> <value>]...
 * [-- <command> [args...]]`. Every input of the action is a flag of the same
 * name, or an environment variable `MONITORING_` + its name upper-cased with
 * `_` for `-` (a flag wins). A flag of a true-or-false input alone means true;
 * a flag given again is one more line of a list. Reading them never sends
 * anything: a mistake is a UsageError that names the flag and its variable.
 */
import { parseArgs } from 'node:util'
import { BOOLEAN_INPUTS, INPUTS, InputName, RawInputs } from '../inputs/table.js'
import { didYouMean } from '../values/values.js'

/** A mistake in how the command was called: exit status 2, nothing sent. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/** The flags of the command itself (not inputs of the action). */
export const COMMAND_FLAGS = ['help', 'dotenv', 'summary', 'debug'] as const

export interface Invocation {
  /** The operation named (the first word), or MONITORING_OPERATION; undefined when neither. */
  operation?: string
  /** Every input as the runner would hand it (a string; absent when not given). */
  inputs: RawInputs
  /** Which inputs came from a flag (not the environment): `api-key` there is warned about. */
  fromFlags: ReadonlySet<InputName>
  help: boolean
  /** `--dotenv FILE`: the outputs also as a GitLab dotenv report. */
  dotenv?: string
  /** `--summary FILE`: the Markdown summary the action writes to the job summary. */
  summary?: string
  /** `--debug`: the debug lines too. */
  debug: boolean
  /** The command after `--`, run between the operation and its post step (pause-check). */
  command: string[]
}

/** The environment variable an input may come from: `MONITORING_` + its name upper-cased, `_` for `-`. */
export const envName = (name: string): string => `MONITORING_${name.toUpperCase().replace(/-/g, '_')}`

/** A flag as the user types it, with the variable that can stand for it. */
export const flagAndVariable = (name: string): string => `--${name} (or ${envName(name)})`

const TRUTH = /^(true|false)$/i

/** Read the arguments (without node and the script) and the environment into an Invocation. */
export function readInvocation(argv: readonly string[], env: NodeJS.ProcessEnv): Invocation {
  const split = argv.indexOf('--')
  const own = split < 0 ? [...argv] : argv.slice(0, split)
  const command = split < 0 ? [] : argv.slice(split + 1)
  let tokens
  try {
    ;({ tokens } = parseArgs({
      args: own,
      strict: false,
      allowPositionals: true,
      tokens: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        debug: { type: 'boolean' },
        ...Object.fromEntries([...BOOLEAN_INPUTS].map(name => [name, { type: 'boolean' as const }]))
      }
    }))
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const values = new Map<string, string[]>()
  const positionals: string[] = []
  let help = false
  let debug = false
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]
    if (token.kind === 'positional') {
      positionals.push(token.value)
      continue
    }
    if (token.kind !== 'option') continue
    const name = token.name
    if (token.rawName.startsWith('-') && !token.rawName.startsWith('--') && name !== 'help') {
      throw new UsageError(`${token.rawName} is not a flag of monitoring-ci: flags are written --name (see --help)`)
    }
    if (name === 'help') {
      help = true
      continue
    }
    if (name === 'debug') {
      debug = true
      continue
    }
    const known = (INPUTS as readonly string[]).includes(name) || name === 'dotenv' || name === 'summary'
    if (!known) {
      const names = [...INPUTS, ...COMMAND_FLAGS].filter(n => n !== 'operation')
      throw new UsageError(
        `--${name} is not a flag of monitoring-ci${didYouMean(
          `--${name}`,
          names.map(n => `--${n}`)
        )} (see --help)`
      )
    }
    let value = token.value
    if (BOOLEAN_INPUTS.has(name) && value === undefined) {
      // `--dry-run` alone means true; `--dry-run false` reads the next word when it is true or false.
      const next = tokens[i + 1]
      if (next?.kind === 'positional' && TRUTH.test(next.value)) {
        value = next.value
        i++
      } else value = 'true'
    }
    if (value === undefined) {
      const next = tokens[i + 1]
      // A value that starts with `-` is written --name=value; else the next word is the value.
      if (next?.kind === 'positional') {
        value = next.value
        i++
      } else throw new UsageError(`${flagAndVariable(name)} needs a value: --${name} VALUE`)
    }
    values.set(name, [...(values.get(name) ?? []), value])
  }

  const one = (name: string): string | undefined => {
    const given = values.get(name)
    if (given && given.length > 1) throw new UsageError(`--${name} is given ${given.length} times; give it once`)
    return given?.[0]
  }
  const [first, ...extra] = positionals
  if (extra.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(extra[0])}: give a value as --name VALUE, and a command to run after -- (monitoring-ci pause-check --check-name shop -- ./deploy.sh)`
    )
  }
  if (values.has('operation') && first !== undefined) {
    throw new UsageError(`the operation is named twice: ${JSON.stringify(first)} and --operation; give one`)
  }

  const inputs: RawInputs = {}
  const fromFlags = new Set<InputName>()
  for (const name of INPUTS) {
    const given = values.get(name)
    if (given !== undefined) {
      // A list input may repeat its flag: one line each, as a list written one per line in a workflow.
      inputs[name] = given.join('\n')
      fromFlags.add(name)
    } else if (env[envName(name)] !== undefined) inputs[name] = env[envName(name)]
  }
  if (first !== undefined) inputs.operation = first
  return {
    ...(inputs.operation !== undefined ? { operation: inputs.operation } : {}),
    inputs,
    fromFlags,
    help,
    ...(one('dotenv') !== undefined ? { dotenv: one('dotenv') } : {}),
    ...(one('summary') !== undefined ? { summary: one('summary') } : {}),
    debug,
    command
  }
}
