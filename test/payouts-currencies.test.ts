import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { fieldMessages, ref, sandboxPerTest, type TestSandbox, invalidBody } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'

/**
 * Payouts in every currency and destination served (docs/behaviour.md#payouts, docs/behaviour.md#bulk-payouts): bank accounts
 * in KES, ZAR (with account_name), EGP (short bank codes), USD and GBP (the remittance-style
 * fields), wallets in KES, GHS, XAF, XOF, TZS and EGP with the operator slugs; each with the
 * documented success and failure test accounts, each refusal field by field, XAF/XOF multiples
 * of 5, the per-currency limits, payouts/availability for ZAR banks, bulk payouts in each
 * currency, and a property: money is conserved for payouts in every currency. Over
 * app.request(), the clock frozen.
 */

const sandbox = sandboxPerTest()
const DISBURSE = '/merchant/api/v1/transactions/disburse'
const BULK = '/merchant/api/v1/transactions/disburse/bulk'
const OPENING = 5_000_000

const available = async (sb: TestSandbox, currency: string) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data[currency].available_balance as number
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

const ADDRESS = { country: 'US', city: 'New York', state: 'NY', zip_code: '10001', street: '1 Main St', full_address: '1 Main St, New York, NY 10001' }
const DOCS = [{ title: 'Invoice 42', file_reference: 'file-ref-42' }]

/** A USD or GBP bank account with every remittance-style field (docs/behaviour.md#payouts). */
function remittance(currency: 'USD' | 'GBP', method: string, account: string, routing?: string) {
  return {
    bank_country: currency === 'USD' ? 'US' : 'GB',
    bank_account: {
      bank_name: currency === 'USD' ? 'JPMorgan Chase' : 'Barclays',
      beneficiary_type: 'individual',
      first_name: 'Ada',
      last_name: 'Obi',
      account_type: 'checking',
      account_number_type: method === 'IBAN' ? 'iban' : 'account_number',
      payment_method: method,
      ...(routing ? { routing_number: routing } : {}),
      account,
      address_information: { ...ADDRESS, country: currency === 'USD' ? 'US' : 'GB' },
    },
    supporting_documents: DOCS,
    purpose_of_payment: 'Family support',
  }
}

type Dest = { label: string; currency: string; amount: number; fields: Record<string, unknown> }

const bankDest = (currency: string, bank: string, account: string, extra: Record<string, unknown> = {}) => ({ type: 'bank_account', bank_account: { bank, account, ...extra } })
const walletDest = (operator: string, number: string) => ({ type: 'mobile_money', mobile_money: { operator, mobile_number: number } })

/** The documented success and failure test account of each currency and destination. */
const PAIRS: { ok: Dest; ko: Dest }[] = [
  { ok: { label: 'KES bank', currency: 'KES', amount: 1000, fields: bankDest('KES', '0068', '000000000000') }, ko: { label: 'KES bank', currency: 'KES', amount: 1000, fields: bankDest('KES', '0053', '000000000000') } },
  { ok: { label: 'ZAR bank', currency: 'ZAR', amount: 100, fields: bankDest('ZAR', '632005', '0000000000', { account_name: 'Thabo Nkosi' }) }, ko: { label: 'ZAR bank', currency: 'ZAR', amount: 100, fields: bankDest('ZAR', '678910', '0000000000', { account_name: 'Thabo Nkosi' }) } },
  { ok: { label: 'EGP bank', currency: 'EGP', amount: 1000, fields: bankDest('EGP', 'NBE', '1234567890') }, ko: { label: 'EGP bank', currency: 'EGP', amount: 1000, fields: bankDest('EGP', 'CIB', '0987654321') } },
  { ok: { label: 'USD bank (AbaRouting)', currency: 'USD', amount: 1000, fields: { type: 'bank_account', ...remittance('USD', 'AbaRouting', '0000000000', '026009593') } }, ko: { label: 'USD bank (AbaRouting)', currency: 'USD', amount: 1000, fields: { type: 'bank_account', ...remittance('USD', 'AbaRouting', '0000000001', '026009593') } } },
  { ok: { label: 'GBP bank (SortCode)', currency: 'GBP', amount: 1000, fields: { type: 'bank_account', ...remittance('GBP', 'SortCode', '00000000', '040004') } }, ko: { label: 'GBP bank (SortCode)', currency: 'GBP', amount: 1000, fields: { type: 'bank_account', ...remittance('GBP', 'SortCode', '00000001', '040004') } } },
  { ok: { label: 'GBP bank (IBAN)', currency: 'GBP', amount: 1000, fields: { type: 'bank_account', ...remittance('GBP', 'IBAN', 'GB33BUKB20201555555555') } }, ko: { label: 'GBP bank (IBAN)', currency: 'GBP', amount: 1000, fields: { type: 'bank_account', ...remittance('GBP', 'IBAN', 'GB94BARC10201530093459') } } },
  { ok: { label: 'KES wallet', currency: 'KES', amount: 1000, fields: walletDest('safaricom-ke', '254711111111') }, ko: { label: 'KES wallet', currency: 'KES', amount: 1000, fields: walletDest('airtel-ke', '254722222222') } },
  { ok: { label: 'GHS wallet', currency: 'GHS', amount: 1000, fields: walletDest('airtel-gh', '233242426222') }, ko: { label: 'GHS wallet', currency: 'GHS', amount: 1000, fields: walletDest('mtn-gh', '233722222222') } },
  { ok: { label: 'XAF wallet', currency: 'XAF', amount: 1000, fields: walletDest('mtn-cm', '237671111111') }, ko: { label: 'XAF wallet', currency: 'XAF', amount: 1000, fields: walletDest('orange-cm', '2250522222222') } },
  { ok: { label: 'XOF wallet', currency: 'XOF', amount: 1000, fields: walletDest('mtn-ci', '2250511111111') }, ko: { label: 'XOF wallet', currency: 'XOF', amount: 1000, fields: walletDest('orange-ci', '2250522222222') } },
  { ok: { label: 'TZS wallet', currency: 'TZS', amount: 1000, fields: walletDest('tigo-tz', '255751111111') }, ko: { label: 'TZS wallet', currency: 'TZS', amount: 1000, fields: walletDest('airtel-tz', '255752222222') } },
  { ok: { label: 'EGP wallet', currency: 'EGP', amount: 1000, fields: walletDest('vodafone-eg', '201028894773') }, ko: { label: 'EGP wallet', currency: 'EGP', amount: 1000, fields: walletDest('orange-eg', '200198765432') } },
]

/** the payout fee with its VAT: 30 + 7.5 % = 32.25; to whole francs in XAF and XOF, which have no minor unit (docs/behaviour.md#money): 30 + 2 */
const feeIn = (currency: string) => (currency === 'XAF' || currency === 'XOF' ? 32 : 32.25)

const body = (d: Dest, reference = ref('po')) => ({ reference, destination: { amount: d.amount, currency: d.currency, narration: d.label, customer: { name: 'Payee', email: 'payee@example.com' }, ...d.fields } })

describe.each(PAIRS)('a payout to a $ok.label (docs/behaviour.md#payouts)', ({ ok, ko }) => {
  it('succeeds at the success account and fails at the failure account, which returns all of it', async () => {
    const sb = await sandbox({ frozen: true })
    const good = body(ok)
    const bad = body(ko)
    for (const b of [good, bad]) {
      const res = await sb.call('POST', DISBURSE, b)
      expect([res.status, res.body.message], JSON.stringify(b)).toEqual([200, 'Transfer initiated successfully.'])
      // the pack's fee, a flat 30 of the payout's currency: the answer's fee is without its VAT,
      // as the live test environment writes it; the query's (and the debit) has it, 7.5 %
      expect(res.body.data).toMatchObject({ amount: ok.amount.toFixed(2), fee: '30.00', currency: ok.currency, status: 'processing', message: 'Payout processing' })
    }
    expect(await available(sb, ok.currency)).toBe(OPENING - 2 * (ok.amount + feeIn(ok.currency)))
    await advance(sb, 60)
    const query = async (r: string) => (await sb.call('GET', `/merchant/api/v1/transactions/${r}`)).body.data
    expect(await query(good.reference)).toMatchObject({ status: 'success', message: 'Payout successful', currency: ok.currency, trace_id: expect.stringMatching(/^\d{20}$/) })
    expect(await query(bad.reference)).toMatchObject({ status: 'failed', message: 'Payout failed', currency: ok.currency })
    expect(await available(sb, ok.currency)).toBe(OPENING - (ok.amount + feeIn(ok.currency)))
    const events = async (r: string) => (await sb.call('GET', `/_sandbox/events?reference=${r}`)).body.data.map((e: { event: string }) => e.event)
    expect(await events(good.reference)).toEqual(['transfer.success'])
    expect(await events(bad.reference)).toEqual(['transfer.failed'])
  })

  it('pays out in a bulk payout of the currency, one success and one failure, the batch complete', async () => {
    const sb = await sandbox({ frozen: true })
    const item = (d: Dest) => {
      const { type, bank_account, mobile_money, ...beside } = d.fields as { type: string; bank_account?: Record<string, unknown>; mobile_money?: unknown }
      const bankAccount = bank_account && (({ bank, account, ...rest }) => ({ ...(bank ? { bank_code: bank } : {}), account_number: account, ...rest }))(bank_account)
      return { reference: ref('bi'), amount: d.amount, type, ...(bankAccount ? { bank_account: bankAccount } : {}), ...(mobile_money ? { mobile_money } : {}), ...beside, customer: { email: 'payee@example.com' } }
    }
    const items = [item(ok), item(ko)]
    const batch_reference = ref('batch')
    const res = await sb.call('POST', BULK, { batch_reference, currency: ok.currency, merchant_bears_cost: true, payouts: items })
    expect([res.status, res.body.message], JSON.stringify(res.body.data)).toEqual([200, 'Bulk Transfer initiated successfully'])
    expect(res.body.data).toMatchObject({ status: 'pending', currency: ok.currency, total_chargeable_amount: 2 * (ok.amount + feeIn(ok.currency)) })
    await advance(sb, 60)
    const summary = (await sb.call('GET', `/merchant/api/v1/transactions/bulk/${batch_reference}`)).body.data
    expect(summary).toMatchObject({ status: 'complete', currency: ok.currency, successfulTransactions: 1, failedTransactions: 1, processingTransactions: 0 })
    expect(await available(sb, ok.currency)).toBe(OPENING - (ok.amount + feeIn(ok.currency)))
  })
})

describe('a USD payout without account_type (docs/behaviour.md#payouts)', () => {
  it("is taken, as the collection's USD sample (2026-10-06, newer than the payout page's table) sends none, with bank_country inside bank_account", async () => {
    const sb = await sandbox({ frozen: true })
    const { bank_country, bank_account, ...beside } = remittance('USD', 'AbaRouting', '0000000000', '026009593')
    const { account_type, ...account } = bank_account
    expect(account_type).toBe('checking')
    const b = { reference: ref('po-usd'), destination: { type: 'bank_account', amount: 10, currency: 'USD', narration: 'Payout', bank_account: { ...account, bank_country }, ...beside, customer: { name: 'Bella Taylor', email: 'bellataylor@gmail.com' } } }
    const res = await sb.call('POST', DISBURSE, b)
    expect([res.status, res.body.message, res.body.data?.status], JSON.stringify(res.body)).toEqual([200, 'Transfer initiated successfully.', 'processing'])
  })
})

describe('refusals, field by field (docs/behaviour.md#payouts)', () => {
  const usd = () => body({ label: 'USD', currency: 'USD', amount: 1000, fields: { type: 'bank_account', ...remittance('USD', 'AbaRouting', '0000000000', '026009593') } })
  const gbp = () => body({ label: 'GBP', currency: 'GBP', amount: 1000, fields: { type: 'bank_account', ...remittance('GBP', 'IBAN', 'GB33BUKB20201555555555') } })
  type Body = { reference: string; destination: Record<string, any> }
  const withAccount = (b: Body, change: Record<string, unknown>, drop: string[] = []) => {
    const account: Record<string, unknown> = { ...b.destination.bank_account, ...change }
    for (const k of drop) delete account[k]
    return { ...b, destination: { ...b.destination, bank_account: account } }
  }

  it('refuses each bad bank payout with Invalid request data naming its fields, leaving no record and no debit', async () => {
    const sb = await sandbox({ frozen: true })
    const zar = body({ label: 'ZAR', currency: 'ZAR', amount: 100, fields: bankDest('ZAR', '632005', '0000000000') })
    const bare = body({ label: 'USD', currency: 'USD', amount: 1000, fields: bankDest('USD', '033', '0000000000') })
    const cases: [unknown, Record<string, string>][] = [
      [zar, { 'destination.bank_account.account_name': 'is required for ZAR' }],
      [bare, {
        'destination.bank_country': 'is required for USD',
        'destination.bank_account.bank_name': 'is required for USD',
        'destination.bank_account.beneficiary_type': 'is required for USD',
        'destination.bank_account.account_number_type': 'is required for USD',
        'destination.bank_account.payment_method': 'is required for USD',
        'destination.bank_account.address_information': 'is required for USD',
        'destination.supporting_documents': 'must hold at least one document for USD',
      }],
      [withAccount(usd(), { payment_method: 'SortCode' }), { 'destination.bank_account.payment_method': 'must be AbaRouting or BicSwift for USD', 'destination.bank_account.routing_number': 'must be the 6-digit sort code' }],
      [withAccount(usd(), { routing_number: '12345' }), { 'destination.bank_account.routing_number': 'must be the 9-digit ABA routing number' }],
      [withAccount(usd(), { payment_method: 'BicSwift', routing_number: 'chase' }), { 'destination.bank_account.routing_number': 'must be an 8 or 11 character BIC' }],
      [withAccount(usd(), {}, ['routing_number']), { 'destination.bank_account.routing_number': 'is required for AbaRouting' }],
      [withAccount(usd(), { beneficiary_type: 'corporate' }), { 'destination.bank_account.business_name': 'is required for a corporate beneficiary' }],
      [withAccount(usd(), {}, ['first_name']), { 'destination.bank_account.first_name': 'is required for an individual beneficiary' }],
      [withAccount(usd(), { account: '12ab' }), { 'destination.bank_account.account': 'must be 4-17 digits' }],
      [withAccount(usd(), { address_information: { country: 'US' } }), { 'destination.bank_account.address_information.city': 'is required', 'destination.bank_account.address_information.street': 'is required' }],
      [withAccount(gbp(), { account: 'GB00' }), { 'destination.bank_account.account': 'must be an IBAN' }],
      [withAccount(gbp(), { account_number_type: 'account_number', account: '12345678' }), { 'destination.bank_account.account_number_type': 'must be iban when payment_method is IBAN' }],
      [withAccount(gbp(), { payment_method: 'AbaRouting', routing_number: '026009593' }), { 'destination.bank_account.payment_method': 'must be SortCode or IBAN for GBP' }],
      [{ ...usd(), destination: { ...usd().destination, bank_country: 'usa', supporting_documents: [] } }, { 'destination.bank_country': 'must be a two-letter country code such as US', 'destination.supporting_documents': 'must hold at least one document for USD' }],
    ]
    for (const [b, data] of cases) {
      const res = await sb.call('POST', DISBURSE, b)
      expect([res.status, res.body.message, res.body.data], JSON.stringify(b)).toEqual([422, 'Invalid request data', fieldMessages(data)])
    }
    expect((await sb.call('GET', '/merchant/api/v1/payouts?limit=100')).body.data.payouts).toEqual([])
    for (const c of ['ZAR', 'USD', 'GBP']) expect(await available(sb, c)).toBe(OPENING)
  })

  it('takes bank_country inside bank_account, as the Postman USD sample sends it', async () => {
    const sb = await sandbox({ frozen: true })
    const b = usd()
    const { bank_country, ...destination } = b.destination as Record<string, unknown>
    const res = await sb.call('POST', DISBURSE, { ...b, destination: { ...destination, bank_account: { ...(destination.bank_account as object), bank_country } } })
    expect([res.status, res.body.data.status]).toEqual([200, 'processing'])
    // the documented place wins when both are sent; without either it is still required
    const both = await sb.call('POST', DISBURSE, { ...b, reference: ref('po'), destination: { ...b.destination, bank_country: 'usa', bank_account: { ...b.destination.bank_account, bank_country: 'US' } } })
    expect([both.status, both.body.data]).toEqual([422, fieldMessages({ 'destination.bank_country': 'must be a two-letter country code such as US' })])
    const none = await sb.call('POST', DISBURSE, { ...b, reference: ref('po'), destination })
    expect([none.status, none.body.data]).toEqual([422, fieldMessages({ 'destination.bank_country': 'is required for USD' })])
  })

  it('refuses what the business rules refuse: a bank of another country, an operator of another currency, XAF/XOF not multiples of 5, the limits', async () => {
    const sb = await sandbox({ frozen: true })
    const cases: [unknown, number, string, unknown?][] = [
      [body({ label: 'EGP', currency: 'EGP', amount: 1000, fields: bankDest('EGP', '033', '1234567890') }), 404, 'bank not found'],
      [body({ label: 'XAF', currency: 'XAF', amount: 1000, fields: walletDest('mtn-ci', '2250511111111') }), 404, 'Mobile money operator is not available for this currency or does not exist'],
      // the destination's checks come before the amount's: another country's operator is named, not the multiple
      [body({ label: 'XAF', currency: 'XAF', amount: 1002, fields: walletDest('mtn-ci', '2250511111111') }), 404, 'Mobile money operator is not available for this currency or does not exist'],
      [body({ label: 'XAF', currency: 'XAF', amount: 1002, fields: walletDest('mtn-xx', '237671111111') }), 404, 'Mobile money operator is not available for this currency or does not exist'],
      [body({ label: 'GHS bank', currency: 'GHS', amount: 1000, fields: bankDest('GHS', '040', '1234567890') }), 400, 'Currency not allowed for this destination'],
      [body({ label: 'XAF', currency: 'XAF', amount: 1002, fields: walletDest('mtn-cm', '237671111111') }), 422, 'Invalid request data', { 'destination.amount': 'must be a multiple of 5 for XAF' }],
      [body({ label: 'XOF', currency: 'XOF', amount: 1000.5, fields: walletDest('mtn-ci', '2250511111111') }), 422, 'Invalid request data', { 'destination.amount': 'must be a whole number for XOF' }],
      [body({ label: 'XOF', currency: 'XOF', amount: 1001, fields: walletDest('mtn-ci', '2250511111111') }), 422, 'Invalid request data', { 'destination.amount': 'must be a multiple of 5 for XOF' }],
      [body({ label: 'XAF', currency: 'XAF', amount: 95, fields: walletDest('mtn-cm', '237671111111') }), 409, 'You can only transfer an amount between XAF 100 and XAF 1000000'],
      [body({ label: 'ZAR', currency: 'ZAR', amount: 9.99, fields: bankDest('ZAR', '632005', '0000000000', { account_name: 'T N' }) }), 409, 'You can only transfer an amount between ZAR 10 and ZAR 500'],
      [body({ label: 'ZAR', currency: 'ZAR', amount: 500.01, fields: bankDest('ZAR', '632005', '0000000000', { account_name: 'T N' }) }), 409, 'You can only transfer an amount between ZAR 10 and ZAR 500'],
      [body({ label: 'KES', currency: 'KES', amount: 85_000.01, fields: bankDest('KES', '0068', '000000000000') }), 409, 'You can only transfer an amount between KES 10 and KES 85000'],
      [body({ label: 'TZS', currency: 'TZS', amount: 5_000_000.01, fields: walletDest('tigo-tz', '255751111111') }), 409, 'You can only transfer an amount between TZS 1000 and TZS 5000000'],
      [body({ label: 'EGP', currency: 'EGP', amount: 9, fields: walletDest('vodafone-eg', '201028894773') }), 409, 'You can only transfer an amount between EGP 10 and EGP 50000'],
    ]
    for (const [b, status, message, data] of cases) {
      const res = await sb.call('POST', DISBURSE, b)
      expect([res.status, res.body.message], JSON.stringify(b)).toEqual([status, message])
      if (data) expect(res.body.data).toEqual(status === 422 ? fieldMessages(data) : data)
    }
    expect((await sb.call('GET', '/merchant/api/v1/payouts?limit=100')).body.data.payouts).toEqual([])
    // the edges themselves are accepted: 1005 XAF, ZAR 10 and 500, a delayed bank
    for (const b of [
      body({ label: 'XAF', currency: 'XAF', amount: 1005, fields: walletDest('mtn-cm', '237671111111') }),
      body({ label: 'ZAR', currency: 'ZAR', amount: 10, fields: bankDest('ZAR', '632005', '0000000000', { account_name: 'T N' }) }),
      body({ label: 'ZAR', currency: 'ZAR', amount: 500, fields: bankDest('ZAR', '470010', '0000000000', { account_name: 'T N' }) }),
    ]) expect((await sb.call('POST', DISBURSE, b)).status, JSON.stringify(b)).toBe(200)
  })

  it('refuses a bulk item by its reference and fields: a ZAR item without account_name, an XOF amount not a multiple of 5', async () => {
    const sb = await sandbox({ frozen: true })
    const zarItem = (account_name?: string) => ({ reference: ref('bi'), amount: 100, type: 'bank_account', bank_account: { bank_code: '632005', account_number: '0000000000', ...(account_name ? { account_name } : {}) }, customer: { email: 'p@example.com' } })
    let res = await sb.call('POST', BULK, { batch_reference: ref('batch'), currency: 'ZAR', payouts: [zarItem('T N'), zarItem()] })
    expect([res.status, res.body.data]).toEqual([422, fieldMessages({ 'payouts.1.bank_account.account_name': 'is required for ZAR' })])
    const xof = (amount: number) => ({ reference: ref('bi'), amount, type: 'mobile_money', mobile_money: { operator: 'mtn-ci', mobile_number: '2250511111111' }, customer: { email: 'p@example.com' } })
    const odd = xof(1001)
    res = await sb.call('POST', BULK, { batch_reference: ref('batch'), currency: 'XOF', payouts: [xof(1000), odd] })
    expect([res.status, res.body]).toEqual([422, { ...invalidBody({}), data: { reference: odd.reference, ...fieldMessages({ amount: 'must be a multiple of 5 for XOF' }) } }])
    expect((await sb.call('GET', '/merchant/api/v1/payouts?limit=100')).body.data.payouts).toEqual([])
  })
})

describe('a payout to a bank payouts/availability calls unavailable (docs/behaviour.md#payouts)', () => {
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close()
  })

  it('is accepted and debited, then fails after payout_delay_seconds with Destination bank is not available, transfer.failed sent and the money given back', async () => {
    const sb = await sandbox({ frozen: true })
    const hook = await startReceiver()
    receivers.push(hook)
    await sb.call('PUT', '/_sandbox/webhook-url', { url: hook.url })
    const b = body({ label: 'ZAR', currency: 'ZAR', amount: 100, fields: bankDest('ZAR', '679000', '0000000000', { account_name: 'T N' }) })
    const res = await sb.call('POST', DISBURSE, b)
    expect([res.status, res.body.message, res.body.data.status]).toEqual([200, 'Transfer initiated successfully.', 'processing'])
    expect(await available(sb, 'ZAR')).toBe(OPENING - 100 - 32.25)
    await advance(sb, 59)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${b.reference}`)).body.data.status).toBe('processing')
    await advance(sb, 1)
    const q = (await sb.call('GET', `/merchant/api/v1/transactions/${b.reference}`)).body.data
    expect([q.status, q.message]).toEqual(['failed', 'Destination bank is not available'])
    expect(await available(sb, 'ZAR')).toBe(OPENING)
    await hook.waitFor(1)
    expect(hook.received[0].body).toEqual({
      event: 'transfer.failed',
      data: { reference: b.reference, status: 'failed', amount: 100, fee: 32.25, currency: 'ZAR', narration: 'ZAR', reason: 'Destination bank is not available' },
    })
  })
})

describe('payouts/availability (docs/behaviour.md#payouts)', () => {
  it("lists South Africa's banks with the pack's status, by POST body or GET query, and refuses any other currency", async () => {
    const sb = await sandbox()
    const post = await sb.call('POST', '/merchant/api/v1/payouts/availability', { type: 'bank_account', currency: 'ZAR' })
    expect([post.status, post.body.status, post.body.message]).toEqual([200, true, 'Request Completed'])
    const byCode = Object.fromEntries(post.body.data.map((b: { code: string; status: string }) => [b.code, b.status]))
    expect(byCode).toMatchObject({ '632005': 'available', '678910': 'available', '470010': 'delayed', '679000': 'unavailable' })
    expect(post.body.data[0]).toEqual({ name: 'Standard Bank', slug: 'standard-bank-za', code: '051001', country: 'ZA', status: 'available' })
    const get = await sb.call('GET', '/merchant/api/v1/payouts/availability?type=bank_account&currency=ZAR')
    expect(get.body).toEqual(post.body)
    const bad = await sb.call('POST', '/merchant/api/v1/payouts/availability', { type: 'mobile_money', currency: 'NGN' })
    expect([bad.status, bad.body.message, Object.keys(bad.body.data).sort()]).toEqual([422, 'Invalid request data', ['currency', 'type']])
    // a namespace's pack changes what a bank says
    await sb.call('POST', '/_sandbox/scenarios', { settings: { payout_availability: { '632005': 'unavailable' } } })
    const after = (await sb.call('POST', '/merchant/api/v1/payouts/availability', { type: 'bank_account', currency: 'ZAR' })).body.data
    expect(after.find((b: { code: string }) => b.code === '632005').status).toBe('unavailable')
    expect(after.find((b: { code: string }) => b.code === '470010').status).toBe('delayed')
  })
})

describe('money is conserved for payouts in every currency (property)', () => {
  /** each destination with an amount range inside its limits and its multiple */
  const DESTS = PAIRS.flatMap(({ ok, ko }) => [ok, ko]).map((d) => ({
    ...d,
    min: { ZAR: 10, XAF: 100, XOF: 100, TZS: 1000 }[d.currency] ?? 10,
    max: { ZAR: 500 }[d.currency] ?? 50_000,
    step: d.currency === 'XAF' || d.currency === 'XOF' ? 500 : 1,
  }))
  const op = fc.record({ dest: fc.nat({ max: DESTS.length - 1 }), units: fc.integer({ min: 0, max: 1_000_000 }), advance: fc.boolean() })

  it('balance before = balance after + amount + fee, once, for each payout accepted; a failed one gives it all back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const sb = await sandbox({ frozen: true })
        const spent: Record<string, number> = {}
        const sent: { reference: string; currency: string; cost: number }[] = []
        for (const o of ops) {
          const d = DESTS[o.dest]
          // an amount in range: whole multiples of the currency's step (cents where there is none)
          const span = Math.round(((d.max - d.min) * 100) / d.step)
          const amount = (d.min * 100 + (o.units % (span + 1)) * d.step) / 100
          const before = await available(sb, d.currency)
          const b = body({ ...d, amount })
          const res = await sb.call('POST', DISBURSE, b)
          expect(res.status, JSON.stringify([b, res.body])).toBe(200)
          // the query's fee is the fee with its VAT: what the payout cost beside its amount
          const fee = (await sb.call('GET', `/merchant/api/v1/transactions/${b.reference}`)).body.data.fee
          const cost = Math.round((amount + fee) * 100)
          expect(Math.round((before - (await available(sb, d.currency))) * 100)).toBe(cost)
          spent[d.currency] = (spent[d.currency] ?? 0) + cost
          sent.push({ reference: b.reference, currency: d.currency, cost })
          if (o.advance) await advance(sb, 60)
        }
        await advance(sb, 60)
        for (const s of sent) {
          const q = (await sb.call('GET', `/merchant/api/v1/transactions/${s.reference}`)).body.data
          expect(['success', 'failed']).toContain(q.status)
          if (q.status === 'failed') spent[s.currency] -= s.cost
        }
        for (const [currency, cost] of Object.entries(spent)) expect(Math.round((await available(sb, currency)) * 100), currency).toBe(OPENING * 100 - cost)
      }),
      { numRuns: 15 },
    )
  })
})
