import { describe, expect, it } from 'vitest'
import { ref } from '../helpers/sandbox.js'
import { cliWithReceiver } from './caller.js'
import { killedAfterEach } from './process.js'

/**
 * Voucher payments (ZAR) against the real CLI (docs/behaviour.md#vouchers): the sample's voucher pays
 * its value at once, the charge query and `charge.success` say `payment_method: voucher`, the ZAR
 * balance is credited once settled, and each refusal of the samples answers with its text and
 * changes nothing.
 */

const undo = killedAfterEach()
const PATH = '/merchant/api/v1/charge/voucher'
const voucher = (pin: string, provider_code = '0001') => ({ pin, phone_number: '+270576847568', provider_code })
const body = (reference: string, over: Record<string, unknown> = {}) => ({ amount: 100, currency: 'ZAR', reference, voucher: voucher('1168648096792943'), customer: { email: 'johndoe@example.com', name: 'John Doe' }, ...over })

describe('POST /merchant/api/v1/charge/voucher against the real CLI', () => {
  it('charges the voucher its value once, announces it, credits ZAR; refuses as the samples do', async () => {
    const { call, rx } = await cliWithReceiver(undo)
    const zarBefore = (await call('GET', '/merchant/api/v1/balances')).body.data.ZAR.available_balance

    const reference = ref('voucher')
    const res = await call('POST', PATH, body(reference, { merchant_bears_cost: true, notification_url: rx.url, description: 'This is a voucher payment', metadata: { key: 'Value 1' } }))
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Charge Successful')
    // the sample: a request for 100 is paid 10, the voucher's value
    expect(res.body.data).toMatchObject({ currency: 'ZAR', amount: 10, fee: 0, vat: 0, payment_reference: reference, status: 'success', voucher: { balance: 10, pin: '1168648096792943' }, customer: { name: 'John Doe', email: 'johndoe@example.com' } })
    expect(res.body.data.transaction_reference).toMatch(/^KPY-CA-/)
    expect(res.body.data.voucher.serial_number).toMatch(/^\d{20}$/)
    expect(res.body.data.voucher.expiry_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)

    await rx.waitFor(1)
    expect(rx.received[0].body).toMatchObject({ event: 'charge.success', data: { reference, amount: 10, currency: 'ZAR', status: 'success', payment_method: 'voucher' } })
    const q = await call('GET', `/merchant/api/v1/charges/${reference}`)
    expect(q.body.data).toMatchObject({ status: 'success', amount: '10.00', currency: 'ZAR' })
    expect(JSON.stringify(q.body.data)).not.toContain('1168648096792943')

    const refusals: [Record<string, unknown>, number, string][] = [
      [body(reference), 409, 'Duplicate payment reference'],
      [body(ref('v')), 400, 'The voucher has already been used'],
      [body(ref('v'), { voucher: voucher('1000000000000999') }), 400, 'The voucher has already been used'],
      [body(ref('v'), { voucher: voucher('1168648096792943', '0002') }), 400, 'The selected provider is not supported'],
      [body(ref('v'), { voucher: voucher('1234') }), 400, 'The voucher pin you have entered is invalid'],
      [body(ref('v'), { amount: 500, voucher: voucher('1000000000001000') }), 400, 'The amount provided exceeds the required amount'],
    ]
    for (const [b, status, message] of refusals) {
      const r = await call('POST', PATH, b)
      expect([r.status, r.body]).toEqual([status, { status: false, message, data: null }])
    }
    expect((await call('GET', '/merchant/api/v1/pay-ins')).body.data.payins).toHaveLength(1)

    // settled a day later (the pack's delay): the merchant has the voucher's 10
    await call('POST', '/_sandbox/clock/advance', { seconds: 25 * 3600 })
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.ZAR.available_balance).toBe(zarBefore + 10)
  })
})
