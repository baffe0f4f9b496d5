import { describe, expect, it } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, cardPayload, ref, sandboxPerTest, type TestSandbox } from './helpers/sandbox.js'
import { NO_AUTH_CARD } from './helpers/cards.js'

/**
 * What public clients read that the answers lacked (docs/behaviour.md#card-outcomes-and-query, docs/behaviour.md#pay-ins-list): the charge
 * query's `metadata`, there and null when none was sent, for every kind of charge, and the pay-ins
 * list items' `payment_sources`, one object, as the npm SDK types them.
 */

const sandbox = sandboxPerTest()
const M = '/merchant/api/v1'

const okCall = async (sb: TestSandbox, method: string, path: string, body?: unknown) => {
  const res = await sb.call(method, path, body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data
}

/** one charge of every kind, none with metadata; the reference each one is queried by */
async function everyKind(sb: TestSandbox): Promise<Record<string, string>> {
  const card = cardPayload(NO_AUTH_CARD, { amount: 1000 })
  expect((await sb.charge(card)).status).toBe(200)
  const pre = cardPayload(NO_AUTH_CARD, { amount: 500 })
  await okCall(sb, 'POST', `${M}/charges/card/pre-authorize`, { charge_data: encryptChargeData(pre, ENC_KEY) })
  const mm = { reference: ref('mm'), amount: 100, currency: 'KES', customer: { email: 'w@example.com' }, mobile_money: { number: '254700000000' } }
  await okCall(sb, 'POST', `${M}/charges/mobile-money`, mm)
  const bt = { reference: ref('bt'), amount: 1500, currency: 'NGN', customer: { email: 'a@b.co' } }
  await okCall(sb, 'POST', `${M}/charges/bank-transfer`, bt)
  const co = { reference: ref('co'), amount: 700, currency: 'NGN', customer: { email: 'a@b.co' } }
  await okCall(sb, 'POST', `${M}/charges/initialize`, co)
  const pwb = { reference: ref('pwb'), amount: 1000, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada Obi', email: 'ada@example.com' } }
  await okCall(sb, 'POST', `${M}/charges/pay-with-bank`, pwb)
  const debit = { amount: 100, narration: 'monthly', currency: 'NGN', reference: ref('debit') }
  await okCall(sb, 'POST', `${M}/direct-debit/authorizations/AUTH-SANDBOX-ACTIVE/debits`, debit)
  const vba = await okCall(sb, 'POST', `${M}/virtual-bank-account`, { account_name: 'Ada Obi', account_reference: ref('vba'), permanent: true, bank_code: '000', customer: { name: 'Ada Obi' }, kyc: { bvn: '22222222222' } })
  await okCall(sb, 'POST', `${M}/virtual-bank-account/sandbox/credit`, { account_number: vba.account_number, amount: 1000, currency: 'NGN' })
  // the transfer into the account has no merchant reference: its own, the newest pay-in
  const newest = (await okCall(sb, 'GET', `${M}/pay-ins?limit=1`)).payins[0].pointer as string
  return {
    card: card.reference,
    'pre-authorization': pre.reference,
    'mobile money': mm.reference,
    'bank transfer': bt.reference,
    checkout: co.reference,
    'pay with bank': pwb.reference,
    'direct debit': debit.reference,
    'virtual account transfer': newest,
  }
}

describe('the charge query shows the fields its samples show (docs/behaviour.md#card-outcomes-and-query)', () => {
  it('for every kind of charge: no metadata, transaction_reference, vat, payment_method or times, and fee a number', async () => {
    const sb = await sandbox()
    const kinds = await everyKind(sb)
    for (const [kind, reference] of Object.entries(kinds)) {
      const q = await sb.call('GET', `${M}/charges/${reference}`)
      expect(q.status, kind).toBe(200)
      for (const field of ['metadata', 'transaction_reference', 'vat', 'payment_method', 'created_at', 'completed_at', 'amount_expected', 'bank_account', 'auth_model']) {
        expect(q.body.data, `${kind} ${field}`).not.toHaveProperty(field)
      }
      expect(typeof q.body.data.fee, kind).toBe('number')
    }
  })

  it('metadata sent with a charge is in its webhook, not in its query', async () => {
    const sb = await sandbox()
    const card = cardPayload(NO_AUTH_CARD, { metadata: { order: '42', 'cart-id': 7 } })
    await sb.charge(card)
    expect((await sb.call('GET', `${M}/charges/${card.reference}`)).body.data).not.toHaveProperty('metadata')
    const events = (await sb.call('GET', '/_sandbox/events')).body.data
    expect(events.find((e: { event: string }) => e.event === 'charge.success').data.metadata).toEqual({ order: '42', 'cart-id': 7 })
  })
})

describe('pay-ins list items carry payment_sources', () => {
  it('one object, not an array, with the fields the npm SDK maps', async () => {
    const sb = await sandbox()
    await everyKind(sb)
    const { payins } = await okCall(sb, 'GET', `${M}/pay-ins?limit=100`)
    expect(payins.length).toBe(8)
    for (const p of payins) {
      expect(p.payment_sources).toEqual({ amount_paid: p.amount_paid, narration: p.description, payment_source_type: p.payment_method, message: p.message, status: p.status })
    }
    // a paid card charge: what the SDK's item reads
    const card = payins.find((p: { payment_method: string; status: string }) => p.payment_method === 'card' && p.status === 'success')
    expect(card.payment_sources).toMatchObject({ amount_paid: '1000.00', payment_source_type: 'card', status: 'success', message: expect.any(String) })
  })
})
