import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, ref, sandboxPerTest, type TestSandbox, fieldMessages } from './helpers/sandbox.js'
import { NO_AUTH_CARD as CARD } from './helpers/cards.js'

const sandbox = sandboxPerTest()
const OPEN = 5_000_000
/** a sum of major amounts, as the balances answer it */
const sum = (...xs: number[]) => Math.round(xs.reduce((a, b) => a + b * 100, 0)) / 100

const ngn = async (sb: TestSandbox) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
/** A bank transfer of NGN `amount`, arrived 120 s later on the clock (settled at once): its reference. */
async function arrivedTransfer(sb: TestSandbox, amount: number, merchant_bears_cost: boolean) {
  const bt = ref('bt')
  await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: bt, amount, currency: 'NGN', merchant_bears_cost, customer: { email: 'a@b.co' } })
  await advance(sb, 120)
  return bt
}

const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

async function preauth(sb: TestSandbox, amount = 1000): Promise<{ pref: string; tx: string }> {
  const res = await sb.call('POST', '/merchant/api/v1/charges/card/pre-authorize', { charge_data: encryptChargeData(cardPayload(CARD, { amount }), ENC_KEY) })
  expect(res.body.data.status).toBe('pre_authorized')
  return { pref: res.body.data.payment_reference, tx: res.body.data.transaction_reference }
}
const capture = (sb: TestSandbox, pref: string, amount: number, tx = ref('cap')) =>
  sb.call('POST', '/merchant/api/v1/charges/card/capture', { amount, currency: 'NGN', payment_reference: pref, transaction_reference: tx })

describe('captures on the ledger (docs/behaviour.md#preauth-settlement, docs/behaviour.md#ledger-and-balances)', () => {
  it('a capture is credited net of fee and VAT, pending until it settles by its time', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await preauth(sb, 1000)
    const cap = await capture(sb, h.pref, 400)
    expect(cap.status).toBe(200)
    // fee 1.4 % of 400 = 5.60, VAT 7.5 % of it = 0.42
    expect(await ngn(sb)).toEqual({ pending_balance: 393.98, available_balance: OPEN })
    await advance(sb, 24 * 3600)
    expect(await ngn(sb)).toEqual({ pending_balance: 0, available_balance: sum(OPEN, 393.98) })
  })

  it('a later capture or the control call settles it at once; a void takes its pending credit back', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await preauth(sb, 1000)
    const first = ref('cap')
    await capture(sb, h.pref, 400, first)
    await capture(sb, h.pref, 100)
    // the first is settled by the second: available now; the second still pending (98.49)
    expect(await ngn(sb)).toEqual({ pending_balance: 98.49, available_balance: sum(OPEN, 393.98) })
    const second = await preauth(sb, 500)
    const tx = ref('cap')
    await capture(sb, second.pref, 200, tx)
    expect((await sb.call('POST', `/_sandbox/captures/${tx}/settle`)).status).toBe(200)
    expect(await ngn(sb)).toEqual({ pending_balance: 98.49, available_balance: sum(OPEN, 393.98, 196.99) })
    const third = await preauth(sb, 500)
    const voided = ref('cap')
    await capture(sb, third.pref, 300, voided)
    expect((await ngn(sb)).pending_balance).toBe(sum(98.49, 295.48))
    const v = await sb.call('POST', '/merchant/api/v1/charges/card/void', { payment_reference: third.pref, transaction_reference: ref('void'), target_transaction_reference: voided })
    expect(v.status).toBe(200)
    expect(await ngn(sb)).toEqual({ pending_balance: 98.49, available_balance: sum(OPEN, 393.98, 196.99) })
    await advance(sb, 48 * 3600)
    expect(await ngn(sb)).toEqual({ pending_balance: 0, available_balance: sum(OPEN, 393.98, 196.99, 98.49) })
  })
})

const INITIATE = '/merchant/api/v1/refunds/initiate'
const initiate = (sb: TestSandbox, body: Record<string, unknown>) => sb.call('POST', INITIATE, body)
const refundsOf = async (sb: TestSandbox, query = '') => (await sb.call('GET', `/merchant/api/v1/refunds${query}`)).body.data

/** A settled card charge of `amount` (NGN), settled by its time. */
/** A pay-in's transaction reference: its pointer in the pay-ins list (the charge query does not show it). */
async function txOf(sb: TestSandbox, reference: string): Promise<string> {
  return (await sb.call('GET', '/merchant/api/v1/pay-ins')).body.data.payins.find((p: { reference: string }) => p.reference === reference).pointer
}

async function settledCharge(sb: TestSandbox, amount = 1000): Promise<string> {
  const payload = cardPayload(CARD, { amount })
  expect((await sb.charge(payload)).body.data.status).toBe('success')
  await advance(sb, 24 * 3600)
  return payload.reference as string
}

/** A frozen-clock sandbox of its own with a settled card charge of NGN 1,000 in it: its payment reference. */
async function paidInSandbox() {
  const sb = await sandbox({ frozen: true })
  return { sb, pay: await settledCharge(sb, 1000) }
}

describe('POST /merchant/api/v1/refunds/initiate (docs/behaviour.md#refunds)', () => {
  it('a full refund of a settled card charge: processing, its debit at once, success 60 s later with refund.success', async () => {
    const { sb, pay } = await paidInSandbox()
    const before = await ngn(sb)
    const reference = ref('rf')
    const res = await initiate(sb, { payment_reference: pay, reference, reason: 'customer changed their mind' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: true,
      message: 'Refund successfully initiated',
      data: { refund_reference: reference, refund_date: expect.stringMatching(/Z$/), status: 'processing', payment_reference: pay, reason: 'customer changed their mind', amount_returned: 1000, currency: 'NGN' },
    })
    expect(await ngn(sb)).toEqual({ pending_balance: 0, available_balance: sum(before.available_balance, -1000) })
    // the charge query counts it at once, as it counts a card refund
    expect((await sb.call('GET', `/merchant/api/v1/charges/${pay}`)).body.data).toMatchObject({ total_refunded_amount: 1000, operations: [] })
    await advance(sb, 59)
    expect((await sb.call('GET', `/merchant/api/v1/refunds/${reference}`)).body.data.status).toBe('processing')
    await advance(sb, 1)
    const detail = await sb.call('GET', `/merchant/api/v1/refunds/${reference}`)
    expect(detail.body).toEqual({
      status: true,
      message: 'Refund details retrieved successfully',
      data: {
        reference,
        payment_reference: pay,
        amount: '1000.00',
        transaction_amount: '1000.00',
        status: 'success',
        currency: 'NGN',
        destination: 'customer',
        reason: 'customer changed their mind',
        payment_method: 'card',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        completed_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    })
    const events = (await sb.call('GET', '/_sandbox/events?event=refund.success')).body.data
    expect(events).toHaveLength(1)
    expect(events[0].data).toEqual({
      reference,
      payment_reference: pay,
      amount: 1000,
      currency: 'NGN',
      status: 'success',
      status_reason: null,
      payment_method: 'card',
      refund_date: expect.any(String),
      completion_date: expect.any(String),
      created_at: expect.any(String),
      completed_at: expect.any(String),
    })
    expect(Date.parse(events[0].data.completed_at) - Date.parse(events[0].data.created_at)).toBe(60_000)
    // the balance stays debited: a success moves nothing more
    expect(await ngn(sb)).toEqual({ pending_balance: 0, available_balance: sum(before.available_balance, -1000) })
  })

  it('completion_status failed: the refund fails, its amount comes back, refund.failed carries status_reason; the pay-in can be refunded again', async () => {
    const { sb, pay } = await paidInSandbox()
    const before = (await ngn(sb)).available_balance
    const reference = ref('rf')
    expect((await initiate(sb, { payment_reference: pay, reference, amount: 400, completion_status: 'failed', status_reason: 'Account closed', webhook_url: 'http://127.0.0.1:9/hook' })).status).toBe(200)
    expect((await ngn(sb)).available_balance).toBe(sum(before, -400))
    await advance(sb, 60)
    expect((await ngn(sb)).available_balance).toBe(before)
    const d = (await sb.call('GET', `/merchant/api/v1/refunds/${reference}`)).body.data
    expect(d).toMatchObject({ status: 'failed', status_reason: 'Account closed', amount: '400.00' })
    const events = (await sb.call('GET', '/_sandbox/events?event=refund.failed')).body.data
    expect(events).toHaveLength(1)
    expect(events[0].target).toBe('http://127.0.0.1:9/hook')
    expect(events[0].data).toMatchObject({ reference, status: 'failed', status_reason: 'Account closed', amount: 400 })
    // nothing counts as refunded: the whole amount can be refunded now
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf') })).status).toBe(200)
  })

  it('refunds a bank transfer (settled at once), a mobile-money charge and a checkout by its own reference', async () => {
    const sb = await sandbox({ frozen: true })
    const bt = await arrivedTransfer(sb, 1500, true)
    const r1 = await initiate(sb, { payment_reference: bt, reference: ref('rf'), amount: 500 })
    // the answer names no channel (the refunds page); the refund's detail names the pay-in's method
    expect(r1.body.data).toMatchObject({ status: 'processing', amount_returned: 500 })
    expect(r1.body.data).not.toHaveProperty('channel')
    const method = async (r: typeof r1) => (await sb.call('GET', `/merchant/api/v1/refunds/${r.body.data.refund_reference}`)).body.data.payment_method
    expect(await method(r1)).toBe('bank_transfer')

    const mm = ref('mm')
    const m = await sb.call('POST', '/merchant/api/v1/charges/mobile-money', { reference: mm, amount: 200, currency: 'KES', customer: { email: 'a@b.co' }, mobile_money: { number: '254700000000' } })
    expect(m.status).toBe(200)
    await advance(sb, 5)
    expect((await initiate(sb, { payment_reference: mm, reference: ref('rf') })).body.message).toBe('Transaction has not yet been settled')
    await advance(sb, 24 * 3600)
    const r2 = await initiate(sb, { payment_reference: mm, reference: ref('rf') })
    expect(r2.body.data).toMatchObject({ amount_returned: 200, currency: 'KES' })
    expect(await method(r2)).toBe('mobile_money')

    const co = ref('co')
    await sb.call('POST', '/merchant/api/v1/charges/initialize', { reference: co, amount: 1500, currency: 'NGN', customer: { email: 'ada@example.com' } })
    expect((await sb.call('POST', `/_sandbox/checkouts/${co}/pay`, { channel: 'card' })).status).toBe(200)
    await advance(sb, 24 * 3600)
    const r3 = await initiate(sb, { payment_reference: co, reference: ref('rf'), amount: 1500 })
    expect(r3.body.data).toMatchObject({ amount_returned: 1500, payment_reference: co })
    expect(await method(r3)).toBe('card')
  })

  it('a pay-in the customer bore the fee of offers its amount to refund, never the fee; a transfer kept whole offers all of it', async () => {
    const sb = await sandbox({ frozen: true })
    const bt = await arrivedTransfer(sb, 10_000, false)
    const above = await initiate(sb, { payment_reference: bt, reference: ref('rf'), amount: 10_150 })
    expect([above.status, above.body.message]).toEqual([400, "Amount can't be more than NGN 10000"])
    const full = await initiate(sb, { payment_reference: bt, reference: ref('rf') })
    expect(full.body.data).toMatchObject({ amount_returned: 10_000 })

    // accept_all: a transfer over what was expected is kept whole, the merchant bearing the fee
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { transfer_mismatch: 'accept_all' } })).status).toBe(200)
    const over = ref('bt')
    const made = await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: over, amount: 10_000, currency: 'NGN', auto_complete: false, customer: { email: 'a@b.co' } })
    const before = (await ngn(sb)).available_balance
    await sb.call('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: made.body.data.bank_account.account_number, amount: 12_000, currency: 'NGN' })
    expect((await ngn(sb)).available_balance).toBe(sum(before, 12_000, -150, -11.25))
    const whole = await initiate(sb, { payment_reference: over, reference: ref('rf') })
    expect(whole.body.data).toMatchObject({ amount_returned: 12_000 })
  })

  it('partial refunds up to what was collected, never above what is left', async () => {
    const { sb, pay } = await paidInSandbox()
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 300 })).status).toBe(200)
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: '200.50' })).status).toBe(422)
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 200.5 })).status).toBe(200)
    const over = await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 600 })
    expect([over.status, over.body.message]).toEqual([400, 'The maximum refundable amount for this transaction is NGN 499.50'])
    const full = await initiate(sb, { payment_reference: pay, reference: ref('rf') })
    expect([full.status, full.body.message]).toEqual([400, 'A full refund cannot be initiated for this transaction. Please enter an amount less than or equal to NGN 499.50'])
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 499.5 })).status).toBe(200)
    const done = await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 100 })
    expect([done.status, done.body.message]).toEqual([409, 'A full reversal has already been processed for this transaction'])
  })
})

describe('refusals change nothing (docs/behaviour.md#refunds)', () => {
  async function expectRefused(sb: TestSandbox, body: Record<string, unknown>, status: number, message: string, data: unknown = null) {
    const balances = (await sb.call('GET', '/merchant/api/v1/balances')).body.data
    const list = await refundsOf(sb)
    const res = await initiate(sb, body)
    // a validation refusal's fields are given with their bare reasons (docs/behaviour.md#invalid-request-data)
    const shown = status === 422 && data ? fieldMessages(data as Record<string, string>) : data
    expect({ status: res.status, message: res.body.message, data: res.body.data }).toEqual({ status, message, data: shown })
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data).toEqual(balances)
    expect(await refundsOf(sb)).toEqual(list)
  }

  it('every refusal of 7.1, with its status and message', async () => {
    const { sb, pay } = await paidInSandbox()
    await expectRefused(sb, {}, 422, 'Invalid request data', { payment_reference: 'is required', reference: 'is required' })
    await expectRefused(sb, { payment_reference: pay, reference: 'x'.repeat(51), amount: -1, reason: 'r'.repeat(201), webhook_url: 'ftp://x', completion_status: 'maybe' }, 422, 'Invalid request data', {
      reference: 'must be at most 50 characters',
      amount: 'must be greater than 0',
      reason: 'must be at most 200 characters',
      webhook_url: 'must be an http(s) URL',
      completion_status: 'must be one of "success", "failed"',
    })
    await expectRefused(sb, { payment_reference: 'nope-nope', reference: ref('rf') }, 404, 'Transaction not found')
    const failed = cardPayload('4084080000100001')
    expect((await sb.charge(failed)).body.data.status).toBe('failed')
    await expectRefused(sb, { payment_reference: failed.reference, reference: ref('rf') }, 400, 'Refund can only be requested on a successful transaction')
    const fresh = cardPayload(CARD, { amount: 1000 })
    await sb.charge(fresh)
    await expectRefused(sb, { payment_reference: fresh.reference, reference: ref('rf') }, 400, 'Transaction has not yet been settled')
    await expectRefused(sb, { payment_reference: pay, reference: ref('rf'), amount: 1000.01 }, 400, "Amount can't be more than NGN 1000")
    await expectRefused(sb, { payment_reference: pay, reference: ref('rf'), amount: 99.99 }, 400, 'Refund amount cannot be less than NGN 100.00')
    const taken = ref('rf')
    expect((await initiate(sb, { payment_reference: pay, reference: taken, amount: 100 })).status).toBe(200)
    await expectRefused(sb, { payment_reference: pay, reference: taken, amount: 100 }, 409, `Refund already exists with reference ${taken}`)
  })

  it('Insufficient funds in disbursement wallet: a refund above the available balance; the same reference works once funded', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 0 } })).status).toBe(200)
    const pay = await settledCharge(sb, 1000)
    // the charge brought 984.95 net of fee and VAT: a full refund is more than the balance
    const reference = ref('rf')
    await expectRefused(sb, { payment_reference: pay, reference }, 400, 'Insufficient funds in disbursement wallet')
    await sb.call('POST', '/_sandbox/balances/fund', { currency: 'NGN', amount: 100 })
    expect((await initiate(sb, { payment_reference: pay, reference })).status).toBe(200)
    expect((await ngn(sb)).available_balance).toBe(84.95)
  })
})

describe('one refund record, whichever endpoint made it (docs/behaviour.md#preauth-refund, docs/behaviour.md#refunds)', () => {
  const cardRefund = (sb: TestSandbox, pref: string, target: string, amount: number) =>
    sb.call('POST', '/merchant/api/v1/charges/card/refund', { amount, currency: 'NGN', payment_reference: pref, transaction_reference: ref('crf'), target_transaction_reference: target })

  it('the card refund writes a refund record and its debit; both endpoints share what is left', async () => {
    const { sb, pay } = await paidInSandbox()
    const tx = await txOf(sb, pay)
    const before = (await ngn(sb)).available_balance
    const card = await cardRefund(sb, pay, tx, 300)
    expect(card.body.message).toBe('Refund successful')
    expect((await ngn(sb)).available_balance).toBe(sum(before, -300))
    const listed = await refundsOf(sb)
    expect(listed.refunds).toEqual([expect.objectContaining({ reference: card.body.data.transaction_reference, status: 'success', amount: '300.00', transaction_amount: '1000.00', payment_reference: pay })])
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 800 })).body.message).toBe('The maximum refundable amount for this transaction is NGN 700.00')
    expect((await initiate(sb, { payment_reference: pay, reference: ref('rf'), amount: 600 })).status).toBe(200)
    const over = await cardRefund(sb, pay, tx, 200)
    expect([over.status, over.body.message, over.body.data]).toEqual([400, 'Amount exceeds the amount left to refund', { amount_left: 100 }])
    // the card refund's transaction reference is a refund's reference: the refunds API cannot take it again
    const dup = await initiate(sb, { payment_reference: pay, reference: card.body.data.transaction_reference, amount: 100 })
    expect([dup.status, dup.body.message]).toEqual([409, `Refund already exists with reference ${card.body.data.transaction_reference}`])
    expect((await sb.call('GET', `/merchant/api/v1/charges/${pay}`)).body.data.total_refunded_amount).toBe(900)
  })

  it('a pre-authorization is refunded from its settled captures, and the card refund sees it', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await preauth(sb, 1000)
    const first = ref('cap')
    await capture(sb, h.pref, 400, first)
    expect((await initiate(sb, { payment_reference: h.pref, reference: ref('rf'), amount: 200 })).body.message).toBe('Transaction has not yet been settled')
    await capture(sb, h.pref, 300) // settles the first
    expect((await initiate(sb, { payment_reference: h.pref, reference: ref('rf'), amount: 500 })).body.message).toBe('Transaction has not yet been settled')
    expect((await initiate(sb, { payment_reference: h.pref, reference: ref('rf'), amount: 400 })).status).toBe(200)
    const q = (await sb.call('GET', `/merchant/api/v1/charges/${h.pref}`)).body.data
    expect([q.total_captured_amount, q.total_refunded_amount]).toEqual([700, 400])
    const again = await cardRefund(sb, h.pref, first, 100)
    expect([again.status, again.body.message]).toEqual([400, 'Amount exceeds the amount left to refund'])
  })

  it('the card refund refuses a reference a refund holds, and a balance too low, changing nothing', async () => {
    const { sb, pay } = await paidInSandbox()
    const tx = await txOf(sb, pay)
    const taken = ref('rf')
    await initiate(sb, { payment_reference: pay, reference: taken, amount: 100 })
    const res = await sb.call('POST', '/merchant/api/v1/charges/card/refund', { amount: 100, currency: 'NGN', payment_reference: pay, transaction_reference: taken, target_transaction_reference: tx })
    expect([res.status, res.body.message]).toEqual([400, 'Duplicate transaction reference'])
    await sb.call('POST', '/_sandbox/scenarios', { settings: { opening_balance: 0 } })
    const poor = await cardRefund(sb, pay, tx, 900)
    expect([poor.status, poor.body.message]).toEqual([400, 'Insufficient funds in disbursement wallet'])
    // only the refunds API's 100 counts: the refused card refunds wrote nothing
    expect((await sb.call('GET', `/merchant/api/v1/charges/${pay}`)).body.data.total_refunded_amount).toBe(100)
  })
})

describe('the pack setting refund_delay_seconds', () => {
  it('sets how long a refund processes', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { refund_delay_seconds: 5 } })).status).toBe(200)
    const pay = await settledCharge(sb, 1000)
    const reference = ref('rf')
    await initiate(sb, { payment_reference: pay, reference, amount: 100 })
    await advance(sb, 4)
    expect((await sb.call('GET', `/merchant/api/v1/refunds/${reference}`)).body.data.status).toBe('processing')
    await advance(sb, 1)
    expect((await sb.call('GET', `/merchant/api/v1/refunds/${reference}`)).body.data.status).toBe('success')
  })
})

describe('POST /_sandbox/refunds/{reference}/complete', () => {
  it('finishes a processing refund now, as asked; a finished one is 409, an unknown one 404', async () => {
    const { sb, pay } = await paidInSandbox()
    const reference = ref('rf')
    await initiate(sb, { payment_reference: pay, reference, amount: 500 })
    const before = (await ngn(sb)).available_balance
    const done = await sb.call('POST', `/_sandbox/refunds/${reference}/complete`, { outcome: 'failed', reason: 'Bank rejected the refund' })
    expect(done.status).toBe(200)
    expect(done.body.message).toBe('Refund completed')
    expect(done.body.data).toMatchObject({ reference, status: 'failed', status_reason: 'Bank rejected the refund' })
    expect((await ngn(sb)).available_balance).toBe(sum(before, 500))
    const again = await sb.call('POST', `/_sandbox/refunds/${reference}/complete`, {})
    expect([again.status, again.body.message]).toEqual([409, 'Refund has already been completed'])
    // its timer was cancelled: nothing more happens 60 s later
    await advance(sb, 60)
    expect((await sb.call('GET', '/_sandbox/events?event=refund.failed')).body.data).toHaveLength(1)
    expect((await sb.call('GET', '/_sandbox/events?event=refund.success')).body.data).toHaveLength(0)
    const unknown = await sb.call('POST', '/_sandbox/refunds/nope/complete', {})
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Refund not found'])
    expect((await sb.call('GET', '/merchant/api/v1/refunds/nope')).status).toBe(404)
  })
})

describe('GET /merchant/api/v1/refunds (docs/behaviour.md#lists, docs/behaviour.md#refunds)', () => {
  it('newest first, filtered by status and currency, paged by pointer', async () => {
    const sb = await sandbox({ frozen: true })
    const pay = await settledCharge(sb, 5000)
    const refs: string[] = []
    for (let i = 0; i < 5; i++) {
      refs.push(ref('rf'))
      await initiate(sb, { payment_reference: pay, reference: refs[i], amount: 100, completion_status: i % 2 ? 'failed' : 'success' })
      await advance(sb, 1)
    }
    await advance(sb, 60)
    const all = await refundsOf(sb)
    expect(all.has_more).toBe(false)
    expect(all.refunds.map((r: any) => r.reference)).toEqual([...refs].reverse())
    expect(Object.keys(all.refunds[0]).sort()).toEqual(['amount', 'completed_at', 'created_at', 'currency', 'payment_reference', 'pointer', 'reason', 'reference', 'status', 'transaction_amount'])
    expect((await refundsOf(sb, '?status=failed')).refunds.map((r: any) => r.reference)).toEqual([refs[3], refs[1]])
    expect((await refundsOf(sb, '?currency=KES')).refunds).toEqual([])
    const page = await refundsOf(sb, '?limit=2')
    expect([page.has_more, page.refunds.map((r: any) => r.reference)]).toEqual([true, [refs[4], refs[3]]])
    const next = await refundsOf(sb, `?limit=2&starting_after=${page.refunds[1].pointer}`)
    expect(next.refunds.map((r: any) => r.reference)).toEqual([refs[2], refs[1]])
    const bad = await sb.call('GET', '/merchant/api/v1/refunds?status=done')
    expect([bad.status, bad.body.data]).toEqual([422, fieldMessages({ status: 'must be one of "processing", "success", "failed"' })])
    const both = await sb.call('GET', `/merchant/api/v1/refunds?starting_after=${refs[1]}&ending_before=${refs[3]}`)
    expect([both.status, both.body.data]).toEqual([422, fieldMessages({ starting_after: 'cannot be used with ending_before' })])
    expect((await refundsOf(sb, `?payment_reference=${pay}&limit=100`)).refunds).toHaveLength(5)
    // a reset empties them with the rest of the namespace
    await sb.call('POST', '/_sandbox/reset')
    expect(await refundsOf(sb)).toEqual({ has_more: false, refunds: [] })
  })
})

describe('the dashboard panel of refunds (docs/behaviour.md#dashboard)', () => {
  it('lists refunds of both endpoints with their status; a processing one offers Succeed and Fail', async () => {
    const { sb, pay } = await paidInSandbox()
    const reference = ref('rf')
    await initiate(sb, { payment_reference: pay, reference, amount: 250 })
    const page = await sb.call('GET', `/_sandbox/ui?ns=${SECRET}`, undefined, { key: null })
    expect(page.status).toBe(200)
    const panel = String(page.body).split('id="h-refunds"')[1].split('</section>')[0]
    expect(panel).toContain(reference)
    expect(panel).toContain('refunds API')
    expect(panel).toContain(`/_sandbox/refunds/${reference}/complete`)
    expect(panel).toContain('Succeed refund')
    await advance(sb, 60)
    const after = String((await sb.call('GET', `/_sandbox/ui/fragment?ns=${SECRET}`, undefined, { key: null })).body).split('id="h-refunds"')[1].split('</section>')[0]
    expect(after).toContain('b-success')
    expect(after).not.toContain('Succeed refund')
  })
})

describe('refunds of a virtual-account transfer and of a direct debit (docs/behaviour.md#refunds)', () => {
  it('a transfer into a virtual account is refunded at once (available at once); a direct debit once it settled', async () => {
    const sb = await sandbox({ frozen: true })
    const vba = await sb.call('POST', '/merchant/api/v1/virtual-bank-account', {
      account_name: 'Ada', account_reference: ref('vba'), permanent: true, bank_code: '000', customer: { name: 'Ada' }, kyc: { bvn: '22222222222' },
    })
    expect(vba.status).toBe(200)
    expect((await sb.call('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: vba.body.data.account_number, amount: 1000, currency: 'NGN' })).status).toBe(200)
    const transfer = (await sb.call('GET', '/merchant/api/v1/pay-ins')).body.data.payins[0].reference
    const before = await ngn(sb)
    const r1 = await initiate(sb, { payment_reference: transfer, reference: ref('rf'), amount: 400 })
    expect(r1.status).toBe(200)
    expect(r1.body.data).toMatchObject({ status: 'processing', payment_reference: transfer, amount_returned: 400 })
    expect((await ngn(sb)).available_balance).toBe(sum(before.available_balance, -400))

    const debit = ref('debit')
    const d = await sb.call('POST', '/merchant/api/v1/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE/debits', { amount: 1000, narration: 'monthly', currency: 'NGN', reference: debit })
    expect(d.status).toBe(200)
    await advance(sb, 60)
    expect((await sb.call('GET', `/merchant/api/v1/charges/${debit}`)).body.data.status).toBe('success')
    const early = await initiate(sb, { payment_reference: debit, reference: ref('rf'), amount: 100 })
    expect(early.status).toBe(400)
    expect(early.body.message).toBe('Transaction has not yet been settled')
    await advance(sb, 24 * 3600)
    const r2 = await initiate(sb, { payment_reference: debit, reference: ref('rf'), amount: 100 })
    expect(r2.status).toBe(200)
    await advance(sb, 60)
    const list = (await refundsOf(sb)).refunds
    expect(list.map((r: { payment_reference: string; status: string }) => [r.payment_reference, r.status])).toEqual([[debit, 'success'], [transfer, 'success']])
  })
})

describe('GET /refunds by date and by starting_before (docs/behaviour.md#lists)', () => {
  it('filters by the day it was made and pages back from a pointer', async () => {
    const sb = await sandbox({ frozen: true })
    const pay = await settledCharge(sb, 5000)
    const refs = [ref('rf-a'), ref('rf-b'), ref('rf-c')]
    for (const reference of refs) {
      expect((await initiate(sb, { payment_reference: pay, reference, amount: 100 })).status).toBe(200)
      await advance(sb, 24 * 3600)
    }
    const all = (await refundsOf(sb)).refunds
    expect(all.map((r: { reference: string }) => r.reference)).toEqual([...refs].reverse())
    const day = all[1].created_at.slice(0, 10)
    expect((await refundsOf(sb, `?date_from=${day}&date_to=${day}`)).refunds.map((r: { reference: string }) => r.reference)).toEqual([refs[1]])
    const back = await refundsOf(sb, `?starting_before=${all[1].pointer}`)
    expect(back).toEqual({ has_more: false, refunds: [all[0]] })
    expect(await refundsOf(sb, `?ending_before=${all[2].pointer}&limit=1`)).toEqual({ has_more: true, refunds: [all[1]] })
  })
})
