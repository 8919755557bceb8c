/**
 * Octokit's retry and throttling plugins (and bottleneck, which both schedule
 * with), imported together by octokit.ts when a step first calls GitHub: one
 * chunk of the bundle, never read by a step that does not.
 */
export { retry } from '@octokit/plugin-retry'
export { throttling } from '@octokit/plugin-throttling'
