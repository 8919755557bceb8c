import { describe, expect, it } from '@jest/globals'
import { check, violations } from '../../scripts/check-imports.js'

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

  it("keep the doors apart: the command's door imports nothing of the step's wiring, nor the step's of the command's; operations neither", () => {
    expect(check('src/cli/main.ts', "import { makeApi } from '../step/dependencies.js'")).toHaveLength(1)
    expect(check('src/cli/main.ts', "import { makeApi } from '../core/dependencies.js'")).toEqual([])
    expect(check('src/step/dependencies.ts', "import { commandHost } from '../cli/host.js'")).toHaveLength(1)
    expect(check('src/main.ts', "import { command } from './cli/main.js'")).toHaveLength(1)
    expect(check('src/core/dependencies.ts', "import { defaultDependencies } from '../step/dependencies.js'")).toHaveLength(1)
    for (const door of ['../../step/dependencies.js', '../../cli/main.js']) {
      expect(check('src/operations/gate/gate.ts', `import { x } from '${door}'`)).toHaveLength(1)
    }
  })

  it('keep the story rooms apart: a story imports shared modules, never another story; shared ones import no story', () => {
    expect(check('src/operations/gate/gate.ts', "import { checkTargets } from '../check-targets.js'")).toEqual([])
    expect(check('src/operations/gate/gate.ts', "import { junitXml } from './junit.js'")).toEqual([])
    expect(check('src/operations/sync/sync.ts', "import { upsert } from '../checks/checks.js'")).toEqual([
      expect.stringContaining('src/operations/sync/sync.ts:1: imports src/operations/checks/checks.ts; not allowed')
    ])
    expect(check('src/operations/converge.ts', "import { byTitle } from './incidents/incidents.js'")).toHaveLength(1)
    expect(check('src/operations/gate/gate.ts', "import { OPERATIONS } from '../registry.js'")).toHaveLength(1)
    expect(check('src/operations/registry.ts', "import { gate } from './gate/gate.js'")).toEqual([])
  })
})
