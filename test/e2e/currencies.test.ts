import { afterEach, describe, expect, it } from 'vitest'
import { verifyWebhookSignature } from '../../src/webhooks/signature.js'
import { SECRET, ref, fieldMessages } from '../helpers/sandbox.js'
import { startReceiver } from '../helpers/receiver.js'
import { caller } from './caller.js'
import { api, killedAfterEach, startCli } from './process.js'

/**
 * A merchant selling in Cameroon, Côte d'Ivoire, Tanzania, Egypt, South Africa, the US and the UK,
 * against the real CLI (dist/, the shipped fixtures and default pack) on a real port: it reads the
 * operators with its public key, charges wallets in XOF and EGP with the testing page's wallets
 * and gets the signed charge.* webhooks at its own notification_url, pays out to a USD account
 * (remittance-style fields), a GBP IBAN that fails, a ZAR bank it first checks with
 * payouts/availability (and one it calls unavailable, whose payout fails) and an XAF wallet (refused at 1,002, paid at 1,000), and reads each balance.
 */

const { running } = killedAfterEach()
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close()
})

describe('a merchant in every new currency, over a socket', () => {
  it('runs its success and failure paths for mobile money and payouts with the documented test values', async () => {
    const cli = await startCli([])
    running.push(cli)
    const hook = await startReceiver()
    receivers.push(hook)
    const call = caller(cli.url, 20_000)
    expect((await call('POST', '/_sandbox/clock/freeze', { frozen: true })).status).toBe(200)

    // the operators, with the public key, as the merchant's checkout page loads them
    const operators = await api(cli.url, 'pk_test_sandbox', 'GET', '/merchant/api/v1/misc/mobile-money?countryCode=CM')
    expect([operators.status, operators.body.data.map((o: { slug: string }) => o.slug)]).toEqual([200, ['mtn-cm', 'orange-cm']])

    // XOF: OTP 123456, then the prompt answered with PIN 1234
    const xof = await call('POST', '/merchant/api/v1/charges/mobile-money', { reference: ref('xof'), amount: 2500, currency: 'XOF', customer: { email: 'awa@example.com', name: 'Awa' }, mobile_money: { number: '2250500000000' }, notification_url: hook.url })
    expect([xof.status, xof.body.code, xof.body.data.auth_model]).toEqual([200, 'AA001', 'OTP'])
    const tx = xof.body.data.transaction_reference
    expect((await call('POST', '/merchant/api/v1/charges/mobile-money/authorize', { reference: tx, token: '123456' })).body.data.auth_model).toBe('STK_PROMPT')
    expect((await call('POST', '/merchant/api/v1/charges/mobile-money/sandbox/authorize-stk', { reference: tx, pin: '1234' })).body.data.status).toBe('success')
    await hook.waitFor(1)
    const got = hook.received[0]
    expect(verifyWebhookSignature(got.raw, got.headers['x-korapay-signature'] as string, SECRET)).toBe(true)
    expect(got.body).toMatchObject({ event: 'charge.success', data: { currency: 'XOF', payment_method: 'mobile_money', amount: 2500 } })

    // EGP: the failure wallet, its prompt answered by the clock
    const egp = await call('POST', '/merchant/api/v1/charges/mobile-money', { reference: ref('egp'), amount: 300, currency: 'EGP', customer: { email: 'omar@example.com' }, mobile_money: { number: '201200000002' }, notification_url: hook.url })
    expect(egp.body.data.auth_model).toBe('STK_PROMPT')
    await call('POST', '/_sandbox/clock/advance', { seconds: 2 })
    await hook.waitFor(2)
    expect(hook.received[1].body).toMatchObject({ event: 'charge.failed', data: { currency: 'EGP', status: 'failed' } })

    // payouts: the ZAR bank's availability first, then one payout per currency
    const availability = await call('POST', '/merchant/api/v1/payouts/availability', { type: 'bank_account', currency: 'ZAR' })
    // the payout page's sample's message (docs/behaviour.md#payouts)
    expect([availability.status, availability.body.message]).toEqual([200, 'Request Completed'])
    expect(availability.body.data.find((b: { code: string }) => b.code === '632005')).toMatchObject({ name: 'Absa Bank', status: 'available' })
    const disburse = (reference: string, destination: Record<string, unknown>) => call('POST', '/merchant/api/v1/transactions/disburse', { reference, destination: { customer: { email: 'payee@example.com' }, ...destination }, notification_url: hook.url })
    const usdRef = ref('usd')
    const usd = await disburse(usdRef, {
      type: 'bank_account', amount: 1000, currency: 'USD', bank_country: 'US',
      bank_account: { bank_name: 'JPMorgan Chase', beneficiary_type: 'individual', first_name: 'Ada', last_name: 'Obi', account_type: 'checking', account_number_type: 'account_number', payment_method: 'AbaRouting', routing_number: '026009593', account: '0000000000', address_information: { country: 'US', city: 'New York', street: '1 Main St' } },
      supporting_documents: [{ title: 'Invoice', file_reference: 'file-1' }], purpose_of_payment: 'Services',
    })
    expect([usd.status, usd.body.data]).toEqual([200, expect.objectContaining({ amount: '1000.00', fee: '30.00', currency: 'USD', status: 'processing' })])
    const gbpRef = ref('gbp')
    const gbp = await disburse(gbpRef, {
      type: 'bank_account', amount: 500, currency: 'GBP', bank_country: 'GB',
      bank_account: { bank_name: 'Barclays', beneficiary_type: 'corporate', business_name: 'Obi Ltd', account_type: 'savings', account_number_type: 'iban', payment_method: 'IBAN', account: 'GB94BARC10201530093459', address_information: { country: 'GB', city: 'London', street: '1 High St' } },
      supporting_documents: [{ title: 'Contract', file_reference: 'file-2' }],
    })
    expect(gbp.status).toBe(200)
    const zarRef = ref('zar')
    expect((await disburse(zarRef, { type: 'bank_account', amount: 200, currency: 'ZAR', bank_account: { bank: '632005', account: '0000000000', account_name: 'Thabo Nkosi' } })).status).toBe(200)
    // a bank payouts/availability calls unavailable: accepted, then failed on the clock with all of it given back
    const downRef = ref('zar-down')
    expect((await disburse(downRef, { type: 'bank_account', amount: 100, currency: 'ZAR', bank_account: { bank: '679000', account: '0000000000', account_name: 'Thabo Nkosi' } })).status).toBe(200)
    const odd = await disburse(ref('xaf'), { type: 'mobile_money', amount: 1002, currency: 'XAF', mobile_money: { operator: 'mtn-cm', mobile_number: '237671111111' } })
    expect([odd.status, odd.body.data]).toEqual([422, fieldMessages({ 'destination.amount': 'must be a multiple of 5 for XAF' })])
    const xafRef = ref('xaf')
    expect((await disburse(xafRef, { type: 'mobile_money', amount: 1000, currency: 'XAF', mobile_money: { operator: 'mtn-cm', mobile_number: '237671111111' } })).status).toBe(200)

    await call('POST', '/_sandbox/clock/advance', { seconds: 60 })
    await hook.waitFor(7)
    const transfers = Object.fromEntries(hook.received.slice(2).map((r) => [r.body.data.reference, r.body]))
    expect(transfers[usdRef]).toMatchObject({ event: 'transfer.success', data: { currency: 'USD', amount: 1000, fee: 32.25 } })
    expect(transfers[gbpRef]).toMatchObject({ event: 'transfer.failed', data: { currency: 'GBP', reason: 'Payout failed' } })
    expect(transfers[zarRef]).toMatchObject({ event: 'transfer.success', data: { currency: 'ZAR' } })
    expect(transfers[downRef]).toMatchObject({ event: 'transfer.failed', data: { currency: 'ZAR', reason: 'Destination bank is not available' } })
    expect(transfers[xafRef]).toMatchObject({ event: 'transfer.success', data: { currency: 'XAF' } })
    for (const r of hook.received) expect(verifyWebhookSignature(r.raw, r.headers['x-korapay-signature'] as string, SECRET)).toBe(true)

    const balances = (await call('GET', '/merchant/api/v1/balances')).body.data
    expect(balances).toMatchObject({
      XOF: { pending_balance: 2500, available_balance: 5_000_000 },
      EGP: { pending_balance: 0, available_balance: 5_000_000 },
      USD: { available_balance: 4_998_967.75 },
      GBP: { available_balance: 5_000_000 },
      ZAR: { available_balance: 4_999_767.75 },
      // XAF has no minor unit: the payout's fee and VAT are whole francs, 30 + 2
      XAF: { available_balance: 4_998_968 },
    })
  })
})
