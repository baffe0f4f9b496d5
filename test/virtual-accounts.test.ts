import { describe, expect, it } from 'vitest'
import { SECRET, sandboxPerTest, type TestSandbox, fieldMessages } from './helpers/sandbox.js'
import { virtualAccountBody } from './helpers/bodies.js'

/** docs/behaviour.md#virtual-accounts: virtual bank accounts and the test environment's credit call, over HTTP. */

const sandbox = sandboxPerTest()
const BASE = '/merchant/api/v1/virtual-bank-account'

const account = (over: Record<string, unknown> = {}) => virtualAccountBody('cust-0001', over)

const create = (sb: TestSandbox, over: Record<string, unknown> = {}, key?: string) => sb.call('POST', BASE, account(over), { key })
const credit = (sb: TestSandbox, account_number: string, amount: unknown = 1000, currency = 'NGN') => sb.call('POST', `${BASE}/sandbox/credit`, { account_number, amount, currency })
const transactions = (sb: TestSandbox, query: string) => sb.call('GET', `${BASE}/transactions?${query}`)
const query = (sb: TestSandbox, reference: string) => sb.call('GET', `/merchant/api/v1/charges/${reference}`)

/** A bank-transfer charge's temporary account (docs/behaviour.md#bank-transfer), that waits for a transfer told to the sandbox. */
async function temporaryAccount(sb: TestSandbox, amount = 1000) {
  const r = await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: `bt-${Math.random().toString(36).slice(2, 10)}`, amount, currency: 'NGN', customer: { email: 'payer@example.com' }, auto_complete: false })
  expect(r.status).toBe(200)
  const d = r.body.data
  return { payment_reference: d.reference as string, amount_expected: Math.round(d.amount_expected * 100), bank_account: d.bank_account as { account_number: string } }
}

describe('creating a virtual bank account', () => {
  it('answers the account flat, with a 10-digit number and the bank of its code', async () => {
    const sb = await sandbox()
    const r = await create(sb)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe(true)
    expect(r.body.message).toBe('Virtual bank account created successfully')
    const d = r.body.data
    expect(Object.keys(d).sort()).toEqual(['account_name', 'account_number', 'account_reference', 'account_status', 'bank_code', 'bank_name', 'created_at', 'currency', 'customer', 'unique_id'])
    expect(d).toMatchObject({ account_name: 'Ada Lovelace', account_reference: 'cust-0001', bank_code: '000', bank_name: 'Sandbox Bank', account_status: 'active', currency: 'NGN', customer: { name: 'Ada Lovelace' } })
    expect(d.account_number).toMatch(/^\d{10}$/)
    expect(d.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(d.unique_id).toMatch(/^KPY-VBA-/)
    // the KYC is never answered
    expect(JSON.stringify(r.body)).not.toContain('22222222222')
  })

  it('gives a reference the same number in a fresh namespace, and another reference another number', async () => {
    const a = await sandbox()
    const b = await sandbox()
    const first = (await create(a)).body.data.account_number
    expect((await create(b)).body.data.account_number).toBe(first)
    expect((await create(a, { account_reference: 'cust-0002' })).body.data.account_number).not.toBe(first)
    // another namespace, another number for the same reference
    expect((await create(a, {}, 'sk_test_other')).body.data.account_number).not.toBe(first)
  })

  it('takes each of the live bank codes, with its bank name', async () => {
    const sb = await sandbox()
    const banks: Record<string, string> = { '035': 'Wema Bank', '070': 'Fidelity Bank', '103': 'Globus Bank', '033': 'United Bank for Africa', '090405': 'Moniepoint MFB', '107': 'Optimus Bank', '104': 'Parallex Bank', '214': 'First City Monument Bank' }
    for (const [code, name] of Object.entries(banks)) {
      const r = await create(sb, { account_reference: `ref-${code}`, bank_code: code })
      expect(r.body.data).toMatchObject({ bank_code: code, bank_name: name })
    }
  })

  it.each([
    ['account_name', { account_name: undefined }, 'is required'],
    ['account_name', { account_name: '  ' }, 'is required'],
    ['account_reference', { account_reference: undefined }, 'is required'],
    ['account_reference', { account_reference: 'x'.repeat(101) }, 'must be at most 100 characters'],
    ['account_reference', { account_reference: 'transactions' }, 'must not be "transactions" (the transactions list\'s path)'],
    ['permanent', { permanent: undefined }, 'is required'],
    ['permanent', { permanent: false }, 'must be true: only permanent accounts are offered'],
    ['permanent', { permanent: 'true' }, 'must be a boolean'],
    ['bank_code', { bank_code: undefined }, 'is required'],
    ['bank_code', { bank_code: '058' }, 'must be one of 000, 035, 070, 103, 033, 090405, 107, 104, 214'],
    ['customer', { customer: undefined }, 'is required'],
    ['customer.name', { customer: { email: 'a@b.co' } }, 'is required'],
    ['customer.email', { customer: { name: 'A', email: 'nope' } }, 'must be a valid e-mail address'],
    ['kyc', { kyc: undefined }, 'is required'],
    ['kyc.bvn', { kyc: {} }, 'is required'],
    ['kyc.bvn', { kyc: { bvn: '1234567890' } }, 'must be 11 digits'],
    ['kyc.nin', { kyc: { bvn: '22222222222', nin: '12ab' } }, 'must be 11 digits'],
  ])('refuses a bad %s (%j) and creates nothing', async (field, over, message) => {
    const sb = await sandbox()
    const r = await create(sb, over)
    expect(r.status).toBe(422)
    expect(r.body).toMatchObject({ status: false, error: 'validation_error', message: 'Invalid request data' })
    expect(r.body.data[field]).toEqual({ message: `${field} ${message}` })
    expect(sb.deps.virtualAccounts.list(SECRET)).toEqual([])
  })

  it('takes the older body with bvn (and nin) at the top as kyc (CONTRACT 14); kyc wins when both are sent', async () => {
    const sb = await sandbox()
    const { kyc: _kyc, ...older } = account({ account_reference: 'older-shape-1' })
    const r = await sb.call('POST', BASE, { ...older, bvn: '22222222222', nin: '11111111111' })
    expect(r.status).toBe(200)
    expect(r.body.data.account_reference).toBe('older-shape-1')
    const bad = await sb.call('POST', BASE, { ...older, account_reference: 'older-shape-2', bvn: '123' })
    expect([bad.status, bad.body.data]).toEqual([422, fieldMessages({ 'kyc.bvn': 'must be 11 digits' })])
    const both = await sb.call('POST', BASE, { ...account({ account_reference: 'older-shape-3' }), bvn: '123' })
    expect(both.status).toBe(200)
  })

  it('takes kyc.nin and a customer without e-mail', async () => {
    const sb = await sandbox()
    const r = await create(sb, { customer: { name: 'Bo' }, kyc: { bvn: '22222222222', nin: '11111111111' } })
    expect(r.status).toBe(200)
    expect(r.body.data.customer).toEqual({ name: 'Bo' })
    // read back, the e-mail nobody gave is null (the collection's sample)
    expect((await sb.call('GET', `${BASE}/cust-0001`)).body.data.customer).toEqual({ name: 'Bo', email: null })
  })

  it("takes a public Python client's body as it sends it (email and nin null when not given), and its credit", async () => {
    const sb = await sandbox()
    const body = {
      account_name: 'John Doe Virtual Account',
      account_reference: '716b4728-7fca-43e8-916a-3a4c0f298165',
      permanent: true,
      bank_code: '000',
      customer: { name: 'John Doe', email: null },
      kyc: { bvn: '12345678901', nin: null },
    }
    const r = await sb.call('POST', BASE, body)
    expect(r.status).toBe(200)
    expect(r.body.status).toBe(true)
    expect((await sb.call('GET', `${BASE}/716b4728-7fca-43e8-916a-3a4c0f298165`)).body.status).toBe(true)
    const n = r.body.data.account_number
    expect((await transactions(sb, `account_number=${n}`)).body.status).toBe(true)
    expect((await credit(sb, n, 1000, 'NGN')).body.status).toBe(true)
  })

  it('refuses a body that is not a JSON object', async () => {
    const sb = await sandbox()
    const r = await sb.call('POST', BASE, undefined, { raw: '[1]' })
    expect(r.status).toBe(422)
    expect(r.body.data).toEqual(fieldMessages({ body: 'must be a JSON object' }))
  })

  it('refuses a reference the namespace already has (409), keeping the first account', async () => {
    const sb = await sandbox()
    const first = (await create(sb)).body.data
    const again = await create(sb, { account_name: 'Someone Else' })
    expect(again.status).toBe(409)
    // as the collection's sample writes it: code null, data {}
    expect(again.body).toEqual({ status: false, code: null, message: 'Duplicate account reference', data: {} })
    expect((await sb.call('GET', `${BASE}/cust-0001`)).body.data).toEqual({ ...first, customer: { ...first.customer, email: 'ada@example.com' } })
    // another namespace may use it
    expect((await create(sb, {}, 'sk_test_other')).status).toBe(200)
  })

  it('refuses an account past the namespace limit (--max-virtual-accounts, default 50)', async () => {
    const sb = await sandbox({ maxVirtualAccounts: 2 })
    expect((await create(sb, { account_reference: 'a-1' })).status).toBe(200)
    expect((await create(sb, { account_reference: 'a-2' })).status).toBe(200)
    const r = await create(sb, { account_reference: 'a-3' })
    expect(r.status).toBe(400)
    expect(r.body.message).toBe('Virtual bank account limit of 2 reached')
    expect((await sb.call('GET', `${BASE}/a-3`)).status).toBe(404)
    expect(sb.deps.config.maxVirtualAccounts).toBe(2)
    expect((await sandbox()).deps.config.maxVirtualAccounts).toBe(50)
  })
})

describe('getting a virtual bank account', () => {
  it('by its reference; 404 for an unknown one', async () => {
    const sb = await sandbox()
    const made = (await create(sb)).body.data
    const r = await sb.call('GET', `${BASE}/cust-0001`)
    expect(r.status).toBe(200)
    // read back, its customer's e-mail too
    expect(r.body).toEqual({ status: true, message: 'Virtual bank account retrieved successfully', data: { ...made, customer: { name: 'Ada Lovelace', email: 'ada@example.com' } } })
    const unknown = await sb.call('GET', `${BASE}/nobody-here`)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: false, code: null, message: 'Virtual bank account not found', data: {} })
    // another namespace does not see it
    expect((await sb.call('GET', `${BASE}/cust-0001`, undefined, { key: 'sk_test_other' })).status).toBe(404)
  })

  it('needs the secret key', async () => {
    const sb = await sandbox()
    expect((await sb.call('GET', `${BASE}/cust-0001`, undefined, { key: null })).status).toBe(401)
    expect((await sb.call('GET', `${BASE}/cust-0001`)).body.message).toBe('Virtual bank account not found')
  })
})

describe('crediting a virtual bank account', () => {
  it('is a successful bank-transfer pay-in at once, with its KPY-PAY reference, fee and a charge.success of its own shape', async () => {
    const sb = await sandbox()
    const acct = (await create(sb)).body.data
    const r = await credit(sb, acct.account_number, 5000)
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ status: true, message: 'Virtual bank account credited successfully', data: null })

    const events = (await sb.call('GET', '/_sandbox/events?event=charge.success')).body.data
    expect(events).toHaveLength(1)
    const data = events[0].data
    expect(data.reference).toMatch(/^KPY-PAY-[0-9A-Z]{14}$/)
    // 1.5 % of 5000 = 75, VAT 7.5 % on top is kept apart (docs/behaviour.md#bank-transfer's fee)
    expect(data).toEqual({
      reference: data.reference,
      payment_reference: data.reference,
      transaction_reference: data.reference,
      currency: 'NGN',
      amount: 5000,
      fee: 75,
      status: 'success',
      payment_method: 'bank_transfer',
      transaction_date: expect.stringMatching(/Z$/),
      virtual_bank_account_details: {
        payer_bank_account: { account_name: 'SANDBOX ACCOUNT', account_number: '******0000', bank_name: 'KORA SANDBOX' },
        virtual_bank_account: { account_name: 'Ada Lovelace', account_number: acct.account_number, account_reference: 'cust-0001', bank_name: 'Sandbox Bank', permanent: true },
      },
      metadata: null,
    })

    const q = await query(sb, data.reference)
    expect(q.status).toBe(200)
    expect(q.body.data).toMatchObject({
      reference: data.reference,
      status: 'success',
      amount: '5000.00',
      amount_paid: '5000.00',
      fee: 75,
      currency: 'NGN',
      virtual_bank_account: {
        account_number: acct.account_number,
        account_name: 'Ada Lovelace',
        account_reference: 'cust-0001',
        transaction_narration: 'Transfer from SANDBOX ACCOUNT',
        payer_bank_account: { account_name: 'SANDBOX ACCOUNT', account_number: '0000000000', bank_name: 'KORA SANDBOX' },
      },
    })
    // nothing is left to complete
    const done = await sb.call('POST', `/_sandbox/charges/${data.reference}/complete`, { outcome: 'success' })
    expect(done.status).toBe(409)
    expect(done.body.message).toBe('Payment has already been completed')
  })

  it('takes the amount limits NGN 100 to 10,000,000, as a number or a numeric string', async () => {
    const sb = await sandbox()
    const n = (await create(sb)).body.data.account_number
    expect((await credit(sb, n, 100)).status).toBe(200)
    expect((await credit(sb, n, 10_000_000)).status).toBe(200)
    expect((await credit(sb, n, '2500.50')).status).toBe(200)
    for (const [amount, message] of [
      [99.99, 'must be between 100 and 10000000'],
      [10_000_000.01, 'must be between 100 and 10000000'],
      [0, 'must be greater than 0'],
      [-5, 'must be greater than 0'],
      [100.001, 'must have at most 2 decimal places'],
      [undefined, 'is required'],
      [true, 'must be a number or a numeric string'],
    ] as const) {
      // not through credit(), whose amount defaults when undefined
      const r = await sb.call('POST', `${BASE}/sandbox/credit`, { account_number: n, amount, currency: 'NGN' })
      expect(r.status, String(amount)).toBe(422)
      expect(r.body.data, String(amount)).toEqual(fieldMessages({ amount: message }))
    }
    expect((await sb.call('GET', '/_sandbox/events')).body.data).toHaveLength(3)
  })

  it.each([
    [{ currency: 'USD' }, { currency: "must be NGN, the account's currency" }],
    [{ currency: 'EUR' }, { currency: 'must be one of "NGN", "USD", "KES", "TZS"' }],
    [{ currency: undefined }, { currency: 'is required' }],
    [{ account_number: '123' }, { account_number: "must be 10 digits (a USD account's: 12)" }],
    [{ account_number: undefined }, { account_number: 'is required' }],
  ])('refuses %j', async (over, errors) => {
    const sb = await sandbox()
    const n = (await create(sb)).body.data.account_number
    const r = await sb.call('POST', `${BASE}/sandbox/credit`, { account_number: n, amount: 1000, currency: 'NGN', ...over })
    expect(r.status).toBe(422)
    expect(r.body.data).toEqual(fieldMessages(errors))
    expect((await sb.call('GET', '/_sandbox/events')).body.data).toEqual([])
  })

  it('refuses an account number nobody has (404) and changes nothing', async () => {
    const sb = await sandbox()
    await create(sb)
    const r = await credit(sb, '1234567890')
    expect(r.status).toBe(404)
    expect(r.body).toEqual({ status: false, message: 'Account not found', data: null })
    expect((await sb.call('GET', '/_sandbox/events')).body.data).toEqual([])
  })
})

describe('crediting a temporary (bank-transfer) account', () => {
  it('exact: the charge succeeds', async () => {
    const sb = await sandbox()
    const bt = await temporaryAccount(sb)
    const r = await credit(sb, bt.bank_account.account_number, bt.amount_expected / 100)
    expect(r.body.message).toBe('Virtual bank account credited successfully')
    const q = (await query(sb, bt.payment_reference)).body.data
    expect(q).toMatchObject({ status: 'success', amount_paid: (bt.amount_expected / 100).toFixed(2) })
  })

  it('short: all of it goes back, the charge stays processing; over: the excess goes back, it succeeds', async () => {
    const sb = await sandbox()
    const bt = await temporaryAccount(sb, 2000)
    const n = bt.bank_account.account_number
    expect((await credit(sb, n, 1000)).status).toBe(200)
    let q = (await query(sb, bt.payment_reference)).body.data
    expect(q.status).toBe('processing')
    expect(q.bank_transfer).toMatchObject({ payment_event: 'underpayment', reversal: { amount: '1000.00' } })
    expect((await credit(sb, n, 3000)).status).toBe(200)
    q = (await query(sb, bt.payment_reference)).body.data
    expect(q.status).toBe('success')
    expect(q.bank_transfer).toMatchObject({ payment_event: 'overpayment' })
    expect(q.amount_accepted).toBe((bt.amount_expected / 100).toFixed(2))
    // paid: its account takes nothing more
    const again = await credit(sb, n, 1000)
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('Payment has already been completed')
  })

  it("with the pack's accept_all, a short transfer is kept as paid", async () => {
    const sb = await sandbox()
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { transfer_mismatch: 'accept_all' } })).status).toBe(200)
    const bt = await temporaryAccount(sb, 2000)
    expect((await credit(sb, bt.bank_account.account_number, 1000)).status).toBe(200)
    expect((await query(sb, bt.payment_reference)).body.data).toMatchObject({ status: 'success', amount_paid: '1000.00', amount_accepted: '1000.00' })
  })

  it('expired (30 min on the namespace clock): 409 Account has expired', async () => {
    const sb = await sandbox()
    const bt = await temporaryAccount(sb)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 30 * 60 })
    const r = await credit(sb, bt.bank_account.account_number, 1000)
    expect(r.status).toBe(409)
    expect(r.body).toEqual({ status: false, message: 'Account has expired', data: null })
    expect((await query(sb, bt.payment_reference)).body.data.status).toBe('expired')
  })

  it('a virtual account never takes a temporary account\'s number', async () => {
    const sb = await sandbox()
    const bt = await temporaryAccount(sb)
    const vba = (await create(sb)).body.data
    expect(vba.account_number).not.toBe(bt.bank_account.account_number)
    expect(vba.account_number[0]).toBe('7')
    expect(bt.bank_account.account_number[0]).toBe('8')
  })
})

describe('a virtual account\'s transactions', () => {
  it('lists its transfers newest first, with the total spelt as the NGN page spells it, and pages', async () => {
    const sb = await sandbox()
    const n = (await create(sb)).body.data.account_number
    const other = (await create(sb, { account_reference: 'cust-0002' })).body.data.account_number
    for (const amount of [100, 200, 300]) await credit(sb, n, amount)
    await credit(sb, other, 999)
    const r = await transactions(sb, `account_number=${n}`)
    expect(r.status).toBe(200)
    expect(r.body.message).toBe('Virtual bank account transactions retrieved successfully')
    const d = r.body.data
    expect(d).toMatchObject({ total_amount_recieved: 600, account_number: n, currency: 'NGN', pagination: { page: 1, total: 3, pageCount: 3, totalPages: 1 } })
    // the NGN page (2026-07-30) outranks the collection's older sample: one spelling, no date per transfer
    expect(Object.keys(d)).toEqual(['total_amount_recieved', 'account_number', 'currency', 'transactions', 'pagination'])
    expect(d.transactions.map((t: any) => t.amount)).toEqual(['300.00', '200.00', '100.00'])
    expect(d.transactions[0]).toEqual({
      reference: expect.stringMatching(/^KPY-PAY-/),
      status: 'success',
      amount: '300.00',
      fee: '4.50',
      currency: 'NGN',
      description: 'Transfer from SANDBOX ACCOUNT',
      payer_bank_account: { account_number: '0000000000', account_name: 'SANDBOX ACCOUNT', bank_name: 'KORA SANDBOX' },
    })
    const page2 = (await transactions(sb, `account_number=${n}&limit=2&page=2`)).body.data
    expect(page2.transactions.map((t: any) => t.amount)).toEqual(['100.00'])
    expect(page2.pagination).toEqual({ page: 2, total: 3, pageCount: 1, totalPages: 2 })
    const past = (await transactions(sb, `account_number=${n}&limit=2&page=5`)).body.data
    expect(past.transactions).toEqual([])
    expect(past.pagination).toEqual({ page: 5, total: 3, pageCount: 0, totalPages: 2 })
  })

  it('filters by start_date and end_date (the transfer\'s UTC day on the namespace clock)', async () => {
    const sb = await sandbox({ frozen: true })
    const n = (await create(sb)).body.data.account_number
    const day = (iso: string) => iso.slice(0, 10)
    await credit(sb, n, 100)
    const first = day((await sb.call('GET', '/_sandbox/clock')).body.data.now)
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 2 * 86_400 })
    await credit(sb, n, 200)
    const second = day((await sb.call('GET', '/_sandbox/clock')).body.data.now)
    const amounts = async (q: string) => (await transactions(sb, `account_number=${n}${q}`)).body.data.transactions.map((t: any) => t.amount)
    expect(await amounts(`&start_date=${second}`)).toEqual(['200.00'])
    expect(await amounts(`&end_date=${first}`)).toEqual(['100.00'])
    expect(await amounts(`&start_date=${first}&end_date=${second}`)).toEqual(['200.00', '100.00'])
    expect((await transactions(sb, `account_number=${n}&start_date=${second}`)).body.data.total_amount_recieved).toBe(200)
  })

  it.each([
    ['', { account_number: 'is required' }],
    ['account_number=12', { account_number: "must be 10 digits (a USD account's: 12)" }],
    ['account_number=7000000000&start_date=2026-13-01', { start_date: 'must be a date, YYYY-MM-DD' }],
    ['account_number=7000000000&end_date=yesterday', { end_date: 'must be a date, YYYY-MM-DD' }],
    ['account_number=7000000000&start_date=2026-02-02&end_date=2026-02-01', { end_date: 'must not be before start_date' }],
    ['account_number=7000000000&page=0', { page: 'must be from 1 to 1000000' }],
    ['account_number=7000000000&limit=101', { limit: 'must be from 1 to 100' }],
    ['account_number=7000000000&limit=x', { limit: 'must be a whole number' }],
  ])('refuses ?%s', async (q, errors) => {
    const sb = await sandbox()
    const r = await transactions(sb, q)
    expect(r.status).toBe(422)
    expect(r.body.data).toEqual(fieldMessages(errors))
  })

  it('404 for a number that is no virtual account (a temporary one included)', async () => {
    const sb = await sandbox()
    const bt = await temporaryAccount(sb)
    for (const n of ['7000000000', bt.bank_account.account_number]) {
      const r = await transactions(sb, `account_number=${n}`)
      expect(r.status).toBe(404)
      expect(r.body.message).toBe('Virtual bank account not found')
    }
  })

  it("keeps each transfer as a record of its own: the account's record does not grow with them", async () => {
    const sb = await sandbox()
    const n = (await create(sb)).body.data.account_number
    const size = () => sb.deps.store.col(SECRET, 'virtual_accounts').json('cust-0001')!.length
    await credit(sb, n, 100)
    const after1 = size()
    for (let i = 0; i < 120; i++) await credit(sb, n, 100 + i)
    expect(size()).toBeLessThanOrEqual(after1 + 8)
    const d = (await transactions(sb, `account_number=${n}&limit=3&page=2`)).body.data
    expect(d.transactions.map((t: any) => t.amount)).toEqual(['216.00', '215.00', '214.00'])
    expect(d.pagination).toEqual({ page: 2, total: 121, pageCount: 3, totalPages: 41 })
    // 100 + (100 + 101 + ... + 219)
    expect(d.total_amount_recieved).toBe(100 + (120 * (100 + 219)) / 2)
  })

  it('is empty for a new account', async () => {
    const sb = await sandbox()
    const n = (await create(sb)).body.data.account_number
    const d = (await transactions(sb, `account_number=${n}`)).body.data
    expect(d).toMatchObject({ total_amount_recieved: 0, transactions: [], pagination: { page: 1, total: 0, pageCount: 0, totalPages: 0 } })
  })
})

describe('reset', () => {
  it('empties a namespace\'s virtual accounts', async () => {
    const sb = await sandbox()
    await create(sb)
    await sb.call('POST', '/_sandbox/reset')
    expect((await sb.call('GET', `${BASE}/cust-0001`)).status).toBe(404)
    expect((await create(sb)).status).toBe(200)
  })
})
