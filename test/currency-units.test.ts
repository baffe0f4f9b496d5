import { describe, expect, it } from 'vitest'
import { ref, sandboxPerTest, fieldMessages } from './helpers/sandbox.js'

/**
 * XAF and XOF have no minor unit (ISO 4217; fixtures/lookups.json's `decimals: 0`, docs/behaviour.md#money): an amount with decimals is refused where amounts are taken, field by field, recording
 * nothing; fees, VAT and converted amounts come out in whole francs. Over app.request(), the clock
 * frozen.
 */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'
const customer = { email: 'payer@example.com', name: 'Awa' }

describe('an XAF or XOF amount with decimals', () => {
  it('is refused field by field on every call that takes an amount, and nothing is recorded', async () => {
    const sb = await sandbox({ frozen: true })
    const before = (await sb.call('GET', `${M}/balances`)).body.data
    const cases: [string, string, unknown, Record<string, string>][] = [
      ['POST', `${M}/charges/mobile-money`, { reference: ref('mm'), amount: 1000.5, currency: 'XAF', customer, mobile_money: { number: '237655123456' } }, { amount: 'must be a whole number for XAF' }],
      ['POST', `${M}/charges/initialize`, { reference: ref('co'), amount: '2500.25', currency: 'XOF', customer }, { amount: 'must be a whole number for XOF' }],
      ['POST', `${M}/transactions/disburse`, { reference: ref('po'), destination: { type: 'mobile_money', amount: 1000.05, currency: 'XAF', mobile_money: { operator: 'mtn-cm', mobile_number: '237671111111' }, customer } }, { 'destination.amount': 'must be a whole number for XAF' }],
      ['POST', `${M}/transactions/disburse/bulk`, {
        batch_reference: ref('batch'), currency: 'XOF',
        payouts: [1000, 1000.5].map((amount) => ({ reference: ref('bi'), amount, type: 'mobile_money', mobile_money: { operator: 'mtn-ci', mobile_number: '2250511111111' }, customer })),
      }, { 'payouts.1.amount': 'must be a whole number for XOF' }],
      ['POST', '/_sandbox/balances/fund', { currency: 'XAF', amount: 0.5 }, { amount: 'must be a whole number for XAF' }],
      ['POST', `${M}/conversions/rates`, { from_currency: 'XOF', to_currency: 'USD', amount: 100.1 }, { amount: 'must be a whole number for XOF' }],
    ]
    for (const [method, path, body, data] of cases) {
      const res = await sb.call(method, path, body)
      expect([res.status, res.body.message, res.body.data], path).toEqual([422, 'Invalid request data', fieldMessages(data)])
    }
    // the same amounts in whole francs, or in a currency with cents, pass these checks
    expect((await sb.call('POST', '/_sandbox/balances/fund', { currency: 'XAF', amount: 5 })).status).toBe(200)
    expect((await sb.call('POST', '/_sandbox/balances/fund', { currency: 'KES', amount: 0.5 })).status).toBe(200)
    expect((await sb.call('GET', `${M}/payouts?limit=100`)).body.data.payouts).toEqual([])
    const after = (await sb.call('GET', `${M}/balances`)).body.data
    expect(after.XOF).toEqual(before.XOF)
    expect(after.XAF.available_balance).toBe(before.XAF.available_balance + 5)
  })

  it('is refused on a partial refund of an XAF pay-in, which takes whole francs', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('mm')
    const res = await sb.call('POST', `${M}/charges/mobile-money`, { reference, amount: 1000, currency: 'XAF', customer, mobile_money: { number: '237655123456' } })
    await sb.call('POST', `${M}/charges/mobile-money/sandbox/authorize-stk`, { reference: res.body.data.transaction_reference, pin: '1234' })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 24 * 3600 })
    const odd = await sb.call('POST', `${M}/refunds/initiate`, { payment_reference: reference, reference: ref('rf'), amount: 100.5 })
    expect([odd.status, odd.body.message, odd.body.data]).toEqual([422, 'Invalid request data', fieldMessages({ amount: 'must be a whole number for XAF' })])
    const whole = await sb.call('POST', `${M}/refunds/initiate`, { payment_reference: reference, reference: ref('rf'), amount: 100 })
    expect([whole.status, whole.body.data.amount_returned]).toEqual([200, 100])
  })
})

describe('whole francs out', () => {
  it('a conversion into XAF is rounded down to whole francs', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { conversion_rates: { 'USD/XAF': 600.5 } } })).status).toBe(200)
    const quote = await sb.call('POST', `${M}/conversions/rates`, { from_currency: 'USD', to_currency: 'XAF', amount: 1.01 })
    // 1.01 x 600.5 = 606.505 -> 606
    expect([quote.status, quote.body.data?.to_amount], JSON.stringify(quote.body)).toEqual([200, 606])
  })
})
