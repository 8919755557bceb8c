/**
 * The emulator's data: checks (with their history), incidents and status
 * pages, and the API's rules for creating and changing them (validation,
 * server-owned fields, PUT that replaces or merges).
 */
import { randomBytes } from 'node:crypto'
import { HttpProblem, Json } from './http.js'

export interface Stored extends Json {
  id: string
}

export interface StoreOptions {
  putSemantics: 'replace' | 'merge'
  /** Give checks and incidents a `createdAt`. */
  createdAt: boolean
}

/** What the store tells the prober: start (or restart) probing a check, or stop. */
export interface ProbeHooks {
  schedule: (id: string, delayMs: number) => void
  cancel: (id: string) => void
}

const CHECK_DEFAULTS = { type: 'http', interval: 60, alertChannels: [] as string[] }
const SERVER_FIELDS = ['id', 'status', 'lastCheckedAt', 'responseTime', 'createdAt', 'updatedAt']

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`

/**
 * How the service stores an incident's title, when not as sent: blanks
 * collapsed (runs of white space one space, ends trimmed), lower-cased, cut
 * to `cutAt` characters. Applied in that order on every create and update.
 */
export interface TitleForm {
  collapseBlanks?: boolean
  lowerCase?: boolean
  cutAt?: number
}

/** A title as `form` stores it. */
export function storedTitle(title: string, form: TitleForm): string {
  let out = title
  if (form.collapseBlanks) out = out.replace(/\s+/g, ' ').trim()
  if (form.lowerCase) out = out.toLowerCase()
  if (form.cutAt !== undefined && form.cutAt > 0) out = [...out].slice(0, form.cutAt).join('')
  return out
}

/** A TitleForm from an admin request's JSON; anything else is refused. */
export function titleFormFrom(json: Json): TitleForm {
  const form: TitleForm = {}
  for (const [key, value] of Object.entries(json)) {
    if ((key === 'collapseBlanks' || key === 'lowerCase') && typeof value === 'boolean') form[key] = value
    else if (key === 'cutAt' && typeof value === 'number' && Number.isInteger(value) && value > 0) form.cutAt = value
    else
      throw new Error(
        `titles: unknown or invalid ${JSON.stringify(key)} (collapseBlanks, lowerCase: booleans; cutAt: a whole number)`
      )
  }
  return form
}

export class Store {
  checks = new Map<string, Stored>()
  incidents = new Map<string, Stored>()
  statusPages = new Map<string, Stored>()
  history = new Map<string, Json[]>()
  /** Every check deleted since the last clear, as it was (with `deletedAt`): what a simulation judges deletes by. */
  deleted: Stored[] = []
  probes: ProbeHooks = { schedule: () => {}, cancel: () => {} }
  /** How incident titles are stored (as sent, unless set). */
  titles: TitleForm = {}

  constructor(private readonly options: StoreOptions) {}

  clear(): void {
    this.checks.clear()
    this.incidents.clear()
    this.statusPages.clear()
    this.history.clear()
    this.deleted = []
    this.titles = {}
  }

  private now(): string {
    return new Date().toISOString()
  }

  /** Add a check directly (no request, no rate limit), for test setup. */
  seedCheck(fields: Json): Stored {
    const now = this.now()
    const check: Stored = {
      ...CHECK_DEFAULTS,
      status: 'pending',
      lastCheckedAt: null,
      responseTime: null,
      ...fields,
      id: typeof fields.id === 'string' ? fields.id : newId('chk'),
      // A createdAt given is kept as given (a test of a service writing numbers gets its number).
      createdAt: fields.createdAt !== undefined ? fields.createdAt : now
    }
    if (!this.options.createdAt && fields.createdAt === undefined) delete check.createdAt
    this.checks.set(check.id, check)
    this.history.set(check.id, [])
    this.probes.schedule(check.id, 0)
    return check
  }

  seedIncident(fields: Json): Stored {
    const now = this.now()
    const incident: Stored = { status: 'investigating', createdAt: now, updatedAt: now, ...fields, id: newId('inc') }
    if (!this.options.createdAt && fields.createdAt === undefined) delete incident.createdAt
    this.incidents.set(incident.id, incident)
    return incident
  }

  deleteCheck(id: string): void {
    const gone = this.checks.get(id)
    if (gone) this.deleted.push({ ...gone, deletedAt: this.now() })
    this.checks.delete(id)
    this.history.delete(id)
    this.probes.cancel(id)
  }

  private validateCheck(check: Json, partial: boolean): void {
    const bad = (message: string): never => {
      throw new HttpProblem(400, 'invalid_request', message)
    }
    if (!partial || 'name' in check) {
      if (typeof check.name !== 'string' || check.name.trim() === '')
        bad('name is required and must be a non-empty string')
    }
    if (!partial || 'url' in check) {
      let ok: boolean
      try {
        ok = ['http:', 'https:'].includes(new URL(String(check.url)).protocol) && typeof check.url === 'string'
      } catch {
        ok = false
      }
      if (!ok) bad('url is required and must be an absolute http(s) URL')
    }
    if ('type' in check && typeof check.type !== 'string') bad('type must be a string')
    if ('interval' in check && !(Number.isInteger(check.interval) && (check.interval as number) > 0))
      bad('interval must be a positive integer')
    if (
      'alertChannels' in check &&
      !(Array.isArray(check.alertChannels) && check.alertChannels.every(c => typeof c === 'string'))
    ) {
      bad('alertChannels must be an array of strings')
    }
    if ('status' in check && typeof check.status !== 'string') bad('status must be a string')
  }

  createCheck(input: Json): Stored {
    this.validateCheck(input, false)
    const fields = Object.fromEntries(Object.entries(input).filter(([k]) => !SERVER_FIELDS.includes(k)))
    const paused = input.status === 'paused'
    return this.seedCheck({ ...CHECK_DEFAULTS, ...fields, status: paused ? 'paused' : 'pending' })
  }

  updateCheck(check: Stored, input: Json): Stored {
    this.validateCheck(input, this.options.putSemantics === 'merge')
    const writable = Object.fromEntries(Object.entries(input).filter(([k]) => !SERVER_FIELDS.includes(k)))
    const kept = Object.fromEntries(Object.entries(check).filter(([k]) => SERVER_FIELDS.includes(k)))
    const next: Stored =
      this.options.putSemantics === 'merge' ? { ...check, ...writable } : ({ ...writable, ...kept } as Stored)
    const wasPaused = check.status === 'paused'
    if (typeof input.status === 'string') next.status = input.status
    next.updatedAt = this.now()
    this.checks.set(check.id, next)
    const nowPaused = next.status === 'paused'
    if (nowPaused) this.probes.cancel(check.id)
    else if (wasPaused || check.interval !== next.interval || check.url !== next.url) this.probes.schedule(check.id, 0)
    return next
  }

  createIncident(input: Json): Stored {
    if (typeof input.title !== 'string' || input.title.trim() === '') {
      throw new HttpProblem(400, 'invalid_request', 'title is required and must be a non-empty string')
    }
    const fields = Object.fromEntries(
      Object.entries(input).filter(([k]) => !['id', 'createdAt', 'updatedAt'].includes(k))
    )
    return this.seedIncident({ ...fields, title: storedTitle(input.title, this.titles) })
  }

  updateIncident(incident: Stored, input: Json): Stored {
    const fields = Object.fromEntries(
      Object.entries(input).filter(([k]) => !['id', 'createdAt', 'updatedAt'].includes(k))
    )
    const next: Stored =
      this.options.putSemantics === 'merge'
        ? { ...incident, ...fields }
        : { ...fields, id: incident.id, createdAt: incident.createdAt }
    if (typeof next.title !== 'string' || next.title.trim() === '') {
      throw new HttpProblem(400, 'invalid_request', 'title is required and must be a non-empty string')
    }
    next.title = storedTitle(next.title, this.titles)
    next.updatedAt = this.now()
    this.incidents.set(incident.id, next)
    return next
  }

  createStatusPage(input: Json): Stored {
    if (typeof input.name !== 'string' || input.name.trim() === '') {
      throw new HttpProblem(400, 'invalid_request', 'name is required and must be a non-empty string')
    }
    const page: Stored = { ...input, id: newId('sp'), createdAt: this.now() }
    this.statusPages.set(page.id, page)
    return page
  }
}
