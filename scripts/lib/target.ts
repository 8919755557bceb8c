/** A local HTTP target for the emulator's probes: the test makes it up, down or slow, or stops it. */
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'

export class Target {
  mode: 'up' | 'down' = 'up'
  delayMs = 0
  hits = 0
  url = ''
  private server = http.createServer((_req, res) => {
    this.hits++
    setTimeout(() => {
      res.writeHead(this.mode === 'up' ? 200 : 503, { 'Content-Type': 'text/plain' })
      res.end(this.mode)
    }, this.delayMs)
  })

  async start(): Promise<string> {
    await new Promise<void>(r => this.server.listen(0, '127.0.0.1', () => r()))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/health`
    return this.url
  }

  stop(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise(r => this.server.close(() => r()))
  }
}
