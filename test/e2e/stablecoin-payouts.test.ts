import { describe, expect, it } from 'vitest'
import { ref } from '../helpers/sandbox.js'
import { cliWithReceiver } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * Stablecoin payouts against the real CLI (docs/behaviour.md#stablecoin-payouts): the collection's crypto
 * sample is taken and answered in its shape, the USD balance pays amount, fee and VAT once, the
 * payout ends on the namespace clock with `transfer.success`; a failed one gives all of it back,
 * once; each refusal answers field by field and changes nothing.
 */

const undo = killedAfterEach()
const PATH = '/merchant/api/v1/transactions/disburse'
const ETH = '0x6f730bd13c38966b44f3c6a06955085b1485e39c'
const body = (reference: string, over: Record<string, unknown> = {}, crypto: Record<string, unknown> = { network: 'ETH', destination_address: ETH }) => ({
  reference,
  destination: { type: 'crypto', amount: '100', currency: 'USDT', narration: 'Test Transfer Payment 009', crypto, customer: { name: 'John Doe', email: 'johndoe@email.com' }, ...over },
})

describe('POST /merchant/api/v1/transactions/disburse to a stablecoin wallet, against the real CLI', () => {
  it('debits the USD balance amount + fee + VAT once, ends on the clock, gives a failed one back once; refuses as documented', async () => {
    const { call, rx } = await cliWithReceiver(undo)
    expect((await call('PUT', '/_sandbox/webhook-url', { url: rx.url })).status).toBe(200)
    // in cents: the balance's major-unit number, exact to two decimals
    const usd = async () => Math.round((await call('GET', '/merchant/api/v1/balances')).body.data.USD.available_balance * 100)
    const before = await usd()

    const reference = ref('usdt')
    const res = await call('POST', PATH, body(reference))
    expect(res.status).toBe(200)
    // the sample's shape and fee (2.50: its VAT, 0.19, is debited beside it and the query counts it)
    expect(res.body).toEqual({ status: true, message: 'transfer initiated successfully', data: { amount: '100.00', fee: '2.50', currency: 'USDT', status: 'processing', reference, narration: 'Test Transfer Payment 009', customer: { name: 'John Doe', email: 'johndoe@email.com', phone: null } } })
    // the sample's keys in its order, which the JSON text keeps (toEqual does not look at it)
    expect(Object.keys(res.body.data)).toEqual(['amount', 'fee', 'currency', 'status', 'reference', 'narration', 'customer'])
    expect(await usd()).toBe(before - 10269)

    const failing = ref('usdc')
    expect((await call('POST', PATH, body(failing, { currency: 'USDC', amount: 10 }, { network: 'TRX', destination_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' }))).status).toBe(200)
    expect(await usd()).toBe(before - 10269 - 1269)
    expect((await call('POST', `/_sandbox/payouts/${failing}/complete`, { outcome: 'failed' })).status).toBe(200)
    expect(await usd()).toBe(before - 10269)
    // once: a second completion is refused, nothing moves
    expect((await call('POST', `/_sandbox/payouts/${failing}/complete`, { outcome: 'failed' })).status).toBe(409)
    expect(await usd()).toBe(before - 10269)

    await call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    await rx.waitFor(2)
    const events = rx.received.map((r) => r.body as { event: string; data: Record<string, unknown> })
    expect(events.find((e) => e.data.reference === reference)).toMatchObject({ event: 'transfer.success', data: { amount: 100, fee: 2.69, currency: 'USDT', status: 'success' } })
    expect(events.find((e) => e.data.reference === failing)).toMatchObject({ event: 'transfer.failed', data: { currency: 'USDC', status: 'failed' } })
    const q = await call('GET', `/merchant/api/v1/transactions/${reference}`)
    expect(q.body.data).toMatchObject({ reference, status: 'success', amount: '100.00', fee: 2.69, currency: 'USDT', crypto: { network: 'ETH', destination_address: ETH } })
    expect(await usd()).toBe(before - 10269)
    const history = (await call('GET', '/merchant/api/v1/balances/history?currency=USD')).body.data.history as { source: string; source_reference: string; amount: string }[]
    expect(history.filter((h) => h.source_reference === reference).map((h) => [h.source, h.amount])).toEqual([['payout', '102.69']])

    const refusals: [Record<string, unknown>, number, unknown][] = [
      [body(reference), 409, 'Duplicate Transaction Reference. Please use a unique reference'],
      [body(ref('c'), {}, { network: 'ETH', destination_address: 'not-an-address' }), 422, { 'destination.crypto.destination_address': { message: 'destination.crypto.destination_address must be a valid ETH address' } }],
      [body(ref('c'), {}, { network: 'BTC', destination_address: ETH }), 422, undefined],
      [body(ref('c'), { crypto: undefined }), 422, { 'destination.crypto': { message: 'destination.crypto is required' } }],
      [body(ref('c'), { currency: 'NGN' }), 400, 'Currency not allowed for this destination'],
      [{ reference: ref('c'), destination: { type: 'bank_account', amount: 1500, currency: 'USDT', bank_account: { bank: '033', account: '0000000000' }, customer: { email: 'a@b.co' } } }, 400, 'Currency not allowed for this destination'],
      [body(ref('c'), { amount: 9_000_000 }), 409, 'Insufficient funds in disbursement wallet'],
    ]
    for (const [b, status, said] of refusals) {
      const r = await call('POST', PATH, b)
      expect(r.status, JSON.stringify(r.body)).toBe(status)
      if (typeof said === 'string') expect(r.body.message).toBe(said)
      else if (said) expect(r.body.data).toMatchObject(said)
    }
    expect(await usd()).toBe(before - 10269)
    expect((await call('GET', '/merchant/api/v1/payouts')).body.data.payouts.map((p: { reference: string; payment_destination: string }) => [p.reference, p.payment_destination])).toEqual([[failing, 'crypto'], [reference, 'crypto']])
  })
})
