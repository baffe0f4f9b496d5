import { describe, expect, it } from 'vitest'
import { SECRET, cardPayload, ref, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()
/** what the entries add to the opening balance, by currency (currencies with nothing left out) */
function balances(sb: TestSandbox) {
  const opening = sb.deps.ledger.opening(SECRET)
  const held = Object.entries(sb.deps.ledger.balances(SECRET, sb.deps.clocks.now(SECRET)))
  return Object.fromEntries(held.map(([c, b]) => [c, { pending: b.pending, available: b.available - (opening[c] ?? 0) }]).filter(([, b]) => (b as { pending: number }).pending || (b as { available: number }).available))
}
const advance = (sb: TestSandbox, seconds: number) => sb.call('POST', '/_sandbox/clock/advance', { seconds })

describe('the ledger: what each pay-in brings the merchant (docs/behaviour.md#ledger-and-balances)', () => {
  it('a card charge credits its net amount, pending for the settlement delay, then available', async () => {
    const sb = await sandbox({ frozen: true })
    const res = await sb.charge(cardPayload('4084127883172787', { amount: 1000 }))
    expect(res.body.data.status).toBe('success')
    // 1,000 less 14.00 fee and 1.05 VAT
    expect(balances(sb)).toEqual({ NGN: { pending: 98495, available: 0 } })
    await advance(sb, 24 * 3600 - 1)
    expect(balances(sb)).toEqual({ NGN: { pending: 98495, available: 0 } })
    await advance(sb, 1)
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 98495 } })
  })

  it('a failed charge and a pre-authorization credit nothing', async () => {
    const sb = await sandbox({ frozen: true })
    expect((await sb.charge(cardPayload('506066506066506067', { amount: 1000 }, { cvv: '408' }))).body.data.status).toBe('failed')
    const pre = await sb.call('POST', '/merchant/api/v1/charges/card/pre-authorize', { charge_data: (await import('../src/index.js')).encryptChargeData(cardPayload('4084127883172787', { amount: 500 }), 'sandbox-encryption-key-012345678') })
    expect(pre.status).toBe(200)
    expect(balances(sb)).toEqual({})
  })

  it('a bank transfer is available at once; a checkout is credited once, by the channel that paid it, its attempts not at all', async () => {
    const sb = await sandbox({ frozen: true })
    const bt = ref('bt')
    await sb.call('POST', '/merchant/api/v1/charges/bank-transfer', { reference: bt, amount: 1500, currency: 'NGN', merchant_bears_cost: true, customer: { email: 'a@b.co' } })
    await advance(sb, 120)
    // 1,500 less 22.50 fee and 1.69 VAT
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 147581 } })
    expect(sb.deps.ledger.of(SECRET, 'payin', bt)).toEqual([
      { direction: 'credit', amount: 147581, currency: 'NGN', available_at: expect.any(String), created_at: expect.any(String) },
    ])
    const co = ref('co')
    await sb.call('POST', '/merchant/api/v1/charges/initialize', { reference: co, amount: 200, currency: 'KES', customer: { email: 'a@b.co' } })
    await sb.call('POST', `/_sandbox/checkouts/${co}/pay`, { channel: 'mobile_money', outcome: 'failed' })
    await sb.call('POST', `/_sandbox/checkouts/${co}/pay`, { channel: 'mobile_money' })
    // 200 less 3.00 fee and 0.23 VAT, pending: a wallet settles after the delay
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 147581 }, KES: { pending: 19677, available: 0 } })
    const attempts = sb.deps.checkout.attempts(SECRET, sb.deps.checkout.get(SECRET, co))
    expect(attempts.map((a) => sb.deps.ledger.of(SECRET, 'payin', a.payment_reference))).toEqual([[], []])
    expect(sb.deps.ledger.of(SECRET, 'payin', co)).toHaveLength(1)
  })
})

describe('the ledger and virtual accounts', () => {
  it('a transfer into a virtual account is available at once, net of fee and VAT', async () => {
    const sb = await sandbox({ frozen: true })
    const vba = await sb.call('POST', '/merchant/api/v1/virtual-bank-account', { account_name: 'Ada', account_reference: ref('vba'), permanent: true, bank_code: '000', customer: { name: 'Ada' }, kyc: { bvn: '22222222222' } })
    expect(vba.status).toBe(200)
    const res = await sb.call('POST', '/merchant/api/v1/virtual-bank-account/sandbox/credit', { account_number: vba.body.data.account_number, amount: 1000, currency: 'NGN' })
    expect(res.status).toBe(200)
    // 1,000 less 15.00 fee and 1.13 VAT
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 98387 } })
  })
})

describe('a pay-in settled early by the control call (docs/behaviour.md#ledger-and-balances)', () => {
  it('moves its credit from pending to available at once, by two entries, and the history shows it once', async () => {
    const sb = await sandbox({ frozen: true })
    const res = await sb.charge(cardPayload('4084127883172787', { amount: 1000 }))
    const tx = res.body.data.transaction_reference
    expect(balances(sb)).toEqual({ NGN: { pending: 98495, available: 0 } })
    await advance(sb, 3600)
    expect((await sb.call('POST', `/_sandbox/captures/${tx}/settle`)).status).toBe(200)
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 98495 } })
    // settling again changes nothing
    expect((await sb.call('POST', `/_sandbox/captures/${tx}/settle`)).status).toBe(200)
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 98495 } })
    const history = async () => (await sb.call('GET', '/merchant/api/v1/balances/history?currency=NGN')).body.data.history
    expect((await history()).map((h: { amount: string; description: string }) => [h.amount, h.description])).toEqual([
      ['984.95', expect.stringMatching(/settled early$/)],
      ['5000000.00', 'Opening balance'],
    ])
    // when its settlement time comes, the first credit and the debit that took it back cancel out
    await advance(sb, 24 * 3600)
    expect(balances(sb)).toEqual({ NGN: { pending: 0, available: 98495 } })
    const after = await history()
    expect(after).toHaveLength(4)
    expect(after[0].balance_after).toBe('5000984.95')
    // no answer shows the entries
    const query = await sb.call('GET', `/merchant/api/v1/charges/${tx}`)
    expect(JSON.stringify(query.body)).not.toContain('settled_early')
  })
})

describe('refund eligibility and the balance agree after a pack change (docs/behaviour.md#ledger-and-balances, docs/behaviour.md#refunds)', () => {
  const NOT_SETTLED = 'Transaction has not yet been settled'
  const pendingNgn = async (sb: TestSandbox) => (await sb.call('GET', '/merchant/api/v1/balances')).body.data.NGN.pending_balance

  it('a card charge made under a 24 h delay stays unsettled for both refund endpoints while its credit is pending, after the delay is set to 0', async () => {
    const sb = await sandbox({ frozen: true })
    const charged = await sb.charge(cardPayload('4084127883172787', { amount: 1000 }))
    const { payment_reference, transaction_reference } = charged.body.data
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { settlement_delay_hours: 0 } })).status).toBe(200)
    expect(await pendingNgn(sb)).toBe(984.95)
    const refund = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference, reference: ref('rf'), amount: 500 })
    expect([refund.status, refund.body.message]).toEqual([400, NOT_SETTLED])
    const card = await sb.call('POST', '/merchant/api/v1/charges/card/refund', { payment_reference, target_transaction_reference: transaction_reference, transaction_reference: ref('crf'), amount: 500, currency: 'NGN' })
    expect([card.status, card.body.message]).toEqual([400, 'Only settled transactions can be refunded'])
    // when the credit made under the old delay becomes available, both refunds are taken
    await advance(sb, 24 * 3600)
    expect(await pendingNgn(sb)).toBe(0)
    expect((await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference, reference: ref('rf'), amount: 500 })).status).toBe(200)
  })

  it('a capture made under a 24 h delay is not settled while its credit is pending, after the delay is set to 0', async () => {
    const sb = await sandbox({ frozen: true })
    const { encryptChargeData } = await import('../src/index.js')
    const pre = await sb.call('POST', '/merchant/api/v1/charges/card/pre-authorize', { charge_data: encryptChargeData(cardPayload('4084127883172787', { amount: 1000 }), 'sandbox-encryption-key-012345678') })
    const payment_reference = pre.body.data.payment_reference
    const cap = await sb.call('POST', '/merchant/api/v1/charges/card/capture', { payment_reference, transaction_reference: ref('cap'), amount: 1000, currency: 'NGN' })
    expect(cap.status).toBe(200)
    expect((await sb.call('POST', '/_sandbox/scenarios', { settings: { settlement_delay_hours: 0 } })).status).toBe(200)
    expect(await pendingNgn(sb)).toBe(984.95)
    const refund = await sb.call('POST', '/merchant/api/v1/refunds/initiate', { payment_reference, reference: ref('rf'), amount: 500 })
    expect([refund.status, refund.body.message]).toEqual([400, NOT_SETTLED])
    // and, unsettled, it can still be voided
    const voided = await sb.call('POST', '/merchant/api/v1/charges/card/void', { payment_reference, transaction_reference: ref('void'), target_transaction_reference: cap.body.data.transaction_reference })
    expect(voided.status).toBe(200)
    expect(await pendingNgn(sb)).toBe(0)
  })
})
