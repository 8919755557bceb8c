/**
 * What `@actions/exec` is in the bundle (tsconfig.json `paths`): nothing.
 * @actions/core imports it only for `core.platform` (which runs commands to
 * describe the runner's system), and the action never asks for that; without
 * this every start would read child_process, dgram and @actions/io for it.
 * Any use throws, naming the package: a bug, caught by the tests.
 */
'use strict'
const refuse = () => {
  throw new Error('@actions/exec is not in the bundle (src/lazy/exec.cjs): the action runs no commands')
}
module.exports = new Proxy(
  {},
  {
    get: (_target, key) => (key === '__esModule' ? undefined : refuse()),
    has: refuse,
    ownKeys: () => [],
    getOwnPropertyDescriptor: () => undefined
  }
)
