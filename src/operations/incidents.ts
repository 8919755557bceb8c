/**
 * Incident operations. The API has no GET of one incident, so an incident is
 * read from the list; a PUT always sends the whole incident.
 */
import { paths } from '../api/monitoring.js'
import type { Incident } from '../api/schemas.js'
import type { Mapping } from '../parse.js'
import type { RunContext } from '../run-context.js'
import { differences, planned, str, writableOf } from './common.js'
import type { Operation, OperationContext, OperationResult, Outputs, Summary } from './types.js'
import { OperationError, knowing } from './types.js'

export const DEFAULT_INCIDENT_STATUS = 'investigating'
const RESOLVED = 'resolved'
const isResolved = (i: Incident | Mapping) => str(i.status).toLowerCase() === RESOLVED

/** Replace `{workflow}`, `{repository}`, `{run_url}`... in a user's text with facts of the run. */
export function fillRunFacts(text: string, run: RunContext): string {
  const facts: Record<string, string> = {
    workflow: run.workflow,
    job: run.job,
    repository: run.repository,
    ref: run.ref,
    sha: run.sha,
    short_sha: run.shortSha,
    run_id: run.runId,
    run_number: run.runNumber,
    run_attempt: run.runAttempt,
    run_url: run.runUrl,
    actor: run.actor,
    event: run.eventName
  }
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (name in facts ? facts[name] : whole))
}

/** The message of an incident opened by a failing run. */
export function failureMessage(run: RunContext): string {
  const where = [
    run.workflow ? `Workflow "${run.workflow}"` : 'A workflow',
    run.job ? `(job ${run.job})` : '',
    'failed',
    run.repository ? `in ${run.repository}` : '',
    run.ref ? `on ${run.ref}` : '',
    run.shortSha ? `at commit ${run.shortSha}` : ''
  ]
    .filter(Boolean)
    .join(' ')
  const attempt = run.runAttempt ? `, run attempt ${run.runAttempt}` : ''
  return `${where}${attempt}.${run.runUrl ? ` Run: ${run.runUrl}` : ''}`
}

/** The message of an incident resolved by a recovering run. */
export function resolvedMessage(run: RunContext): string {
  const by = [
    run.workflow ? `workflow "${run.workflow}"` : 'a workflow',
    run.repository ? `in ${run.repository}` : '',
    run.ref ? `on ${run.ref}` : '',
    run.shortSha ? `at commit ${run.shortSha}` : ''
  ]
    .filter(Boolean)
    .join(' ')
  return `Resolved: ${by} succeeded${run.runAttempt ? ` (run attempt ${run.runAttempt})` : ''}.${run.runUrl ? ` Run: ${run.runUrl}` : ''}`
}

async function messageOf(ctx: OperationContext, fallback: (run: RunContext) => string): Promise<string> {
  const given = ctx.config.incident.message
  const run = await ctx.runContext()
  return typeof given === 'string' ? fillRunFacts(given, run) : fallback(run)
}

/** Unresolved incidents with this exact title, newest last-resort by list order. */
export function newestUnresolved(incidents: Incident[], title: string): Incident | undefined {
  const candidates = incidents
    .map((incident, index) => ({ incident, index }))
    .filter(({ incident }) => incident.title === title && !isResolved(incident))
  const time = (i: Incident) => Date.parse(str(i.createdAt || i.updatedAt)) || Number.NEGATIVE_INFINITY
  candidates.sort((a, b) => time(a.incident) - time(b.incident) || a.index - b.index)
  return candidates[candidates.length - 1]?.incident
}

function incidentOutputs(incident: Incident | Mapping | undefined): Outputs {
  if (!incident) return {}
  return { 'incident-id': str(incident.id), 'incident-status': str(incident.status) }
}

function incidentSummary(title: string, incidents: Array<Incident | Mapping>, lines: string[] = []): Summary {
  return {
    title,
    lines,
    tables:
      incidents.length > 0
        ? [
            {
              head: ['Incident', 'ID', 'Status', 'Message', 'Created'],
              rows: incidents.map(i => [i.title, i.id, i.status, i.message, i.createdAt])
            }
          ]
        : []
  }
}

async function create(ctx: OperationContext, existing?: Incident[]): Promise<OperationResult> {
  const body: Mapping = {
    ...ctx.config.incident,
    status: str(ctx.config.incident.status) || DEFAULT_INCIDENT_STATUS,
    message: await messageOf(ctx, failureMessage)
  }
  const before = existing ?? (await ctx.api.listIncidents())
  if (planned(ctx, 'POST', paths.incidents, body)) {
    return {
      outputs: { result: body, changed: true },
      summary: incidentSummary('Incident would be opened (dry run)', [body])
    }
  }
  const { item } = await ctx.api.createIncident(body, before)
  ctx.log.info(`Opened incident ${item.id}: ${str(item.title)}`)
  return {
    outputs: { ...incidentOutputs(item), result: item, changed: true },
    summary: incidentSummary('Incident opened', [item])
  }
}

/** PUT the whole incident merged with `changes`, unless nothing differs. */
async function apply(
  ctx: OperationContext,
  current: Incident,
  changes: Mapping,
  title: string
): Promise<OperationResult> {
  const fields = differences(changes, current)
  if (fields.length === 0) {
    return {
      outputs: { ...incidentOutputs(current), result: current, changed: false },
      summary: incidentSummary(`${title}: nothing to change`, [current], ['Nothing differs: no request sent.'])
    }
  }
  const body = { ...writableOf(current), ...changes }
  if (planned(ctx, 'PUT', paths.incident(current.id), body)) {
    const would = { ...current, ...changes }
    return {
      outputs: { ...incidentOutputs(would), result: would, changed: true },
      summary: incidentSummary(`${title} (dry run)`, [would], [`Would change: ${fields.join(', ')}.`])
    }
  }
  const updated = await knowing(incidentOutputs(current), () => ctx.api.updateIncident(current.id, body))
  ctx.log.info(`Updated incident ${updated.id}: ${fields.join(', ')}`)
  return {
    outputs: { ...incidentOutputs(updated), result: updated, changed: true },
    summary: incidentSummary(title, [updated], [`Changed: ${fields.join(', ')}.`])
  }
}

/** The incident incident-id names, or else the newest unresolved one with incident-title. */
async function target(ctx: OperationContext): Promise<{ incident?: Incident; all: Incident[] }> {
  const all = await ctx.api.listIncidents()
  const id = ctx.config.incidentId
  if (id) {
    const incident = all.find(i => i.id === id)
    if (!incident) throw new OperationError(`incident ${id} not found (looked through ${all.length} incidents)`)
    return { incident, all }
  }
  return { incident: newestUnresolved(all, str(ctx.config.incident.title)), all }
}

export const createIncident: Operation = ctx => create(ctx)

export const openIncident: Operation = async ctx => {
  const all = await ctx.api.listIncidents()
  const current = newestUnresolved(all, str(ctx.config.incident.title))
  if (!current) return create(ctx, all)
  const changes: Mapping = {
    ...ctx.config.incident,
    message: await messageOf(ctx, failureMessage),
    status: str(ctx.config.incident.status) || str(current.status) || DEFAULT_INCIDENT_STATUS
  }
  return apply(ctx, current, changes, 'Incident updated')
}

export const updateIncident: Operation = async ctx => {
  const { incident } = await target(ctx)
  if (!incident) throw new OperationError(`no unresolved incident titled ${JSON.stringify(ctx.config.incident.title)}`)
  const changes: Mapping = { ...ctx.config.incident }
  if (!ctx.config.incidentId) delete changes.title
  if (typeof changes.message === 'string') changes.message = fillRunFacts(changes.message, await ctx.runContext())
  return apply(ctx, incident, changes, 'Incident updated')
}

export const resolveIncident: Operation = async ctx => {
  const { incident } = await target(ctx)
  if (!incident || isResolved(incident)) {
    const why = incident
      ? `Incident ${incident.id} is already resolved.`
      : `No unresolved incident titled ${str(ctx.config.incident.title)}: nothing to resolve.`
    ctx.log.info(why)
    return {
      outputs: { ...incidentOutputs(incident), result: incident ?? null, changed: false },
      summary: incidentSummary('Nothing to resolve', incident ? [incident] : [], [why])
    }
  }
  const changes: Mapping = { status: RESOLVED, message: await messageOf(ctx, resolvedMessage) }
  return apply(ctx, incident, changes, 'Incident resolved')
}

export const listIncidents: Operation = async ctx => {
  const all = await ctx.api.listIncidents()
  return {
    outputs: { ...incidentOutputs(all[0]), result: all, count: all.length },
    summary: incidentSummary(`Incidents (${all.length})`, all)
  }
}
