/**
 * The API's resources, as zod schemas that keep every field they do not name.
 * Only `id` is required: the API document leaves most fields unspecified.
 */
import * as z from 'zod/mini'

const id = z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String))

export const CheckSchema = z.looseObject({
  id,
  name: z.nullish(z.string()),
  url: z.nullish(z.string()),
  type: z.nullish(z.string()),
  interval: z.nullish(z.number()),
  alertChannels: z.nullish(z.array(z.string())),
  status: z.nullish(z.string()),
  /** Text or a number (an epoch time, which the one reader of times, `placeTime`, leaves unplaced). */
  lastCheckedAt: z.nullish(z.union([z.string(), z.number()])),
  responseTime: z.nullish(z.number())
})
export type Check = z.output<typeof CheckSchema>

export const IncidentSchema = z.looseObject({
  id,
  title: z.nullish(z.string()),
  message: z.nullish(z.string()),
  status: z.nullish(z.string()),
  /** Text or a number (an epoch time, which the one reader of times, `placeTime`, leaves unplaced). */
  createdAt: z.nullish(z.union([z.string(), z.number()])),
  updatedAt: z.nullish(z.union([z.string(), z.number()]))
})
export type Incident = z.output<typeof IncidentSchema>

export const StatusPageSchema = z.looseObject({
  id,
  name: z.nullish(z.string())
})
export type StatusPage = z.output<typeof StatusPageSchema>

export const HistoryEntrySchema = z.looseObject({
  status: z.nullish(z.string()),
  responseTime: z.nullish(z.number()),
  /**
   * Any value: the time is read by the one reader of times (`placeTime`),
   * which places the forms it knows and leaves the others unknown, so a row in
   * another form (an epoch number) is counted by the rule that meets it
   * (the error budget errs closed) rather than failing the whole read.
   */
  checkedAt: z.optional(z.unknown())
})
export type HistoryEntry = z.output<typeof HistoryEntrySchema>

/** Fields the server owns: never sent back in a PUT. */
export const READ_ONLY_FIELDS = ['id', 'lastCheckedAt', 'responseTime', 'createdAt', 'updatedAt']
