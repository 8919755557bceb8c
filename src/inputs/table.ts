/**
 * The table of inputs: every input once, with how its runner string is
 * parsed and its default (the descriptions are in action.yml; a test holds
 * the two together), and the error a bad input raises.
 */
import * as z from 'zod/mini'
import {
  ValueError,
  anId,
  oneLine,
  parseApiKey,
  parseBaseUrl,
  parseBaseline,
  parseBoolean,
  parseDuration,
  parseIncrease,
  parseList,
  parseMilliseconds,
  parseSince,
  parseSloWindow,
  parseWholeNumber,
  quote
} from '../values/parse.js'
import { parseBurnRate, parseSlo } from '../values/parse-objective.js'
import { parseMapping } from '../values/parse-yaml.js'
import { parsePatterns } from '../values/glob.js'
import { OPERATIONS, OperationName, isOperationName } from '../operations/registry.js'
import { didYouMean } from '../values/values.js'
import { load } from '../lazy/modules.cjs'

/** A bad input: the message always starts with the input's name. */
export class InputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InputError'
  }
}

/** Turn a parser's exception into a zod issue on the current field. */
function using<T>(parse: (value: string) => T) {
  return (value: string, ctx: z.core.ParsePayload): T => {
    try {
      return parse(value)
    } catch (error) {
      ctx.issues.push({ code: 'custom', input: value, message: error instanceof Error ? error.message : String(error) })
      return z.NEVER
    }
  }
}

const text = z.optional(z.string())
const optional = <T>(parse: (value: string) => T) => z.optional(z.pipe(z.string(), z.transform(using(parse))))
/** A spec written in YAML or JSON; one instance, so the inputs that use it are known. */
const yamlMapping = optional(parseMapping)
const withDefault = <T>(parse: (value: string) => T, fallback: string) =>
  z.pipe(z._default(z.string(), fallback), z.transform(using(parse)))
/** The inputs that are true or false (their schemas, for BOOLEAN_INPUTS). */
const yesOrNo = new Set<unknown>()
const flag = (fallback: 'true' | 'false') => {
  const made = withDefault(parseBoolean, fallback)
  yesOrNo.add(made)
  return made
}
const required = <T>(parse: (value: string) => T) =>
  z.pipe(z.string({ error: 'is required' }), z.transform(using(parse)))

function parseOperation(value: string): OperationName {
  const name = value.trim()
  if (isOperationName(name)) return name
  throw new ValueError(`must be one of ${OPERATIONS.join(', ')}; got ${quote(value)}${didYouMean(name, OPERATIONS)}`)
}

/**
 * Every input, once: its name, how its string is parsed and its default.
 * (The descriptions are in action.yml; a test holds the two together.)
 */
export const schema = z.strictObject({
  operation: required(parseOperation),
  'api-key': required(parseApiKey),
  'base-url': required(parseBaseUrl),
  check: yamlMapping,
  'check-id': text,
  'check-name': text,
  'check-url': optional(oneLine),
  'check-type': optional(oneLine),
  'check-interval': optional(v => parseWholeNumber(v, 1, 10_000_000)),
  'alert-channels': optional(parseList),
  'check-status': optional(oneLine),
  'checks-file': optional(oneLine),
  'auto-resume': flag('false'),
  'check-api-writes': flag('false'),
  prune: flag('false'),
  'prune-prefix': text,
  'name-prefix': text,
  'name-pattern': optional(parsePatterns),
  exclude: optional(parsePatterns),
  'fail-on-drift': flag('false'),
  'drift-issue': flag('false'),
  'max-deletions': withDefault(v => parseWholeNumber(v, 0, 1_000_000), '10'),
  'plan-file': optional(oneLine),
  'approved-plan': optional(oneLine),
  'pr-comment': flag('false'),
  'github-token': text,
  'expected-status': withDefault(oneLine, 'up'),
  'max-response-time': optional(parseMilliseconds),
  'require-fresh': flag('true'),
  timeout: withDefault(parseDuration, '5m'),
  'poll-interval': withDefault(parseDuration, '10s'),
  'consecutive-passes': withDefault(v => parseWholeNumber(v, 1, 100), '1'),
  'junit-file': optional(oneLine),
  baseline: optional(parseBaseline),
  'max-response-time-increase': optional(parseIncrease),
  slo: optional(parseSlo),
  'slo-window': withDefault(parseSloWindow, '30d'),
  'max-burn-rate': optional(parseBurnRate),
  'burn-window': withDefault(parseSloWindow, '1h'),
  since: optional(parseSince),
  incident: yamlMapping,
  'incident-id': optional(anId),
  'incident-title': optional(oneLine),
  'incident-message': text,
  'incident-status': optional(oneLine),
  'incident-key': optional(oneLine),
  'status-page': yamlMapping,
  'status-page-id': optional(anId),
  'status-page-name': optional(oneLine),
  'dry-run': flag('false'),
  'fail-on-error': flag('true'),
  'max-retries': withDefault(v => parseWholeNumber(v, 0, 10), '3'),
  'request-timeout': withDefault(parseDuration, '30s'),
  'job-summary': flag('true')
})

export type Parsed = z.output<typeof schema>

/** Every input of action.yml, by its kebab-case name. */
export const INPUTS = Object.keys(schema.shape) as Array<keyof typeof schema.shape>
export type InputName = (typeof INPUTS)[number]

/** The inputs that are true or false (the command's flag alone means true). */
export const BOOLEAN_INPUTS: ReadonlySet<string> = new Set(INPUTS.filter(name => yesOrNo.has(schema.shape[name])))
export type RawInputs = Partial<Record<InputName, string>>

/** The inputs written in YAML or JSON. */
export const YAML_INPUTS: readonly InputName[] = INPUTS.filter(name => schema.shape[name] === yamlMapping)

/**
 * Load what parsing these inputs needs, before parseConfig: the YAML parser
 * only when a YAML input is given, so most steps never read it.
 */
export async function loadParsers(raw: RawInputs): Promise<void> {
  if (YAML_INPUTS.some(name => raw[name]?.trim())) await load('yaml')
}

/** One input's value as the action reads it (undefined: not set), for tests that hold action.yml to the code. */
export function parseInput(name: InputName, value: string | undefined): unknown {
  return schema.shape[name].parse(value)
}
