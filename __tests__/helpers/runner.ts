export * from '../../scripts/lib/runner.js'
export { Target } from '../../scripts/lib/target.js'
export { FakeGitHub } from '../../scripts/lib/fake-github.js'
