/**
 * A checks file read from disk (checks-file-read.ts): what is refused, named
 * as the step gave the file (a missing file with its code, for the door to
 * hint where to look; another reason it cannot be opened, a directory), and the
 * files read whole (one of exactly the limit, an empty one).
 */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChecksFileError } from '../../src/operations/sync/checks-file.js'
import { MAX_CHECKS_FILE_BYTES, readChecksFile } from '../../src/operations/sync/checks-file-read.js'

const dir = mkdtempSync(join(tmpdir(), 'checks-disk-'))

describe('readChecksFile: what it refuses, named as the step gave the file', () => {
  it('a missing file: the path read and its code, kept on the error for the door to hint where to look', async () => {
    const error = await readChecksFile('monitoring/checks.yml', join(dir, 'absent.yml')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ChecksFileError)
    expect((error as ChecksFileError).message).toBe(
      `checks-file monitoring/checks.yml: cannot read ${join(dir, 'absent.yml')} (ENOENT)`
    )
    expect((error as ChecksFileError).code).toBe('ENOENT')
  })

  it('another reason it cannot be opened: the code, and no checkout hint', async () => {
    writeFileSync(join(dir, 'plain.yml'), 'x')
    const under = join(dir, 'plain.yml', 'checks.yml')
    const error = await readChecksFile('checks.yml', under).catch((caught: Error) => caught)
    expect(error).toBeInstanceOf(ChecksFileError)
    expect((error as Error).message).toBe(`checks-file checks.yml: cannot read ${under} (ENOTDIR)`)
  })

  it('a directory is not a regular file', async () => {
    await expect(readChecksFile('monitoring', dir)).rejects.toThrow(
      new ChecksFileError(`checks-file monitoring: ${dir} is not a regular file`)
    )
  })

  it('a file of exactly the limit is read whole', async () => {
    writeFileSync(join(dir, 'limit.yml'), Buffer.alloc(MAX_CHECKS_FILE_BYTES, 'a'))
    expect((await readChecksFile('limit.yml', join(dir, 'limit.yml'))).length).toBe(MAX_CHECKS_FILE_BYTES)
    expect(MAX_CHECKS_FILE_BYTES).toBe(10 * 1024 * 1024)
  })

  it('an empty file is read as empty text', async () => {
    writeFileSync(join(dir, 'empty.yml'), '')
    expect(await readChecksFile('empty.yml', join(dir, 'empty.yml'))).toBe('')
  })
})
