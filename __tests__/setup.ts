import { afterEach } from '@jest/globals'

// core.setFailed sets process.exitCode; it must not leak into jest's own exit status.
afterEach(() => {
  process.exitCode = 0
})
