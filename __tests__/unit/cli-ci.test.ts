/**
 * The command's run facts in each CI (env-ci's reading of its variables, and
 * the pipeline and job names each CI documents), and none outside any CI.
 */
import { describe, expect, it } from '@jest/globals'
import { ciName, runFactsOf } from '../../src/cli/ci.js'
import { failureMessage } from '../../src/operations/incidents/incident-text.js'

const SHA = '0123456789abcdef0123456789abcdef01234567'
const ENVS: Record<string, NodeJS.ProcessEnv> = {
  gitlab: {
    GITLAB_CI: 'true',
    CI_COMMIT_SHA: SHA,
    CI_COMMIT_REF_NAME: 'main',
    CI_PIPELINE_ID: '991',
    CI_JOB_ID: '4242',
    CI_PROJECT_URL: 'https://gitlab.example.com/acme/shop',
    CI_PROJECT_PATH: 'acme/shop',
    CI_PIPELINE_NAME: 'Deploy',
    CI_JOB_NAME: 'deploy-prod'
  },
  jenkins: {
    JENKINS_URL: 'https://ci.example.com/',
    GIT_COMMIT: SHA,
    GIT_BRANCH: 'main',
    BUILD_NUMBER: '17',
    BUILD_URL: 'https://ci.example.com/job/shop/17/',
    JOB_NAME: 'shop-deploy',
    STAGE_NAME: 'Deploy'
  },
  circleci: {
    CIRCLECI: 'true',
    CIRCLE_SHA1: SHA,
    CIRCLE_BRANCH: 'main',
    CIRCLE_BUILD_NUM: '88',
    CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/shop/88',
    CIRCLE_PROJECT_USERNAME: 'acme',
    CIRCLE_PROJECT_REPONAME: 'shop',
    CIRCLE_JOB: 'deploy'
  },
  buildkite: {
    BUILDKITE: 'true',
    BUILDKITE_COMMIT: SHA,
    BUILDKITE_BRANCH: 'main',
    BUILDKITE_BUILD_NUMBER: '5',
    BUILDKITE_BUILD_URL: 'https://buildkite.com/acme/shop/builds/5',
    BUILDKITE_JOB_ID: 'j-1',
    BUILDKITE_ORGANIZATION_SLUG: 'acme',
    BUILDKITE_PIPELINE_SLUG: 'shop',
    BUILDKITE_LABEL: ':rocket: deploy',
    BUILDKITE_REPO: 'git@github.com:acme/shop.git'
  },
  azure: {
    BUILD_BUILDURI: 'vstfs:///Build/Build/7',
    BUILD_SOURCEVERSION: SHA,
    BUILD_SOURCEBRANCH: 'refs/heads/main',
    BUILD_BUILDNUMBER: '20261129.1',
    BUILD_DEFINITIONNAME: 'shop-release',
    SYSTEM_JOBDISPLAYNAME: 'Deploy job'
  }
}

describe('the run facts the command takes from the CI it runs in', () => {
  it('GitLab: the pipeline and job names, the project, the branch, the commit, the pipeline and job pages', async () => {
    const facts = await runFactsOf(ENVS.gitlab)
    expect(facts).toMatchObject({
      ci: 'GitLab CI/CD',
      workflow: 'Deploy',
      job: 'deploy-prod',
      repository: 'acme/shop',
      ref: 'refs/heads/main',
      refName: 'main',
      sha: SHA,
      shortSha: SHA.slice(0, 7),
      runId: '991',
      runUrl: 'https://gitlab.example.com/acme/shop/pipelines/991',
      jobUrl: 'https://gitlab.example.com/acme/shop/-/jobs/4242'
    })
    expect(failureMessage(facts)).toBe(
      `Workflow "Deploy" (job deploy-prod) failed in acme/shop on refs/heads/main at commit ${SHA.slice(0, 7)}. Run: https://gitlab.example.com/acme/shop/pipelines/991`
    )
    expect(await ciName(ENVS.gitlab)).toBe('GitLab CI/CD')
  })

  it.each([
    ['jenkins', 'Jenkins', 'shop-deploy', 'Deploy', 'https://ci.example.com/job/shop/17/'],
    ['circleci', 'CircleCI', 'shop', 'deploy', 'https://circleci.com/gh/acme/shop/88'],
    ['buildkite', 'Buildkite', 'shop', ':rocket: deploy', 'https://buildkite.com/acme/shop/builds/5'],
    ['azure', 'Azure Pipelines', 'shop-release', 'Deploy job', '']
  ])('%s: named %s, pipeline %s, job %s, page %s', async (ci, name, workflow, job, page) => {
    const facts = await runFactsOf(ENVS[ci])
    expect(facts).toMatchObject({ ci: name, workflow, job, sha: SHA, runUrl: page })
    expect(facts.refName).toBe('main')
  })

  it('a tag is the ref when the CI names one; a merge request names its source branch', async () => {
    const tagged = await runFactsOf({ ...ENVS.gitlab, CI_COMMIT_TAG: 'v1.2.0' })
    expect(tagged).toMatchObject({ ref: 'refs/tags/v1.2.0', refName: 'v1.2.0' })
    const mr = await runFactsOf({
      ...ENVS.gitlab,
      CI_MERGE_REQUEST_ID: '12',
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feature/x'
    })
    expect(mr).toMatchObject({ refName: 'feature/x', eventName: 'pull_request' })
  })

  it('a page whose parts the CI left unset is no page', async () => {
    const { CI_PROJECT_URL: _, ...withoutUrl } = ENVS.gitlab
    const facts = await runFactsOf(withoutUrl)
    expect(facts.runUrl).toBe('')
    expect(facts.jobUrl).toBe('')
  })

  it('outside any CI: every fact empty, and the text says the run is outside any CI', async () => {
    const facts = await runFactsOf({ PATH: process.env.PATH })
    expect(facts).toMatchObject({ ci: '', workflow: '', repository: '', sha: '', runUrl: '' })
    expect(failureMessage(facts)).toBe('A run outside any CI failed.')
    expect(await ciName({ PATH: process.env.PATH })).toBe('')
  })

  it('under GitHub Actions: the action’s own facts', async () => {
    const facts = await runFactsOf({
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: '5',
      GITHUB_SERVER_URL: 'https://github.com'
    })
    expect(facts.ci).toBeUndefined()
    expect(facts.repository).toBe('acme/shop')
  })
})
