import { describe, expect, it } from '@jest/globals'
import { check, fileCycles, roomCycles, roomOf, violations } from '../../scripts/check-imports.js'

describe('import directions (docs/design-map.md)', () => {
  it('hold for every file in src/ and emulator/', () => {
    expect(violations()).toEqual([])
  })

  it('catch an import against the grain', () => {
    expect(check('src/api/client.ts', "import { parseConfig } from '../inputs/read.js'")).toEqual([
      expect.stringContaining('src/api/client.ts:1: imports src/inputs/read.ts; not allowed')
    ])
    expect(check('src/operations/gate/gate.ts', "import type { CoreLike } from '../../run/runner.js'")).toHaveLength(1)
    expect(check('src/report/log.ts', "import { run } from '../main.js'")).toHaveLength(1)
    expect(check('emulator/server.ts', "import { paths } from '../src/api/monitoring.js'")).toHaveLength(1)
    expect(check('src/operations/gate/gate.ts', "import { ApiError } from '../../api/errors.js'")).toEqual([])
  })

  it('read an import over several lines, a bare import and a dynamic one', () => {
    const api = 'src/api/client.ts'
    expect(check(api, "const a = 1\nimport {\n  parseConfig,\n  readInputs\n} from '../inputs/read.js'")).toEqual([
      expect.stringContaining('src/api/client.ts:2: imports src/inputs/read.ts; not allowed')
    ])
    expect(check(api, "import '../inputs/read.js'")).toHaveLength(1)
    expect(check(api, "const { parseConfig } = await import('../inputs/read.js')")).toHaveLength(1)
    expect(check(api, "// a value read from '../inputs/read.js'")).toEqual([])
  })

  it("keep the doors apart: the command's door imports nothing of the runner's door, nor the runner's of the command's; operations neither", () => {
    expect(check('src/cli/main.ts', "import { makeApi } from '../step/dependencies.js'")).toHaveLength(1)
    expect(check('src/cli/main.ts', "import { makeApi } from '../core/dependencies.js'")).toEqual([])
    expect(check('src/step/dependencies.ts', "import { commandHost } from '../cli/host.js'")).toHaveLength(1)
    expect(check('src/main.ts', "import { command } from './cli/main.js'")).toHaveLength(1)
    expect(
      check('src/core/dependencies.ts', "import { defaultDependencies } from '../step/dependencies.js'")
    ).toHaveLength(1)
    for (const door of ['../../step/dependencies.js', '../../cli/main.js']) {
      expect(check('src/operations/gate/gate.ts', `import { x } from '${door}'`)).toHaveLength(1)
    }
  })

  it('keep the two doors side by side over the core: the core imports neither door, nor main; each door imports the core', () => {
    for (const door of ['../step/dependencies.js', '../cli/main.js', '../cli/host.js', '../main.js', '../index.js']) {
      expect(check('src/core/run.ts', `import { x } from '${door}'`)).toHaveLength(1)
    }
    expect(check('src/core/run.ts', "import { parseConfig } from '../inputs/read.js'")).toEqual([])
    expect(check('src/core/context.ts', "import { RunnerFileError } from './failure.js'")).toEqual([])
    expect(check('src/cli/main.ts', "import { run } from '../core/run.js'")).toEqual([])
    expect(check('src/cli/main.ts', "import { run } from '../main.js'")).toHaveLength(1)
    expect(check('src/step/dependencies.ts', "import { makeApi } from '../core/dependencies.js'")).toEqual([])
    expect(check('src/step/dependencies.ts', "import { run } from '../main.js'")).toHaveLength(1)
  })

  it("keep main.ts thin: it imports the core and the runner's door, nothing else", () => {
    expect(check('src/main.ts', "import { run } from './core/run.js'")).toEqual([])
    expect(check('src/main.ts', "import { defaultDependencies } from './step/dependencies.js'")).toEqual([])
    expect(check('src/main.ts', "import { parseConfig } from './inputs/read.js'")).toHaveLength(1)
    expect(check('src/main.ts', "import { entryOf } from './operations/registry.js'")).toHaveLength(1)
  })

  it('keep the core above what it uses: no room beneath it imports it', () => {
    expect(check('src/report/log.ts', "import { messageOf } from '../core/message.js'")).toHaveLength(1)
    expect(check('src/operations/gate/gate.ts', "import { addSecret } from '../../core/context.js'")).toHaveLength(1)
    expect(check('src/operations/registry.ts', "import { run } from '../core/run.js'")).toHaveLength(1)
    expect(check('src/github/pr-comment.ts', "import { gitHubSide } from '../core/github.js'")).toHaveLength(1)
    expect(check('src/inputs/read.ts', "import { hintFor } from '../core/failure.js'")).toHaveLength(1)
    expect(check('src/run/runner.ts', "import type { Dependencies } from '../core/dependencies.js'")).toHaveLength(1)
    expect(check('src/api/client.ts', "import { messageOf } from '../core/message.js'")).toHaveLength(1)
  })

  it('find no circle among the rooms, and find one where an arrow runs back up', () => {
    expect(roomCycles()).toEqual([])
    expect(roomOf('src/operations/gate/gate.ts')).toBe('src/operations/')
    expect(roomOf('src/main.ts')).toBe('src/main.ts')
    const circle = new Map([
      ['src/core/run.ts', "import { parseConfig } from '../inputs/read.js'"],
      ['src/inputs/read.ts', "import { entryOf } from '../operations/registry.js'"],
      ['src/operations/registry.ts', "import { hintFor } from '../core/failure.js'"]
    ])
    expect(roomCycles(circle)).toEqual([['src/core/', 'src/inputs/', 'src/operations/']])
    // Within one room two files that import each other are no circle among rooms, but one among files.
    const within = new Map([
      ['src/operations/names/check-targets.ts', "import { x } from './duplicates.js'"],
      ['src/operations/names/duplicates.ts', "import { y } from './check-targets.js'"]
    ])
    expect(roomCycles(within)).toEqual([])
    expect(fileCycles(within)).toEqual([
      ['src/operations/names/check-targets.ts', 'src/operations/names/duplicates.ts']
    ])
    expect(fileCycles()).toEqual([])
  })

  it('keep the story rooms apart: a story imports shared modules, never another story; shared ones import no story', () => {
    expect(check('src/operations/gate/gate.ts', "import { checkTargets } from '../names/check-targets.js'")).toEqual([])
    expect(check('src/operations/names/selection.ts', "import { pause } from '../checks/pause.js'")).toHaveLength(1)
    expect(check('src/operations/common.ts', "import { wholeRead } from './names/snapshot.js'")).toHaveLength(1)
    expect(check('src/operations/gate/gate.ts', "import { junitXml } from './junit.js'")).toEqual([])
    expect(check('src/operations/sync/sync.ts', "import { upsert } from '../checks/checks.js'")).toEqual([
      expect.stringContaining('src/operations/sync/sync.ts:1: imports src/operations/checks/checks.ts; not allowed')
    ])
    expect(
      check('src/operations/names/converge.ts', "import { byTitle } from '../incidents/incidents.js'")
    ).toHaveLength(1)
    expect(check('src/operations/gate/gate.ts', "import { OPERATIONS } from '../registry.js'")).toHaveLength(1)
    expect(check('src/operations/registry.ts', "import { gate } from './gate/gate.js'")).toEqual([])
  })
})
