/**
 * What the bundle does at start: no undici (no WebAssembly is compiled for a
 * request the action makes over node:http), no source map read or parsed
 * unless the step asks with NODE_OPTIONS=--enable-source-maps.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KEY, useEmulator } from '../helpers/harness.js'
import { ROOT, runStep } from '../helpers/runner.js'

const emulator = useEmulator()
const dir = mkdtempSync(join(tmpdir(), 'startup-'))
const HOOK = join(dir, 'wasm-hook.mjs')
// Counts every way WebAssembly can be compiled; writes the count to stderr at exit.
writeFileSync(
  HOOK,
  `let used = 0
for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) {
  const original = WebAssembly[name]
  WebAssembly[name] = function (...args) { used++; return original.apply(this, args) }
}
const OriginalModule = WebAssembly.Module
WebAssembly.Module = new Proxy(OriginalModule, { construct(target, args) { used++; return new target(...args) } })
process.on('exit', () => process.stderr.write('\\nWASM_USED=' + used + '\\n'))
`
)

describe('the bundle at start', () => {
  it('get-check compiles no WebAssembly: undici is not loaded for a request over node:http', async () => {
    const check = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const r = await runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'get-check', 'check-id': check.id },
      { nodeArgs: ['--import', HOOK] }
    )
    expect(r.code).toBe(0)
    expect(r.outputs['check-id']).toBe(check.id)
    expect(r.stderr).toContain('WASM_USED=0')
  })

  it('the hook does see WebAssembly when undici is loaded (so the test above can fail)', async () => {
    const r = await new Promise<string>((resolve, reject) => {
      import('node:child_process')
        .then(({ execFile }) =>
          execFile(
            process.execPath,
            ['--import', HOOK, '-e', "require('undici').fetch('http://127.0.0.1:1').catch(() => {})"],
            { cwd: ROOT },
            (_error, _stdout, stderr) => resolve(stderr)
          )
        )
        .catch(reject)
    })
    expect(r).toMatch(/WASM_USED=[1-9]/)
  })

  it('registers no source-map support: the map is shipped, not read at start', () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'index.js'), 'utf8')
    expect(bundle).not.toContain('sourcemap-register')
    expect(existsSync(join(ROOT, 'dist', 'sourcemap-register.cjs'))).toBe(false)
    expect(existsSync(join(ROOT, 'dist', 'index.js.map'))).toBe(true)
  })
})
