import { describe, expect, it } from 'vitest'
import { ref, sandboxPerTest, type TestSandbox } from './helpers.js'

const sandbox = sandboxPerTest()
const INIT = '/merchant/api/v1/charges/initialize'

function init(sb: TestSandbox, overrides: Record<string, unknown> = {}) {
  return sb.call('POST', INIT, { reference: ref('co'), amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' }, ...overrides })
}
const query = (sb: TestSandbox, reference: string) => sb.call('GET', `/merchant/api/v1/charges/${reference}`)
const pay = (sb: TestSandbox, reference: string, body: Record<string, unknown>) => sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, body)

describe('POST /charges/initialize', () => {
  it('answers the merchant reference and a checkout_url on the sandbox origin', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    const res = await init(sb, { reference, redirect_url: 'https://shop.example/return', notification_url: 'https://shop.example/hook', metadata: { order: '42' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: true, message: 'Charge created successfully', data: { reference, checkout_url: expect.stringMatching(/^http:\/\/localhost\/checkout\/KPY-PI-[0-9A-Z]{14}\/pay$/) } })
    const q = await query(sb, reference)
    expect(q.status).toBe(200)
    expect(q.body.data).toMatchObject({ reference, status: 'pending', amount: '1500.00', amount_paid: '0.00', currency: 'NGN', payment_method: null, payment_attempts: [], metadata: { order: '42' } })
  })

  it('refuses a duplicate reference, with nothing changed', async () => {
    const sb = await sandbox()
    const reference = ref('co')
    expect((await init(sb, { reference })).status).toBe(200)
    const again = await init(sb, { reference, amount: 99 })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ status: false, message: 'Duplicate payment reference', data: null })
    expect((await query(sb, reference)).body.data.amount).toBe('1500.00')
  })

  it('names every bad field, and refuses an unknown one by name', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', INIT, { reference: 'short', amount: -1, currency: 'EUR', customer: {}, callback_url: 'https://x.example', metadata: {} })
    expect(res.status).toBe(400)
    expect(res.body.message).toBe('Invalid request data')
    expect(res.body.data).toMatchObject({
      reference: 'must be at least 8 characters',
      amount: 'must be greater than 0',
      currency: expect.stringContaining('must be one of'),
      'customer.email': 'is required',
      metadata: 'must not be an empty object',
    })
  })

  it('checks channels against the currency', async () => {
    const sb = await sandbox()
    const a = await init(sb, { currency: 'KES', channels: ['bank_transfer'] })
    expect(a.status).toBe(400)
    expect(a.body.data).toEqual({ channels: 'must hold a channel that takes KES' })
    const b = await init(sb, { channels: ['card'], default_channel: 'bank_transfer' })
    expect(b.body.data).toEqual({ default_channel: 'must be one of channels' })
  })
})

describe('POST /_sandbox/checkouts/:reference/pay', () => {
  it('pays by card: the checkout succeeds, its attempt listed, one charge.success with the merchant reference', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference, metadata: { order: '7' } })
    const paid = await pay(sb, reference, { channel: 'card' })
    expect(paid.status).toBe(200)
    expect(paid.body.data).toMatchObject({ reference, status: 'success', payment_method: 'card' })
    const q = (await query(sb, reference)).body.data
    expect(q).toMatchObject({ status: 'success', payment_method: 'card', amount_paid: '1500.00', fee: '21.00' })
    expect(q.payment_attempts).toEqual([{ reference: expect.stringMatching(/^KPY-CA-/), status: 'success', channel: 'card', message: 'Card charged successfully' }])
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events.map((e: any) => e.event)).toEqual(['charge.success'])
    expect(events[0].data).toMatchObject({ payment_reference: reference, amount: 1500, status: 'success', payment_method: 'card' })
  })

  it('a failed card attempt leaves the checkout open; a second attempt pays it', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    await init(sb, { reference })
    const failed = await pay(sb, reference, { channel: 'card', outcome: 'failed' })
    expect(failed.body.data).toMatchObject({ status: 'processing', payment_attempts: [{ status: 'failed', message: 'Card could not be charged due to insufficient funds' }] })
    const ok = await pay(sb, reference, { channel: 'card', card: { number: '5442056106072595', cvv: '123', expiry_month: '09', expiry_year: '30' } })
    expect(ok.body.data.status).toBe('success')
    expect(ok.body.data.payment_attempts.map((a: any) => a.status)).toEqual(['failed', 'success'])
    const events = (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data
    expect(events.map((e: any) => e.event)).toEqual(['charge.success'])
  })

  it('pays by mobile money in KES and by bank transfer in NGN', async () => {
    const sb = await sandbox({ frozen: true })
    const kes = ref('co')
    await init(sb, { reference: kes, currency: 'KES' })
    expect((await pay(sb, kes, { channel: 'mobile_money' })).body.data).toMatchObject({ status: 'success', payment_method: 'mobile_money' })
    const ngn = ref('co')
    await init(sb, { reference: ngn })
    expect((await pay(sb, ngn, { channel: 'bank_transfer' })).body.data).toMatchObject({ status: 'success', payment_method: 'bank_transfer' })
    const under = ref('co')
    await init(sb, { reference: under })
    expect((await pay(sb, under, { channel: 'bank_transfer', amount: 100 })).body.data).toMatchObject({ status: 'processing' })
  })

  it('cancel fails the checkout and announces charge.failed; an unpaid checkout expires after 24 h', async () => {
    const sb = await sandbox({ frozen: true })
    const a = ref('co')
    await init(sb, { reference: a })
    const cancelled = await sb.call('POST', `/_sandbox/checkouts/${a}/cancel`)
    expect(cancelled.body.data).toMatchObject({ status: 'failed', message: 'Payment cancelled by the customer' })
    expect((await sb.call('GET', `/_sandbox/events?reference=${a}`)).body.data.map((e: any) => e.event)).toEqual(['charge.failed'])
    const b = ref('co')
    await init(sb, { reference: b })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    expect((await query(sb, b)).body.data.status).toBe('expired')
    expect((await pay(sb, b, { channel: 'card' })).status).toBe(409)
  })
})
