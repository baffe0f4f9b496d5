import { describe, expect, it } from 'vitest'
import { ref, sandboxPerTest, type TestSandbox, fieldMessages } from './helpers/sandbox.js'

/**
 * Mobile money beyond KES and GHS (docs/behaviour.md#mobile-money-charge, docs/behaviour.md#test-wallets): for XAF, XOF, TZS and EGP, the
 * live testing page's success and failure wallets through their steps (an OTP where the page gives
 * one, then the STK prompt answered with PIN 1234), the wallet-number rule per currency, the
 * default steps of any other wallet, the pack's fee, the balance of each currency, and checkout's
 * mobile-money channel in each. Over app.request(), the clock frozen.
 */

const sandbox = sandboxPerTest()
const MM = '/merchant/api/v1/charges/mobile-money'

/** the live testing page's wallets (SPEC table of 5.1): success, failed, whether an OTP comes first */
const WALLETS = [
  { currency: 'XAF', ok: '237655123456', ko: '237677123456', otp: false, other: '237699999999' },
  { currency: 'XOF', ok: '2250500000000', ko: '2250123456789', otp: true, other: '2250799999999' },
  { currency: 'TZS', ok: '255780000000', ko: '255780000002', otp: true, other: '255799999999' },
  { currency: 'EGP', ok: '201200000000', ko: '201200000002', otp: false, other: '201099999999' },
] as const

const charge = (sb: TestSandbox, currency: string, number: string, extra: Record<string, unknown> = {}) =>
  sb.call('POST', MM, { reference: ref('mm'), amount: 1000, currency, customer: { email: 'payer@example.com', name: 'Awa' }, mobile_money: { number }, ...extra })

/** Takes a charge through its steps: the OTP when asked (a wrong one first), then the prompt with the PIN. */
async function through(sb: TestSandbox, tx: string, otp: boolean) {
  if (otp) {
    const wrong = await sb.call('POST', `${MM}/authorize`, { reference: tx, token: '000000' })
    expect([wrong.status, wrong.body.message, wrong.body.data.message, wrong.body.data.attempts_left]).toEqual([409, 'Authorization required', 'The OTP you provided is invalid', 2])
    const right = await sb.call('POST', `${MM}/authorize`, { reference: tx, token: '123456' })
    expect([right.status, right.body.code, right.body.data.auth_model]).toEqual([200, 'AA001', 'STK_PROMPT'])
  }
  return sb.call('POST', `${MM}/sandbox/authorize-stk`, { reference: tx, pin: '1234' })
}

describe.each(WALLETS)('mobile money in $currency (docs/behaviour.md#test-wallets)', ({ currency, ok, ko, otp, other }) => {
  it(`succeeds from ${ok}, ${otp ? 'OTP then' : 'straight to'} the STK prompt, and is credited to the ${currency} balance`, async () => {
    const sb = await sandbox({ frozen: true })
    const res = await charge(sb, currency, ok)
    expect(res.status).toBe(200)
    // the pack's fee, 1.5 %, and 7.5 % VAT on it, borne by the customer by default; XAF and XOF to whole francs (docs/behaviour.md#money)
    const [vat, expected] = currency === 'XAF' || currency === 'XOF' ? [1, 1016] : [1.13, 1016.13]
    expect(res.body).toMatchObject({ status: true, code: 'AA001', message: 'Authorization required', data: { currency, amount: 1000, fee: 15, vat, amount_expected: expected, auth_model: otp ? 'OTP' : 'STK_PROMPT', mobile_money: { number: `+${ok}` }, status: 'processing' } })
    const tx = res.body.data.transaction_reference
    const done = await through(sb, tx, otp)
    expect([done.status, done.body.message, done.body.data.status]).toEqual([200, 'Approved by financial institution', 'success'])
    const query = await sb.call('GET', `/merchant/api/v1/charges/${tx}`)
    expect(query.body.data).toMatchObject({ status: 'success', currency, amount_paid: expected.toFixed(2), mobile_money: { number: ok } })
    const balance = (await sb.call('GET', '/merchant/api/v1/balances')).body.data[currency]
    expect(balance).toEqual({ pending_balance: 1000, available_balance: 5_000_000 })
    const events = (await sb.call('GET', `/_sandbox/events?reference=${res.body.data.payment_reference}`)).body.data
    expect(events.map((e: { event: string }) => e.event)).toContain('charge.success')
  })

  it(`fails from ${ko} after its steps with Insufficient funds in wallet, and credits nothing`, async () => {
    const sb = await sandbox({ frozen: true })
    const res = await charge(sb, currency, ko)
    expect(res.body.data.auth_model).toBe(otp ? 'OTP' : 'STK_PROMPT')
    const done = await through(sb, res.body.data.transaction_reference, otp)
    expect([done.status, done.body.message, done.body.data.status]).toEqual([200, 'Insufficient funds in wallet', 'failed'])
    expect((await sb.call('GET', '/merchant/api/v1/balances')).body.data[currency]).toEqual({ pending_balance: 0, available_balance: 5_000_000 })
  })

  it('an unanswered prompt completes by itself on the clock; any other wallet takes the currency’s steps and succeeds', async () => {
    const sb = await sandbox({ frozen: true })
    const res = await charge(sb, currency, other)
    expect(res.body.data.auth_model).toBe(otp ? 'OTP' : 'STK_PROMPT')
    if (otp) await sb.call('POST', `${MM}/authorize`, { reference: res.body.data.transaction_reference, token: '123456' })
    await sb.call('POST', '/_sandbox/clock/advance', { seconds: 2 })
    expect((await sb.call('GET', `/merchant/api/v1/charges/${res.body.data.transaction_reference}`)).body.data.status).toBe('success')
  })
})

describe('the wallet number and currency rules (docs/behaviour.md#mobile-money-charge)', () => {
  it('refuses a number of another country or of the wrong length (Invalid phone number), and an unserved currency field by field, recording nothing', async () => {
    const sb = await sandbox()
    for (const [currency, number] of [
      ['XAF', '225050000000'],
      ['XOF', '225050000000'],
      ['TZS', '25578000000'],
      ['EGP', '2012000000001'],
      ['EGP', '254700000000'],
    ]) {
      const res = await charge(sb, currency, number)
      expect([res.status, res.body], `${currency} ${number}`).toEqual([422, { status: false, message: `Invalid phone number: ${number}`, data: null }])
    }
    const zar = await charge(sb, 'ZAR', '27820000000')
    expect([zar.status, zar.body.message, zar.body.data]).toEqual([422, 'Invalid request data', fieldMessages({ currency: 'must be one of "KES", "GHS", "XAF", "XOF", "TZS", "EGP"' })])
    expect((await sb.call('GET', '/merchant/api/v1/pay-ins?limit=100')).body.data.payins).toEqual([])
  })

  it("takes a country's wallets added by a pack, and refuses a pack wallet in a currency mobile money does not take", async () => {
    const sb = await sandbox({ frozen: true })
    const added = await sb.call('POST', '/_sandbox/scenarios', { wallets: [{ number: '2250700000001', currency: 'XOF', steps: ['STK_PROMPT'], outcome: 'failed', message: 'Wallet blocked', label: 'mine' }] })
    expect(added.status).toBe(200)
    const res = await charge(sb, 'XOF', '2250700000001')
    expect(res.body.data.auth_model).toBe('STK_PROMPT')
    const done = await sb.call('POST', `${MM}/sandbox/authorize-stk`, { reference: res.body.data.transaction_reference, pin: '1234' })
    expect([done.body.message, done.body.data.status]).toEqual(['Wallet blocked', 'failed'])
    const bad = await sb.call('POST', '/_sandbox/scenarios', { wallets: [{ number: '2348000000000', currency: 'NGN', outcome: 'success', label: 'x' }] })
    expect(bad.status).toBe(422)
    expect(JSON.stringify(bad.body)).toContain('wallets.0.currency')
  })
})

describe("checkout's mobile-money channel in XAF, XOF, TZS and EGP (docs/behaviour.md#checkout)", () => {
  it.each(WALLETS)('$currency: the page offers mobile money only; a failed attempt leaves it open, the success wallet pays it', async ({ currency, ok, ko }) => {
    const sb = await sandbox({ frozen: true })
    const reference = ref('co')
    const init = await sb.call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 2500, currency, channels: ['card', 'mobile_money'], customer: { email: 'buyer@example.com' } })
    expect([init.status, init.body.status]).toEqual([200, true])
    // card, asked for, is dropped: the currency does not take it (CONTRACT 14)
    const card = await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card' })
    expect([card.status, card.body.message]).toEqual([400, 'This payment channel is not offered for this checkout'])
    const failed = await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'mobile_money', mobile_money: { number: ko } })
    expect(failed.body.data).toMatchObject({ status: 'processing', payment_attempts: [{ channel: 'mobile_money', status: 'failed', message: 'Insufficient funds in wallet' }] })
    const paid = await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'mobile_money', mobile_money: { number: ok } })
    expect(paid.body.data).toMatchObject({ status: 'success', payment_method: 'mobile_money' })
    const query = (await sb.call('GET', `/merchant/api/v1/charges/${reference}`)).body.data
    expect(query).toMatchObject({ status: 'success', currency, payment_attempts: [{ channel: 'mobile_money', status: 'failed' }, { channel: 'mobile_money', status: 'success' }] })
  })

  it('pays with the pack’s first wallet of the currency when none is given', async () => {
    const sb = await sandbox({ frozen: true })
    for (const { currency } of WALLETS) {
      const reference = ref('co')
      await sb.call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 500, currency, customer: { email: 'buyer@example.com' } })
      expect((await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'mobile_money', outcome: 'failed' })).status).toBe(200)
      expect((await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'mobile_money' })).status).toBe(200)
      expect((await sb.call('GET', `/merchant/api/v1/charges/${reference}`)).body.data.status, currency).toBe('success')
    }
  })
})
