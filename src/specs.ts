/**
 * Zod schemas of the specs a user writes: a check (the `check` input, or an
 * entry of a checks file), an incident, a status page. Fields the action knows
 * are validated; every other field passes through untouched.
 */
import { z } from 'zod'
import { quote } from './parse.js'

/** A required field that is missing says "needs a <field>"; a wrong one says what it must be. */
const required = (field: string, otherwise: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `needs a ${field}` : otherwise

const nonEmpty = (field: string) =>
  z
    .string({ error: required(field, 'must be a non-empty string') })
    .refine(v => v.trim() !== '', { error: 'must be a non-empty string' })

const httpUrl = z.string({ error: required('url', 'must be a string') }).superRefine((value, ctx) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    ctx.addIssue({ code: 'custom', message: `must be an absolute URL, got ${quote(value)}` })
    return
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' })
  }
})

const wholeAboveZero = z
  .number({ error: 'must be a whole number above 0' })
  .int({ error: 'must be a whole number above 0' })
  .positive({ error: 'must be a whole number above 0' })

const checkFields = {
  name: nonEmpty('name'),
  url: httpUrl,
  type: nonEmpty('type'),
  interval: wholeAboveZero,
  alertChannels: z.array(z.string(), { error: 'must be a list of strings' }),
  status: nonEmpty('status')
}

/** A check spec (the `check` input): every known field optional. */
export const CheckSpecSchema = z.looseObject({
  name: checkFields.name.optional(),
  url: checkFields.url.optional(),
  type: checkFields.type.optional(),
  interval: checkFields.interval.optional(),
  alertChannels: checkFields.alertChannels.optional(),
  status: checkFields.status.optional()
})

/** An entry of a checks file: name and url required. */
export const CheckEntrySchema = CheckSpecSchema.extend({ name: checkFields.name, url: checkFields.url })

/** A checks file: a list of entries, or a mapping with a `checks` list. */
export const ChecksFileSchema = z.union(
  [z.array(z.unknown()), z.looseObject({ checks: z.array(z.unknown()) }).transform(file => file.checks)],
  { error: 'must hold a list of checks, or a mapping with a "checks" list' }
)

export const IncidentSpecSchema = z.looseObject({
  title: nonEmpty('title').optional(),
  message: nonEmpty('message').optional(),
  status: nonEmpty('status').optional()
})

export const StatusPageSpecSchema = z.looseObject({ name: nonEmpty('name').optional() })

/**
 * The first problem of a spec, as "<field> <what is wrong>" (or "needs a
 * <field>"), or undefined when the spec is valid.
 */
export function specProblem(schema: z.ZodType, spec: unknown): string | undefined {
  const result = schema.safeParse(spec)
  if (result.success) return undefined
  const issue = result.error.issues[0]
  const field = issue.path.join('.')
  if (issue.message.startsWith('needs a ')) return issue.message
  return field ? `${field} ${issue.message}` : issue.message
}
