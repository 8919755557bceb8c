/**
 * Zod schemas of the specs a user writes: a check (the `check` input, or an
 * entry of a checks file), an incident, a status page. Fields the action knows
 * are validated; every other field passes through untouched.
 */
import * as z from 'zod/mini'
import { quote } from '../values/parse.js'

/** A required field that is missing says "needs a <field>"; a wrong one says what it must be. */
const required = (field: string, otherwise: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `needs a ${field}` : otherwise

const nonEmpty = (field: string) =>
  z
    .string({ error: required(field, 'must be a non-empty string') })
    .check(z.refine(v => v.trim() !== '', { error: 'must be a non-empty string' }))

/** An absolute http or https URL. */
const isHttpUrl = (value: string) => ['http:', 'https:'].includes(URL.parse(value)?.protocol ?? '')

// A refine with its message made from the value, not a superRefine: zod gives each value a superRefine checks
// an `addIssue` closure of its own, which holds the value through V8's young-generation collections while the
// code is new (a fleet's checks file: some 3 MiB more survivors at 10,000 entries, docs/benchmarks.md).
const httpUrl = z.string({ error: required('url', 'must be a string') }).check(
  z.refine(isHttpUrl, {
    error: issue => {
      const value = String(issue.input)
      return URL.canParse(value) ? 'must be an http or https URL' : `must be an absolute URL, got ${quote(value)}`
    }
  })
)

const wholeAboveZero = z
  .int({ error: 'must be a whole number above 0' })
  .check(z.positive({ error: 'must be a whole number above 0' }))

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
  name: z.optional(checkFields.name),
  url: z.optional(checkFields.url),
  type: z.optional(checkFields.type),
  interval: z.optional(checkFields.interval),
  alertChannels: z.optional(checkFields.alertChannels),
  status: z.optional(checkFields.status)
})

/** An entry of a checks file: name and url required. */
export const CheckEntrySchema = z.extend(CheckSpecSchema, { name: checkFields.name, url: checkFields.url })

/** A checks file: a list of entries, or a mapping with a `checks` list. */
export const ChecksFileSchema = z.union(
  [
    z.array(z.unknown()),
    z.pipe(
      z.looseObject({ checks: z.array(z.unknown()) }),
      z.transform(file => file.checks)
    )
  ],
  { error: 'must hold a list of checks, or a mapping with a "checks" list' }
)

export const IncidentSpecSchema = z.looseObject({
  title: z.optional(nonEmpty('title')),
  message: z.optional(nonEmpty('message')),
  status: z.optional(nonEmpty('status'))
})

export const StatusPageSpecSchema = z.looseObject({ name: z.optional(nonEmpty('name')) })

/**
 * The first problem of a spec, as "<field> <what is wrong>" (or "needs a
 * <field>"), or undefined when the spec is valid.
 */
export function specProblem(schema: z.ZodMiniType, spec: unknown): string | undefined {
  const result = schema.safeParse(spec)
  if (result.success) return undefined
  const issue = result.error.issues[0]
  const field = issue.path.join('.')
  if (issue.message.startsWith('needs a ')) return issue.message
  return field ? `${field} ${issue.message}` : issue.message
}
