import { describe, expect, it } from '@jest/globals'
import { check, violations } from '../../scripts/check-imports.js'

describe('import directions (docs/design.md)', () => {
  it('hold for every file in src/ and emulator/', () => {
    expect(violations()).toEqual([])
  })

  it('catch an import against the grain', () => {
    expect(check('src/api/client.ts', "import { parseConfig } from '../inputs.js'")).toEqual([
      expect.stringContaining('src/api/client.ts:1: imports src/inputs.ts; not allowed')
    ])
    expect(check('src/operations/gate.ts', "import type { CoreLike } from '../runner.js'")).toHaveLength(1)
    expect(check('src/report/log.ts', "import { run } from '../main.js'")).toHaveLength(1)
    expect(check('emulator/server.ts', "import { paths } from '../src/api/monitoring.js'")).toHaveLength(1)
    expect(check('src/operations/gate.ts', "import { ApiError } from '../api/errors.js'")).toEqual([])
  })
})
