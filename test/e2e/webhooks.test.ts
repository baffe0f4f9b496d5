import { describe, expect, it } from 'vitest'
import { verifyWebhookSignature } from '../../src/webhooks/signature.js'
import { SECRET, cardPayload, eventWhen, makeSandbox, tempFile, type TestSandbox, invalidBody } from '../helpers/sandbox.js'
import { freePort } from './process.js'
import type { Receiver } from '../helpers/receiver.js'
import { NO_AUTH_CARD } from '../helpers/cards.js'
import { ownPerTest } from '../helpers/after-each.js'

const { sandbox, receiver } = ownPerTest({ frozen: true })

/** A card charge whose webhook goes to `rx` (set as the namespace's URL), once its first post has arrived. */
async function chargeHookedTo(sb: TestSandbox, rx: Receiver) {
  await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
  const p = cardPayload(NO_AUTH_CARD)
  await sb.charge(p)
  await rx.waitFor(1)
  return p
}

/** Long-polls the events API until the payment's event has the status. */
async function eventWithStatus(sb: TestSandbox, reference: string, status: string) {
  const res = await sb.call('GET', `/_sandbox/events?reference=${reference}&status=${status}&wait=10000`)
  expect(res.body.data, `event of ${reference} with status ${status}`).toHaveLength(1)
  return res.body.data[0]
}

describe('webhook delivery to a real receiver', () => {
  it('posts {event, data} signed with the secret key, which a real handler verifies', async () => {
    const rx = await receiver()
    const sb = await sandbox()
    expect((await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    const p = cardPayload('4084127883172787')
    await sb.charge(p)
    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body).toMatchObject({ event: 'charge.success', data: { payment_reference: p.reference, status: 'success', payment_method: 'card', amount: 1000, currency: 'NGN' } })
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['user-agent']).toMatch(/^paysandbox\/\d+\.\d+\.\d+/)
    const sig = got.headers['x-korapay-signature'] as string
    expect(verifyWebhookSignature(got.raw, sig, SECRET)).toBe(true)
    expect(verifyWebhookSignature(got.body.data, sig, SECRET)).toBe(true)
    expect(verifyWebhookSignature(got.raw, sig, 'sk_test_other')).toBe(false)
    const ev = await eventWithStatus(sb, p.reference, 'delivered')
    expect(ev.target).toBe(rx.url)
    expect(ev.attempts).toHaveLength(1)
    expect(ev.attempts[0]).toMatchObject({ status_code: 200, ms: expect.any(Number), at: expect.any(String) })
  })

  it('retries a failing receiver exactly on the schedule, driven by the clock', async () => {
    const rx = await receiver((n) => (n <= 2 ? 500 : 200))
    const sb = await sandbox({ webhookUrl: undefined })
    const p = await chargeHookedTo(sb, rx)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    await rx.waitFor(2)
    // the third attempt is due 2 s after the second: not before the clock gets there
    expect(rx.received).toHaveLength(2)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 2 })
    const ev = await eventWithStatus(sb, p.reference, 'delivered')
    expect(ev.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 200])
    expect(rx.received).toHaveLength(3)
  })

  it('gives up after 1 + 5 attempts at 1, 2, 4, 8 and 16 s, then marks the event failed', async () => {
    const rx = await receiver(() => 503)
    const sb = await sandbox()
    const p = await chargeHookedTo(sb, rx)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 31 })
    const ev = await eventWithStatus(sb, p.reference, 'failed')
    expect(ev.attempts).toHaveLength(6)
    expect(rx.received).toHaveLength(6)
    const times = ev.attempts.map((a: any) => Date.parse(a.due))
    const gaps = times.slice(1).map((t: number, i: number) => (t - times[i]) / 1000)
    expect(gaps.map(Math.round)).toEqual([1, 2, 4, 8, 16])
    // nothing more, however far the clock goes
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 3600 })
    const again = await sb.call('GET', `/_sandbox/events?reference=${p.reference}`)
    expect(again.body.data[0].attempts).toHaveLength(6)
  })

  it('honours --webhook-retry-schedule', async () => {
    const rx = await receiver(() => 500)
    const sb = await sandbox({ webhookRetrySchedule: '5' })
    const p = await chargeHookedTo(sb, rx)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 5 })
    const ev = await eventWithStatus(sb, p.reference, 'failed')
    expect(ev.attempts).toHaveLength(2)
  })

  it('records why an attempt failed: refused, redirected, reset, timed out', async () => {
    const closedPort = await freePort()
    const redirecting = await receiver(() => 302)
    const resetting = await receiver((_n, req) => {
      req.socket.destroy()
      return 'handled'
    })
    const hanging = await receiver(() => 'handled')
    const sb = await sandbox({ webhookTimeout: 300, webhookRetrySchedule: '60' })
    const cases: [string, RegExp | number][] = [
      [`http://127.0.0.1:${closedPort}/hook`, /connection refused/],
      [redirecting.url, 302],
      [resetting.url, /reset|socket|closed/i],
      [hanging.url, /timeout/],
    ]
    for (const [url, expected] of cases) {
      await sb.call('PUT', '/_sandbox/webhook-url', { url })
      const p = cardPayload('4084127883172787')
      await sb.charge(p)
      // the first attempt failed, the retry waits for the clock: the event stays pending with one attempt
      const ev = await eventWhen(sb, p.reference, (e) => e.attempts.length > 0)
      expect(ev.status).toBe('pending')
      if (typeof expected === 'number') expect(ev.attempts[0].status_code).toBe(expected)
      else expect(ev.attempts[0].error).toMatch(expected)
    }
  })

  it('never delays an API answer behind a receiver that hangs', async () => {
    const hanging = await receiver(() => 'handled')
    const sb = await sandbox({ webhookTimeout: 60_000 })
    await sb.call('PUT', '/_sandbox/webhook-url', { url: hanging.url })
    await sb.charge(cardPayload('4084127883172787'))
    await hanging.waitFor(1)
    // the receiver holds the first delivery open; the API still answers at once
    const t0 = performance.now()
    const res = await sb.charge(cardPayload('4084127883172787'))
    expect(res.status).toBe(200)
    expect(res.body.data.status).toBe('success')
    const query = await sb.call('GET', `/_sandbox/health`)
    expect(query.status).toBe(200)
    expect(performance.now() - t0).toBeLessThan(5_000)
  })

  it('records the outcome of a delivery that was out while other events were recorded', async () => {
    // the receiver holds the first post open until released; it answers the others at once
    let held: import('node:http').ServerResponse | undefined
    const rx = await receiver((n, _req, res) => {
      if (n > 1) return 200
      held = res
      return 'handled'
    })
    const sb = await sandbox()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
    const first = cardPayload('4084127883172787')
    await sb.charge(first)
    await rx.waitFor(1)
    // meanwhile more payments and their events: the first event's record may go cold (be
    // stored as text) and be read back as another object before its post returns
    const others = [cardPayload('4084127883172787'), cardPayload('4084127883172787'), cardPayload('4084127883172787')]
    for (const p of others) await sb.charge(p)
    await rx.waitFor(4)
    held!.statusCode = 200
    held!.end('ok')
    const ev = await eventWithStatus(sb, first.reference, 'delivered')
    expect(ev.attempts).toHaveLength(1)
    expect(ev.attempts[0].status_code).toBe(200)
    for (const p of others) expect((await eventWithStatus(sb, p.reference, 'delivered')).attempts).toHaveLength(1)
  })

  it('keeps events in order per payment: a later event waits for the earlier one', async () => {
    const rx = await receiver((n) => (n === 1 ? 500 : 200))
    const sb = await sandbox()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
    const first = sb.deps.events.record(SECRET, 'charge.success', { reference: 'KPY-1', payment_reference: 'pay-order-1', status: 'success' })
    const second = sb.deps.events.record(SECRET, 'refund.success', { reference: 'KPY-2', payment_reference: 'pay-order-1', status: 'success' })
    await rx.waitFor(1)
    expect(rx.received[0].body.event).toBe('charge.success')
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    await eventWhen(sb, 'KPY-2', (e) => e.status === 'delivered')
    expect(rx.received.map((r) => r.body.event)).toEqual(['charge.success', 'charge.success', 'refund.success'])
    expect(sb.deps.events.get(SECRET, first.id)!.status).toBe('delivered')
    expect(sb.deps.events.get(SECRET, second.id)!.status).toBe('delivered')
  })

  it('records events with no URL set, and resends one on request', async () => {
    const sb = await sandbox()
    const p = cardPayload('506066506066506067', {}, { cvv: '408' })
    expect((await sb.charge(p)).body.data.status).toBe('failed')
    const list = await sb.call('GET', `/_sandbox/events?reference=${p.reference}`)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0]).toMatchObject({ event: 'charge.failed', target: null, status: 'no_target', attempts: [] })
    const id = list.body.data[0].id
    const noUrl = await sb.call('POST', `/_sandbox/events/${id}/resend`)
    expect(noUrl.status).toBe(400)

    const rx = await receiver()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
    const resent = await sb.call('POST', `/_sandbox/events/${id}/resend`)
    expect(resent.status).toBe(200)
    expect(resent.body.data.attempt.status_code).toBe(200)
    expect(rx.received).toHaveLength(1)
    expect(rx.received[0].body.event).toBe('charge.failed')
    expect(verifyWebhookSignature(rx.received[0].raw, rx.received[0].headers['x-korapay-signature'] as string, SECRET)).toBe(true)
    expect((await sb.call('POST', '/_sandbox/events/evt_nope/resend')).status).toBe(404)
  })

  it('refuses a webhook URL that is not http(s) and changes nothing', async () => {
    const sb = await sandbox()
    for (const url of ['ftp://example.com/x', 'not a url', 'javascript:alert(1)', 42]) {
      const res = await sb.call('PUT', '/_sandbox/webhook-url', { url })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject(invalidBody({ url: expect.any(String) }))
    }
    expect(sb.deps.namespaces.get(SECRET)!.webhook_url).toBeNull()
  })

  it('uses --webhook-url as every namespace default', async () => {
    const rx = await receiver()
    const sb = await sandbox({ webhookUrl: rx.url })
    await sb.charge(cardPayload('4084127883172787'))
    await rx.waitFor(1)
    expect(rx.received[0].body.event).toBe('charge.success')
  })

  it('keeps pending deliveries in the data file and resumes them after a restart', async () => {
    const file = tempFile()
    const rx = await receiver(() => 500)
    const sb1 = await makeSandbox({ data: file })
    await sb1.call('PUT', '/_sandbox/webhook-url', { url: rx.url })
    const p = cardPayload('4084127883172787')
    await sb1.charge(p)
    await rx.waitFor(1)
    // wait until the failed attempt is recorded, then stop
    await eventWhen(sb1, p.reference, (e) => e.attempts.length === 1)
    await sb1.close()

    rx.setBehaviour(() => 200)
    const sb2 = await sandbox({ data: file })
    await sb2.call('POST', '/_sandbox/clock/advance', { seconds: 1 })
    const ev = await eventWithStatus(sb2, p.reference, 'delivered')
    expect(ev.attempts.map((a: any) => a.status_code)).toEqual([500, 200])
  })

  it('long-polls until a matching event exists', async () => {
    const sb = await sandbox()
    const p = cardPayload('4084127883172787')
    const poll = sb.call('GET', `/_sandbox/events?reference=${p.reference}&wait=10000`)
    let settled = false
    void poll.then(() => (settled = true))
    await sb.call('GET', '/_sandbox/health')
    expect(settled).toBe(false)
    await sb.charge(p)
    const res = await poll
    expect(res.body.data).toHaveLength(1)
    expect(res.body.data[0].event).toBe('charge.success')
  })
})
