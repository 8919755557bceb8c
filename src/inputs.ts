/**
 * Runner strings -> one typed, validated Config. Nothing here makes a request:
 * every problem with the inputs is found, and named, before the first one.
 */
import { isDeepStrictEqual } from 'node:util'
import * as z from 'zod/mini'
import {
  ValueError,
  anId,
  oneLine,
  parseApiKey,
  parseBaseUrl,
  parseBoolean,
  parseDuration,
  parseList,
  parseMapping,
  parseMilliseconds,
  parseSince,
  parseWholeNumber,
  quote
} from './parse.js'
import { OPERATIONS, OperationName, entryOf, isOperationName } from './operations/registry.js'
import { CheckSpecSchema, IncidentSpecSchema, StatusPageSpecSchema, specProblem } from './specs.js'
import { Mapping, didYouMean, idProblem } from './values.js'
import type { Config } from './config.js'
import { load } from './lazy/modules.cjs'

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
const schema = z.strictObject({
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
  'auto-resume': withDefault(parseBoolean, 'false'),
  prune: withDefault(parseBoolean, 'false'),
  'prune-prefix': text,
  'max-deletions': withDefault(v => parseWholeNumber(v, 0, 1_000_000), '10'),
  'plan-file': optional(oneLine),
  'approved-plan': optional(oneLine),
  'pr-comment': withDefault(parseBoolean, 'false'),
  'github-token': text,
  'expected-status': withDefault(oneLine, 'up'),
  'max-response-time': optional(parseMilliseconds),
  'require-fresh': withDefault(parseBoolean, 'true'),
  timeout: withDefault(parseDuration, '5m'),
  'poll-interval': withDefault(parseDuration, '10s'),
  'consecutive-passes': withDefault(v => parseWholeNumber(v, 1, 100), '1'),
  'junit-file': optional(oneLine),
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
  'dry-run': withDefault(parseBoolean, 'false'),
  'fail-on-error': withDefault(parseBoolean, 'true'),
  'max-retries': withDefault(v => parseWholeNumber(v, 0, 10), '3'),
  'request-timeout': withDefault(parseDuration, '30s'),
  'job-summary': withDefault(parseBoolean, 'true')
})

type Parsed = z.output<typeof schema>

/** Every input of action.yml, by its kebab-case name. */
export const INPUTS = Object.keys(schema.shape) as Array<keyof typeof schema.shape>
export type InputName = (typeof INPUTS)[number]
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

const CHECK_WRITES: OperationName[] = ['create-check', 'update-check', 'upsert-check']
const INCIDENT_WRITES: OperationName[] = ['create-incident', 'open-incident', 'update-incident', 'resolve-incident']
const GATE: OperationName[] = ['wait-for-check']
const SYNC: OperationName[] = ['sync-checks']

/** Inputs only some operations read (the others ignore them); the rest apply to all, or to most. */
export const APPLIES_TO: Partial<Record<InputName, OperationName[]>> = {
  check: CHECK_WRITES,
  'check-url': CHECK_WRITES,
  'check-type': CHECK_WRITES,
  'check-interval': CHECK_WRITES,
  'alert-channels': CHECK_WRITES,
  'check-status': CHECK_WRITES,
  'checks-file': SYNC,
  prune: SYNC,
  'prune-prefix': SYNC,
  'max-deletions': SYNC,
  'plan-file': SYNC,
  'approved-plan': SYNC,
  'auto-resume': ['pause-check'],
  'expected-status': GATE,
  'max-response-time': GATE,
  'require-fresh': GATE,
  timeout: GATE,
  'poll-interval': GATE,
  'consecutive-passes': GATE,
  'junit-file': GATE,
  since: ['check-history'],
  'pr-comment': [...SYNC, ...GATE],
  incident: INCIDENT_WRITES,
  'incident-id': ['update-incident', 'resolve-incident'],
  'incident-title': INCIDENT_WRITES,
  'incident-message': INCIDENT_WRITES,
  'incident-status': ['create-incident', 'open-incident', 'update-incident'],
  'incident-key': INCIDENT_WRITES,
  'status-page': ['create-status-page'],
  'status-page-id': ['get-status-page'],
  'status-page-name': ['create-status-page', 'get-status-page']
}

/**
 * Inputs set to something other than their default that the operation does
 * not read, each as "<input> applies to <operations>, not <operation>": worth
 * a warning, since the user expected them to do something. (The runner passes
 * action.yml's default for an input that is not set, so a default is silent.)
 */
export function inputsNotApplying(raw: RawInputs, operation: OperationName): string[] {
  const out: string[] = []
  for (const [name, operations] of Object.entries(APPLIES_TO) as Array<[InputName, OperationName[]]>) {
    const value = raw[name]
    if (value === undefined || value.trim() === '' || operations.includes(operation)) continue
    let isDefault: boolean
    try {
      isDefault = isDeepStrictEqual(parseInput(name, value), parseInput(name, undefined))
    } catch {
      isDefault = false
    }
    if (!isDefault) out.push(`${name} applies to ${operations.join(', ')}, not ${operation}: it is ignored`)
  }
  return out
}

/** The statuses the service is known to report (the document names `up`; the others are what it does). */
export const KNOWN_STATUSES = ['up', 'down', 'paused', 'pending']

/** A warning for an expected-status the service never reports (`upp`), before a gate waits for it in vain. */
export function expectedStatusWarning(config: Config<OperationName>): string | undefined {
  if (config.operation !== 'wait-for-check' || KNOWN_STATUSES.includes(config.expectedStatus.toLowerCase())) {
    return undefined
  }
  return `expected-status ${JSON.stringify(config.expectedStatus)} is not a status the service is known to report (${KNOWN_STATUSES.join(', ')})${didYouMean(config.expectedStatus, KNOWN_STATUSES)}: the gate waits for it anyway, and will time out unless the service reports it`
}

/** One input's value as the action reads it (undefined: not set), for tests that hold action.yml to the code. */
export function parseInput(name: InputName, value: string | undefined): unknown {
  return schema.shape[name].parse(value)
}

/** Runner strings with "" meaning "not set". */
function present(raw: RawInputs): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === 'string' && value.trim() !== '') out[name] = value
  }
  return out
}

/** Make the first zod issue one sentence that starts with the input's name. */
function messageOfIssues(error: z.core.$ZodError): string {
  return error.issues
    .map(issue => {
      const name = String(issue.path[0] ?? 'inputs')
      if (issue.code === 'unrecognized_keys') return `unknown input(s): ${issue.keys.join(', ')}`
      // `check is not valid YAML` reads as if a check were; a spec input is named as an input.
      return (YAML_INPUTS as readonly string[]).includes(name)
        ? `the input \`${name}\` ${issue.message}`
        : `${name} ${issue.message}`
    })
    .join('; ')
}

/**
 * check-id and check-name: lists for the operations that target several
 * checks. For the others check-name is one whole value, commas included (a
 * name may hold them); check-id is still read as a list so that `a,b` is
 * "two ids" rather than one id that no check has.
 */
function targetsOf(operation: OperationName, p: Parsed): { ids: string[]; names: string[] } {
  const multi = entryOf(operation).targets === 'several'
  const ids = p['check-id'] === undefined ? [] : parseList(p['check-id'])
  if (!multi && ids.length > 1) throw new InputError(`check-id takes one id for ${operation}, got ${ids.length}`)
  let names: string[] = []
  const name = p['check-name']
  if (name !== undefined) {
    names = multi ? parseList(name) : [name.trim()]
    if (!multi && /[\r\n]/.test(names[0])) {
      throw new InputError(`check-name takes one name for ${operation}, got ${parseList(name).length} lines`)
    }
  }
  for (const id of ids) {
    const problem = idProblem(id)
    if (problem) throw new InputError(`check-id holds ${quote(id)}: ${problem}`)
  }
  return { ids, names }
}

function buildCheck(p: Parsed, names: string[]): Mapping {
  const spec: Mapping = { ...(p.check ?? {}) }
  const problem = specProblem(CheckSpecSchema, spec)
  if (problem) throw new InputError(`check: ${problem}`)
  if (names.length === 1) spec.name = names[0]
  if (p['check-url'] !== undefined) {
    const urlProblem = specProblem(CheckSpecSchema, { url: p['check-url'] })
    if (urlProblem) throw new InputError(`check-${urlProblem}`)
    spec.url = p['check-url']
  }
  if (p['check-type'] !== undefined) spec.type = p['check-type']
  if (p['check-interval'] !== undefined) spec.interval = p['check-interval']
  if (p['alert-channels'] !== undefined) spec.alertChannels = p['alert-channels']
  if (p['check-status'] !== undefined) spec.status = p['check-status']
  return spec
}

function buildIncident(p: Parsed): Mapping {
  const spec: Mapping = { ...(p.incident ?? {}) }
  const problem = specProblem(IncidentSpecSchema, spec)
  if (problem) throw new InputError(`incident: ${problem}`)
  if (p['incident-title'] !== undefined) spec.title = p['incident-title']
  if (p['incident-message'] !== undefined) spec.message = p['incident-message']
  if (p['incident-status'] !== undefined) spec.status = p['incident-status']
  // incident-key: part of the incident's identity (its title), so matrix legs keep one incident each.
  if (p['incident-key'] !== undefined && typeof spec.title === 'string')
    spec.title = `${spec.title} [${p['incident-key']}]`
  return spec
}

function buildStatusPage(p: Parsed): Mapping {
  const spec: Mapping = { ...(p['status-page'] ?? {}) }
  const problem = specProblem(StatusPageSpecSchema, spec)
  if (problem) throw new InputError(`status-page: ${problem}`)
  if (p['status-page-name'] !== undefined) spec.name = p['status-page-name']
  return spec
}

/** What the operation needs before it can send anything (its registry entry says). */
function requireForOperation(c: Config<OperationName>): void {
  const entry = entryOf(c.operation)
  const needs = (message: string): never => {
    throw new InputError(`${c.operation} needs ${message}`)
  }
  if (entry.targets && c.checkIds.length === 0 && c.checkNames.length === 0) {
    needs(entry.targets === 'several' ? 'check-id or check-name (one or more)' : 'check-id or check-name')
  }
  const missing = entry.needs?.(c)
  if (missing) needs(missing)
  if (c.prunePrefix !== undefined && !c.prune) {
    throw new InputError('prune-prefix only applies with prune: true')
  }
}

/** Parse and validate every input. Throws InputError naming the input. */
export function parseConfig(raw: RawInputs): Config<OperationName> {
  const result = schema.safeParse(present(raw))
  if (!result.success) throw new InputError(messageOfIssues(result.error))
  const p = result.data
  const targets = targetsOf(p.operation, p)
  const config: Config<OperationName> = {
    operation: p.operation,
    apiKey: p['api-key'],
    baseUrl: p['base-url'],
    check: buildCheck(p, targets.names),
    checkIds: targets.ids,
    checkNames: targets.names,
    checksFile: p['checks-file'],
    autoResume: p['auto-resume'],
    prune: p.prune,
    prunePrefix: p['prune-prefix'],
    maxDeletions: p['max-deletions'],
    planFile: p['plan-file'],
    approvedPlan: p['approved-plan'],
    prComment: p['pr-comment'],
    githubToken: p['github-token']?.trim(),
    expectedStatus: p['expected-status'],
    maxResponseTimeMs: p['max-response-time'],
    requireFresh: p['require-fresh'],
    timeoutMs: p.timeout,
    pollIntervalMs: p['poll-interval'],
    consecutivePasses: p['consecutive-passes'],
    junitFile: p['junit-file'],
    since: p.since,
    incident: buildIncident(p),
    incidentId: p['incident-id'],
    statusPage: buildStatusPage(p),
    statusPageId: p['status-page-id'],
    dryRun: p['dry-run'],
    failOnError: p['fail-on-error'],
    maxRetries: p['max-retries'],
    requestTimeoutMs: p['request-timeout'],
    jobSummary: p['job-summary']
  }
  if (config.requestTimeoutMs < 100) throw new InputError('request-timeout must be at least 100ms')
  if (config.pollIntervalMs < 100) throw new InputError('poll-interval must be at least 100ms')
  requireForOperation(config)
  return config
}

/**
 * `fail-on-error` read on its own, so that even a config that does not parse
 * knows whether to fail the step. Anything but a valid `false` means true.
 */
export function failOnErrorOf(raw: RawInputs): boolean {
  try {
    return raw['fail-on-error'] === undefined || raw['fail-on-error'].trim() === ''
      ? true
      : parseBoolean(raw['fail-on-error'])
  } catch {
    return true
  }
}

/** Read every input through a getInput-like function (the runner's `INPUT_*`). */
export function readInputs(getInput: (name: string) => string): RawInputs {
  const raw: RawInputs = {}
  for (const name of INPUTS) raw[name] = getInput(name)
  return raw
}
