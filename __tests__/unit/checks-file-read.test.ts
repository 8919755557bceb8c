/**
 * Reading a checks file: whole, never past the limit, in a buffer the size of
 * the file (a file that grows while read is read on); and parsing it with
 * the YAML parser only when the file needs one.
 */
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseChecksFile, parseChecksFileLoading } from '../../src/operations/sync/checks-file.js'
import {
  MAX_CHECKS_FILE_BYTES,
  readAtMost,
  readChecksFile,
  textOf
} from '../../src/operations/sync/checks-file-read.js'
import { load } from '../../src/lazy/modules.cjs'

const dir = mkdtempSync(join(tmpdir(), 'checks-read-'))

/** A file handle serving `content`, whatever size stat() said; it records the buffer sizes it was given. */
function servingHandle(content: Buffer) {
  const buffers: number[] = []
  return {
    buffers,
    read: async (buffer: Buffer, offset: number, length: number, position: number) => {
      buffers.push(buffer.length)
      const bytesRead = content.copy(buffer, offset, position, Math.min(content.length, position + length))
      return { bytesRead, buffer }
    }
  }
}

describe('readChecksFile / readAtMost', () => {
  it('reads a file whole, multi-byte text included, in a buffer of its size and one byte', async () => {
    const text = '- name: café ☕\n  url: https://ü.example.com/\n'
    writeFileSync(join(dir, 'small.yml'), text)
    expect(await readChecksFile('small.yml', join(dir, 'small.yml'))).toBe(text)
    const handle = servingHandle(Buffer.from(text))
    expect(await readAtMost(handle, Buffer.byteLength(text), MAX_CHECKS_FILE_BYTES)).toBe(text)
    expect(Math.max(...handle.buffers)).toBe(Buffer.byteLength(text) + 1)
  })

  it("gives a file's text as UTF-8 gives it; an ASCII one, when long, outside V8's heap", () => {
    for (const text of ['- name: a\n  url: https://a/\n', '\ufeff- name: é €\n', 'x\u0000\u007f', '']) {
      expect(textOf(Buffer.from(text))).toBe(text)
    }
    expect(textOf(Buffer.from([0xc3, 0x28, 0x41]))).toBe(Buffer.from([0xc3, 0x28, 0x41]).toString('utf8'))
    // One UTF-8 character at the very end of a long ASCII file: the whole file is judged, not its start.
    const lateAccent = Buffer.concat([Buffer.alloc(2 * 1024 * 1024, '- name: fleet\n'), Buffer.from('- name: café\n')])
    expect(textOf(lateAccent).endsWith('- name: café\n')).toBe(true)
    const long = Buffer.alloc(4 * 1024 * 1024, '- name: fleet\n')
    const heap = () => process.memoryUsage().heapUsed
    const before = heap()
    const text = textOf(long)
    expect(heap() - before).toBeLessThan(1024 * 1024)
    expect(text).toBe(long.toString('utf8'))
  })

  it('reads on when the file grew since stat(), and refuses it once past the limit', async () => {
    const grown = Buffer.from('x'.repeat(1000))
    const handle = servingHandle(grown)
    expect(await readAtMost(handle, 10, 5000)).toBe(grown.toString())
    expect(Math.max(...handle.buffers)).toBeLessThanOrEqual(5001)
    expect(await readAtMost(servingHandle(grown), 10, 999)).toBeUndefined()
    expect(await readAtMost(servingHandle(grown), 10, 1000)).toBe(grown.toString())
    expect(await readAtMost(servingHandle(Buffer.alloc(0)), 0, 10)).toBe('')
  })

  ;(process.platform === 'linux' ? it : it.skip)(
    'refuses a named pipe at once, as not a regular file (opening one used to wait for a writer for ever)',
    async () => {
      const fifo = join(dir, 'pipe.yml')
      execFileSync('mkfifo', [fifo])
      await expect(readChecksFile('pipe.yml', fifo)).rejects.toThrow(
        `checks-file pipe.yml: ${fifo} is not a regular file`
      )
    },
    5000
  )

  it('refuses a file over 10 MiB before reading it, naming the limit', async () => {
    writeFileSync(join(dir, 'big.yml'), Buffer.alloc(MAX_CHECKS_FILE_BYTES + 1, 'a'))
    await expect(readChecksFile('big.yml', join(dir, 'big.yml'))).rejects.toThrow(
      `checks-file big.yml: ${join(dir, 'big.yml')} is ${MAX_CHECKS_FILE_BYTES + 1} bytes, more than the ${MAX_CHECKS_FILE_BYTES} bytes (10 MiB)`
    )
  })
})

describe('parseChecksFileLoading', () => {
  const entries = (n: number) =>
    Array.from({ length: n }, (_, i) => `- name: e-${i}\n  url: https://e.example.com/${i}\n  interval: 60\n`).join('')

  it('gives what parseChecksFile gives, for a long plain file and for one a part of which needs YAML', async () => {
    const plain = entries(450)
    // A block scalar is left to the YAML parser (checks-file-lines.ts).
    const block = plain.replace('name: e-300\n', 'name: e-300\n  note: |\n    read by YAML\n')
    const read = await parseChecksFileLoading(plain, 'f.yml')
    expect(read).toHaveLength(450)
    expect(read[449]).toEqual({ name: 'e-449', url: 'https://e.example.com/449', interval: 60 })
    const mixed = await parseChecksFileLoading(block, 'f.yml')
    await load('yaml')
    expect(read).toEqual(parseChecksFile(plain, 'f.yml'))
    expect(mixed).toEqual(parseChecksFile(block, 'f.yml'))
    expect(mixed[300]).toEqual({
      name: 'e-300',
      note: 'read by YAML\n',
      url: 'https://e.example.com/300',
      interval: 60
    })
  })

  it('tells an error as the whole file read by YAML tells it, at its line', async () => {
    const twice = entries(250).replace('name: e-210\n', 'name: e-3\n')
    await expect(parseChecksFileLoading(twice, 'f.yml')).rejects.toThrow(
      'checks-file f.yml: entry 211 (line 631): the name "e-3" is also used by entry 4'
    )
  })
})
