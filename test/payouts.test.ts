import { afterEach, describe, expect, it } from 'vitest'
import { verifyWebhookSignature } from '../src/webhooks/signature.js'
import { SECRET, ref, sandboxPerTest, type TestSandbox, fieldMessages } from './helpers/sandbox.js'
import { startReceiver } from './helpers/receiver.js'

/**
 * Payouts end to end through HTTP (docs/behaviour.md#payouts): disburse to a bank account and a
 * wallet, the refusals (each leaving no record and no ledger entry), the clock taking a payout to
 * its test account's outcome, the control call, the query, the list, and the signed
 * transfer.success / transfer.failed webhooks to a real receiver. The clock is frozen: it moves
 * only when the test advances it.
 */

const sandbox = sandboxPerTest()
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close()
})
async function receiver() {
  const r = await startReceiver()
  receivers.push(r)
  return r
}

const DISBURSE = '/merchant/api/v1/transactions/disburse'
const OPENING = 5_000_000

function bank(overrides: Record<string, unknown> = {}, dest: Record<string, unknown> = {}) {
  return {
    reference: ref('po'),
    destination: {
      type: 'bank_account',
      amount: 1000,
      currency: 'NGN',
      narration: 'Salary',
      bank_account: { bank: '033', account: '0000000000' },
      customer: { name: 'Ada Payee', email: 'ada@example.com' },
      ...dest,
    },
    ...overrides,
  }
}

function momo(operator: string, number: string, currency: string, amount = 100) {
  return {
    reference: ref('po'),
    destination: { type: 'mobile_money', amount, currency, mobile_money: { operator, mobile_number: number }, customer: { email: 'w@example.com' } },
  }
}

const available = async (sb: TestSandbox, currency = 'NGN') => (await sb.call('GET', '/merchant/api/v1/balances')).body.data[currency].available_balance
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

async function eventFor(sb: TestSandbox, reference: string) {
  const res = await sb.call('GET', `/_sandbox/events?reference=${reference}`)
  return res.body.data
}

describe('POST /transactions/disburse (docs/behaviour.md#payouts)', () => {
  it('accepts a bank payout as the live test environment answers one: processing, amounts as strings, the fee without its VAT; amount + 30 + 7.5 % VAT debited at once', async () => {
    const sb = await sandbox({ frozen: true })
    const body = bank({ metadata: { order: 'A1' } })
    const res = await sb.call('POST', DISBURSE, body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: true,
      message: 'Transfer initiated successfully.',
      data: {
        amount: '1000.00',
        fee: '30.00',
        currency: 'NGN',
        status: 'processing',
        reference: body.reference,
        message: 'Payout processing',
        customer: { name: 'Ada Payee', email: 'ada@example.com' },
      },
    })
    // the keys in the live answer's order, which the JSON text keeps (toEqual does not look at it)
    expect(Object.keys(res.body.data)).toEqual(['amount', 'fee', 'currency', 'status', 'reference', 'message', 'customer'])
    expect(await available(sb)).toBe(OPENING - 1032.25)
    const q = await sb.call('GET', `/merchant/api/v1/transactions/${body.reference}`)
    expect(q.status).toBe(200)
    expect(q.body.message).toBe('Transaction retrieved successfully')
    // the query as the live test environment answered it (2026-10-07): amount a string, fee a number with its VAT
    expect(q.body.data).toEqual({
      reference: body.reference, batch_reference: null, status: 'processing', amount: '1000.00', fee: 32.25, currency: 'NGN', narration: 'Salary', channel: 'api', completion_date: null,
      message: 'Payout processing', customer: { email: 'ada@example.com', name: 'Ada Payee', phone: null }, metadata: { order: 'A1' },
    })
    // no trace_id until it has one, as the samples of a processing and a failed payout show
    expect(q.body.data).not.toHaveProperty('trace_id')
  })

  it('succeeds after 60 s on the clock with a trace id; a failing account fails and gets all of it back', async () => {
    const sb = await sandbox({ frozen: true })
    const good = bank()
    const bad = bank({}, { bank_account: { bank: '035', account: '0000000000' } })
    expect((await sb.call('POST', DISBURSE, good)).status).toBe(200)
    expect((await sb.call('POST', DISBURSE, bad)).status).toBe(200)
    expect(await available(sb)).toBe(OPENING - 2 * 1032.25)
    await advance(sb, 59)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${good.reference}`)).body.data.status).toBe('processing')
    await advance(sb, 1)
    const ok = (await sb.call('GET', `/merchant/api/v1/transactions/${good.reference}`)).body.data
    expect(ok).toMatchObject({ status: 'success', message: 'Payout successful' })
    expect(ok.trace_id).toMatch(/^\d{20}$/)
    expect(ok.completion_date).toBe(new Date(Date.parse(ok.completion_date)).toISOString())
    const failed = (await sb.call('GET', `/merchant/api/v1/transactions/${bad.reference}`)).body.data
    expect(failed).toMatchObject({ status: 'failed', message: 'Payout failed' })
    expect(failed).not.toHaveProperty('trace_id')
    expect(await available(sb)).toBe(OPENING - 1032.25)
  })

  it('pays out to mobile money in KES and GHS, each wallet as the pack says', async () => {
    const sb = await sandbox({ frozen: true })
    const kes = momo('safaricom-ke', '254711111111', 'KES')
    const ghs = momo('mtn-gh', '233722222222', 'GHS')
    expect((await sb.call('POST', DISBURSE, kes)).body.data).toMatchObject({ amount: '100.00', fee: '30.00', currency: 'KES', status: 'processing' })
    expect((await sb.call('POST', DISBURSE, ghs)).status).toBe(200)
    await advance(sb, 60)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${kes.reference}`)).body.data.status).toBe('success')
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${ghs.reference}`)).body.data.status).toBe('failed')
    expect(await available(sb, 'KES')).toBe(OPENING - 132.25)
    expect(await available(sb, 'GHS')).toBe(OPENING)
  })

  it('each failure reason of the pack is the query message; one account stays processing until the control call', async () => {
    const sb = await sandbox({ frozen: true })
    const dormant = bank({}, { bank_account: { bank: '033', account: '0000000102' } })
    const slow = bank({}, { bank_account: { bank: '033', account: '1111111111' } })
    await sb.call('POST', DISBURSE, dormant)
    await sb.call('POST', DISBURSE, slow)
    await advance(sb, 3600)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${dormant.reference}`)).body.data).toMatchObject({ status: 'failed', message: 'Dormant account' })
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${slow.reference}`)).body.data.status).toBe('processing')
    const done = await sb.call('POST', `/_sandbox/payouts/${slow.reference}/complete`, { outcome: 'failed', reason: 'Do not honor' })
    expect(done.status).toBe(200)
    expect(done.body.data).toMatchObject({ status: 'failed', message: 'Do not honor' })
    const again = await sb.call('POST', `/_sandbox/payouts/${slow.reference}/complete`, {})
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('Payout has already been completed')
    expect(await available(sb)).toBe(OPENING)
    const fresh = bank()
    await sb.call('POST', DISBURSE, fresh)
    const now = await sb.call('POST', `/_sandbox/payouts/${fresh.reference}/complete`)
    expect(now.body.data.status).toBe('success')
    expect((await sb.call('POST', '/_sandbox/payouts/nope12345/complete')).status).toBe(404)
  })

  it('accepts the field names public clients send: bank_code/account_number, flat too, phone, bank-account, a string amount', async () => {
    const sb = await sandbox({ frozen: true })
    const a = { reference: ref('po'), destination: { type: 'bank-account', amount: '1500.50', currency: 'NGN', bank_account: { bank_code: '058', account_number: '0000000000' }, customer: { email: 'a@b.co' } } }
    const b = { reference: ref('po'), destination: { type: 'bank_account', amount: 2000, currency: 'NGN', bank_code: '044', account_number: '0123456789', customer: { email: 'a@b.co' } } }
    const c = { reference: ref('po'), destination: { type: 'mobile_money', amount: 50, currency: 'KES', mobile_money: { operator: 'safaricom-ke', phone: '254711111111' }, customer: { email: 'a@b.co' } } }
    for (const body of [a, b, c]) {
      const res = await sb.call('POST', DISBURSE, body)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
    }
    // flat bank_code / account_number are read: the test account 011/9999999999 is refused as invalid
    const d = { reference: ref('po'), destination: { type: 'bank_account', amount: 2000, currency: 'NGN', bank_code: '011', account_number: '9999999999', customer: { email: 'a@b.co' } } }
    const invalid = await sb.call('POST', DISBURSE, d)
    expect([invalid.status, invalid.body.message]).toEqual([409, 'Invalid account.'])
  })

  it('the remittance variant keeps the sender and shows it in the query; it needs sender_name, as the sample refuses an empty remittance_data', async () => {
    const sb = await sandbox({ frozen: true })
    const sender = { sender_name: 'Jeremiah Doe', sender_phone_number: '086778899010', sender_dob: '1990-05-15', sender_country_iso: 'NG', remittance_purpose: 'Family Support', purpose: 'family' }
    const body = { ...bank(), remittance_data: sender }
    const res = await sb.call('POST', `${DISBURSE}/remittance`, body)
    expect([res.status, res.body.message]).toEqual([200, 'Remittance transfer initiated successfully'])
    // the answer is the collection's remittance sample's (2026-10-06): narration and customer.phone, no message, no metadata;
    // the query gives the sender back (the day as a time, as the sample does)
    expect(res.body.data).toEqual({ amount: '1000.00', fee: '32.25', currency: 'NGN', status: 'processing', reference: body.reference, narration: 'Salary', customer: { name: 'Ada Payee', email: 'ada@example.com', phone: null } })
    expect([Object.keys(res.body.data), Object.keys(res.body.data.customer)]).toEqual([['amount', 'fee', 'currency', 'status', 'reference', 'narration', 'customer'], ['name', 'email', 'phone']])
    const q = (await sb.call('GET', `/merchant/api/v1/transactions/${body.reference}`)).body.data
    expect(q.remittance_data).toEqual({ ...sender, sender_dob: '1990-05-15T00:00:00.000Z' })
    expect(q.customer).toEqual({ email: 'ada@example.com', name: 'Ada Payee', phone: null })
    const refused: [unknown, Record<string, string>][] = [
      [bank(), { remittance_data: 'is required' }],
      [{ ...bank(), remittance_data: {} }, { 'remittance_data.sender_name': 'is required' }],
      [{ ...bank(), remittance_data: { sender_name: 'A', sender_dob: '1990-02-30', sender_country_iso: 'ng' } }, { 'remittance_data.sender_dob': 'must be a real calendar date', 'remittance_data.sender_country_iso': 'must be a two-letter country code such as NG' }],
    ]
    for (const [b, fields] of refused) {
      const r = await sb.call('POST', `${DISBURSE}/remittance`, b)
      expect([r.status, r.body.data], JSON.stringify(b)).toEqual([422, fieldMessages(fields)])
      expect((await sb.call('GET', `/merchant/api/v1/transactions/${(b as { reference: string }).reference}`)).status).toBe(404)
    }
  })

  it('refuses each bad payout with its message and status, leaving no record and no entry', async () => {
    const sb = await sandbox({ frozen: true })
    const first = bank()
    await sb.call('POST', DISBURSE, first)
    const before = await available(sb)
    const cases: [unknown, number, string, unknown?][] = [
      [{ ...bank(), reference: first.reference }, 409, 'Duplicate Transaction Reference. Please use a unique reference'],
      [bank({}, { bank_account: { bank: '999', account: '0000000000' } }), 404, 'bank not found'],
      [bank({}, { bank_account: { bank: '011', account: '9999999999' } }), 409, 'Invalid account.'],
      [bank({}, { bank_account: { bank: '033', account: '9999999999' } }), 409, 'Invalid account.'],
      [bank({}, { bank_account: { bank: '033', account: '12345678' } }), 409, 'Invalid account.'],
      [bank({}, { bank_account: { bank: '0111', account: '9999999999' }, currency: 'KES' }), 409, 'Invalid account.'],
      [momo('nope-ke', '254711111111', 'KES'), 404, 'Mobile money operator is not available for this currency or does not exist'],
      [momo('mtn-gh', '233722222222', 'KES'), 404, 'Mobile money operator is not available for this currency or does not exist'],
      [bank({}, { currency: 'GHS' }), 400, 'Currency not allowed for this destination'],
      [momo('mtn-cm', '237671111111', 'XOF'), 404, 'Mobile money operator is not available for this currency or does not exist'],
      [momo('safaricom-ke', '254711111111', 'NGN'), 400, 'Currency not allowed for this destination'],
      [bank({}, { amount: 999.99 }), 409, 'You can only transfer an amount between NGN 1000 and NGN 10000000'],
      [bank({}, { amount: 10_000_000.01 }), 409, 'You can only transfer an amount between NGN 1000 and NGN 10000000'],
      [momo('safaricom-ke', '254711111111', 'KES', 9), 409, 'You can only transfer an amount between KES 10 and KES 70000'],
      [momo('airtel-gh', '233242426222', 'GHS', 100_001), 409, 'You can only transfer an amount between GHS 10 and GHS 100000'],
      [{ reference: 'abcd', destination: { type: 'wire', amount: -1, currency: 'naira', customer: {} } }, 422, 'Invalid request data', {
        reference: 'must be at least 5 characters',
        'destination.type': 'must be one of "bank_account", "mobile_money", "crypto"',
        'destination.amount': 'must be greater than 0',
        'destination.currency': 'must be a currency code such as NGN',
        'destination.customer.email': 'is required',
      }],
      [{ reference: ref('po'), destination: { type: 'bank_account', amount: 1000, currency: 'NGN', customer: { email: 'a@b.co' } } }, 422, 'Invalid request data', { 'destination.bank_account': 'is required' }],
    ]
    for (const [body, status, message, data] of cases) {
      const res = await sb.call('POST', DISBURSE, body)
      expect([res.status, res.body.message], JSON.stringify(body)).toEqual([status, message])
      if (data) expect(res.body.data).toEqual(fieldMessages(data))
      const reference = (body as { reference: string }).reference
      // a business conflict names its kind and the payout (docs/behaviour.md#payouts, CONTRACT 15)
      if (status === 409 && reference !== first.reference) expect(res.body).toEqual({ status: false, error: 'conflict', message, data: { status: 'failed', message, reference } })
      if (reference !== first.reference) expect((await sb.call('GET', `/merchant/api/v1/transactions/${reference}`)).status).toBe(404)
    }
    expect(await available(sb)).toBe(before)
    expect((await sb.call('GET', '/merchant/api/v1/payouts')).body.data.payouts).toHaveLength(1)
  })

  it('refuses a payout the available balance does not cover: 409 Insufficient funds in disbursement wallet, as the samples show', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 2000 } })
    expect((await sb.call('POST', DISBURSE, bank())).status).toBe(200)
    const res = await sb.call('POST', DISBURSE, bank())
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ status: false, message: 'Insufficient funds in disbursement wallet', data: null })
    expect(await available(sb)).toBe(2000 - 1032.25)
  })

  it('pack settings change the fee, the delay and the limits', async () => {
    const sb = await sandbox({ frozen: true })
    await sb.call('POST', '/_sandbox/scenarios', { settings: { fees: { payout: { percent: 0, flat: 10 } }, payout_delay_seconds: 5, payout_limits: { NGN: { min: 100, max: 200 } } } })
    const body = bank({}, { amount: 150 })
    // the answer's fee is the pack's fee alone; the query's has its VAT
    expect((await sb.call('POST', DISBURSE, body)).body.data.fee).toBe('10.00')
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${body.reference}`)).body.data.fee).toBe(10.75)
    expect((await sb.call('POST', DISBURSE, bank({}, { amount: 201 }))).status).toBe(409)
    await advance(sb, 5)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${body.reference}`)).body.data.status).toBe('success')
  })

  it('an unknown reference is 404 Transaction not found; the calls take the secret key only', async () => {
    const sb = await sandbox()
    const res = await sb.call('GET', '/merchant/api/v1/transactions/unknown-ref')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ status: false, message: 'Transaction not found', data: null })
    expect((await sb.call('POST', DISBURSE, bank(), { key: 'pk_test_sandbox' })).status).toBe(401)
  })
})

describe('the ledger (docs/behaviour.md#ledger-and-balances)', () => {
  it("a payout's debit, and the credit that returns a failed one, are entries of the namespace's ledger", async () => {
    const sb = await sandbox({ frozen: true })
    const bad = bank({}, { bank_account: { bank: '035', account: '0000000000' } })
    await sb.call('POST', DISBURSE, bad)
    await advance(sb, 60)
    const now = sb.deps.clocks.now(SECRET)
    const rows = sb.deps.ledger.history(SECRET, now)
    const entries = Array.from({ length: rows.size }, (_, i) => sb.deps.ledger.entryOf(SECRET, rows.itemAt(i)))
    const mine = entries.filter((e) => e.source === 'payout')
    expect(mine.map((e) => [e.direction, e.amount, e.currency, e.source_reference])).toEqual([
      ['debit', 103_225, 'NGN', bad.reference],
      ['credit', 103_225, 'NGN', bad.reference],
    ])
    const sum = entries.filter((e) => e.currency === 'NGN').reduce((t, e) => t + (e.direction === 'credit' ? e.amount : -e.amount), 0)
    expect(sum / 100).toBe(await available(sb))
  })
})

describe('transfer.success / transfer.failed webhooks', () => {
  it('are signed and sent to notification_url, with reason on a failure; the namespace URL otherwise', async () => {
    const sb = await sandbox({ frozen: true })
    const notify = await receiver()
    const nsHook = await receiver()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: nsHook.url })
    const good = bank({ notification_url: notify.url })
    const bad = bank({}, { bank_account: { bank: '033', account: '0000000104' } })
    await sb.call('POST', DISBURSE, good)
    await sb.call('POST', DISBURSE, bad)
    await advance(sb, 60)
    await notify.waitFor(1)
    await nsHook.waitFor(1)
    const got = notify.received[0]
    expect(got.body).toEqual({
      event: 'transfer.success',
      data: { reference: good.reference, status: 'success', amount: 1000, fee: 32.25, currency: 'NGN', narration: 'Salary', trace_id: expect.stringMatching(/^\d{20}$/) },
    })
    expect(verifyWebhookSignature(got.raw, got.headers['x-korapay-signature'] as string, SECRET)).toBe(true)
    const failed = nsHook.received[0]
    expect(failed.body).toEqual({
      event: 'transfer.failed',
      data: { reference: bad.reference, status: 'failed', amount: 1000, fee: 32.25, currency: 'NGN', narration: 'Salary', reason: 'Destination bank is not available' },
    })
    expect(verifyWebhookSignature(failed.raw, failed.headers['x-korapay-signature'] as string, SECRET)).toBe(true)
    expect(notify.received).toHaveLength(1)
    expect(nsHook.received).toHaveLength(1)
    expect((await eventFor(sb, good.reference)).length).toBeGreaterThan(0)
  })
})

describe('GET /payouts (docs/behaviour.md#lists, docs/behaviour.md#payouts)', () => {
  it('lists newest first with status and currency filters and cursor pages', async () => {
    const sb = await sandbox({ frozen: true })
    const refs: string[] = []
    for (let i = 0; i < 3; i++) {
      const b = bank({}, { bank_account: { bank: i === 1 ? '035' : '033', account: '0000000000' } })
      refs.push(b.reference)
      await sb.call('POST', DISBURSE, b)
      await advance(sb, 1)
    }
    const k = momo('safaricom-ke', '254711111111', 'KES')
    await sb.call('POST', DISBURSE, k)
    await advance(sb, 60)
    const all = (await sb.call('GET', '/merchant/api/v1/payouts')).body
    expect(all.message).toBe('Transactions retrieved successfully')
    expect(all.data.has_more).toBe(false)
    expect(all.data.payouts.map((p: any) => p.reference)).toEqual([k.reference, ...refs.reverse()])
    // as the collection's list sample (2023-09-07): amounts as strings, payment_destination the destination's type
    expect(all.data.payouts[0]).toMatchObject({ pointer: k.reference, status: 'success', amount: '100.00', fee: '32.25', currency: 'KES', payment_destination: 'mobile_money', customer_name: null, customer_email: 'w@example.com', date_created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) })
    const failed = (await sb.call('GET', '/merchant/api/v1/payouts?status=failed')).body.data.payouts
    expect(failed.map((p: any) => p.reference)).toEqual([refs[1]])
    expect((await sb.call('GET', '/merchant/api/v1/payouts?currency=KES')).body.data.payouts).toHaveLength(1)
    const page = (await sb.call('GET', '/merchant/api/v1/payouts?limit=2')).body.data
    expect(page.has_more).toBe(true)
    const next = (await sb.call('GET', `/merchant/api/v1/payouts?limit=2&starting_after=${page.payouts[1].pointer}`)).body.data
    expect(next.payouts.map((p: any) => p.reference)).toEqual(refs.slice(1))
    expect(next.has_more).toBe(false)
    const bad = await sb.call('GET', '/merchant/api/v1/payouts?status=done&limit=0')
    expect(bad.status).toBe(422)
    expect(bad.body.data).toEqual(fieldMessages({ status: 'must be one of "processing", "success", "failed"', limit: 'must be from 1 to 100' }))
  })
})

describe('bulk payouts (docs/behaviour.md#bulk-payouts)', () => {
  const item = (bank: string, account: string, amount = 1000) => ({ reference: ref('bi'), amount, type: 'bank_account', narration: 'Bulk', bank_account: { bank_code: bank, account_number: account }, customer: { name: 'Payee', email: 'p@example.com' } })
  const batch = (payouts: unknown[], extra: Record<string, unknown> = {}) => ({ batch_reference: ref('batch'), description: 'Salaries', currency: 'NGN', payouts, ...extra })

  it('runs each item as a payout with mixed outcomes; the batch is pending until all end, then complete; one webhook per item with batch_reference', async () => {
    const sb = await sandbox({ frozen: true })
    const hook = await receiver()
    await sb.call('PUT', '/_sandbox/webhook-url', { url: hook.url })
    const items = [item('033', '0000000000'), item('035', '0000000000'), item('033', '1111111111')]
    const body = batch(items, { merchant_bears_cost: true })
    const res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: true,
      message: 'Bulk Transfer initiated successfully',
      data: { status: 'pending', total_chargeable_amount: 3096.75, merchant_bears_cost: true, reference: body.batch_reference, currency: 'NGN', description: 'Salaries', createdAt: expect.any(String) },
    })
    expect(await available(sb)).toBe(OPENING - 3096.75)
    await advance(sb, 60)
    await hook.waitFor(2)
    const bodies = hook.received.map((r) => r.body)
    expect(bodies).toEqual(expect.arrayContaining([
      { event: 'transfer.success', data: expect.objectContaining({ reference: items[0].reference, batch_reference: body.batch_reference, status: 'success' }) },
      { event: 'transfer.failed', data: expect.objectContaining({ reference: items[1].reference, batch_reference: body.batch_reference, status: 'failed', reason: 'Payout failed' }) },
    ]))
    for (const r of hook.received) expect(verifyWebhookSignature(r.raw, r.headers['x-korapay-signature'] as string, SECRET)).toBe(true)
    // under /merchant only: the bare /api/v1 is no API path beyond SPEC.md's (test/not-api-paths.test.ts)
    const prefix = '/merchant/api/v1'
    const summary = await sb.call('GET', `${prefix}/transactions/bulk/${body.batch_reference}`)
    expect(summary.body).toEqual({
      status: true,
      message: 'Bulk transaction retrieved successfully',
      data: { amount: '3000.00', currency: 'NGN', reference: body.batch_reference, status: 'pending', description: 'Salaries', failedTransactions: 1, successfulTransactions: 1, pendingTransactions: 0, processingTransactions: 1 },
    })
    for (const ending of ['payouts', 'payout']) {
      const list = await sb.call('GET', `${prefix}/transactions/bulk/${body.batch_reference}/${ending}`)
      expect(list.body.message).toBe('Payouts retrieved successfully')
      expect(list.body.data.paging).toEqual({ total_items: 3, page_size: 50, current: 1, count: 3 })
      expect(list.body.data.data.map((p: any) => [p.reference, p.status])).toEqual([[items[0].reference, 'success'], [items[1].reference, 'failed'], [items[2].reference, 'processing']])
      // as the bulk payouts page (2025-02-28) writes an item: amount a number, no fee, no message
      expect(list.body.data.data[0]).toEqual({ reference: items[0].reference, amount: 1000, currency: 'NGN', narration: expect.anything(), status: expect.any(String), batch_reference: body.batch_reference, type: 'bank_account', bank_account: { bank_code: '033', account_number: '0000000000' }, customer: { name: 'Payee', email: 'p@example.com' } })
    }
    const page2 = (await sb.call('GET', `/merchant/api/v1/transactions/bulk/${body.batch_reference}/payouts?page=2&limit=2`)).body.data
    expect(page2.paging).toEqual({ total_items: 3, page_size: 2, current: 2, count: 1 })
    // each item is a payout of its own: queried and listed as one
    expect((await sb.call('GET', `/merchant/api/v1/transactions/${items[0].reference}`)).body.data.batch_reference).toBe(body.batch_reference)
    await sb.call('POST', `/_sandbox/payouts/${items[2].reference}/complete`)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/bulk/${body.batch_reference}`)).body.data).toMatchObject({ status: 'complete', successfulTransactions: 2, processingTransactions: 0 })
    expect(await available(sb)).toBe(OPENING - 2 * 1032.25)
  })

  it('a batch whose items all fail is failed; without merchant_bears_cost only the amounts are debited', async () => {
    const sb = await sandbox({ frozen: true })
    const body = batch([item('035', '0000000000'), item('033', '0000000103')])
    const res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', body)
    expect(res.body.data).toMatchObject({ status: 'pending', total_chargeable_amount: 2000, merchant_bears_cost: false })
    expect(await available(sb)).toBe(OPENING - 2000)
    await advance(sb, 60)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/bulk/${body.batch_reference}`)).body.data).toMatchObject({ status: 'failed', failedTransactions: 2 })
    expect(await available(sb)).toBe(OPENING)
  })

  it('is refused whole, leaving nothing: a bad item (named in data), the balance for all of them, a used batch reference, bad fields', async () => {
    const sb = await sandbox({ frozen: true })
    const used = batch([item('033', '0000000000'), item('033', '0000000000')])
    expect((await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', used)).status).toBe(200)
    const before = await available(sb)
    const listed = async () => (await sb.call('GET', '/merchant/api/v1/payouts?limit=100')).body.data.payouts.length
    const bad = item('011', '9999999999')
    let res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', batch([item('033', '0000000000'), bad]))
    expect([res.status, res.body]).toEqual([409, { status: false, error: 'conflict', message: 'Invalid account.', data: { status: 'failed', message: 'Invalid account.', reference: bad.reference } }])
    res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', { ...batch([item('033', '0000000000'), item('033', '0000000000')]), batch_reference: used.batch_reference })
    expect([res.status, res.body.message]).toEqual([409, 'Duplicate Transaction Reference. Please use a unique reference'])
    const dup = item('033', '0000000000')
    res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', batch([dup, { ...dup }]))
    expect([res.status, res.body.data]).toEqual([422, fieldMessages({ 'payouts.1.reference': 'is used by another payout of the batch' })])
    res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', { batch_reference: 'abc', currency: 'EUR', payouts: [item('033', '0000000000')] })
    expect([res.status, res.body.data]).toEqual([422, fieldMessages({ batch_reference: 'must be at least 5 characters', currency: 'must be one of "NGN", "KES", "ZAR", "EGP", "USD", "GBP", "GHS", "XAF", "XOF", "TZS"', payouts: 'must hold at least 2 payouts' })])
    expect(await listed()).toBe(2)
    await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 0 } })
    await sb.call('POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 1500 })
    res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', batch([item('033', '0000000000'), item('033', '0000000000')]))
    // a batch's shortfall is the bulk sample's: 400, code AA021, its own text
    expect([res.status, res.body]).toEqual([400, { status: false, code: 'AA021', message: 'insufficient funds in disbursement wallet.', data: null }])
    expect(await listed()).toBe(2)
    expect(await available(sb)).toBe(before - OPENING + 1500)
    expect((await sb.call('GET', '/merchant/api/v1/transactions/bulk/nope-batch')).status).toBe(404)
  })

  it('takes mobile-money items in KES', async () => {
    const sb = await sandbox({ frozen: true })
    const w = (operator: string, number: string) => ({ reference: ref('bi'), amount: 100, type: 'mobile_money', mobile_money: { operator, mobile_number: number }, customer: { email: 'w@example.com' } })
    const res = await sb.call('POST', '/merchant/api/v1/transactions/disburse/bulk', batch([w('safaricom-ke', '254711111111'), w('airtel-ke', '254722222222')], { currency: 'KES' }))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    await advance(sb, 60)
    expect((await sb.call('GET', `/merchant/api/v1/transactions/bulk/${res.body.data.reference}`)).body.data).toMatchObject({ status: 'complete', successfulTransactions: 1, failedTransactions: 1 })
  })
})

describe('the dashboard payouts panel', () => {
  it('lists payouts with destination, cost and status, and buttons that end a processing one', async () => {
    const sb = await sandbox({ frozen: true })
    const slow = bank({}, { bank_account: { bank: '033', account: '1111111111' } })
    const w = momo('safaricom-ke', '254711111111', 'KES')
    await sb.call('POST', DISBURSE, slow)
    await sb.call('POST', DISBURSE, w)
    await advance(sb, 60)
    const page = await sb.call('GET', `/_sandbox/ui?ns=${SECRET}`, undefined, { key: null })
    expect(page.status).toBe(200)
    const html = page.body as string
    expect(html).toContain('id="h-payouts"')
    const row = (reference: string) => html.slice(html.indexOf(`data-ref="${reference}"`), html.indexOf('</tr>', html.indexOf(`data-ref="${reference}"`)))
    expect(row(slow.reference)).toContain('United Bank for Africa (033)')
    expect(row(slow.reference)).toContain('NGN 1,000.00')
    expect(row(slow.reference)).toContain('fee NGN 32.25')
    expect(row(slow.reference)).toContain(`/_sandbox/payouts/${slow.reference}/complete`)
    expect(row(w.reference)).toContain('safaricom-ke')
    expect(row(w.reference)).toContain('Payout successful')
    expect(row(w.reference)).not.toContain('/complete')
  })
})

describe('GET /payouts by date and by starting_before (docs/behaviour.md#lists)', () => {
  it('filters by the day it was made and pages back from a pointer', async () => {
    const sb = await sandbox({ frozen: true })
    const refs: string[] = []
    for (let i = 0; i < 3; i++) {
      const body = bank()
      refs.push(body.reference)
      expect((await sb.call('POST', DISBURSE, body)).status).toBe(200)
      await advance(sb, 24 * 3600)
    }
    const list = async (query = '') => (await sb.call('GET', `/merchant/api/v1/payouts${query}`)).body.data
    const all = (await list()).payouts
    expect(all.map((p: { reference: string }) => p.reference)).toEqual([...refs].reverse())
    const day = all[1].date_created.slice(0, 10)
    expect((await list(`?date_from=${day}&date_to=${day}`)).payouts.map((p: { reference: string }) => p.reference)).toEqual([refs[1]])
    expect((await list(`?date_from=${day}-00-00-00`)).payouts).toHaveLength(2)
    expect(await list(`?starting_before=${all[1].pointer}`)).toEqual({ has_more: false, payouts: [all[0]] })
    expect(await list(`?ending_before=${all[2].pointer}&limit=1`)).toEqual({ has_more: true, payouts: [all[1]] })
  })
})
