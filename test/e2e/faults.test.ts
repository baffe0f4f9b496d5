import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { startSandbox, type Sandbox } from '../../src/index.js'
import { ENC_KEY, SECRET, cardPayload } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { ownPerTest } from '../helpers/after-each.js'

const { cleanups, sandbox } = ownPerTest({ frozen: true })
async function realSandbox(): Promise<Sandbox> {
  const sb = await startSandbox({ port: 0 })
  cleanups.push(() => sb.close())
  return sb
}
const CHARGE = '/merchant/api/v1/charges/card'
const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }

describe('fault injection against a real client', () => {
  it('answers 5xx with a docs/api.md 7.3 message for the next N matching calls, then recovers, storing nothing', async () => {
    const sb = await realSandbox()
    const add = await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', headers, body: JSON.stringify({ kind: 'error', method: 'POST', path: CHARGE, times: 2, status: 503 }) })
    expect(add.status).toBe(200)
    const results: { status: number; body: any; ref: string }[] = []
    for (let i = 0; i < 3; i++) {
      const p = cardPayload('4084127883172787')
      const res = await fetch(`${sb.url}${CHARGE}`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(p, ENC_KEY) }) })
      results.push({ status: res.status, body: await res.json(), ref: p.reference })
    }
    expect(results.map((r) => r.status)).toEqual([503, 503, 200])
    expect(results[0].body).toEqual({ status: false, message: 'Service currently unavailable', data: null })
    // the refused ones were never stored
    const q = await fetch(`${sb.url}/merchant/api/v1/charges/${results[0].ref}`, { headers })
    expect(q.status).toBe(404)
    const list = (await (await fetch(`${sb.url}/_sandbox/faults`, { headers })).json()) as any
    expect(list.data[0]).toMatchObject({ kind: 'error', remaining: 0, hits: 2 })
  })

  it('commit_then_error stores the charge and fires its event, but the client sees a 5xx it must reconcile', async () => {
    const sb = await realSandbox()
    await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', headers, body: JSON.stringify({ kind: 'commit_then_error', path: CHARGE }) })
    const p = cardPayload('4084127883172787')
    const res = await fetch(`${sb.url}${CHARGE}`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(p, ENC_KEY) }) })
    expect(res.status).toBe(503)
    expect(((await res.json()) as any).message).toBe('An error occurred, please try again')
    const q = (await (await fetch(`${sb.url}/merchant/api/v1/charges/${p.reference}`, { headers })).json()) as any
    expect(q.data.status).toBe('success')
    const ev = (await (await fetch(`${sb.url}/_sandbox/events?reference=${p.reference}`, { headers })).json()) as any
    expect(ev.data.map((e: any) => e.event)).toEqual(['charge.success'])
    // a retry with the same reference is a duplicate: the merchant must query, not charge again
    const again = await fetch(`${sb.url}${CHARGE}`, { method: 'POST', headers, body: JSON.stringify({ charge_data: encryptChargeData(p, ENC_KEY) }) })
    expect(((await again.json()) as any).message).toBe('Duplicate payment reference')
  })

  it('drop closes the connection without an answer', async () => {
    const sb = await realSandbox()
    await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', headers, body: JSON.stringify({ kind: 'drop', path: '/merchant/api/v1/charges/*', method: 'GET' }) })
    await expect(fetch(`${sb.url}/merchant/api/v1/charges/anything`, { headers })).rejects.toThrow()
    // only once: the next call is answered
    const next = await fetch(`${sb.url}/merchant/api/v1/charges/anything`, { headers })
    expect(next.status).toBe(404)
    const health = await fetch(`${sb.url}/_sandbox/health`)
    expect(health.status).toBe(200)
  })

  it('latency delays the answer by delay_ms', async () => {
    const sb = await realSandbox()
    await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', headers, body: JSON.stringify({ kind: 'latency', path: '/merchant/*', delay_ms: 300 }) })
    const t0 = performance.now()
    const res = await fetch(`${sb.url}/merchant/api/v1/charges/anything`, { headers })
    expect(res.status).toBe(404)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290)
  })

  it('with a probability and a seed, the same calls are hit on every run', async () => {
    const pattern = async () => {
      const sb = await sandbox()
      await sb.call('POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/api/v1/charges/*', probability: 0.5, seed: 7 })
      const out: number[] = []
      for (let i = 0; i < 20; i++) out.push((await sb.call('GET', '/merchant/api/v1/charges/nope')).status)
      return out
    }
    const a = await pattern()
    const b = await pattern()
    expect(a).toEqual(b)
    expect(a.filter((s) => s === 503).length).toBeGreaterThan(3)
    expect(a.filter((s) => s === 404).length).toBeGreaterThan(3)
  })

  it('refuses bad fault definitions and clears faults', async () => {
    const sb = await sandbox()
    for (const bad of [{ kind: 'boom', path: '/x' }, { kind: 'error' }, { kind: 'error', path: '/x', status: 404 }, { kind: 'error', path: '/x', message: 'made up' }, { kind: 'latency', path: '/x' }, { kind: 'webhook_delay', path: '/x' }]) {
      const res = await sb.call('POST', '/_sandbox/faults', bad)
      expect(res.status, JSON.stringify(bad)).toBe(422)
      expect(res.body.message).toBe('Invalid request data')
    }
    expect((await sb.call('GET', '/_sandbox/faults')).body.data).toEqual([])
    const added = await sb.call('POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/*', times: 5 })
    expect((await sb.call('DELETE', `/_sandbox/faults/${added.body.data.id}`)).status).toBe(200)
    expect((await sb.call('DELETE', `/_sandbox/faults/${added.body.data.id}`)).status).toBe(404)
    await sb.call('POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/*', times: 5 })
    expect((await sb.call('DELETE', '/_sandbox/faults')).body.data.removed).toBe(1)
    expect((await sb.call('GET', '/merchant/api/v1/charges/nope')).status).toBe(404)
  })

  it('faults are per namespace', async () => {
    const sb = await sandbox()
    await sb.call('POST', '/_sandbox/faults', { kind: 'error', path: '/merchant/*', times: 10 })
    expect((await sb.call('GET', '/merchant/api/v1/charges/nope')).status).toBe(503)
    expect((await sb.call('GET', '/merchant/api/v1/charges/nope', undefined, { key: 'sk_test_other_ns' })).status).toBe(404)
  })
})

describe('webhook faults', () => {
  async function setup() {
    const rx = await startReceiver()
    cleanups.push(() => rx.close())
    const sb = await sandbox()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
    return { rx, sb }
  }

  it('webhook_duplicate delivers the same signed event twice', async () => {
    const { rx, sb } = await setup()
    await sb.call('POST', '/_sandbox/faults', { kind: 'webhook_duplicate' })
    await sb.charge(cardPayload('4084127883172787'))
    await rx.waitFor(2)
    expect(rx.received[0].raw).toBe(rx.received[1].raw)
    expect(rx.received[0].headers['x-korapay-signature']).toBe(rx.received[1].headers['x-korapay-signature'])
  })

  it('webhook_delay holds the delivery until the clock reaches it', async () => {
    const { rx, sb } = await setup()
    await sb.call('POST', '/_sandbox/faults', { kind: 'webhook_delay', delay_ms: 60_000 })
    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    const before = await sb.call('GET', `/_sandbox/events?reference=${p.reference}`)
    expect(before.body.data[0]).toMatchObject({ status: 'pending', attempts: [] })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    await rx.waitFor(1)
    expect(rx.received[0].body.data.payment_reference).toBe(p.reference)
  })

  it('webhook_out_of_order lets a later event of the payment overtake an earlier one', async () => {
    const { rx, sb } = await setup()
    await sb.call('POST', '/_sandbox/faults', { kind: 'webhook_out_of_order', event: 'charge.success', delay_ms: 5_000 })
    sb.deps.events.record(SECRET, 'charge.success', { reference: 'KPY-A', payment_reference: 'order-ooo-1', status: 'success' })
    sb.deps.events.record(SECRET, 'refund.success', { reference: 'KPY-B', payment_reference: 'order-ooo-1', status: 'success' })
    await rx.waitFor(1)
    expect(rx.received[0].body.event).toBe('refund.success')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 5 })
    await rx.waitFor(2)
    expect(rx.received.map((r) => r.body.event)).toEqual(['refund.success', 'charge.success'])
  })
})
