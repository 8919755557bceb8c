/**
 * The JSON Schema of a checks file, generated from the zod schema the action
 * validates entries with (src/run/specs.ts), so editors can validate and complete
 * the file. `npm run docs` writes it to schemas/checks-file.schema.json; a test
 * fails when the committed file is stale.
 */
import * as prettier from 'prettier'
import * as z from 'zod/mini'
import { CheckEntrySchema } from '../../src/run/specs.js'

/** What each known field means (the schema's structure comes from zod). */
const DESCRIPTIONS: Record<string, string> = {
  name: 'The check name: how sync-checks matches an entry to a check on the service. Unique in the file.',
  url: 'The URL the service probes (http or https).',
  type: 'The check type; http when absent.',
  interval: 'Seconds between probes (a whole number above 0).',
  alertChannels: 'Alert channel names, compared as a set.',
  status:
    'Set only to pause (paused) or resume (up) on purpose: a paused check stays paused while its entry does not state status.'
}

export const SCHEMA_PATH = 'schemas/checks-file.schema.json'

/** The schema as the committed file holds it (formatted as Prettier, the project's formatter, would). */
export async function schemaText(root: string): Promise<string> {
  const options = (await prettier.resolveConfig(`${root}${SCHEMA_PATH}`)) ?? {}
  return prettier.format(JSON.stringify(checksFileJsonSchema()), { ...options, parser: 'json' })
}

export function checksFileJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...entry } = z.toJSONSchema(CheckEntrySchema, {
    io: 'input',
    unrepresentable: 'any'
  }) as Record<string, unknown>
  // Described field by field (the structure and types are zod's).
  const properties = entry.properties as Record<string, Record<string, unknown>>
  for (const [field, description] of Object.entries(DESCRIPTIONS)) {
    properties[field] = { description, ...properties[field] }
  }
  // What the action refuses, where JSON Schema can say it: empty names, URLs that are not http(s).
  for (const field of ['name', 'type', 'status']) properties[field] = { ...properties[field], minLength: 1 }
  properties.url = { ...properties.url, pattern: '^(https?://|\\$\\{)' }
  // A number may be written as a template (interval: ${INTERVAL}): the action fills it in.
  const { description: intervalText, ...interval } = properties.interval
  properties.interval = {
    description: intervalText,
    anyOf: [interval, { type: 'string', pattern: '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$' }]
  }
  entry.description = 'A check. Fields the action does not know are sent as written.'
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Checks file (sync-checks)',
    description:
      'A list of checks, or a mapping with a "checks" list. ${NAME} in a value is read from the step environment ($${ is a literal ${).',
    anyOf: [
      { type: 'array', items: { $ref: '#/$defs/check' } },
      {
        type: 'object',
        properties: { checks: { type: 'array', items: { $ref: '#/$defs/check' } } },
        required: ['checks']
      }
    ],
    $defs: { check: entry }
  }
}
