import { describe, expect, it } from 'vitest'
import { fieldMessages, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'

/** docs/behaviour.md#pool-accounts: pool accounts, their credit call, the pay-in it makes and its event, over HTTP. */

const sandbox = sandboxPerTest()
const BASE = '/merchant/api/v1/pool-accounts'

const pool = (over: Record<string, unknown> = {}) => ({ customer_name: 'Don Alpha', customer_email: 'don@example.com', currency: 'KES', ...over })
const create = (sb: TestSandbox, over: Record<string, unknown> = {}) => sb.call('POST', BASE, pool(over))
const credit = (sb: TestSandbox, reference: string, amount: unknown = 200, currency = 'KES') => sb.call('POST', `${BASE}/sandbox/credit`, { reference, amount, currency })
const balance = async (sb: TestSandbox, currency: string) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data[currency]

/** the shared account as the create answer and the event write it (the page), and as the charge query does */
const SHARED_BANK = { currency: 'KES', bank_code: '123456', bank_name: 'Kora KES Bank', swift_code: 'KORABANK123', account_name: 'Kora Technologies Ltd', account_number: '1234567890', branch_address: '123 Kora Street, City, Country' }
const { branch_address: ADDRESS, ...QUERY_HEAD } = SHARED_BANK
const QUERY_BANK = { ...QUERY_HEAD, bank_address: ADDRESS }

describe('creating a pool account reference', () => {
  it("answers the reference (SBKP + 8 + currency) and Kora's shared account of the currency", async () => {
    const sb = await sandbox()
    const r = await create(sb)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      status: true,
      message: 'Pool account reference has been created successfully',
      data: { reference: expect.stringMatching(/^SBKP[0-9A-Z]{8}KES$/), customer_name: 'Don Alpha', customer_email: 'don@example.com', currency: 'KES', date_created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), account_details: SHARED_BANK },
    })
  })

  it('gives a mobile_money pool the shared wallet, in GHS and KES only', async () => {
    const sb = await sandbox()
    const r = await create(sb, { currency: 'GHS', account_type: 'mobile_money' })
    expect(r.body.data.account_details).toEqual({ currency: 'GHS', account_name: 'Kora 2342', mobile_number: '233812343' })
    const xaf = await create(sb, { customer_email: 'x@example.com', currency: 'XAF', account_type: 'mobile_money' })
    expect([xaf.status, xaf.body.data]).toEqual([422, fieldMessages({ account_type: 'mobile_money is offered in GHS and KES only' })])
  })

  it('keeps one reference per customer e-mail: 409 with the existing one, its time to the second', async () => {
    const sb = await sandbox()
    const first = (await create(sb)).body.data
    const again = await create(sb, { customer_email: 'DON@example.com', currency: 'GHS' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ status: false, message: 'A reference already exists for this customer', data: { ...first, date_created: `${first.date_created.slice(0, 19)}.000Z` } })
    // another namespace may use the e-mail
    expect((await sb.call('POST', BASE, pool(), { key: 'sk_test_other_pool' })).status).toBe(200)
  })

  it.each([
    [{ customer_name: undefined }, { customer_name: 'is required' }],
    [{ customer_email: 'nope' }, { customer_email: 'must be a valid e-mail address' }],
    [{ currency: undefined }, { currency: 'is required' }],
    [{ currency: 'NGN' }, { currency: 'must be one of "GHS", "KES", "XAF", "XOF", "ZAR"' }],
    [{ account_type: 'card' }, { account_type: 'must be one of "bank_account", "mobile_money"' }],
  ])('refuses %j, making nothing', async (over, errors) => {
    const sb = await sandbox()
    const r = await create(sb, over)
    expect(r.status).toBe(422)
    expect(r.body.data).toEqual(fieldMessages(errors))
    expect(sb.deps.poolAccounts.list('sk_test_sandbox')).toEqual([])
  })
})

describe('reading a pool account', () => {
  it('by its reference, as the newer sample writes it (branch_address, created_at); 404 otherwise', async () => {
    const sb = await sandbox()
    const made = (await create(sb)).body.data
    const r = await sb.call('GET', `${BASE}/${made.reference}`)
    const { account_name: _n, ...rest } = SHARED_BANK
    expect(r.body).toEqual({
      status: true,
      message: 'Pool account retrieved successfully',
      data: { reference: made.reference, customer_name: 'Don Alpha', customer_email: 'don@example.com', currency: 'KES', account_details: rest, created_at: `${made.date_created.slice(0, 19)}.000Z` },
    })
    // the bare path the collection writes is the same call (CONTRACT 15)
    expect((await sb.call('GET', `/api/v1/pool-accounts/${made.reference}`)).body).toEqual(r.body)
    const unknown = await sb.call('GET', `${BASE}/SBKPNOBODY00KES`)
    expect([unknown.status, unknown.body]).toEqual([404, { status: false, message: 'Pool account not found', data: null }])
    expect((await sb.call('GET', `${BASE}/${made.reference}`, undefined, { key: 'sk_test_other_pool' })).status).toBe(404)
  })
})

describe('crediting a pool account', () => {
  it('is a pool_account pay-in, successful and on the balance at once, queried and announced', async () => {
    const sb = await sandbox()
    const ref = (await create(sb)).body.data.reference
    const before = await balance(sb, 'KES')
    const r = await credit(sb, ref, 2000)
    expect(r.status).toBe(200)
    const d = r.body.data
    expect(r.body).toEqual({ status: true, message: 'Pool account has been credited successfully', data: { currency: 'KES', amount_paid: 2000, transaction_reference: expect.stringMatching(/^KPY-PA-[0-9A-Z]{14}$/), transaction_date: expect.stringMatching(/Z$/) } })
    // 1.5 % fee (30) and its VAT (2.25) are the merchant's: 1,967.75 available at once
    const after = await balance(sb, 'KES')
    expect(after.available_balance - before.available_balance).toBeCloseTo(1967.75, 2)
    expect(after.pending_balance).toBe(before.pending_balance)

    const q = await sb.call('GET', `/merchant/api/v1/charges/${d.transaction_reference}`)
    expect(q.body.data).toMatchObject({
      reference: d.transaction_reference,
      status: 'success',
      amount: '2000.00',
      amount_paid: '2000.00',
      fee: 30,
      currency: 'KES',
      description: 'Pool account transfer from Don Alpha',
      customer: { name: 'Don Alpha', email: 'don@example.com' },
      pool_account: { pool_account_reference: ref, account_details: QUERY_BANK, payer_details: { payer_name: 'Don Alpha', payer_account_number: '0000000000' } },
    })

    const events = (await sb.call('GET', '/_sandbox/events?event=charge.success')).body.data
    expect(events).toHaveLength(1)
    expect(events[0].data).toEqual({
      fee: 30,
      amount: 2000,
      status: 'success',
      currency: 'KES',
      reference: d.transaction_reference,
      payment_method: 'pool_account',
      payment_reference: d.transaction_reference,
      pool_account: { payer_details: { payer_name: 'Don Alpha', payer_account_number: '0000000000' }, pool_account_reference: ref, account_details: SHARED_BANK },
      transaction_date: d.transaction_date,
    })
    // nothing is left to complete, and the pay-ins list has it
    expect((await sb.call('POST', `/_sandbox/charges/${d.transaction_reference}/complete`, { outcome: 'success' })).status).toBe(409)
    const history = (await sb.call('GET', '/merchant/api/v1/balances/history?currency=KES&limit=1')).body.data.history
    expect(history[0]).toMatchObject({ amount: '1967.75', direction: 'credit', source: 'payin', source_reference: d.transaction_reference })
  })

  it('takes whole XAF only, in the pool\'s own currency; an unknown reference is 404; a refusal changes nothing', async () => {
    const sb = await sandbox()
    const ref = (await create(sb, { currency: 'XAF' })).body.data.reference
    const before = await balance(sb, 'XAF')
    const half = await credit(sb, ref, 10.5, 'XAF')
    expect([half.status, half.body.data]).toEqual([422, fieldMessages({ amount: 'must be a whole number for XAF' })])
    const wrong = await credit(sb, ref, 10, 'KES')
    expect([wrong.status, wrong.body.data]).toEqual([422, fieldMessages({ currency: "must be XAF, the pool account's currency" })])
    const unknown = await credit(sb, 'SBKPNOBODY00XAF', 10, 'XAF')
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Pool account not found'])
    for (const [amount, message] of [[0, 'must be greater than 0'], [10_000_001, 'must be between 1 and 10000000'], [undefined, 'is required']] as const) {
      const r = await sb.call('POST', `${BASE}/sandbox/credit`, { reference: ref, amount, currency: 'XAF' })
      expect([r.status, r.body.data], String(amount)).toEqual([422, fieldMessages({ amount: message })])
    }
    expect(await balance(sb, 'XAF')).toEqual(before)
    expect((await sb.call('GET', '/_sandbox/events')).body.data).toEqual([])
    // the sample's credit: XAF 10, no fee in a currency without a minor unit below 1
    const ok = await credit(sb, ref, 10, 'XAF')
    expect(ok.body.data).toMatchObject({ currency: 'XAF', amount_paid: 10 })
    expect((await balance(sb, 'XAF')).available_balance - before.available_balance).toBe(10)
  })
})
