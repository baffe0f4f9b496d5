import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref, tempFile } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { caller } from './caller.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * The two corrections to every charge (docs/behaviour.md#status-codes, docs/behaviour.md#webhook-payloads), against the real CLI: a charge
 * event's `data.reference` is the merchant's reference, the sandbox's own is
 * `transaction_reference`, `metadata` is the charge's as sent, the signature verifies as a
 * merchant's handler computes it; a step on a finished charge answers 409.
 */

const { running, cleanups } = killedAfterEach()
const headers = { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }
const CARD = '/merchant/api/v1/charges/card'
const MM = '/merchant/api/v1/charges/mobile-money'

async function start() {
  const cli = await startCli([])
  running.push(cli)
  const call = caller(cli.url)
  return { cli, call }
}

async function receiver() {
  const r = await startReceiver()
  cleanups.push(() => r.close())
  return r
}

/** The merchant's own check: hex HMAC-SHA256 of JSON.stringify(data), keyed with the secret key. */
const merchantSignature = (data: unknown) => createHmac('sha256', SECRET).update(JSON.stringify(data)).digest('hex')

describe('charge events carry the merchant reference, the transaction reference and the metadata', () => {
  it('a card charge with metadata: the receiver gets reference = merchant reference, transaction_reference = KPY-..., metadata as sent, signed', async () => {
    const { cli, call } = await start()
    const rx = await receiver()
    expect((await call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    const metadata = { 'order-id': 'A-42', tier: 'gold', gift: true }
    const p = cardPayload('5188513618552975', { metadata })
    const first = await call('POST', CARD, { charge_data: encryptChargeData(p, ENC_KEY) })
    expect(first.body.data.status).toBe('processing')
    const tx: string = first.body.data.transaction_reference
    expect(tx).toMatch(/^KPY-CA-/)
    const done = await call('POST', `${CARD}/authorize`, { transaction_reference: tx, authorization: { pin: '1234' } })
    expect(done.body.data.status).toBe('success')

    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body).toEqual({
      event: 'charge.success',
      data: {
        reference: p.reference,
        payment_reference: p.reference,
        transaction_reference: tx,
        amount: 1000,
        fee: 14,
        currency: 'NGN',
        status: 'success',
        payment_method: 'card',
        metadata,
      },
    })
    expect(got.headers['x-korapay-signature']).toBe(merchantSignature(got.body.data))
    expect(got.headers['x-korapay-signature']).not.toBe(createHmac('sha256', 'sk_test_other').update(JSON.stringify(got.body.data)).digest('hex'))

    // the handler queries the charge by data.reference, as the consuming code does
    const q = await call('GET', `/merchant/api/v1/charges/${encodeURIComponent(got.body.data.reference)}`)
    expect(q.body.data).toMatchObject({ reference: p.reference, status: 'success' })
    // its transaction reference and metadata are the webhook's: the query shows neither (docs/behaviour.md#card-outcomes-and-query)
    expect(q.body).toEqual((await call('GET', `/merchant/api/v1/charges/${tx}`)).body)
    // the event log finds the event by either reference
    for (const r of [p.reference, tx]) {
      const found = await call('GET', `/_sandbox/events?reference=${encodeURIComponent(r)}`)
      expect(found.body.data.map((e: any) => e.data.transaction_reference), r).toEqual([tx])
    }
    // and so does the dashboard's reference filter
    const id: string = (await call('GET', `/_sandbox/events?reference=${tx}`)).body.data[0].id
    for (const q of [p.reference, tx]) {
      const page = await fetch(`${cli.url}/_sandbox/ui/fragment?ns=${SECRET}&q=${encodeURIComponent(q)}`, { headers })
      expect(await page.text(), q).toContain(`data-event="${id}"`)
    }
  })

  it('a failed card charge without metadata: charge.failed with the merchant reference and metadata null', async () => {
    const { call } = await start()
    const rx = await receiver()
    await call('PUT', '/_sandbox/webhook-url', { url: rx.url })
    const p = cardPayload('506066506066506067', {}, { cvv: '408' })
    const res = await call('POST', CARD, { charge_data: encryptChargeData(p, ENC_KEY) })
    expect(res.body.data.status).toBe('failed')
    await rx.waitFor(1)
    const { data } = rx.received[0].body
    expect(rx.received[0].body.event).toBe('charge.failed')
    expect(data).toMatchObject({ reference: p.reference, payment_reference: p.reference, transaction_reference: res.body.data.transaction_reference, status: 'failed', metadata: null })
    expect(rx.received[0].headers['x-korapay-signature']).toBe(merchantSignature(data))
  })

  it('a mobile-money charge with metadata: notification_url gets the same shape', async () => {
    const { call } = await start()
    const rx = await receiver()
    const metadata = { 'order-id': 'M-7' }
    const p = { reference: ref('mm'), amount: 100, currency: 'KES', customer: { email: 'buyer@example.com' }, mobile_money: { number: '254700000000' }, notification_url: rx.url, metadata }
    const created = await call('POST', MM, p)
    const tx: string = created.body.data.transaction_reference
    expect((await call('POST', `${MM}/sandbox/authorize-stk`, { reference: tx, pin: '1234' })).body.data.status).toBe('success')
    await rx.waitFor(1)
    const { data } = rx.received[0].body
    expect(data).toMatchObject({ reference: p.reference, payment_reference: p.reference, transaction_reference: tx, status: 'success', payment_method: 'mobile_money', metadata })
    expect(rx.received[0].headers['x-korapay-signature']).toBe(merchantSignature(data))
  })
})

describe('a step on a finished charge answers 409', () => {
  it('card authorize on a succeeded and on a failed charge, changing nothing', async () => {
    const { call } = await start()
    const ok = cardPayload('5188513618552975')
    const okTx = (await call('POST', CARD, { charge_data: encryptChargeData(ok, ENC_KEY) })).body.data.transaction_reference
    expect((await call('POST', `${CARD}/authorize`, { transaction_reference: okTx, authorization: { pin: '1234' } })).body.data.status).toBe('success')
    const bad = cardPayload('5188513618552975')
    const badTx = (await call('POST', CARD, { charge_data: encryptChargeData(bad, ENC_KEY) })).body.data.transaction_reference
    expect((await call('POST', `${CARD}/authorize`, { transaction_reference: badTx, authorization: { pin: '0000' } })).body.data.status).toBe('failed')

    for (const [tx, reference, message] of [
      [okTx, ok.reference, 'Payment has already been completed'],
      [badTx, bad.reference, 'Transaction has already been completed'],
    ]) {
      const before = await call('GET', `/merchant/api/v1/charges/${reference}`)
      const res = await call('POST', `${CARD}/authorize`, { transaction_reference: tx, authorization: { pin: '1234' } })
      expect(res).toEqual({ status: 409, body: { status: false, message, data: null } })
      expect(await call('GET', `/merchant/api/v1/charges/${reference}`)).toEqual(before)
      expect((await call('GET', `/_sandbox/events?reference=${reference}`)).body.data).toHaveLength(1)
    }
  })

  it('mobile-money authorize and authorize-stk on a succeeded and on a failed charge: Transaction has already been completed both (the service\'s samples)', async () => {
    const { call } = await start()
    const finished = async (number: string, status: string) => {
      const p = { reference: ref('mm'), amount: 100, currency: 'KES', customer: { email: 'buyer@example.com' }, mobile_money: { number } }
      const tx: string = (await call('POST', MM, p)).body.data.transaction_reference
      expect((await call('POST', `${MM}/sandbox/authorize-stk`, { reference: tx, pin: '1234' })).body.data.status).toBe(status)
      return tx
    }
    const okTx = await finished('254700000000', 'success')
    const badTx = await finished('254734611986', 'failed')
    for (const [tx, message] of [
      [okTx, 'Transaction has already been completed'],
      [badTx, 'Transaction has already been completed'],
    ]) {
      expect(await call('POST', `${MM}/authorize`, { reference: tx, token: '123456' })).toEqual({ status: 409, body: { status: false, message, data: null } })
      expect(await call('POST', `${MM}/sandbox/authorize-stk`, { reference: tx, pin: '1234' })).toEqual({ status: 409, body: { status: false, message, data: null } })
    }
  })
})

describe('a bank transfer against the real CLI', () => {
  it('arrives by itself when the clock passes 120 s: the notification_url gets a signed charge.success with the merchant reference', async () => {
    const { call } = await start()
    const rx = await receiver()
    const reference = ref('bt-e2e')
    const created = await call('POST', '/merchant/api/v1/charges/bank-transfer', { reference, amount: 2500, currency: 'NGN', customer: { email: 'ada@example.com' }, notification_url: rx.url, metadata: { order: 'B-7' } })
    expect(created.status).toBe(200)
    expect(created.body.data.bank_account.account_number).toMatch(/^\d{10}$/)
    expect((await call('POST', '/_sandbox/clock/advance', { seconds: 120 })).status).toBe(200)
    await rx.waitFor(1)
    const got = rx.received[0]
    expect(got.body).toEqual({
      event: 'charge.success',
      data: {
        reference,
        payment_reference: reference,
        transaction_reference: expect.stringMatching(/^KPY-BT-/),
        amount: 2500,
        fee: 37.5,
        currency: 'NGN',
        status: 'success',
        payment_method: 'bank_transfer',
        metadata: { order: 'B-7' },
      },
    })
    expect(got.headers['x-korapay-signature']).toBe(merchantSignature(got.body.data))
    const q = await call('GET', `/merchant/api/v1/charges/${reference}`)
    expect(q.body.data).toMatchObject({ status: 'success', amount_paid: '2537.50' })
  })
})

describe('balances against the real CLI', () => {
  it('open with the pre-funding, take a funding call and a bank transfer that arrived, and come back after a restart with --data', async () => {
    const file = tempFile()
    const first = await startCli(['--data', file])
    running.push(first)
    const call = async (url: string, method: string, path: string, body?: unknown) => (await caller(url)(method, path, body)).body
    expect((await call(first.url, 'GET', '/merchant/api/v1/balances')).data.NGN).toEqual({ pending_balance: 0, available_balance: 5_000_000 })
    expect((await call(first.url, 'POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 1000 })).message).toBe('Balance funded')
    await call(first.url, 'POST', '/merchant/api/v1/charges/bank-transfer', { reference: ref('bt-bal'), amount: 1500, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'ada@example.com' } })
    await call(first.url, 'POST', '/_sandbox/clock/advance', { seconds: 120 })
    // 1,500 less 22.50 fee and 1.69 VAT, available at once
    const before = (await call(first.url, 'GET', '/merchant/api/v1/balances')).data
    expect(before.NGN).toEqual({ pending_balance: 0, available_balance: 5_002_475.81 })
    first.child.kill('SIGKILL')
    await first.exited
    const second = await startCli(['--data', file])
    running.push(second)
    expect((await call(second.url, 'GET', '/merchant/api/v1/balances')).data).toEqual(before)
  })
})
