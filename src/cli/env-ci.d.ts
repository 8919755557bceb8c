/** The part of env-ci (which ships no types) the command reads: what it finds of the CI in the environment. */
declare module 'env-ci' {
  export interface CiFound {
    isCi: boolean
    name?: string
    service?: string
    commit?: string
    tag?: string
    build?: string
    buildUrl?: string
    job?: string
    jobUrl?: string
    branch?: string
    pr?: string
    isPr?: boolean
    prBranch?: string
    slug?: string
    root?: string
  }
  export default function envCi(options?: { env?: NodeJS.ProcessEnv; cwd?: string }): CiFound
}
