import { describe, expect, it } from 'vitest'
import { SECRET, ref, sandboxPerTest, type TestSandbox, invalidBody, fieldMessages } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()
const PATH = '/merchant/api/v1/charges/bank-transfer'

function create(sb: TestSandbox, overrides: Record<string, unknown> = {}) {
  return sb.call('POST', PATH, { reference: ref('bt'), amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com', name: 'Ada' }, ...overrides })
}
const query = (sb: TestSandbox, reference: string) => sb.call('GET', `/merchant/api/v1/charges/${reference}`)
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })
const events = async (sb: TestSandbox, reference: string) => (await sb.call('GET', `/_sandbox/events?reference=${reference}`)).body.data

describe('POST /charges/bank-transfer', () => {
  it('answers a temporary account as the service documents it, processing', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('bt')
    const res = await create(sb, { reference, narration: 'Order 9', metadata: { order: '9' } })
    expect(res.status).toBe(200)
    const now = Date.parse((await sb.call('GET', '/_sandbox/clock')).body.data.now)
    expect(res.body).toEqual({
      status: true,
      message: 'Bank transfer initiated successfully',
      data: {
        currency: 'NGN',
        amount: 1500,
        // the sample of the service's documentation: 1,500 costs 22.50 and 1.69 VAT; the customer pays the fee
        amount_expected: 1522.5,
        fee: 22.5,
        vat: 1.69,
        reference,
        payment_reference: reference,
        status: 'processing',
        narration: 'Order 9',
        merchant_bears_cost: false,
        bank_account: {
          account_name: expect.any(String),
          account_number: expect.stringMatching(/^\d{10}$/),
          bank_name: 'wema',
          bank_code: '035',
          expiry_date_in_utc: new Date(now + 30 * 60_000).toISOString(),
        },
        customer: { name: 'Ada', email: 'ada@example.com' },
      },
    })
  })

  it('with no narration, narrates the payment to the merchant, as the sample of the page does (Payment on Demo Merchant)', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('bt')
    expect((await create(sb, { reference })).body.data.narration).toBe('Payment on Sandbox Merchant')
    expect((await query(sb, reference)).body.data.description).toBe('Payment on Sandbox Merchant')
  })

  it('completes by itself 120 s later with the expected amount, and announces charge.success', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('bt')
    await create(sb, { reference, merchant_bears_cost: true, account_name: 'Shop Ltd', notification_url: 'http://127.0.0.1:9/hook' })
    await advance(sb, 119)
    const waiting = (await query(sb, reference)).body.data
    expect(waiting.status).toBe('processing')
    expect(waiting.payer_bank_account).toBeUndefined()
    await advance(sb, 1)
    const q = (await query(sb, reference)).body.data
    // who paid, as the collection's sample of a paid transfer shows it
    expect(q.payer_bank_account).toEqual({ account_number: '******0000', account_name: 'SANDBOX ACCOUNT', bank_name: 'KORA SANDBOX' })
    expect(q).toMatchObject({ reference, status: 'success', amount_paid: '1500.00' })
    // an exact transfer: no bank_transfer, and so no amount_accepted beside it (SPEC-BEYOND 3.2); the
    // account and the expected amount are the charge's answer's, not the query's (docs/behaviour.md#card-outcomes-and-query)
    for (const field of ['bank_transfer', 'amount_accepted', 'amount_expected', 'bank_account', 'payment_method']) expect(q).not.toHaveProperty(field)
    const ev = await events(sb, reference)
    expect(ev).toHaveLength(1)
    expect(ev[0]).toMatchObject({ event: 'charge.success', target: 'http://127.0.0.1:9/hook', data: { reference, payment_reference: reference, amount: 1500, payment_method: 'bank_transfer', status: 'success' } })
  })

  it('with auto_complete false waits for a credit, and expires after 30 min without one', async () => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('bt')
    const { body } = await create(sb, { reference, auto_complete: false })
    await advance(sb, 29 * 60)
    expect((await query(sb, reference)).body.data.status).toBe('processing')
    await advance(sb, 60)
    const expired = (await query(sb, reference)).body.data
    expect(expired.status).toBe('expired')
    // its attempt, as the collection's sample of an expired pay-in lists it
    expect(expired.payment_attempts).toEqual([{ reference: body.data.transaction_reference ?? expect.stringMatching(/^KPY-BT-/), status: 'expired', channel: 'bank_transfer', message: 'The account expired before a transfer arrived' }])
    expect(() => sb.deps.bankTransfer.creditAccount(SECRET, body.data.bank_account.account_number)).toThrow('Account has expired')
    expect(await events(sb, reference)).toEqual([])
  })

  it('the pack amounts: short waits, over succeeds with the excess returned, never expires, late arrives after 10 min', async () => {
    const sb = await sandbox({ frozen: true })
    const short = ref('bt')
    const over = ref('bt')
    const never = ref('bt')
    const late = ref('bt')
    await create(sb, { reference: short, amount: 1111.11, merchant_bears_cost: true })
    await create(sb, { reference: over, amount: 2222.22, merchant_bears_cost: true })
    await create(sb, { reference: never, amount: 3333.33 })
    await create(sb, { reference: late, amount: 4444.44 })
    await advance(sb, 120)
    expect((await query(sb, short)).body.data).toMatchObject({ status: 'processing', amount_paid: '555.55', amount_accepted: '0.00', bank_transfer: { payment_event: 'underpayment', reversal: { amount: '555.55' } } })
    expect((await query(sb, over)).body.data).toMatchObject({ status: 'success', amount_paid: '2444.44', amount_accepted: '2222.22', bank_transfer: { payment_event: 'overpayment', reversal: { amount: '222.22' } } })
    expect((await query(sb, never)).body.data.status).toBe('processing')
    expect((await query(sb, late)).body.data.status).toBe('processing')
    await advance(sb, 480)
    expect((await query(sb, late)).body.data.status).toBe('success')
    await advance(sb, 20 * 60)
    expect((await query(sb, never)).body.data.status).toBe('expired')
    expect((await query(sb, short)).body.data.status).toBe('expired')
  })

  it('a pack with transfer_mismatch accept_all keeps what arrives as paid', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { transfer_mismatch: 'accept_all' } })).status).toBe(200)
    const short = ref('bt')
    await create(sb, { reference: short, amount: 1111.11, merchant_bears_cost: true })
    await advance(sb, 120)
    const q = (await query(sb, short)).body.data
    expect(q).toMatchObject({ status: 'success', amount_paid: '555.55', amount_accepted: '555.55' })
    expect(q.bank_transfer).toMatchObject({ payment_event: 'underpayment', reversal: null })
  })

  const bad: [string, Record<string, unknown>, Record<string, string>][] = [
    ['a short reference', { reference: 'abc' }, { reference: 'must be at least 8 characters' }],
    ['an amount under 100', { amount: 99.99 }, { amount: 'must be between 100 and 10000000' }],
    ['an amount over 10,000,000', { amount: 10_000_000.01 }, { amount: 'must be between 100 and 10000000' }],
    ['another currency', { currency: 'KES' }, { currency: 'must be "NGN"' }],
    ['no customer e-mail', { customer: { name: 'Ada' } }, { 'customer.email': 'is required' }],
    ['auto_complete as a string', { auto_complete: 'false' }, { auto_complete: 'must be a boolean' }],
    ['a notification_url that is no URL', { notification_url: 'hook' }, { notification_url: 'must be an http(s) URL' }],
  ]
  for (const [name, overrides, fields] of bad) {
    it(`refuses ${name}, storing nothing`, async () => {
      const sb = await sandbox()
      const reference = (overrides.reference as string) ?? ref('bt')
      const res = await create(sb, { reference, ...overrides })
      expect(res.status).toBe(422)
      expect(res.body).toEqual(invalidBody(fields))
      expect((await query(sb, reference)).status).toBe(404)
    })
  }

  it('refuses a duplicate reference with 409 and the code the samples show (CONTRACT 15)', async () => {
    const sb = await sandbox()
    const reference = ref('bt')
    expect((await create(sb, { reference })).status).toBe(200)
    const again = await create(sb, { reference })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ status: false, code: 'AA021', message: 'Duplicate payment reference', data: null })
  })
})

describe('what public clients send to charges/bank-transfer (CONTRACT 14)', () => {
  it('takes the amount as a numeric string ("1500.0", as Elixir and Java clients send it) and a null notification_url as absent, within the same range', async () => {
    const sb = await sandbox()
    const reference = ref('bt')
    const res = await create(sb, { reference, amount: '1500.0', notification_url: null })
    expect(res.status).toBe(200)
    expect((await query(sb, reference)).body.data).toMatchObject({ amount: '1500.00' })
    const low = await create(sb, { amount: '99.99' })
    expect([low.status, low.body.data]).toEqual([422, fieldMessages({ amount: 'must be between 100 and 10000000' })])
  })
})
