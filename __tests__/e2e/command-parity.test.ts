/**
 * One engine, two doors: for every operation of the registry, the same
 * inputs through the action (dist/index.js, as the runner starts it) and
 * through the command (dist/cli.js, flags) give the same outputs, from the
 * same state of the service. The registry drives the list: a new operation
 * without a case here fails the first test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from '@jest/globals'
import { KEY, useEmulator } from '../helpers/harness.js'
import { runStep } from '../helpers/runner.js'
import { runCommand } from '../../scripts/lib/command.js'
import { OPERATIONS, OperationName } from '../../src/operations/registry.js'
import type { Emulator } from '../../emulator/server.js'

const emulator = useEmulator({ probe: false })
const site = 'https://shop.example.com/health'
const workspace = mkdtempSync(join(tmpdir(), 'parity-'))
afterAll(() => rmSync(workspace, { recursive: true, force: true }))
writeFileSync(
  join(workspace, 'checks.yml'),
  `checks:\n  - name: web-a\n    url: ${site}\n  - name: web-b\n    url: ${site}?b\n`
)

/** Each operation's state of the service and inputs (besides the key, the base URL and the operation). */
const CASES: Record<OperationName, { seed?: (e: Emulator) => unknown; inputs: Record<string, string> }> = {
  'create-check': { inputs: { 'check-name': 'new', 'check-url': site, 'alert-channels': 'email' } },
  'get-check': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site, status: 'up' }),
    inputs: { 'check-name': 'a' }
  },
  'list-checks': {
    seed: e => ['a', 'b', 'c'].forEach(n => e.seedCheck({ id: `chk_${n}`, name: `shop-${n}`, url: site })),
    inputs: { 'name-prefix': 'shop-' }
  },
  'update-check': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site, interval: 60 }),
    inputs: { 'check-id': 'chk_a', 'check-interval': '30' }
  },
  'upsert-check': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site }),
    inputs: { 'check-name': 'a', 'check-url': `${site}?v=2` }
  },
  'delete-check': { seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site }), inputs: { 'check-name': 'a' } },
  'pause-check': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site, status: 'up' }),
    inputs: { 'check-id': 'chk_a' }
  },
  'resume-check': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site, status: 'paused' }),
    inputs: { 'check-id': 'chk_a' }
  },
  'check-history': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site }),
    inputs: { 'check-id': 'chk_a' }
  },
  'wait-for-check': {
    seed: e =>
      void e.seedCheck({
        id: 'chk_a',
        name: 'a',
        url: site,
        status: 'up',
        responseTime: 120,
        lastCheckedAt: new Date().toISOString()
      }),
    inputs: { 'check-id': 'chk_a', 'require-fresh': 'false', timeout: '10s' }
  },
  'sync-checks': {
    seed: e => void e.seedCheck({ id: 'chk_old', name: 'web-old', url: site }),
    inputs: { 'checks-file': 'checks.yml', prune: 'true', 'prune-prefix': 'web-', 'plan-file': 'plan.json' }
  },
  'export-checks': {
    seed: e => ['a', 'b'].forEach(n => e.seedCheck({ id: `chk_${n}`, name: `web-${n}`, url: `${site}?${n}` })),
    inputs: { 'checks-file': 'exported.yml' }
  },
  'create-incident': { inputs: { 'incident-title': 'Broken', 'incident-message': 'It broke.' } },
  'open-incident': { inputs: { 'incident-title': 'Deploy failed: shop', 'incident-key': 'shop' } },
  'update-incident': {
    seed: e => e.seedIncident({ title: 'Down', message: 'x', status: 'investigating' }),
    inputs: { 'incident-id': '{seeded}', 'incident-status': 'identified', 'incident-message': 'Found it.' }
  },
  'resolve-incident': {
    seed: e => e.seedIncident({ title: 'Down', message: 'x', status: 'investigating' }),
    inputs: { 'incident-id': '{seeded}' }
  },
  'list-incidents': {
    seed: e => void e.seedIncident({ title: 'Down', message: 'x', status: 'investigating' }),
    inputs: {}
  },
  'create-status-page': { inputs: { 'status-page': '{"name": "Shop", "public": true}' } },
  'get-status-page': {
    // No seed for pages: made as a user would, through the API.
    seed: e =>
      fetch(`${e.baseUrl}/status-pages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Shop', public: true })
      }),
    inputs: { 'status-page-name': 'Shop' }
  },
  'list-status-pages': { inputs: {} },
  'check-api': {
    seed: e => void e.seedCheck({ id: 'chk_a', name: 'a', url: site, status: 'up' }),
    inputs: {}
  }
}

/** Outputs with what differs from run to run (ids made by the service, times) written alike. */
function normalised(outputs: Record<string, string>): Record<string, string> {
  const ids = new Map<string, string>()
  const text = JSON.stringify(outputs)
    .replace(/\b(chk|inc|sp)_[0-9a-f]{12}\b/g, id => {
      if (!ids.has(id)) ids.set(id, `<${id.split('_')[0]} ${ids.size + 1}>`)
      return ids.get(id) ?? id
    })
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    // check-api quotes a rate-limit reset given as a Unix time: a second apart from run to run.
    .replace(/a Unix time \(\\\\\\"\d{10}\\\\\\"\)/g, 'a Unix time (<unix time>)')
  return JSON.parse(text) as Record<string, string>
}

const env = { GITHUB_WORKSPACE: workspace }

describe('the action and the command give the same outputs', () => {
  it('every operation of the registry has a case', () => {
    expect(Object.keys(CASES).sort()).toEqual([...OPERATIONS].sort())
  })

  it.each(OPERATIONS)('%s', async operation => {
    const { seed, inputs } = CASES[operation]
    emulator.reset()
    const given = (seeded: unknown) =>
      Object.fromEntries(
        Object.entries(inputs).map(([name, value]) => [
          name,
          value.replace('{seeded}', String((seeded as { id?: string })?.id))
        ])
      )
    const action = await runStep(
      { operation, 'api-key': KEY, 'base-url': emulator.baseUrl, ...given(await seed?.(emulator)) },
      { cwd: workspace, env }
    )
    emulator.reset()
    const flags = Object.entries(given(await seed?.(emulator))).flatMap(([name, value]) => [`--${name}=${value}`])
    const command = await runCommand([operation, ...flags], {
      cwd: workspace,
      env: { GITHUB_ACTIONS: 'true', MONITORING_API_KEY: KEY, MONITORING_BASE_URL: emulator.baseUrl, ...env }
    })
    expect([action.code, command.code, action.outputs.error]).toEqual([0, 0, undefined])
    expect(Object.keys(action.outputs).length).toBeGreaterThan(0)
    expect(normalised(command.json)).toEqual(normalised(action.outputs))
  })
})
