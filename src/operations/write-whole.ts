/** A report file written whole or not at all: a temporary file beside it, then a rename. */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import * as path from 'node:path'

/**
 * Write `text` to `file`, making its folder first if it is missing (a report
 * path such as `reports/gate.xml`); on failure nothing is left behind.
 */
export async function writeWhole(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true })
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    await writeFile(temporary, text, { flag: 'wx' })
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

/** "cannot write FILE (CODE)", for an error message that names the input. */
export function cannotWrite(file: string, error: unknown): string {
  const code = (error as { code?: string }).code
  return `cannot write ${file}${code ? ` (${code})` : ''}`
}
