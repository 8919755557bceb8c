/** Redirects and next-page links never take the key to another origin. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { runAction, useEmulator } from '../helpers/harness.js'

const emulator = useEmulator()

const site = 'https://shop.example.com/'

describe('redirects and pagination never take the key elsewhere', () => {
  let other: http.Server
  let otherUrl: string
  const seen: string[] = []
  beforeAll(async () => {
    other = http.createServer((req, res) => {
      seen.push(String(req.headers.authorization ?? ''))
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end('[]')
    })
    await new Promise<void>(r => other.listen(0, '127.0.0.1', () => r()))
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>(r => other.close(() => r())))

  it('a redirect to another origin is an error and is not followed', async () => {
    emulator.inject({ path: '/checks', status: 302, headers: { Location: `${otherUrl}/v1/checks` } })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('was redirected (HTTP 302) to another origin')
    expect(seen).toHaveLength(0)
  })

  it('a redirect within the origin is followed', async () => {
    emulator.seedCheck({ name: 'x', url: site })
    emulator.inject({ path: '/old-checks', status: 301, headers: { Location: '/v1/checks' } })
    const { core } = await runAction(emulator, {
      operation: 'get-check',
      'check-name': 'x',
      'base-url': emulator.baseUrl
    })
    expect(core.failed).toBeUndefined()
  })

  it('a next-page link to another origin is an error and is not followed', async () => {
    emulator.inject({
      path: '/checks',
      status: 200,
      body: { data: [], links: { next: `${otherUrl}/v1/checks?page=2` } }
    })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('next-page link to another origin')
    expect(seen).toHaveLength(0)
  })

  it('a next link that loops is stopped', async () => {
    emulator.inject({ path: '/checks', status: 200, headers: { Link: '</v1/checks>; rel="next"' }, body: [], times: 3 })
    const { core } = await runAction(emulator, { operation: 'list-checks' })
    expect(core.failed).toContain('next-page link to a page already read')
  })
})
