import { describe, expect, it } from 'vitest'
import { dropNullFields } from '../src/http/body.js'
import { cardPayload, ref, sandboxPerTest, invalidBody } from './helpers/sandbox.js'

/**
 * `null` in a field is the field left out, on every endpoint (docs/behaviour.md#invalid-request-data): public
 * clients serialize the optional fields they were not given as null (the Python client's
 * virtual-account body, the Dart and Java clients' initialize), so each call here sends them so.
 */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'

describe('dropNullFields', () => {
  it('drops null fields at any depth and inside arrays, keeps null array items and metadata as sent', () => {
    const body = { a: null, b: { c: null, d: 1 }, e: [{ f: null, g: 2 }, null], metadata: { h: null }, i: 'x' }
    expect(dropNullFields(body)).toEqual({ b: { d: 1 }, e: [{ g: 2 }, null], metadata: { h: null }, i: 'x' })
  })

  it('takes a body nested 5,000 levels deep (no recursion)', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(5000)}null${'}'.repeat(5000)}`)
    expect(() => dropNullFields(deep)).not.toThrow()
  })
})

describe('null in an optional field is the field left out', () => {
  it('initialize: null URLs, narration, customer name and metadata (a Java DTO serialized with its nulls)', async () => {
    const sb = await sandbox()
    const reference = ref('co-null')
    const res = await sb.call('POST', `${M}/charges/initialize`, {
      reference,
      amount: 1000,
      currency: 'NGN',
      narration: null,
      channels: null,
      default_channel: null,
      customer: { email: 'ada@example.com', name: null },
      redirect_url: null,
      notification_url: null,
      metadata: null,
      merchant_bears_cost: null,
    })
    expect([res.status, res.body.message]).toEqual([200, 'Charge created successfully'])
    const q = await sb.call('GET', `${M}/charges/${reference}`)
    expect(q.body.data).toMatchObject({ reference, amount: '1000.00' })
  })

  it('a card charge: null inside the decrypted payload is left out too', async () => {
    const sb = await sandbox()
    const payload = cardPayload('4084127883172787', { redirect_url: null, description: null, metadata: null, customer: { email: 'ada@example.com', name: null } })
    const res = await sb.charge(payload)
    expect([res.status, res.body.message]).toEqual([200, 'Card charged successfully'])
  })

  it('mobile money and bank transfer: null description, name, URLs and metadata', async () => {
    const sb = await sandbox()
    const mm = await sb.call('POST', `${M}/charges/mobile-money`, {
      reference: ref('mm-null'),
      amount: 100,
      currency: 'KES',
      redirect_url: null,
      notification_url: null,
      description: null,
      metadata: null,
      customer: { email: 'wanjiru@example.com', name: null },
      mobile_money: { number: '254700000000' },
    })
    expect(mm.status).toBe(200)
    const bt = await sb.call('POST', `${M}/charges/bank-transfer`, {
      reference: ref('bt-null'),
      amount: 1500,
      currency: 'NGN',
      account_name: null,
      narration: null,
      notification_url: null,
      customer: { email: 'ada@example.com', name: null },
    })
    expect(bt.status).toBe(200)
  })

  it('a payout: null narration, phone, metadata and notification_url', async () => {
    const sb = await sandbox()
    const reference = ref('po-null')
    const res = await sb.call('POST', `${M}/transactions/disburse`, {
      reference,
      destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: null, bank_account: { bank: '033', account: '0000000000' }, customer: { name: null, email: 'ada@example.com', phone: null } },
      metadata: null,
      notification_url: null,
    })
    expect(res.status).toBe(200)
    const q = (await sb.call('GET', `${M}/transactions/${reference}`)).body.data
    expect([q.narration, q.metadata]).toEqual([null, null])
  })

  it('a refund: null amount (the whole pay-in), reason and webhook_url', async () => {
    const sb = await sandbox({ frozen: true })
    const pay = cardPayload('4084127883172787', { amount: 1000 })
    await sb.charge(pay)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    const res = await sb.call('POST', `${M}/refunds/initiate`, { payment_reference: pay.reference, reference: ref('rf'), amount: null, reason: null, webhook_url: null })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ amount_returned: 1000, reason: null })
  })

  it('a required field sent as null is refused as missing', async () => {
    const sb = await sandbox()
    const res = await sb.call('POST', `${M}/charges/initialize`, { reference: ref('co-null'), amount: null, currency: 'NGN', customer: { email: null } })
    expect(res.status).toBe(422)
    expect(res.body).toEqual(invalidBody({ amount: 'is required', 'customer.email': 'is required' }))
  })

  it('metadata values are the merchant\'s own: a null value is kept and echoed', async () => {
    const sb = await sandbox()
    const reference = ref('co-null')
    expect((await sb.call('POST', `${M}/charges/initialize`, { reference, amount: 1000, currency: 'NGN', customer: { email: 'ada@example.com' }, metadata: { coupon: null } })).status).toBe(200)
    // the charge query shows no metadata (docs/behaviour.md#card-outcomes-and-query): the transactions list's meta holds it as kept
    const [item] = (await sb.call('GET', `${M}/transactions`)).body.data.transactions
    expect(JSON.parse(item.meta)).toEqual({ coupon: null })
  })

  it('the journal keeps the body as sent, nulls and all', async () => {
    const sb = await sandbox()
    const reference = ref('co-null')
    await sb.call('POST', `${M}/charges/initialize`, { reference, amount: 1000, currency: 'NGN', customer: { email: 'ada@example.com' }, notification_url: null })
    const journal = await sb.call('GET', '/_sandbox/requests')
    const entry = journal.body.data.find((e: { request?: { reference?: string } }) => e.request?.reference === reference)
    expect(entry.request.notification_url).toBeNull()
  })
})
