import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, SECRET, cardPayload, fieldMessages, ref, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'
import { NO_AUTH_CARD as CARD, DISPUTED_CARD as DISPUTED } from './helpers/cards.js'

const sandbox = sandboxPerTest()
const OPEN = 5_000_000
const HOUR = 3600

const ngn = async (sb: TestSandbox) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })
const openOn = (sb: TestSandbox, reference: string, body?: Record<string, unknown>) => sb.call('POST', `/_sandbox/charges/${reference}/chargeback`, body)
const answer = (sb: TestSandbox, reference: string, body: Record<string, unknown>, prefix = '') => sb.call('PATCH', `${prefix}/api/v1/chargebacks/${reference}`, body)
const query = (sb: TestSandbox, reference: string) => sb.call('GET', `/merchant/api/v1/chargebacks/${reference}`)
const history = async (sb: TestSandbox) => (await sb.call('GET', '/merchant/api/v1/balances/history?currency=NGN')).body.data.history as any[]

/** A successful card charge of `amount` NGN, settled by its time; its payment reference. */
async function paid(sb: TestSandbox, amount = 1000, card = CARD): Promise<string> {
  const payload = cardPayload(card, { amount })
  expect((await sb.charge(payload)).body.data.status).toBe('success')
  await advance(sb, 24 * HOUR)
  return payload.reference as string
}

/** A frozen-clock sandbox of its own with a paid card charge in it: its payment reference. */
async function paidInSandbox() {
  const sb = await sandbox({ frozen: true })
  return { sb, pay: await paid(sb) }
}

describe('opening a chargeback (docs/behaviour.md#chargebacks)', () => {
  it('holds the amount, is pending until its deadline on the namespace clock, and announces chargeback.pending', async () => {
    const { sb, pay } = await paidInSandbox()
    const before = await ngn(sb)
    const res = await openOn(sb, pay, { amount: 400, reason: 'goods not received' })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Chargeback opened')
    const cb = res.body.data
    expect(cb).toMatchObject({ status: 'pending', amount: '400.00', currency: 'NGN', reason: 'goods not received', payment_reference: pay, debited_amount: '0.00', answer: null, resolved_at: null })
    expect(cb.reference).toMatch(/^KPY-CHB-[A-Z0-9]{14}$/)
    expect(cb.transaction_reference).toMatch(/^KPY-C[A-Z]-/)
    // held, not debited: the balance is as it was
    expect(await ngn(sb)).toEqual(before)
    const clock = (await sb.call('GET', '/_sandbox/clock')).body.data
    expect(new Date(clock.now_ms + 24 * HOUR * 1000).toISOString().slice(0, 19).replace('T', ' ')).toBe(cb.deadline)
    const events = (await sb.call('GET', `/_sandbox/events?reference=${cb.reference}`)).body.data
    expect(events.map((e: any) => e.event)).toEqual(['chargeback.pending'])
    expect(events[0].data).toMatchObject({ reference: cb.reference, status: 'pending', amount: 400, payment: { reference: pay } })
  })

  it('refuses field by field and by state, changing nothing', async () => {
    const { sb, pay } = await paidInSandbox()
    expect(await openOn(sb, 'nope')).toMatchObject({ status: 404, body: { status: false, message: 'Transaction not found' } })
    const bad = await openOn(sb, pay, { amount: -5, deadline_hours: 0, reason: '' })
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchObject({ error: 'validation_error', message: 'Invalid request data' })
    expect(Object.keys(bad.body.data).sort()).toEqual(['amount', 'deadline_hours', 'reason'])
    expect(await openOn(sb, pay, { amount: 1000.01 })).toMatchObject({ status: 400, body: { message: 'The maximum chargeable amount for this transaction is NGN 1,000.00' } })
    const failed = cardPayload('4084080000100001', { amount: 100 })
    await sb.charge(failed)
    expect(await openOn(sb, failed.reference as string)).toMatchObject({ status: 400, body: { message: 'A chargeback can only be opened on a successful transaction' } })
    expect((await sb.call('GET', '/merchant/api/v1/chargebacks')).body.data.chargebacks).toEqual([])
  })

  it('the amount is what is left after refunds, and refunds after it ask the same rule', async () => {
    const { sb, pay } = await paidInSandbox()
    const r = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: ref('rf'), amount: 300 })
    expect(r.status).toBe(200)
    expect(await openOn(sb, pay, { amount: 701 })).toMatchObject({ status: 400, body: { message: 'The maximum chargeable amount for this transaction is NGN 700.00' } })
    const cb = (await openOn(sb, pay)).body.data
    expect(cb.amount).toBe('700.00')
    // nothing is left: a refund, the card refund, and another chargeback are refused
    expect(await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: pay, reference: ref('rf'), amount: 100 })).toMatchObject({ status: 409 })
    const tx = cb.transaction_reference
    const card = await sb.call('POST', '/merchant/api/v1/charges/card/refund', { payment_reference: pay, transaction_reference: ref('crf'), target_transaction_reference: tx, amount: 100, currency: 'NGN' })
    expect(card.status).toBe(400)
    expect(card.body.data).toEqual({ amount_left: 0 })
    expect(await openOn(sb, pay)).toMatchObject({ status: 409, body: { message: 'This transaction has been returned in full: there is nothing left to charge back' } })
  })
})

describe('PATCH /api/v1/chargebacks/:reference (docs/behaviour.md#chargebacks)', () => {
  it('accepted: the whole amount is debited once, in the balance history as a chargeback deduction; answered twice is 409', async () => {
    const { sb, pay } = await paidInSandbox()
    const before = await ngn(sb)
    const cb = (await openOn(sb, pay, { amount: 250 })).body.data
    const res = await answer(sb, cb.reference, { status: 'accepted' })
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Chargeback updated successfully')
    expect(res.body.data).toMatchObject({ status: 'accepted', answer: 'accepted', debited_amount: '250.00' })
    expect(await ngn(sb)).toEqual({ ...before, available_balance: before.available_balance - 250 })
    const row = (await history(sb))[0]
    expect(row).toMatchObject({ amount: '250.00', direction: 'debit', source: 'chargeback', source_reference: cb.reference, description: `Chargeback deduction for ${cb.transaction_reference}` })
    expect(await answer(sb, cb.reference, { status: 'declined', evidence: 'f', reason: 'r' }, '/merchant')).toMatchObject({ status: 409, body: { message: 'This chargeback has already been answered' } })
    await advance(sb, 100 * HOUR)
    expect(await ngn(sb)).toEqual({ ...before, available_balance: before.available_balance - 250 })
    // the pages document no event for an acceptance
    expect((await sb.call('GET', `/_sandbox/events?reference=${cb.reference}`)).body.data.map((e: any) => e.event)).toEqual(['chargeback.pending'])
  })

  it('may take the balance below nothing, and a snapshot of that namespace restores (a chargeback overdraws, docs/behaviour.md#snapshots)', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.call('POST', '/_sandbox/scenarios', { name: 'empty', settings: { opening_balance: 0 } })).status).toBe(200)
    const pay = await paid(sb)
    const cb = (await openOn(sb, pay)).body.data
    expect((await answer(sb, cb.reference, { status: 'accepted' })).status).toBe(200)
    // the fee was the merchant's: what it was credited is less than what the customer's bank took back
    expect((await ngn(sb)).available_balance).toBeLessThan(0)
    const snap = (await sb.call('GET', '/_sandbox/snapshot')).body.data
    const other = `${SECRET}_overdrawn`
    const restored = await sb.call('POST', '/_sandbox/snapshot', { ...snap, key: other, records: { ...snap.records, meta: { ...snap.records.meta, ns: { ...snap.records.meta.ns, secret_key: other } } } }, { key: other })
    expect(restored.status).toBe(200)
    expect((await sb.call('GET', '/merchant/api/v1/balances', undefined, { key: other })).body.data.NGN).toEqual(await ngn(sb))
    // the same debit under any other source is still refused: below nothing by more than chargebacks took
    const ledger = Object.fromEntries(Object.entries(snap.records.ledger as Record<string, any>).map(([k, e]) => [k.startsWith('chargeback:') ? k.replace(/^chargeback:/, 'payout:') : k, e]))
    const refused = await sb.call('POST', '/_sandbox/snapshot', { ...snap, key: other, records: { ...snap.records, ledger, meta: { ...snap.records.meta, ns: { ...snap.records.meta.ns, secret_key: other } } } }, { key: other })
    expect(refused.status).toBe(422)
    expect(Object.keys(refused.body.data).join(' ')).toMatch(/records\.ledger\.payout:.*\.amount/)
  })

  it('unanswered by its deadline: auto_accepted, debited, announced', async () => {
    const { sb, pay } = await paidInSandbox()
    const before = await ngn(sb)
    const cb = (await openOn(sb, pay, { deadline_hours: 2 })).body.data
    await advance(sb, 2 * HOUR - 1)
    expect((await query(sb, cb.reference)).body.data.status).toBe('pending')
    await advance(sb, 1)
    expect((await query(sb, cb.reference)).body).toMatchObject({ message: 'Chargeback retrieved successfully', data: { status: 'auto_accepted', debited_amount: '1000.00' } })
    expect((await ngn(sb)).available_balance).toBe(before.available_balance - 1000)
    expect((await sb.call('GET', `/_sandbox/events?reference=${cb.reference}`)).body.data.map((e: any) => e.event)).toEqual(['chargeback.pending', 'chargeback.auto_accepted'])
    expect(await answer(sb, cb.reference, { status: 'accepted' })).toMatchObject({ status: 409 })
  })

  it('declined: decided by the pack on the clock (won: nothing debited, the hold released); the control call decides lost', async () => {
    const { sb, pay } = await paidInSandbox()
    const before = await ngn(sb)
    const won = (await openOn(sb, pay, { amount: 300 })).body.data
    const d = await answer(sb, won.reference, { status: 'declined', evidence: 'KPY-DOC-1', reason: 'the goods were delivered' })
    expect(d.body.data).toMatchObject({ status: 'declined', answer: 'declined', evidence: 'KPY-DOC-1', answer_reason: 'the goods were delivered', debited_amount: '0.00' })
    await advance(sb, 48 * HOUR)
    expect((await query(sb, won.reference)).body.data).toMatchObject({ status: 'won', debited_amount: '0.00' })
    expect(await ngn(sb)).toEqual(before)
    // the hold is released: the whole 1,000 can be charged back again
    const lost = (await openOn(sb, pay)).body.data
    expect(lost.amount).toBe('1000.00')
    await answer(sb, lost.reference, { status: 'declined', evidence: 'e', reason: 'r' })
    const decided = await sb.call('POST', `/_sandbox/chargebacks/${lost.reference}/decide`, { outcome: 'lost' })
    expect(decided.body).toMatchObject({ message: 'Chargeback decided', data: { status: 'lost', debited_amount: '1000.00' } })
    expect((await ngn(sb)).available_balance).toBe(before.available_balance - 1000)
    expect(await sb.call('POST', `/_sandbox/chargebacks/${lost.reference}/decide`, { outcome: 'won' })).toMatchObject({ status: 409, body: { message: 'Only a declined or partially accepted chargeback can be decided' } })
    expect((await sb.call('GET', `/_sandbox/events?reference=${lost.reference}`)).body.data.map((e: any) => e.event)).toEqual(['chargeback.pending', 'chargeback.declined', 'chargeback.lost'])
  })

  it('partial: the accepted part is debited now; lost later debits the rest, never more than the amount', async () => {
    const sb = await sandbox({ frozen: true, scenarios: undefined })
    await sb.call('POST', '/_sandbox/scenarios', { settings: { chargeback_decision: 'lost', chargeback_decision_hours: 1 } })
    const pay = await paid(sb)
    const before = await ngn(sb)
    const cb = (await openOn(sb, pay, { amount: 600 })).body.data
    expect(await answer(sb, cb.reference, { status: 'partial', amount: 600, evidence: 'e', reason: 'r' })).toMatchObject({ status: 400, body: { message: 'The accepted amount must be less than the chargeback amount of NGN 600.00' } })
    const p = await answer(sb, cb.reference, { status: 'partial', amount: 150.5, evidence: 'e', reason: 'r' })
    expect(p.body.data).toMatchObject({ status: 'partial', accepted_amount: '150.50', debited_amount: '150.50' })
    expect((await ngn(sb)).available_balance).toBe(before.available_balance - 150.5)
    await advance(sb, HOUR)
    expect((await query(sb, cb.reference)).body.data).toMatchObject({ status: 'lost', debited_amount: '600.00' })
    expect((await ngn(sb)).available_balance).toBe(before.available_balance - 600)
    expect((await history(sb)).filter((h) => h.source === 'chargeback').map((h) => h.amount)).toEqual(['449.50', '150.50'])
  })

  it('refuses a bad answer field by field in the documented envelope, and an unknown reference with 404', async () => {
    const { sb, pay } = await paidInSandbox()
    const cb = (await openOn(sb, pay)).body.data
    const none = await answer(sb, cb.reference, {})
    expect(none).toMatchObject({ status: 422, body: { status: false, error: 'validation_error', message: 'Invalid request data', data: { status: { message: expect.any(String) } } } })
    const declined = await answer(sb, cb.reference, { status: 'declined' })
    expect(declined.body.data).toEqual(fieldMessages({ evidence: 'is required when status is declined or partial', reason: 'is required when status is not accepted' }))
    const partial = await answer(sb, cb.reference, { status: 'partial', evidence: 'e', reason: 'r' })
    expect(partial.body.data).toEqual(fieldMessages({ amount: 'is required when status is partial' }))
    expect((await answer(sb, cb.reference, { status: 'accepted', amount: 5 })).body.data).toEqual(fieldMessages({ amount: 'is only taken when status is partial' }))
    expect((await answer(sb, cb.reference, { status: 'won' })).status).toBe(422)
    expect(await answer(sb, 'KPY-CHB-nope', { status: 'accepted' })).toMatchObject({ status: 404, body: { status: false, message: 'Chargeback not found', data: null } })
    // a path under the bare prefix that no route serves is the API's 404, not the bare host's welcome
    expect(await sb.call('GET', `/api/v1/chargebacks/${cb.reference}/evidence`)).toMatchObject({ status: 404, body: { status: false, message: 'Route not found' } })
    expect((await query(sb, cb.reference)).body.data).toMatchObject({ status: 'pending', debited_amount: '0.00' })
  })
})

describe('reading chargebacks, and the disputed test card (docs/behaviour.md#chargebacks)', () => {
  it('lists newest first, filtered by status and payment reference, under both prefixes', async () => {
    const { sb, pay: a } = await paidInSandbox()
    const b = await paid(sb)
    const first = (await openOn(sb, a, { amount: 100 })).body.data
    await advance(sb, 1)
    const second = (await openOn(sb, b, { amount: 200 })).body.data
    await answer(sb, second.reference, { status: 'accepted' })
    const all = await sb.call('GET', '/api/v1/chargebacks')
    expect(all.body.message).toBe('Chargebacks retrieved successfully')
    expect(all.body.data.chargebacks.map((c: any) => c.reference)).toEqual([second.reference, first.reference])
    expect(all.body.data.chargebacks[0].pointer).toBe(second.reference)
    expect((await sb.call('GET', '/merchant/api/v1/chargebacks?status=pending')).body.data.chargebacks.map((c: any) => c.reference)).toEqual([first.reference])
    expect((await sb.call('GET', `/merchant/api/v1/chargebacks?payment_reference=${b}`)).body.data.chargebacks.map((c: any) => c.reference)).toEqual([second.reference])
    expect((await sb.call('GET', '/merchant/api/v1/chargebacks?status=open')).status).toBe(422)
    expect((await sb.call('GET', `/api/v1/chargebacks/${first.reference}`)).body.data.amount).toBe('100.00')
  })

  it('a charge of the disputed test card opens a chargeback of its whole amount at once', async () => {
    const sb = await sandbox({ frozen: true })
    const payload = cardPayload(DISPUTED, { amount: 2500 })
    expect((await sb.charge(payload)).body.data.status).toBe('success')
    const list = (await sb.call('GET', `/merchant/api/v1/chargebacks?payment_reference=${payload.reference}`)).body.data.chargebacks
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ status: 'pending', amount: '2500.00', payment_reference: payload.reference })
    // any other card is not disputed
    await paid(sb)
    expect((await sb.call('GET', '/merchant/api/v1/chargebacks')).body.data.chargebacks).toHaveLength(1)
  })
})

describe('the dashboard (docs/behaviour.md#dashboard, docs/behaviour.md#chargebacks)', () => {
  it('a successful charge has the button that opens a chargeback; a declined one the buttons that decide it', async () => {
    const { sb, pay } = await paidInSandbox()
    const page = async () => String((await sb.call('GET', `/_sandbox/ui?ns=${SECRET}`, undefined, { key: null })).body)
    const charges = (await page()).split('id="h-charges"')[1].split('</section>')[0]
    expect(charges).toContain('/chargeback')
    expect(charges).toContain(`Open a chargeback on ${pay}`)
    const cb = (await openOn(sb, pay, { amount: 100, reason: 'fraudulent' })).body.data
    await answer(sb, cb.reference, { status: 'declined', evidence: 'e', reason: 'delivered' })
    const panel = (await page()).split('id="h-chargebacks"')[1].split('</section>')[0]
    expect(panel).toContain(cb.reference)
    expect(panel).toContain('fraudulent')
    expect(panel).toContain(`/_sandbox/chargebacks/${cb.reference}/decide`)
    expect(panel).toContain(`Decide chargeback ${cb.reference} lost`)
  })
})

describe('chargebacks on pre-authorizations (docs/behaviour.md#chargebacks, docs/behaviour.md#preauth)', () => {
  const M = '/merchant/api/v1/charges/card'
  async function hold(sb: TestSandbox, amount = 1000): Promise<{ pref: string; tx: string }> {
    const res = await sb.call('POST', `${M}/pre-authorize`, { charge_data: encryptChargeData(cardPayload(CARD, { amount }), ENC_KEY) })
    expect(res.body.data.status).toBe('pre_authorized')
    return { pref: res.body.data.payment_reference, tx: res.body.data.transaction_reference }
  }
  const capture = (sb: TestSandbox, pref: string, amount: number, tx = ref('cap')) => sb.call('POST', `${M}/capture`, { amount, currency: 'NGN', payment_reference: pref, transaction_reference: tx })
  const voidOf = (sb: TestSandbox, pref: string, target: string) => sb.call('POST', `${M}/void`, { payment_reference: pref, transaction_reference: ref('void'), target_transaction_reference: target })

  it('a captured one is charged back for up to what was captured less refunds, and debited once when accepted', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await hold(sb, 1000)
    const first = ref('cap')
    expect((await capture(sb, h.pref, 600, first)).status).toBe(200)
    expect((await capture(sb, h.pref, 300)).status).toBe(200)
    await advance(sb, 24 * HOUR)
    expect((await sb.call('POST', `${M}/refund`, { amount: 200, currency: 'NGN', payment_reference: h.pref, transaction_reference: ref('crf'), target_transaction_reference: first })).status).toBe(200)
    // captured 900, refunded 200: 700 is left
    expect(await openOn(sb, h.pref, { amount: 700.01 })).toMatchObject({ status: 400, body: { message: 'The maximum chargeable amount for this transaction is NGN 700.00' } })
    const before = await ngn(sb)
    const cb = (await openOn(sb, h.tx, { amount: 500 })).body.data
    expect(cb).toMatchObject({ status: 'pending', amount: '500.00', payment_reference: h.pref, transaction_reference: h.tx })
    // 200 is left: the refunds API and the card refund are held to it
    const over = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference: h.pref, reference: ref('rf'), amount: 201 })
    expect(over).toMatchObject({ status: 400, body: { message: 'The maximum refundable amount for this transaction is NGN 200.00' } })
    const card = await sb.call('POST', `${M}/refund`, { amount: 201, currency: 'NGN', payment_reference: h.pref, transaction_reference: ref('crf'), target_transaction_reference: first })
    expect(card).toMatchObject({ status: 400, body: { message: 'Amount exceeds the amount left to refund', data: { amount_left: 200 } } })
    expect((await answer(sb, cb.reference, { status: 'accepted' })).body.data).toMatchObject({ status: 'accepted', debited_amount: '500.00' })
    expect(await ngn(sb)).toEqual({ ...before, available_balance: before.available_balance - 500 })
    expect(await openOn(sb, h.pref, { amount: 200.01 })).toMatchObject({ status: 400 })
    expect((await openOn(sb, h.pref)).body.data.amount).toBe('200.00')
    expect(await openOn(sb, h.pref)).toMatchObject({ status: 409, body: { message: 'This transaction has been returned in full: there is nothing left to charge back' } })
  })

  it('what a chargeback holds of an unsettled capture cannot be voided, the capture nor the authorization; won, it can', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await hold(sb, 1000)
    const cap = ref('cap')
    expect((await capture(sb, h.pref, 400, cap)).status).toBe(200)
    const cb = (await openOn(sb, h.pref, { amount: 100 })).body.data
    const refused = { status: 400, body: { status: false, message: 'A chargeback holds what was captured: the capture cannot be voided' } }
    expect(await voidOf(sb, h.pref, cap)).toMatchObject(refused)
    expect(await voidOf(sb, h.pref, h.tx)).toMatchObject(refused)
    expect((await sb.call('GET', `/merchant/api/v1/charges/${h.pref}`)).body.data).toMatchObject({ status: 'pre_authorized', total_captured_amount: 400 })
    expect((await answer(sb, cb.reference, { status: 'declined', evidence: 'f', reason: 'r' })).status).toBe(200)
    expect((await sb.call('POST', `/_sandbox/chargebacks/${cb.reference}/decide`, { outcome: 'won' })).body.data.status).toBe('won')
    expect((await voidOf(sb, h.pref, cap)).status).toBe(200)
  })

  it('an uncaptured or voided one is refused with the reason, changing nothing', async () => {
    const sb = await sandbox({ frozen: true })
    const h = await hold(sb, 1000)
    expect(await openOn(sb, h.pref)).toMatchObject({ status: 400, body: { status: false, message: 'Nothing of this pre-authorization has been captured: only a captured amount can be charged back', data: null } })
    const cap = ref('cap')
    expect((await capture(sb, h.pref, 400, cap)).status).toBe(200)
    expect((await voidOf(sb, h.pref, cap)).status).toBe(200)
    expect(await openOn(sb, h.pref)).toMatchObject({ status: 400, body: { message: 'Nothing of this pre-authorization has been captured: only a captured amount can be charged back' } })
    expect((await capture(sb, h.pref, 300)).status).toBe(200)
    expect((await voidOf(sb, h.pref, h.tx)).status).toBe(200)
    expect(await openOn(sb, h.tx)).toMatchObject({ status: 400, body: { message: 'This pre-authorization has been voided: nothing of it is left to charge back' } })
    const zero = await hold(sb, 0)
    expect(await openOn(sb, zero.pref)).toMatchObject({ status: 400, body: { message: 'This pre-authorization has been voided: nothing of it is left to charge back' } })
    expect((await sb.call('GET', '/merchant/api/v1/chargebacks')).body.data.chargebacks).toEqual([])
  })
})
