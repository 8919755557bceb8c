/** What the action needs of the Actions runner, as @actions/core gives it. */

/** The parts of @actions/core the action uses; tests pass a fake. */
export interface CoreLike {
  getInput: (name: string) => string
  setSecret: (secret: string) => void
  setOutput: (name: string, value: string) => void
  setFailed: (message: string) => void
  info: (message: string) => void
  debug: (message: string) => void
  warning: (message: string) => void
  notice: (message: string) => void
  startGroup: (name: string) => void
  endGroup: () => void
  saveState: (name: string, value: string) => void
  getState: (name: string) => string
  summary: { addRaw: (text: string, addEOL?: boolean) => { write: () => Promise<unknown> } }
}
