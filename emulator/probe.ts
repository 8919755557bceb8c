/**
 * Real probing: each check's URL is fetched every `interval` seconds (times
 * the time scale) while the check exists and is not paused; the result sets
 * its status, response time and last-checked time, and goes into its history.
 */
import * as http from 'node:http'
import * as https from 'node:https'
import type { Store, Stored } from './store.js'

export interface ProbeOptions {
  enabled: boolean
  timeScale: number
  timeoutMs: number
  historyLimit: number
}

export class Prober {
  private timers = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly store: Store,
    private readonly options: ProbeOptions
  ) {}

  /** Probe `id` after `delayMs`, then every interval (scaled), while it exists and is not paused. */
  schedule(id: string, delayMs: number): void {
    if (!this.options.enabled) return
    this.cancel(id)
    const check = this.store.checks.get(id)
    if (!check || check.status === 'paused') return
    const timer = setTimeout(() => {
      void this.probe(id).then(() => {
        const current = this.store.checks.get(id)
        if (current && this.timers.get(id) === timer) {
          this.schedule(id, Math.max(10, Number(current.interval) * 1000 * this.options.timeScale))
        }
      })
    }, delayMs)
    timer.unref()
    this.timers.set(id, timer)
  }

  cancel(id: string): void {
    clearTimeout(this.timers.get(id))
    this.timers.delete(id)
  }

  cancelAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }

  /**
   * A probe whose outcome the caller decides (no URL is fetched; a simulation
   * plays a service's probes): recorded as a real one, finishing now. A
   * paused or missing check is not probed (false).
   */
  record(id: string, outcome: { status: string; responseTime: number; statusCode?: number }): boolean {
    const current = this.store.checks.get(id)
    if (!current || current.status === 'paused') return false
    this.land(id, current, { checkedAt: new Date().toISOString(), ...outcome })
    return true
  }

  /** A probe's result: the check's status, response time and time, and the newest entry of its history. */
  private land(id: string, current: Stored, entry: { checkedAt: string; status: string; responseTime: number }): void {
    current.status = entry.status
    current.responseTime = entry.responseTime
    current.lastCheckedAt = entry.checkedAt
    const list = this.store.history.get(id) ?? []
    list.unshift(entry)
    list.length = Math.min(list.length, this.options.historyLimit)
    this.store.history.set(id, list)
  }

  /** One real probe: GET the check's URL; up for a 2xx/3xx answer within the probe timeout. */
  async probe(id: string): Promise<void> {
    const check = this.store.checks.get(id)
    if (!check || check.status === 'paused') return
    const started = Date.now()
    const { ok, statusCode, error } = await probeUrl(String(check.url), this.options.timeoutMs)
    const current = this.store.checks.get(id)
    if (!current || current.status === 'paused') return
    const entry = {
      checkedAt: new Date().toISOString(),
      status: ok ? 'up' : 'down',
      responseTime: Date.now() - started,
      ...(statusCode ? { statusCode } : {}),
      ...(error ? { error } : {})
    }
    this.land(id, current, entry)
  }
}

/** GET a URL once; never follows redirects (3xx counts as up). */
export function probeUrl(
  target: string,
  timeoutMs: number
): Promise<{ ok: boolean; statusCode?: number; error?: string }> {
  return new Promise(resolve => {
    let url: URL
    try {
      url = new URL(target)
    } catch {
      resolve({ ok: false, error: 'invalid URL' })
      return
    }
    const lib = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined
    if (!lib) {
      resolve({ ok: false, error: `unsupported protocol ${url.protocol}` })
      return
    }
    const req = lib.get(url, { timeout: timeoutMs, headers: { 'User-Agent': 'monitoring-emulator-probe' } }, res => {
      res.resume()
      const code = res.statusCode ?? 0
      res.on('end', () => resolve({ ok: code >= 200 && code < 400, statusCode: code }))
      res.on('error', () => resolve({ ok: false, statusCode: code, error: 'connection broke' }))
    })
    req.on('timeout', () => {
      req.destroy()
      resolve({ ok: false, error: `no answer within ${timeoutMs} ms` })
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, error: error.code ?? error.message }))
  })
}
