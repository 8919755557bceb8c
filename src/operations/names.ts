/** Every operation the action knows, by its fixed name (the `operation` input). */
export const OPERATIONS = [
  'create-check',
  'get-check',
  'list-checks',
  'update-check',
  'upsert-check',
  'delete-check',
  'pause-check',
  'resume-check',
  'check-history',
  'wait-for-check',
  'sync-checks',
  'create-incident',
  'open-incident',
  'update-incident',
  'resolve-incident',
  'list-incidents',
  'create-status-page',
  'get-status-page',
  'list-status-pages'
] as const

export type OperationName = (typeof OPERATIONS)[number]

/** Operations whose `check-id` / `check-name` inputs are lists. */
export const MULTI_CHECK_OPERATIONS: readonly OperationName[] = ['wait-for-check', 'pause-check', 'resume-check']

/** Operations that write (and so set the `changed` output). */
export const WRITE_OPERATIONS: readonly OperationName[] = [
  'create-check',
  'update-check',
  'upsert-check',
  'delete-check',
  'pause-check',
  'resume-check',
  'sync-checks',
  'create-incident',
  'open-incident',
  'update-incident',
  'resolve-incident',
  'create-status-page'
]
