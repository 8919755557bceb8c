/**
 * What the core needs of the door it came in by: the Actions runner's
 * @actions/core, or the command's host in its place (cli/host.ts).
 */

/** Where an annotation points: a file of the repository and a line (shown on the pull request's diff). */
export interface Annotation {
  file?: string
  startLine?: number
}

/** The parts of @actions/core the action uses; tests pass a fake. */
export interface CoreLike {
  getInput: (name: string) => string
  setSecret: (secret: string) => void
  setOutput: (name: string, value: string) => void
  setFailed: (message: string) => void
  info: (message: string) => void
  debug: (message: string) => void
  warning: (message: string, properties?: Annotation) => void
  notice: (message: string) => void
  /** An error annotation (the step's failure, when it is about a place in a file). */
  error: (message: string, properties?: Annotation) => void
  startGroup: (name: string) => void
  endGroup: () => void
  saveState: (name: string, value: string) => void
  getState: (name: string) => string
  summary: { addRaw: (text: string, addEOL?: boolean) => { write: () => Promise<unknown> } }
  /**
   * Progress that the next progress replaces (a gate's poll: checks passed, the time left), where
   * the door has a place for it (the command: one rewritten line in a terminal, a line a poll in a
   * log). The runner has none: its log groups say it.
   */
  progress?: (message: string) => void
}
