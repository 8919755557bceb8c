/**
 * Warnings about inputs that are valid but likely not what was meant: an
 * input the operation does not read, set to something other than its
 * default; an expected-status the service never reports; a gate timeout
 * of bare seconds no longer than its poll-interval.
 */
import { isDeepStrictEqual } from 'node:util'
import type { Config } from '../run/config.js'
import type { OperationName } from '../operations/registry.js'
import { didYouMean } from '../values/values.js'
import { InputName, RawInputs, parseInput } from './table.js'

const CHECK_WRITES: OperationName[] = ['create-check', 'update-check', 'upsert-check']
const INCIDENT_WRITES: OperationName[] = ['create-incident', 'open-incident', 'update-incident', 'resolve-incident']
const GATE: OperationName[] = ['wait-for-check']
const SYNC: OperationName[] = ['sync-checks']
/** The operations that choose checks by their names: name-prefix, name-pattern and exclude. */
const BY_NAMES: OperationName[] = [
  'export-checks',
  'list-checks',
  'pause-check',
  'resume-check',
  'wait-for-check',
  'delete-check'
]

/** Inputs only some operations read (the others ignore them); the rest apply to all, or to most. */
export const APPLIES_TO: Partial<Record<InputName, OperationName[]>> = {
  check: CHECK_WRITES,
  'check-url': CHECK_WRITES,
  'check-type': CHECK_WRITES,
  'check-interval': CHECK_WRITES,
  'alert-channels': CHECK_WRITES,
  'check-status': CHECK_WRITES,
  'checks-file': [...SYNC, 'export-checks'],
  'name-prefix': BY_NAMES,
  'name-pattern': BY_NAMES,
  exclude: BY_NAMES,
  'fail-on-drift': SYNC,
  'drift-issue': SYNC,
  prune: SYNC,
  'prune-prefix': SYNC,
  'max-deletions': [...SYNC, 'delete-check'],
  'plan-file': SYNC,
  'approved-plan': SYNC,
  'auto-resume': ['pause-check'],
  'check-api-writes': ['check-api'],
  'expected-status': GATE,
  'max-response-time': GATE,
  'require-fresh': GATE,
  timeout: GATE,
  'poll-interval': GATE,
  'consecutive-passes': GATE,
  'junit-file': GATE,
  baseline: GATE,
  'max-response-time-increase': GATE,
  slo: GATE,
  'slo-window': GATE,
  'max-burn-rate': GATE,
  'burn-window': GATE,
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

/**
 * A notice for a gate's timeout given as a bare number no longer than its
 * poll-interval (`timeout: 5`): a bare number is seconds, and the gate would
 * poll at most once or twice; the writer most likely meant minutes.
 */
export function gateTimeoutNotice(raw: RawInputs, config: Config<OperationName>): string | undefined {
  const given = raw.timeout?.trim() ?? ''
  if (config.operation !== 'wait-for-check' || !/^\d+$/.test(given) || config.timeoutMs > config.pollIntervalMs) {
    return undefined
  }
  const seconds = (ms: number) => `${ms / 1000} s`
  return `timeout ${given} is read as ${seconds(config.timeoutMs)} (a bare number is seconds), no longer than poll-interval (${seconds(config.pollIntervalMs)}): the gate polls at most once or twice before its time runs out. For minutes, write timeout: ${given}m`
}
