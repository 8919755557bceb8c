/**
 * A checks file read from disk: a regular file, whole, never past the limit
 * sync-checks reads (export-checks writes no larger one).
 */
import { isAscii } from 'node:buffer'
import { constants } from 'node:fs'
import { FileHandle, open } from 'node:fs/promises'
import { ChecksFileError } from './checks-file.js'

/**
 * The largest checks file read: bigger ones are refused before they are read
 * whole. export-checks of 50,000 checks fits, in YAML and in JSON (about 6
 * and 8 MB in the bench); it is also the most one API answer may hold
 * (api/client.ts). A file whose YAML document must be built whole (most are
 * read without one: checks-file.ts) peaks under 1 GiB at this size.
 */
export const MAX_CHECKS_FILE_BYTES = 10 * 1024 * 1024

/**
 * A checks file's text: a regular file of at most MAX_CHECKS_FILE_BYTES, never
 * read past that. `spare` is given the buffer the file was read into, once
 * its text is decoded (a copy): room the caller may reuse (see readAtMost).
 */
export async function readChecksFile(given: string, file: string, spare?: (room: Buffer) => void): Promise<string> {
  const cannot = (why: string) => new ChecksFileError(`checks-file ${given}: ${why}`)
  let handle: FileHandle
  try {
    // Not blocking: opening a FIFO (a named pipe) would wait for a writer for ever, and a cancelled
    // job could not end while it waits; such a file is refused below as not a regular file.
    handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as { code?: string }).code
    // Where a missing file might be is the door's to say (core/failure.ts hintFor): a checkout, or the directory.
    throw new ChecksFileError(`checks-file ${given}: cannot read ${file}${code ? ` (${code})` : ''}`, undefined, code)
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw cannot(`${file} is not a regular file`)
    const tooBig = (size: string) =>
      cannot(
        `${file} is ${size}, more than the ${MAX_CHECKS_FILE_BYTES} bytes (10 MiB) a checks file may have; split it`
      )
    if (info.size > MAX_CHECKS_FILE_BYTES) throw tooBig(`${info.size} bytes`)
    const text = await readAtMost(handle, info.size, MAX_CHECKS_FILE_BYTES, spare)
    if (text === undefined) throw tooBig('over that size')
    return text
  } finally {
    await handle.close()
  }
}

/**
 * A file's bytes as text (UTF-8). An ASCII file (most checks files are) is
 * decoded as Latin-1, the same text for ASCII, which Node keeps outside V8's
 * heap when it is long (over about 1 MB): a fleet's file, whose values point
 * into it, is then not copied and promoted by V8's collections while it is
 * read, where it counted toward doubling the young generation (docs/benchmarks.md).
 */
export const textOf = (bytes: Buffer): string => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')

/**
 * A file's text, read to its end but never past `max` bytes (undefined when
 * it has more). The buffer starts at the size stat() gave and one byte more,
 * so that a file that grew since is seen and read on (in a larger buffer): a
 * small file never costs the limit's 10 MiB.
 *
 * `spare` is then given the buffer, whose bytes the text no longer needs: a
 * fleet's file is a megabyte or more, and a buffer that large that is freed
 * while the step runs makes glibc's malloc raise its threshold for giving an
 * allocation a mapping of its own to that size, and the threshold for handing
 * memory back to the system to twice it, for the rest of the process. What
 * V8's compilers and Node free afterwards then stays in the process: some 2 to
 * 3 MiB more at a sync's peak at 10,000 checks (docs/benchmark-rows.md). The
 * sync keeps the checks file's entries in it instead (plan.ts `PackedSpecs`).
 */
export async function readAtMost(
  handle: {
    read: (buffer: Buffer, offset: number, length: number, position: number) => Promise<{ bytesRead: number }>
  },
  size: number,
  max: number,
  spare?: (room: Buffer) => void
): Promise<string | undefined> {
  let buffer = Buffer.allocUnsafe(Math.min(size, max) + 1)
  let length = 0
  for (;;) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, max + 1))
      buffer.copy(larger, 0, 0, length)
      buffer = larger
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length)
    if (bytesRead === 0) {
      const text = textOf(buffer.subarray(0, length))
      spare?.(buffer)
      return text
    }
    length += bytesRead
    if (length > max) return undefined
  }
}
