export * from '../../scripts/lib/runner.js'
export { Target } from '../../scripts/lib/target.js'
