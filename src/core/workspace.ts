/**
 * Where a relative file input (checks-file, plan-file, junit-file,
 * approved-plan) starts: GITHUB_WORKSPACE when the runner (or a CI that sets
 * it) gives one, else the directory the process runs in. The operations'
 * context and the failure's hint both read it here.
 */
export function workspaceOf(env: Readonly<Record<string, string | undefined>>): {
  dir: string
  from: 'GITHUB_WORKSPACE' | 'the directory the command runs in'
} {
  return env.GITHUB_WORKSPACE
    ? { dir: env.GITHUB_WORKSPACE, from: 'GITHUB_WORKSPACE' }
    : { dir: process.cwd(), from: 'the directory the command runs in' }
}
