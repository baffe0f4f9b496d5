import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, cardPayload } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { startCli, type RunningCli } from '../e2e/process.js'
import { cleanedAfterEach } from '../helpers/after-each.js'

/**
 * docs/behaviour.md#limits: memory is bounded by the flags, not by traffic. The real CLI as a
 * process: its resident memory read from /proc, its journal and events read over HTTP.
 */

const cleanups = cleanedAfterEach()

async function cli(args: string[]): Promise<RunningCli> {
  const sb = await startCli(args)
  cleanups.push(async () => {
    sb.child.kill('SIGKILL')
    await sb.exited
  })
  return sb
}

/** The process's resident set, in MB. */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
}

const api = (url: string, key: string) => async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, text, body: JSON.parse(text) as any }
}

describe('memory bounded by configuration', () => {
  it('80 refused 1 MB bodies in one namespace: the journal keeps each cut, RSS stays within 70 MB of the start, and listing it answers 200', async () => {
    const sb = await cli([])
    const call = api(sb.url, 'sk_test_flood')
    const big = JSON.stringify({ description: 'x'.repeat(1_000_000), customer: { email: 'a@b.co' } })
    // RSS measured from after a first call (in another namespace), the code it runs loaded
    expect((await api(sb.url, 'sk_test_warm')('POST', '/merchant/api/v1/charges/mobile-money', { description: 'warm' })).status).toBe(422)
    const start = rssMb(sb.child.pid!)
    let peak = 0
    for (let i = 0; i < 80; i += 4) {
      const answers = await Promise.all([0, 1, 2, 3].map(() => call('POST', '/merchant/api/v1/charges/mobile-money', big)))
      for (const a of answers) expect(a.status).toBe(422)
      peak = Math.max(peak, rssMb(sb.child.pid!))
    }
    // 80 MB of bodies went through; the cut journal grows RSS by ~40 MB of passing garbage at
    // most, a journal that kept them whole by ~95 MB (and ~250 MB more once listed)
    expect(peak - start).toBeLessThan(70)
    const list = await call('GET', '/_sandbox/requests')
    expect(list.status).toBe(200)
    expect(rssMb(sb.child.pid!) - start).toBeLessThan(70)
    expect(list.body.data).toHaveLength(80)
    for (const e of list.body.data) {
      // docs/behaviour.md#request-journal: a body over --journal-body-bytes (4096) is kept cut, marked with its size
      expect(e.request).toMatch(/^\[cut: 1000048 bytes\] \{"description":"xxx/)
      expect(Buffer.byteLength(JSON.stringify(e.request))).toBeLessThanOrEqual(4096)
    }
    // the other namespaces are served as before
    const other = await api(sb.url, 'sk_test_other')('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(cardPayload('4084127883172787'), ENC_KEY) })
    expect(other.status).toBe(200)
  })

  it('--journal-bytes and --journal-body-bytes: the oldest entries go past the namespace budget, each body cut to its limit', async () => {
    const sb = await cli(['--journal-body-bytes', '512', '--journal-bytes', '65536'])
    const call = api(sb.url, 'sk_test_budget')
    for (let i = 0; i < 200; i++) expect((await call('POST', '/merchant/api/v1/charges/mobile-money', { description: `${i} ${'y'.repeat(2000)}` })).status).toBe(422)
    const list = await call('GET', '/_sandbox/requests')
    expect(list.status).toBe(200)
    const entries = list.body.data as any[]
    // each entry is at most ~0.9 KB: 65536 bytes hold fewer than the 200 calls, and the newest are kept
    expect(entries.length).toBeLessThan(200)
    expect(entries.length).toBeGreaterThan(40)
    expect(Buffer.byteLength(entries.map((e) => JSON.stringify(e)).join(''))).toBeLessThanOrEqual(65536)
    expect(entries.at(-1).request).toMatch(/^\[cut: \d+ bytes\] \{"description":"199 yyy/)
    for (const e of entries) expect(Buffer.byteLength(JSON.stringify(e.request))).toBeLessThanOrEqual(512)
    // a recorded flow expects only the status of a step whose body was cut
    const flow = await call('GET', '/_sandbox/requests?format=flow&limit=1')
    expect(flow.body.data.steps[0].expect).toEqual({ status: 422 })
  })

  it('--max-events: an event whose delivery is pending is never dropped by the bound, and is delivered on its retry', async () => {
    const rx = await startReceiver((n) => (n === 1 ? 500 : 200))
    cleanups.push(() => rx.close())
    const sb = await cli(['--max-events', '5', '--webhook-url', rx.url])
    const call = api(sb.url, 'sk_test_sandbox')
    expect((await call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)
    const charge = async () => {
      const p = cardPayload('4084127883172787')
      expect((await call('POST', '/merchant/api/v1/charges/card', { charge_data: encryptChargeData(p, ENC_KEY) })).status).toBe(200)
      return p.reference
    }
    const events = async (q = '') => (await call('GET', `/_sandbox/events${q}`)).body.data as any[]
    const first = await charge()
    // its first attempt was refused: pending, its retry due in 1 s of the (frozen) clock
    await rx.waitFor(1)
    expect((await events(`?reference=${first}&status=pending&wait=10000`)).length).toBe(1)
    const later: string[] = []
    for (let i = 0; i < 10; i++) {
      const ref = await charge()
      later.push(ref)
      // delivered (settled) before the next one comes
      expect((await events(`?reference=${ref}&status=delivered&wait=10000`)).length).toBe(1)
    }
    // 5 settled events kept, the pending one kept beside them
    const all = await events()
    expect(all.map((e) => e.data.payment_reference)).toEqual([first, ...later.slice(-5)])
    expect(all[0].status).toBe('pending')
    // the retry comes when the clock gets there, and the receiver gets it
    await call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    await rx.waitFor(12)
    expect(rx.received[11].body.data.payment_reference).toBe(first)
  })
})
