/**
 * The checks files of a fleet in the shapes users write, for the bench's
 * fleet rows and the tests that hold the checks file reader to them. Every
 * shape states the same checks (those of `fleetCheck`), so a sync of any of
 * them against a service holding those checks plans nothing.
 *
 *   bare      a bare list, plain values only (name, url, interval)
 *   export    what export-checks writes: its own writer (export-file.ts) on
 *             the service's checks: a header, double-quoted strings, `type`,
 *             block `alertChannels`
 *   examples  as the README and examples/monitoring/checks.yml write one:
 *             comments, the `checks:` key, flow (`[email]`) and block
 *             sequences, plain, double- and single-quoted strings
 *   json      what export-checks writes for a `.json` path
 */
import { load } from '../../src/lazy/modules.cjs'
import { checksFileText, exportEntries } from '../../src/operations/sync/export-file.js'
import type { Check } from '../../src/api/schemas.js'

export const FLEET_SHAPES = {
  bare: 'a bare list (name, url, interval)',
  export: 'the YAML export-checks writes (quoted strings, type, block alertChannels)',
  examples: 'the YAML of the examples (checks:, flow and block sequences, quoted and plain strings)',
  json: 'the JSON export-checks writes'
} as const
export type FleetShape = keyof typeof FLEET_SHAPES

/** The i-th check of a fleet, as the service holds it (the emulator's defaults fill the rest). */
export const fleetCheck = (i: number) => ({
  name: `fleet-${i}`,
  url: `https://fleet.example.com/${i}`,
  interval: 60,
  alertChannels: ['email']
})

/** One entry of the examples' shape: the forms rotate, as a file edited by several hands has them. */
function examplesEntry(i: number): string {
  const { name, url } = fleetCheck(i)
  switch (i % 4) {
    case 0:
      return `  - name: ${name}\n    url: ${url}\n    interval: 60\n    alertChannels: [email]\n`
    case 1:
      return `  - name: "${name}"\n    url: "${url}"\n    interval: 60\n    alertChannels:\n      - email\n`
    case 2:
      return `  # ${name}: the shop's page ${i}\n  - name: '${name}'\n    url: ${url}\n    type: http\n    interval: 60\n    alertChannels: ["email"]\n`
    default:
      return `\n  - name: ${name}\n    url: '${url}'\n    interval: 60 # a minute\n    alertChannels: [ email ]\n`
  }
}

/**
 * The text of a fleet's checks file of `n` checks in `shape`. `checks` are
 * the service's checks (what the export shapes are written from: export-checks'
 * own writer), `baseUrl` the service's, named in the export's header.
 */
export async function fleetText(shape: FleetShape, checks: Check[], baseUrl: string): Promise<string> {
  const n = checks.length
  switch (shape) {
    case 'bare':
      return Array.from({ length: n }, (_, i) => {
        const { name, url, interval } = fleetCheck(i)
        return `- name: ${name}\n  url: ${url}\n  interval: ${interval}\n`
      }).join('')
    case 'examples':
      return [
        '# yaml-language-server: $schema=https://raw.githubusercontent.com/acme/monitoring-action/v1/schemas/checks-file.schema.json\n',
        '# The checks of the fleet, applied by sync-checks.\n',
        'checks:\n',
        ...Array.from({ length: n }, (_, i) => examplesEntry(i))
      ].join('')
    case 'export':
    case 'json': {
      await load('yaml')
      const { entries, lifted } = exportEntries(checks)
      const path = shape === 'json' ? 'checks.json' : 'checks.yml'
      return checksFileText(path, entries, { baseUrl, variables: lifted.map(l => l.variable) })
    }
  }
}
