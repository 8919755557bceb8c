/**
 * Incident operations. The API has no GET of one incident, so an incident is
 * read from the list; a PUT always sends the whole incident.
 */
import { paths } from '../../api/monitoring.js'
import type { Incident } from '../../api/schemas.js'
import { type Mapping, closest } from '../../values/values.js'
import type { RunContext } from '../../run/run-context.js'
import { PLACEHOLDERS, failureMessage, fillRunFacts, resolvedMessage } from './incident-text.js'
import { type Evidence, evidenceOf, withEvidence } from './evidence.js'
import { differences, dryRunSkips, str, writableOf } from '../common.js'
import { convergeCreated, keptLine, settleMs, unprovenLine } from '../names/converge.js'
import { type Snapshot, lookUp, unprovenAbsence } from '../names/snapshot.js'
import {
  RESOLVED,
  byTitle,
  changedTitle,
  isResolved,
  keepsKey,
  meansTitle,
  othersAfterUpdate,
  resolveAsDuplicate,
  titleChanges,
  titleFound,
  titleNotes
} from './titles.js'
import type { Operation, OperationContext, OperationResult, Outputs, Summary } from '../types.js'
import { OperationError, withKnownOutputs } from '../types.js'

export const DEFAULT_INCIDENT_STATUS = 'investigating'

/** What marks this step's incidents as its own (evidence.ts). */
const evidenceOfStep = async (ctx: OperationContext): Promise<Evidence> =>
  evidenceOf(await ctx.runContext(), ctx.config.incidentKey)

/**
 * The message an incident gets: incident-message (with the run's facts filled
 * in), else `fallback` of the run; either with the evidence that it is this
 * step's (evidence.ts).
 */
async function incidentMessage(ctx: OperationContext, fallback: (run: RunContext) => string): Promise<string> {
  const given = ctx.config.incident.message
  const text = typeof given === 'string' ? await filled(ctx, given) : fallback(await ctx.runContext())
  return withEvidence(text, await evidenceOfStep(ctx))
}

/** A user's text with the run's facts; the job's page is asked of GitHub only when the text wants it. */
async function filled(ctx: OperationContext, text: string): Promise<string> {
  for (const [, name] of text.matchAll(/\{([A-Za-z_]+)\}/g)) {
    if (PLACEHOLDERS.includes(name)) continue
    const near = closest(name, PLACEHOLDERS)
    ctx.log.warning(
      `incident-message: {${name}} is not a placeholder${near.length ? ` (did you mean ${near.map(n => `{${n}}`).join(' or ')}?)` : ''}; it is sent as written. Placeholders: ${PLACEHOLDERS.map(p => `{${p}}`).join(', ')}.`
    )
  }
  const jobUrl = text.includes('{job_url}') ? await ctx.jobUrl() : undefined
  return fillRunFacts(text, await ctx.runContext(), jobUrl)
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

/** A result with `notes` (identical duplicates left) before its lines. */
function withNotes(result: OperationResult, notes: string[]): OperationResult {
  result.summary.lines.unshift(...notes)
  return result
}

/**
 * Open the incident. `miss`: the look-up by title that missed it
 * (open-incident; snapshot.ts), after which the create converges with racing
 * runs (converge.ts); without it (create-incident), it always creates.
 */
async function create(ctx: OperationContext, miss?: Snapshot<Incident>): Promise<OperationResult> {
  const body: Mapping = {
    ...ctx.config.incident,
    status: str(ctx.config.incident.status) || DEFAULT_INCIDENT_STATUS,
    message: await incidentMessage(ctx, failureMessage)
  }
  const before = miss?.items ?? (await ctx.api.listIncidents())
  if (dryRunSkips(ctx, 'POST', paths.incidents, body)) {
    return {
      outputs: { result: body, changed: true },
      summary: incidentSummary('Incident would be opened (dry run)', [body])
    }
  }
  const sent = str(body.title)
  const evidence = await evidenceOfStep(ctx)
  const key = evidence.key
  const { item, tookMs, recovered } = await ctx.api.createIncident(body, before, i => meansTitle(i, sent, evidence))
  ctx.log.info(`Opened incident ${item.id}: ${str(item.title)}${recovered ? ', found after an ambiguous failure' : ''}`)
  const stored = storedTitleLine(item, sent)
  for (const line of stored) ctx.log.info(line)
  if (!keepsKey(item.title, key)) {
    const line = `The service cut the title before its incident-key [${key}]: later runs cannot tell this matrix leg's incident from another's, and will stop with an error. Use a shorter incident-title.`
    ctx.log.warning(line)
    stored.push(line)
  }
  if (!miss) {
    return {
      outputs: { ...incidentOutputs(item), result: item, changed: true },
      summary: incidentSummary('Incident opened', [item], stored)
    }
  }
  // Ours as created: the fields sent, with what the server answered over them.
  const mine: Incident = { ...body, ...item }
  const { survivor, kept } = await withKnownOutputs({ ...incidentOutputs(mine), changed: true }, async () => {
    const [converged] = await convergeCreated([mine], {
      what: 'incident',
      before: miss.proven,
      read: () => ctx.api.readIncidents(),
      nameOf: i => (!isResolved(i) && meansTitle(i, sent, evidence) ? sent : undefined),
      kindOf: () => '',
      remove: (duplicate, kept) => resolveAsDuplicate(ctx, duplicate, kept),
      sleep: ms => ctx.clock.sleep(ms, ctx.signal),
      settleMs: settleMs(tookMs, ctx.config.requestTimeoutMs),
      log: ctx.log
    })
    return converged
  })
  const keptNote = keptLine('incident', survivor, kept)
  if (keptNote) ctx.log.warning(keptNote)
  const notes = [...stored, ...(keptNote ? [keptNote] : [])]
  if (survivor.id === item.id) {
    return {
      outputs: { ...incidentOutputs(item), result: item, changed: true },
      summary: incidentSummary('Incident opened', [item], notes)
    }
  }
  const line = `A concurrent run opened an incident of this title at the same time: using ${survivor.id}, the first in order (every run uses it); this run's ${item.id} was resolved as its duplicate.`
  ctx.log.info(line)
  const updated = await apply(ctx, survivor, asStored(body, survivor), 'Incident opened')
  updated.outputs.changed = true
  updated.summary.lines.unshift(line, ...notes)
  return updated
}

/**
 * A line when the service stored the title in another form than sent (blanks
 * collapsed, case changed, cut): later runs find the incident in that form.
 */
function storedTitleLine(item: Incident, sent: string): string[] {
  const shown = str(item.title)
  if (shown === '' || shown === sent) return []
  return [
    `The service stored the title as ${JSON.stringify(shown)}, not as sent (${titleChanges(shown, sent)}): later runs find the incident in that form.`
  ]
}

/** Changes without our title when the incident's is the form the service made of it: sending ours changes nothing. */
function asStored(changes: Mapping, current: Incident): Mapping {
  if (typeof changes.title !== 'string' || current.title === changes.title) return changes
  const { title, ...rest } = changes
  return changedTitle(current.title, title) ? rest : changes
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
  if (dryRunSkips(ctx, 'PUT', paths.incident(current.id), body)) {
    const would = { ...current, ...changes }
    return {
      outputs: { ...incidentOutputs(would), result: would, changed: true },
      summary: incidentSummary(`${title} (dry run)`, [would], [`Would change: ${fields.join(', ')}.`])
    }
  }
  const updated = await withKnownOutputs(incidentOutputs(current), () => ctx.api.updateIncident(current.id, body))
  ctx.log.info(`Updated incident ${updated.id}: ${fields.join(', ')}`)
  return {
    outputs: { ...incidentOutputs(updated), result: updated, changed: true },
    summary: incidentSummary(title, [updated], [`Changed: ${fields.join(', ')}.`])
  }
}

/**
 * The incident incident-id names, or else the unresolved one incident-title
 * means (identical duplicates warned about: `notes`).
 */
async function target(ctx: OperationContext): Promise<{ incident?: Incident; notes: string[] }> {
  const id = ctx.config.incidentId
  if (id) {
    const all = await ctx.api.listIncidents()
    const incident = all.find(i => i.id === id)
    if (!incident) throw new OperationError(`incident ${id} not found (looked through ${all.length} incidents)`)
    return { incident, notes: [] }
  }
  const title = str(ctx.config.incident.title)
  const evidence = await evidenceOfStep(ctx)
  // "None is open" is a claim of absence: it needs the proof a create needs (snapshot.ts).
  const look = await lookUp(
    () => ctx.api.readIncidents(),
    list => titleFound(byTitle(list, title, evidence))
  )
  const titled = byTitle(look.items, title, evidence)
  const notes = titleNotes(ctx, titled, title, evidence)
  if (!titleFound(titled) && !look.proven) {
    throw unprovenAbsence(
      look,
      `an unresolved incident titled ${JSON.stringify(title)}`,
      'it may be open, so it is not reported absent; nothing was changed. Run the step again, or target it by incident-id.'
    )
  }
  return { incident: titled.incident, notes }
}

export const createIncident: Operation = ctx => create(ctx)

export const openIncident: Operation = async ctx => {
  const title = str(ctx.config.incident.title)
  const evidence = await evidenceOfStep(ctx)
  // Opened only when two full reads prove no unresolved incident has the title (snapshot.ts).
  const look = await lookUp(
    () => ctx.api.readIncidents(),
    list => titleFound(byTitle(list, title, evidence))
  )
  const titled = byTitle(look.items, title, evidence)
  const notes = titleNotes(ctx, titled, title, evidence)
  if (!titled.incident) {
    if (!look.proven) ctx.log.warning(unprovenLine('incident', look.reads, look.doubt))
    return withNotes(await create(ctx, look), notes)
  }
  if (look.reads > 1) {
    ctx.log.info(
      `The first read of the incidents did not show an unresolved ${JSON.stringify(title)}; a later read did (the list moved while it was read): using ${titled.incident.id}, nothing opened.`
    )
  }
  const current = titled.incident
  const changes: Mapping = {
    ...ctx.config.incident,
    message: await incidentMessage(ctx, failureMessage),
    status: str(ctx.config.incident.status) || str(current.status) || DEFAULT_INCIDENT_STATUS
  }
  const updated = await apply(ctx, current, asStored(changes, current), 'Incident updated')
  return withNotes(updated, [...notes, ...(await othersAfterUpdate(ctx, current, updated, title, evidence))])
}

export const updateIncident: Operation = async ctx => {
  const { incident, notes } = await target(ctx)
  if (!incident) throw new OperationError(`no unresolved incident titled ${JSON.stringify(ctx.config.incident.title)}`)
  const changes: Mapping = { ...ctx.config.incident }
  if (!ctx.config.incidentId) delete changes.title
  if (typeof changes.message === 'string') {
    changes.message = withEvidence(await filled(ctx, changes.message), await evidenceOfStep(ctx))
  }
  return withNotes(await apply(ctx, incident, changes, 'Incident updated'), notes)
}

export const resolveIncident: Operation = async ctx => {
  const { incident, notes } = await target(ctx)
  if (!incident || isResolved(incident)) {
    const why = incident
      ? `Incident ${incident.id} is already resolved.`
      : `No unresolved incident titled ${str(ctx.config.incident.title)}: nothing to resolve.`
    ctx.log.info(why)
    return {
      outputs: { ...incidentOutputs(incident), result: incident ?? null, changed: false },
      summary: incidentSummary('Nothing to resolve', incident ? [incident] : [], [...notes, why])
    }
  }
  const changes: Mapping = { status: RESOLVED, message: await incidentMessage(ctx, resolvedMessage) }
  return withNotes(await apply(ctx, incident, changes, 'Incident resolved'), notes)
}

export const listIncidents: Operation = async ctx => {
  const all = await ctx.api.listIncidents()
  return {
    outputs: { ...incidentOutputs(all[0]), result: all, count: all.length },
    summary: incidentSummary(`Incidents (${all.length})`, all)
  }
}
