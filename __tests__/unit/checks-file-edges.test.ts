/**
 * Edges of the checks file's readers that the other tests left open: a
 * quoted `${NAME}` read by the YAML parser stays text, a filled value with
 * blanks around a boolean word is that boolean, the error's name, and how a
 * file is read from disk (buffers that grow with the file, never toward the
 * limit; the buffer handed back to the caller; no file left open; a file
 * that grows past the limit while it is read).
 */
import { beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { load } from '../../src/lazy/modules.cjs'
import { ChecksFileError, parseChecksFile } from '../../src/operations/sync/checks-file.js'
import { filledValue } from '../../src/operations/sync/checks-file-templates.js'
import { MAX_CHECKS_FILE_BYTES, readAtMost, readChecksFile } from '../../src/operations/sync/checks-file-read.js'

beforeAll(() => load('yaml'))

const dir = mkdtempSync(join(tmpdir(), 'checks-edges-'))

describe('${NAME} read by the YAML parser', () => {
  // An anchor is left to the YAML parser by the readers without it.
  const env = { PORT: '8080', ON: 'true' }

  it('a quoted template stays text, whatever it holds; a plain one is the number or boolean it holds', () => {
    const text = `- &a\n  name: a\n  url: https://a/\n  port: "\${PORT}"\n  on: '\${ON}'\n  plainPort: \${PORT}\n  plainOn: \${ON}\n`
    expect(parseChecksFile(text, 'checks.yml', { env })).toEqual([
      { name: 'a', url: 'https://a/', port: '8080', on: 'true', plainPort: 8080, plainOn: true }
    ])
  })
})

describe('a plain value filled in', () => {
  const plain = (value: string) => filledValue('${V}', true, () => value)

  it('a boolean word with blanks around it is that boolean, as a number with blanks is that number', () => {
    expect(plain(' true ')).toBe(true)
    expect(plain('\ttrue')).toBe(true)
    expect(plain(' False ')).toBe(false)
    expect(plain(' 1.25 ')).toBe(1.25)
  })

  it('a decimal is a number; what only starts or ends like one stays text', () => {
    expect(plain('1.25')).toBe(1.25)
    for (const text of ['v.5', '1.x', 'true 1', '1 true']) expect(plain(text)).toBe(text)
  })
})

describe('ChecksFileError', () => {
  it('is named ChecksFileError, as a thrown error prints it', () => {
    let caught: unknown
    try {
      parseChecksFile('- name: a\n', 'checks.yml')
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ChecksFileError)
    expect((caught as Error).name).toBe('ChecksFileError')
    expect(String(caught)).toMatch(/^ChecksFileError: checks-file checks\.yml: /)
  })
})

/** A handle serving `content`, whatever size stat() said; it records the size of each buffer it is given. */
function servingHandle(content: Buffer) {
  const buffers: number[] = []
  return {
    buffers,
    read: async (buffer: Buffer, offset: number, length: number, position: number) => {
      buffers.push(buffer.length)
      return { bytesRead: content.copy(buffer, offset, position, Math.min(content.length, position + length)) }
    }
  }
}

describe('reading a checks file from disk', () => {
  it('a file that grew since stat() is read in buffers that double, never one of the limit', async () => {
    const grown = Buffer.alloc(1000, 'x')
    const handle = servingHandle(grown)
    expect(await readAtMost(handle, 10, MAX_CHECKS_FILE_BYTES)).toBe(grown.toString())
    // 11, 22, 44, ... 1408 bytes: less than twice the file, far from the 10 MiB limit.
    expect(Math.max(...handle.buffers)).toBeLessThan(2 * grown.length)
  })

  it('hands the buffer the file was read into to the caller, once the text no longer needs it', async () => {
    const text = '- name: a\n  url: https://a/\n'
    writeFileSync(join(dir, 'spare.yml'), text)
    let room: Buffer | undefined
    expect(await readChecksFile('spare.yml', join(dir, 'spare.yml'), spare => (room = spare))).toBe(text)
    expect(room?.subarray(0, text.length).toString()).toBe(text)
    room?.fill(0x21)
    expect(await readChecksFile('spare.yml', join(dir, 'spare.yml'))).toBe(text)
  })
})

describe('the files readChecksFile opens', () => {
  const openFiles = () => readdirSync('/proc/self/fd').length

  ;(process.platform === 'linux' ? it : it.skip)('are closed once read, or once refused', async () => {
    writeFileSync(join(dir, 'closed.yml'), '- name: a\n  url: https://a/\n')
    await readChecksFile('closed.yml', join(dir, 'closed.yml'))
    const before = openFiles()
    for (let i = 0; i < 20; i++) {
      await readChecksFile('closed.yml', join(dir, 'closed.yml'))
      await expect(readChecksFile('dir', dir)).rejects.toThrow('is not a regular file')
    }
    expect(openFiles()).toBe(before)
  })
})

describe('a file that grows past the limit while it is read', () => {
  it('is refused, naming the limit, though stat() gave a size under it', async () => {
    jest.resetModules()
    const big = Buffer.alloc(MAX_CHECKS_FILE_BYTES + 1, 'a')
    // stat() says 10 bytes; the reads then find more than the limit (a writer appending meanwhile).
    jest.unstable_mockModule('node:fs/promises', () => ({
      open: async () => ({
        stat: async () => ({ isFile: () => true, size: 10 }),
        read: servingHandle(big).read,
        close: async () => undefined
      })
    }))
    const mocked = await import('../../src/operations/sync/checks-file-read.js')
    await expect(mocked.readChecksFile('growing.yml', '/growing.yml')).rejects.toThrow(
      `checks-file growing.yml: /growing.yml is over that size, more than the ${MAX_CHECKS_FILE_BYTES} bytes (10 MiB) a checks file may have; split it`
    )
  })
})
