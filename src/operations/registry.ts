/**
 * Every operation, once: its fixed name (the `operation` input), its handler,
 * what it needs from the inputs before any request, whether it writes (and so
 * sets `changed`), whether it targets several checks, and its post step.
 * Input validation, the action.yml and docs checks and the post step's
 * dispatch all read this table; nothing else lists operations.
 */
import type { Config } from '../config.js'
import * as checks from './checks/checks.js'
import { checkHistory } from './gate/history.js'
import * as pause from './checks/pause.js'
import { UNANSWERED_STATE } from './checks/unanswered.js'
import { waitForCheck } from './gate/gate.js'
import * as incidents from './incidents/incidents.js'
import * as pages from './status-pages/status-pages.js'
import { exportChecks } from './sync/export.js'
import { syncChecks } from './sync/sync.js'
import type { Operation, OperationContext, Outputs, Summary } from './types.js'

/** Work for the post step (runs.post), which runs when the job ends whatever its outcome. */
export interface PostStep {
  /** The states the main step saves for it (OperationContext.remember); none saved: nothing to do. */
  states: string[]
  run: (ctx: OperationContext, saved: Record<string, string>) => Promise<Summary | undefined>
}

/** pause-check's and resume-check's post step: auto-resume, and writes sent without an answer. */
const statusWritesPost: PostStep = {
  states: [pause.PAUSED_STATE, UNANSWERED_STATE],
  run: pause.afterStatusWritesOf
}

export interface OperationEntry {
  run: Operation
  /** Writes: sets the `changed` output (false when the handler does not). */
  writes: boolean
  /**
   * Which check it targets by check-id / check-name: `one` (one of them is
   * required), `several` (both are lists; at least one target required).
   */
  targets?: 'one' | 'several'
  /** name-prefix selects targets too: every check whose name starts with it (with check-id / check-name, the union). */
  byPrefix?: boolean
  /** What else it needs before any request: the missing thing, said after "<operation> needs ". */
  needs?: (config: Config) => string | undefined
  post?: PostStep
  /** With pr-comment: what this step's comment is about (part of the marker that finds it again). */
  commentTarget?: (config: Config) => string
  /** Its outputs say whether the service drifted from a file (`drift`): fail-on-drift and drift-issue apply. */
  reportsDrift?: boolean
  /** Outputs set when the step fails before the handler could say more (a bad input, say). */
  errorOutputs?: Outputs
}

const checkName = (c: Config) =>
  typeof c.check.name !== 'string' ? 'a check name: set check-name, or name in check' : undefined
const nameAndUrl = (c: Config) =>
  checkName(c) ?? (typeof c.check.url !== 'string' ? 'a check URL: set check-url, or url in check' : undefined)
const incidentTitle = (c: Config) =>
  typeof c.incident.title !== 'string' ? 'an incident title: set incident-title, or title in incident' : undefined
const incidentTarget = (c: Config) =>
  !c.incidentId && typeof c.incident.title !== 'string' ? 'incident-id or incident-title' : undefined

export const REGISTRY = {
  'create-check': { run: checks.createCheck, writes: true, needs: nameAndUrl },
  'get-check': { run: checks.getCheck, writes: false, targets: 'one' },
  'list-checks': { run: checks.listChecks, writes: false },
  'update-check': {
    run: checks.updateCheck,
    writes: true,
    targets: 'one',
    needs: c =>
      Object.keys(c.check).some(k => !(k === 'name' && c.checkIds.length === 0))
        ? undefined
        : 'something to change: set check, or check-url, check-type, check-interval, alert-channels, check-status (or check-name together with check-id to rename)'
  },
  'upsert-check': { run: checks.upsertCheck, writes: true, needs: nameAndUrl },
  'delete-check': { run: checks.deleteCheck, writes: true, targets: 'one', byPrefix: true },
  'pause-check': {
    run: pause.pauseCheck,
    writes: true,
    targets: 'several',
    byPrefix: true,
    post: statusWritesPost
  },
  'resume-check': { run: pause.resumeCheck, writes: true, targets: 'several', byPrefix: true, post: statusWritesPost },
  'check-history': { run: checkHistory, writes: false, targets: 'one' },
  'wait-for-check': {
    run: waitForCheck,
    writes: false,
    targets: 'several',
    byPrefix: true,
    commentTarget: c =>
      [...c.checkIds, ...c.checkNames, ...(c.namePrefix === undefined ? [] : [`prefix:${c.namePrefix}`])].join(','),
    // failed-checks stays unset: `[]` would say the gate passed, and no check is known yet.
    errorOutputs: { passed: false, outcome: 'error' }
  },
  'sync-checks': {
    run: syncChecks,
    writes: true,
    needs: c => (c.checksFile ? undefined : 'checks-file'),
    commentTarget: c => c.checksFile ?? '',
    reportsDrift: true
  },
  'export-checks': {
    run: exportChecks,
    writes: false,
    needs: c => (c.checksFile ? undefined : 'checks-file (the path to write the checks file to)')
  },
  'create-incident': { run: incidents.createIncident, writes: true, needs: incidentTitle },
  'open-incident': { run: incidents.openIncident, writes: true, needs: incidentTitle },
  'update-incident': { run: incidents.updateIncident, writes: true, needs: incidentTarget },
  'resolve-incident': { run: incidents.resolveIncident, writes: true, needs: incidentTarget },
  'list-incidents': { run: incidents.listIncidents, writes: false },
  'create-status-page': {
    run: pages.createStatusPage,
    writes: true,
    needs: c =>
      typeof c.statusPage.name !== 'string'
        ? 'a status page name: set status-page-name, or name in status-page'
        : undefined
  },
  'get-status-page': {
    run: pages.getStatusPage,
    writes: false,
    needs: c =>
      !c.statusPageId && typeof c.statusPage.name !== 'string' ? 'status-page-id or status-page-name' : undefined
  },
  'list-status-pages': { run: pages.listStatusPages, writes: false }
} satisfies Record<string, OperationEntry>

export type OperationName = keyof typeof REGISTRY

/** Every operation name, in the registry's order. */
export const OPERATIONS = Object.keys(REGISTRY) as OperationName[]

export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(REGISTRY, name)
}

/** The entry of an operation. */
export function entryOf(name: OperationName): OperationEntry {
  return REGISTRY[name]
}
