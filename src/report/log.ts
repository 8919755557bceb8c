/**
 * The one log writer: every line the action prints goes through it. The key
 * and every value in a secret position are redacted, and each message is made one line that can never be read as a
 * workflow command (see logLine). Only the calls below issue commands
 * (warning, error, group), through @actions/core, which escapes them too.
 */
import type { Annotation, CoreLike } from '../run/runner.js'
import type { FilePlace, OperationLog } from '../operations/types.js'
import { redact } from '../secrets/secrets.js'
import { maskText } from '../secrets/secret-positions.js'
import { logLine } from './text.js'

export interface ActionLog extends OperationLog {
  /** Fail the step with this message (core.setFailed), annotated at a place in a file when given. */
  fail: (message: string, place?: FilePlace) => void
}

const annotation = (place: FilePlace): Annotation => ({
  file: place.file,
  ...(place.line !== undefined ? { startLine: place.line } : {})
})

export function actionLog(
  core: CoreLike,
  secrets: readonly string[],
  drained: () => Promise<void> = () => Promise.resolve()
): ActionLog {
  // The step's secrets in every form, then any value in a secret position (a URL's userinfo, ?token=...).
  const line = (message: string) => logLine(maskText(redact(message, secrets)))
  return {
    debug: m => core.debug(line(m)),
    info: m => core.info(line(m)),
    warning: (m, place) => (place ? core.warning(line(m), annotation(place)) : core.warning(line(m))),
    notice: m => core.notice(line(m)),
    fail: (m, place) => {
      if (!place) return core.setFailed(line(m))
      // What core.setFailed does, with the annotation's place.
      core.error(line(m), annotation(place))
      process.exitCode = 1
    },
    drained,
    ...(core.progress ? { progress: (m: string) => core.progress?.(line(m)) } : {}),
    group: async (name, fn) => {
      core.startGroup(line(name))
      try {
        return await fn()
      } finally {
        core.endGroup()
      }
    }
  }
}
