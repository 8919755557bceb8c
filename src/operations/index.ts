/** The registry: operation name -> handler. */
import * as checks from './checks.js'
import * as incidents from './incidents.js'
import type { OperationName } from './names.js'
import * as pages from './status-pages.js'
import { waitForCheck } from './gate.js'
import { syncChecks } from './sync.js'
import type { Operation } from './types.js'

export const operations: Record<OperationName, Operation> = {
  'create-check': checks.createCheck,
  'get-check': checks.getCheck,
  'list-checks': checks.listChecks,
  'update-check': checks.updateCheck,
  'upsert-check': checks.upsertCheck,
  'delete-check': checks.deleteCheck,
  'pause-check': checks.pauseCheck,
  'resume-check': checks.resumeCheck,
  'check-history': checks.checkHistory,
  'wait-for-check': waitForCheck,
  'sync-checks': syncChecks,
  'create-incident': incidents.createIncident,
  'open-incident': incidents.openIncident,
  'update-incident': incidents.updateIncident,
  'resolve-incident': incidents.resolveIncident,
  'list-incidents': incidents.listIncidents,
  'create-status-page': pages.createStatusPage,
  'get-status-page': pages.getStatusPage,
  'list-status-pages': pages.listStatusPages
}
