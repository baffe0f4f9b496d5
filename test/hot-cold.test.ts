import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { encryptChargeData } from '../src/cards/crypto.js'
import { ENC_KEY, cardPayload, makeSandbox, type TestSandbox } from './helpers/sandbox.js'

/**
 * docs/architecture.md, "The store": whether a record is kept live or as compressed text changes
 * nothing a caller sees. The same requests (card charges with and without steps, a declined one,
 * a pre-authorization captured and voided, mobile money, a bank transfer, checkouts paid by card
 * and by wallet, refunds of both kinds, a payout, the clock moved past settlement and the
 * completions) go to a sandbox keeping one record live per collection in blocks of two, where
 * nearly every read parses a record back from its text, and to one with the default sizes. Every
 * answer, the balances and their history, the lists and the events are the same, but for the
 * references and numbers each sandbox draws at random.
 */

const M = '/merchant/api/v1'
const CARDS = ['4084127883172787', '4084080000100001', '5188513618552975', '5442056106072595', '4562543755474674', '4084080001800005']

/** The requests, in order, against one sandbox; what each answered. */
async function script(sb: TestSandbox): Promise<unknown[]> {
  const answers: unknown[] = []
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await sb.call(method, path, body)
    answers.push({ call: `${method} ${path}`, status: res.status, body: res.body })
    return res.body
  }
  const charge = async (payload: Record<string, unknown>, path = `${M}/charges/card`) =>
    call('POST', path, { charge_data: encryptChargeData(payload, ENC_KEY) })
  const refs: string[] = []
  // card charges: steps answered (a PIN, then an OTP), what still waits completed by the control call
  for (const [i, number] of CARDS.entries()) {
    const reference = `order-card-${i}`
    refs.push(reference)
    const first = await charge(cardPayload(number, { reference, amount: 1000 + i }))
    const tx = first.data?.transaction_reference
    if (first.data?.status !== 'processing') continue
    await call('POST', `${M}/charges/card/authorize`, { transaction_reference: tx, authorization: { pin: '1234' } })
    await call('POST', `${M}/charges/card/authorize`, { transaction_reference: tx, authorization: { otp: '123456' } })
    await call('POST', `/_sandbox/charges/${tx}/complete`, { outcome: 'success' })
  }
  // a pre-authorization, two captures, one voided
  refs.push('order-hold-1')
  await charge(cardPayload('4084127883172787', { reference: 'order-hold-1', amount: 5000 }), `${M}/charges/card/pre-authorize`)
  await call('POST', `${M}/charges/card/capture`, { payment_reference: 'order-hold-1', transaction_reference: 'order-cap-1', amount: 1000, currency: 'NGN' })
  await call('POST', `${M}/charges/card/capture`, { payment_reference: 'order-hold-1', transaction_reference: 'order-cap-2', amount: 1500, currency: 'NGN' })
  await call('POST', `${M}/charges/card/void`, { payment_reference: 'order-hold-1', transaction_reference: 'order-void-1', target_transaction_reference: 'order-cap-2' })
  // mobile money, its OTP
  refs.push('order-mm-1')
  const mm = await call('POST', `${M}/charges/mobile-money`, { reference: 'order-mm-1', amount: 500, currency: 'KES', customer: { email: 'b@example.com' }, mobile_money: { number: '254700000000' } })
  if (mm.data?.status === 'processing') await call('POST', `${M}/charges/mobile-money/authorize`, { reference: mm.data.transaction_reference, token: '123456' })
  // a bank transfer, completed
  refs.push('order-bt-1')
  await call('POST', `${M}/charges/bank-transfer`, { reference: 'order-bt-1', amount: 20_000, currency: 'NGN', auto_complete: false, customer: { email: 'a@b.co' } })
  await call('POST', '/_sandbox/charges/order-bt-1/complete', { outcome: 'success' })
  // pay with bank, completed by the control call
  refs.push('order-pwb-1')
  await call('POST', `${M}/charge/pay-with-bank`, { reference: 'order-pwb-1', amount: 2500, currency: 'NGN', bank_code: '100004', customer: { name: 'Ada', email: 'a@b.co' } })
  await call('POST', '/_sandbox/charges/order-pwb-1/complete', { outcome: 'success' })
  // checkouts, paid by card, by wallet and with bank
  for (const [reference, channel, currency] of [['order-co-1', 'card', 'NGN'], ['order-co-2', 'mobile_money', 'KES'], ['order-co-3', 'pay_with_bank', 'NGN']]) {
    refs.push(reference)
    await call('POST', `${M}/charges/initialize`, { reference, amount: 3000, currency, customer: { email: 'a@b.co', name: 'Ada' }, redirect_url: 'https://merchant.example/back' })
    await call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel })
  }
  // past settlement: refunds of a charge and of a capture, a payout
  await call('POST', '/_sandbox/clock/advance', { seconds: 3 * 86_400 })
  await call('POST', `${M}/refunds/initiate`, { payment_reference: 'order-card-0', reference: 'order-rf-1', amount: 300 })
  await call('POST', `${M}/refunds/initiate`, { payment_reference: 'order-bt-1', reference: 'order-rf-2', completion_status: 'failed' })
  await call('POST', `${M}/charges/card/refund`, { payment_reference: 'order-hold-1', transaction_reference: 'order-crf-1', target_transaction_reference: 'order-cap-1', amount: 200, currency: 'NGN' })
  await call('POST', `${M}/transactions/disburse`, {
    reference: 'order-po-1',
    destination: { type: 'bank_account', amount: 1000, currency: 'NGN', narration: 'Salary', bank_account: { bank: '033', account: '0000000000' }, customer: { name: 'Ada Payee', email: 'ada@example.com' } },
  })
  await call('POST', '/_sandbox/clock/advance', { seconds: 600 })
  // what the merchant reads back
  for (const reference of refs) await call('GET', `${M}/charges/${reference}`)
  for (const reference of ['order-rf-1', 'order-rf-2', 'order-crf-1']) await call('GET', `${M}/refunds/${reference}`)
  await call('GET', `${M}/transactions/order-po-1`)
  await call('GET', `${M}/balances`)
  await call('GET', `${M}/balances/history?currency=NGN`)
  await call('GET', `${M}/pay-ins`)
  await call('GET', `${M}/refunds`)
  await call('GET', `${M}/payouts`)
  await call('GET', '/_sandbox/events')
  return answers
}

/**
 * A string drawn at random (a reference, an account number, an id, a line naming one): it holds a
 * digit, or a run of ten id characters with a capital past its first (the words of an answer have
 * neither).
 */
const DRAWN = /\d|(?=[\w-]{10})[\w-]+[A-Z]/

/**
 * `b` is `a` but for the strings each sandbox drew: those may differ, as long as each string of
 * one stands for the same string of the other everywhere.
 */
function alike(a: unknown, b: unknown, at: string, there: Map<string, string>, back: Map<string, string>): void {
  if (typeof a === 'string' && typeof b === 'string' && DRAWN.test(a) && DRAWN.test(b)) {
    expect(there.get(a) ?? b, at).toBe(b)
    expect(back.get(b) ?? a, at).toBe(a)
    there.set(a, b)
    back.set(b, a)
    return
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    expect(Object.keys(b), at).toEqual(Object.keys(a))
    for (const [k, v] of Object.entries(a)) alike(v, (b as Record<string, unknown>)[k], `${at}.${k}`, there, back)
    return
  }
  expect(b, at).toEqual(a)
}

describe('records kept live or as text', () => {
  const opened: TestSandbox[] = []
  beforeAll(() => {
    // both sandboxes freeze their clock at the same moment
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-02T10:00:00.000Z') })
  })
  afterAll(async () => {
    vi.useRealTimers()
    for (const sb of opened) await sb.close()
  })

  it('give the same answers to the same requests', async () => {
    const cold = await makeSandbox({ frozen: true, env: { SANDBOX_HOT_RECORDS: '1', SANDBOX_COLD_BLOCK: '2' } })
    const usual = await makeSandbox({ frozen: true, env: { SANDBOX_HOT_RECORDS: '128', SANDBOX_COLD_BLOCK: '64' } })
    opened.push(cold, usual)
    const fromCold = await script(cold)
    const fromUsual = await script(usual)
    // the sequence did what it says: the records really went cold, and the money moved
    const kept = cold.deps.store.col('sk_test_sandbox', 'charges').coldStats()
    expect(kept.hot).toBeLessThanOrEqual(1)
    expect(kept.texts + kept.packed).toBeGreaterThan(10)
    expect(fromCold.length).toBeGreaterThan(40)
    // the steps that move money were taken (a step a card does not ask for is refused alike)
    const refused = fromCold.filter((a) => (a as { status: number }).status !== 200).map((a) => (a as { call: string }).call)
    expect(refused.filter((c) => !/authorize|complete/.test(c))).toEqual([])
    alike(fromUsual, fromCold, 'answers', new Map(), new Map())
  })
})
