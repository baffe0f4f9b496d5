import { describe, expect, it } from 'vitest'
import { ref } from '../helpers/sandbox.js'
import { caller } from './caller.js'
import { killedAfterEach, startCli } from './process.js'

/**
 * Split payments and dynamic currency conversion on `charges/initialize` against the real CLI
 * (docs/behaviour.md#checkout-split-and-conversion): the sample's AA027 refusal, a split paid with the merchant credited
 * its share only, and a checkout priced in USD, paid in NGN and settled in USD at the pack's rate,
 * rounded down.
 */

const { running } = killedAfterEach()
const INIT = '/merchant/api/v1/charges/initialize'
const base = (reference: string, over: Record<string, unknown> = {}) => ({ amount: 6000, currency: 'NGN', reference, narration: 'Payment for product Y', customer: { name: 'John Doe', email: 'john@email.com' }, ...over })
const flat = (...values: string[]) => ({ split_type: 'flat', split_accounts: values.map((value, i) => ({ value, split_account_reference: `KPY-SPA-${i + 1}` })) })

async function start() {
  const cli = await startCli([])
  running.push(cli)
  return caller(cli.url)
}

describe('split payments and currency conversion on charges/initialize, against the real CLI', () => {
  it('refuses a flat split the amount cannot carry (400 AA027), splits one it can, and credits the merchant its share', async () => {
    const call = await start()
    const refused = await call('POST', INIT, base(ref('split'), { split_configuration: flat('3000', '2500') }))
    expect([refused.status, refused.body]).toEqual([400, { status: false, code: 'AA027', message: 'Split payment can only be applied on NGN7150 and above using the selected split configuration', data: null }])
    // 7150 carries 5500 of shares (the sample's threshold)
    const reference = ref('split')
    expect((await call('POST', INIT, base(reference, { amount: 7150, split_configuration: flat('3000', '2500') }))).status).toBe(200)
    const ngn = (await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance
    expect((await call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'bank_transfer' })).body.data.status).toBe('success')
    const q = (await call('GET', `/merchant/api/v1/charges/${reference}`)).body.data
    expect(q.split).toEqual({ split_type: 'flat', split_accounts: [{ split_account_reference: 'KPY-SPA-1', value: 3000, amount: 3000 }, { split_account_reference: 'KPY-SPA-2', value: 2500, amount: 2500 }], merchant_amount: 1650 })
    await call('POST', '/_sandbox/clock/advance', { seconds: 25 * 3600 })
    // 7150 less the shares (5500) and the transfer's fee and its 7.5 % VAT (the query shows the fee only, docs/behaviour.md#card-outcomes-and-query)
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.NGN.available_balance).toBeCloseTo(ngn + 1650 - q.fee - Math.round(q.fee * 7.5) / 100, 2)

    // percentages round down per share; over 100 in total is refused by field
    const pct = ref('pct')
    expect((await call('POST', INIT, base(pct, { amount: 1000.05, split_configuration: { split_type: 'percentage', split_accounts: [{ value: 33.33, split_account_reference: 'A' }, { value: 10, split_account_reference: 'B' }] } }))).status).toBe(200)
    expect((await call('GET', `/merchant/api/v1/charges/${pct}`)).body.data.split).toMatchObject({ split_accounts: [{ amount: 333.31 }, { amount: 100 }], merchant_amount: 566.74 })
    const over = await call('POST', INIT, base(ref('pct'), { split_configuration: { split_type: 'percentage', split_accounts: [{ value: 60, split_account_reference: 'A' }, { value: 41, split_account_reference: 'B' }] } }))
    expect(over.status).toBe(422)
    expect(over.body.data['split_configuration.split_accounts']).toBeDefined()
  })

  it('prices in USD, has the customer pay NGN at the rate, and credits USD rounded down', async () => {
    const call = await start()
    const reference = ref('dcc')
    // the documentation's sample request
    const res = await call('POST', INIT, { amount: 100, currency: 'USD', payment_currency: 'NGN', settlement_currency: 'USD', reference, narration: 'Order', channels: ['bank_transfer'], default_channel: 'bank_transfer', customer: { name: 'Ada', email: 'ada@example.com' }, notification_url: 'https://example.com/hooks', metadata: { order: '1' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Charge created successfully', data: { reference } })
    const page = await fetch(res.body.data.checkout_url)
    expect(await page.text()).toContain('NGN 144,000.00')
    const usd = (await call('GET', '/merchant/api/v1/balances')).body.data.USD.available_balance
    expect((await call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'bank_transfer' })).body.data.status).toBe('success')
    const q = (await call('GET', `/merchant/api/v1/charges/${reference}`)).body.data
    expect(q).toMatchObject({ amount: '144000.00', currency: 'NGN', conversion: { amount: 100, currency: 'USD', payment_amount: 144000, payment_currency: 'NGN', settlement_currency: 'USD', rate: 1440 } })
    await call('POST', '/_sandbox/clock/advance', { seconds: 25 * 3600 })
    // (144,000 - fee 2,000 - VAT 150) / 1,440 = 98.5069...: 98.50
    expect((await call('GET', '/merchant/api/v1/balances')).body.data.USD.available_balance).toBe(usd + 98.5)

    // a pair the pack does not rate, and a split with a conversion, are refused by field and change nothing
    const bad = await call('POST', INIT, { amount: 100, currency: 'USD', payment_currency: 'XAF', reference: ref('dcc'), customer: { email: 'ada@example.com' } })
    expect([bad.status, Object.keys(bad.body.data)]).toEqual([422, ['payment_currency']])
    const both = await call('POST', INIT, { amount: 100, currency: 'USD', payment_currency: 'NGN', reference: ref('dcc'), customer: { email: 'ada@example.com' }, split_configuration: flat('10') })
    expect([both.status, Object.keys(both.body.data)]).toEqual([422, ['split_configuration']])
    expect((await call('GET', '/merchant/api/v1/pay-ins')).body.data.payins.filter((p: { payment_reference?: string; reference?: string }) => !String(p.reference ?? p.payment_reference).startsWith('KPY'))).toHaveLength(1)
  })
})
