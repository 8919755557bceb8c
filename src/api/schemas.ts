/**
 * The API's resources, as zod schemas that keep every field they do not name.
 * Only `id` is required: the API document leaves most fields unspecified.
 */
import { z } from 'zod'

const id = z.union([z.string().min(1), z.number()]).transform(String)

export const CheckSchema = z.looseObject({
  id,
  name: z.string().nullish(),
  url: z.string().nullish(),
  type: z.string().nullish(),
  interval: z.number().nullish(),
  alertChannels: z.array(z.string()).nullish(),
  status: z.string().nullish(),
  lastCheckedAt: z.string().nullish(),
  responseTime: z.number().nullish()
})
export type Check = z.output<typeof CheckSchema>

export const IncidentSchema = z.looseObject({
  id,
  title: z.string().nullish(),
  message: z.string().nullish(),
  status: z.string().nullish(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish()
})
export type Incident = z.output<typeof IncidentSchema>

export const StatusPageSchema = z.looseObject({
  id,
  name: z.string().nullish()
})
export type StatusPage = z.output<typeof StatusPageSchema>

export const HistoryEntrySchema = z.looseObject({
  status: z.string().nullish(),
  responseTime: z.number().nullish(),
  checkedAt: z.string().nullish()
})
export type HistoryEntry = z.output<typeof HistoryEntrySchema>

/** Fields the server owns: never sent back in a PUT. */
export const READ_ONLY_FIELDS = ['id', 'lastCheckedAt', 'responseTime', 'createdAt', 'updatedAt']
