/** `@actions/github` and an Octokit for a token: what every call to GitHub starts with. */
import { load } from '../lazy/modules.cjs'
import { importGithub } from '../run-context.js'

export type GitHub = Awaited<ReturnType<typeof importGithub>>
export type Octokit = ReturnType<GitHub['getOctokit']>

/** Octokit's requests go through undici's fetch: undici is loaded first. */
export async function gitHubFor(token: string, env: NodeJS.ProcessEnv): Promise<{ github: GitHub; octokit: Octokit }> {
  await load('undici')
  const github = await importGithub(env)
  return { github, octokit: github.getOctokit(token) }
}
