/**
 * The checks file of sync-checks: read safely (a regular file, at most 5 MiB,
 * never read past that) and parsed into validated check specs, with errors
 * that name the file, the entry and its line.
 */
import { FileHandle, open } from 'node:fs/promises'
import { load } from '../lazy/modules.cjs'
import yaml from '../lazy/yaml.cjs'
import { CheckEntrySchema, ChecksFileSchema, specProblem } from '../specs.js'
import { Mapping, isMapping } from '../values.js'

export class ChecksFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ChecksFileError'
  }
}

/** Parse and validate a checks file's text: a list of specs, or `{checks: [...]}`. */
export function parseChecksFile(text: string, file: string): Mapping[] {
  const lineCounter = new yaml.LineCounter()
  const doc = yaml.parseDocument(text, { schema: 'core', uniqueKeys: true, lineCounter, prettyErrors: false })
  const fail = (message: string): never => {
    throw new ChecksFileError(`checks-file ${file}: ${message}`)
  }
  if (doc.errors.length > 0) {
    const e = doc.errors[0]
    fail(
      `not valid YAML or JSON (line ${lineCounter.linePos(e.pos[0]).line}): ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`
    )
  }
  let seq: unknown = doc.contents
  if (yaml.isMap(seq)) seq = seq.get('checks', true)
  const items = yaml.isSeq(seq) ? (seq as unknown as { items: Array<{ range?: [number, number, number] }> }).items : []
  const shape = ChecksFileSchema.safeParse(doc.toJS({ maxAliasCount: 100 }))
  if (!shape.success) fail(shape.error.issues[0].message)
  const list = shape.data as unknown[]
  const names = new Map<string, number>()
  return list.map((entry, i) => {
    const offset = items[i]?.range?.[0]
    const where = `entry ${i + 1}${offset !== undefined ? ` (line ${lineCounter.linePos(offset).line})` : ''}`
    if (!isMapping(entry)) fail(`${where} must be a mapping of check fields`)
    const spec = entry as Mapping
    const named = typeof spec.name === 'string' && spec.name.trim() !== '' ? ` (${JSON.stringify(spec.name)})` : ''
    const problem = specProblem(CheckEntrySchema, spec)
    if (problem) fail(problem.startsWith('needs a ') ? `${where}${named} ${problem}` : `${where}${named}: ${problem}`)
    const earlier = names.get(spec.name as string)
    if (earlier !== undefined) fail(`${where}: the name ${JSON.stringify(spec.name)} is also used by entry ${earlier}`)
    names.set(spec.name as string, i + 1)
    return spec
  })
}

/** The largest checks file read: bigger ones are refused before they are read whole. */
export const MAX_CHECKS_FILE_BYTES = 5 * 1024 * 1024

/**
 * A checks file's text: a regular file of at most MAX_CHECKS_FILE_BYTES, never
 * read past that. The YAML parser parseChecksFile needs is loaded with it.
 */
export async function readChecksFile(given: string, file: string): Promise<string> {
  await load('yaml')
  const cannot = (why: string) => new ChecksFileError(`checks-file ${given}: ${why}`)
  let handle: FileHandle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    const code = (error as { code?: string }).code
    throw cannot(`cannot read ${file}${code ? ` (${code})` : ''}`)
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw cannot(`${file} is not a regular file`)
    const tooBig = (size: string) =>
      cannot(
        `${file} is ${size}, more than the ${MAX_CHECKS_FILE_BYTES} bytes (5 MiB) a checks file may have; split it`
      )
    if (info.size > MAX_CHECKS_FILE_BYTES) throw tooBig(`${info.size} bytes`)
    // Read one byte more than allowed: a file that grew since stat() is caught too.
    const buffer = Buffer.alloc(MAX_CHECKS_FILE_BYTES + 1)
    let length = 0
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
      if (length > MAX_CHECKS_FILE_BYTES) throw tooBig('over that size')
    }
    return buffer.subarray(0, length).toString('utf8')
  } finally {
    await handle.close()
  }
}
