import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { AREAS } from '../src/areas.js'
import { testValuesText } from '../src/test-values.js'
import { ActiveScenarios, Scenarios, packRules } from '../src/scenario/index.js'
import { ref, sandboxPerTest, tempFile } from './helpers/sandbox.js'

const sandbox = sandboxPerTest()

/** `sandbox magic`'s text for these packs (on top of the default one). */
const magicOf = (files: string[]) => testValuesText(new ActiveScenarios(Scenarios.loadPacks(files, { rules: packRules(AREAS) }), packRules(AREAS)).toJSON(), AREAS)
/** The row of a table whose first cells are these. */
const rowOf = (text: string, ...start: string[]) => text.split('\n').find((l) => l.split(/\s{2,}/).slice(0, start.length).join('|') === start.join('|'))?.split(/\s{2,}/)

describe('sandbox magic: Checkout Standard', () => {
  it("shows the page's URL, the control calls, the 24 h expiry and the bank transfer's account rules", () => {
    const text = magicOf([])
    expect(text).toContain('\nCheckout Standard\n')
    expect(text).toContain('<origin>/checkout/<transaction reference>/pay')
    expect(text).toContain('POST /_sandbox/checkouts/<reference>/pay {"channel", "outcome"?, "card"?, "mobile_money"?, "bank_code"?, "amount"?}')
    expect(text).toContain('POST /_sandbox/checkouts/<reference>/cancel')
    expect(text).toContain('expires after 24 h on the namespace clock')
    expect(text).toContain('10 digits at wema (035), open 30 min')
    expect(text).toContain('the expected amount arrives by itself 120 s after it is issued')
    expect(rowOf(text, 'over')).toEqual(['over', 'success; the excess is returned to the payer'])
    expect(rowOf(text, 'under')?.[1]).toContain('all of it is returned')
    expect(rowOf(text, 'card', 'NGN, USD')).toEqual(['card', 'NGN, USD', '4084127883172787', '506066506066506067', '1.4%, cap 2000'])
    expect(rowOf(text, 'mobile_money', 'KES')).toEqual(['mobile_money', 'KES', '254700000000', '254734611986', '1.5%'])
    expect(rowOf(text, 'mobile_money', 'GHS')?.slice(2, 4)).toEqual(['233240000000', '233274611986'])
    expect(rowOf(text, 'pay_with_bank', 'NGN')).toEqual(['pay_with_bank', 'NGN', '100004', '000001', '1.5%, cap 2000'])
  })

  it('names the card and wallet the control pay call uses, as the packs make them', async () => {
    // a pack that makes the default no-step success card fail: the next one pays
    const pack = tempFile('pack.yaml')
    writeFileSync(pack, 'cards:\n  - { number: "4084127883172787", scheme: visa, cvv: "123", expiry_month: "09", expiry_year: "30", steps: [], outcome: failed, message: "Do not honour", label: "now fails" }\n')
    const shown = rowOf(magicOf([pack]), 'card', 'NGN, USD')!
    expect(shown[2]).not.toBe('4084127883172787')
    expect(shown[3]).toBe('4084127883172787')
    const sb = await sandbox({ frozen: true, scenarios: [pack] })
    for (const [outcome, number] of [['success', shown[2]], ['failed', shown[3]]] as const) {
      const reference = ref('magic')
      expect((await sb.call('POST', '/merchant/api/v1/charges/initialize', { reference, amount: 100, currency: 'NGN', customer: { email: 'ada@example.com' } })).status).toBe(200)
      const paid = await sb.call('POST', `/_sandbox/checkouts/${reference}/pay`, { channel: 'card', outcome })
      const attempt = (await sb.call('GET', `/merchant/api/v1/charges/${paid.body.data.payment_attempts[0].reference}`)).body.data
      expect(attempt.status).toBe(outcome)
      expect(`${attempt.card.first_six}${attempt.card.last_four}`).toBe(`${number.slice(0, 6)}${number.slice(-4)}`)
    }
  })
})

describe('sandbox magic: pay with bank', () => {
  it("lists each currency's banks, what each does once approved, the minimums, the fee and the control call", () => {
    const text = magicOf([])
    expect(text).toContain('\nVouchers (ZAR)\n')
    expect(text).toMatch(/1168648096792943 +10 +success/)
    expect(text).toContain('A mandate by API (POST /merchant/api/v1/direct-debit/initiate)')
    expect(text).toContain('\nPay with bank\n')
    expect(text).toContain('at least NGN 200, ZAR 1; fee 1.5%, cap 2000')
    expect(text).toContain('<origin>/_sandbox/pay-with-bank/<transaction reference>')
    expect(rowOf(text, '100004')).toEqual(['100004', 'NGN', 'OPay', 'success', 'NGN: approved, success'])
    expect(rowOf(text, '000001')?.[3]).toBe('failed: Insufficient funds')
    expect(rowOf(text, '000002')?.[3]).toBe('processing')
    expect(rowOf(text, '250655')?.slice(0, 3)).toEqual(['250655', 'ZAR', 'FNB'])
    expect(text).toContain('POST /_sandbox/charges/<reference>/complete {"outcome", "message"?}')
  })
})

describe('sandbox magic: mobile money', () => {
  it("lists each wallet's steps and what the wallet resolve answers of it, with the operator's page of REDIRECT", () => {
    const text = magicOf([])
    expect(rowOf(text, '254700000000')).toEqual(['254700000000', 'KES', 'STK_PROMPT', 'N/A', '1234', 'success', 'WANJIKU KAMAU', 'KES: success after the STK prompt'])
    expect(rowOf(text, '233240000001')?.slice(0, 3)).toEqual(['233240000001', 'GHS', 'OTP,REDIRECT'])
    expect(rowOf(text, '233548668725')?.slice(5, 7)).toEqual(['failed', 'not found'])
    expect(rowOf(text, '254734611986')?.[6]).toBe('(derived)')
    expect(text).toContain('<origin>/_sandbox/mobile-money/<transaction reference>')
    expect(text).toContain('POST /merchant/api/v1/misc/mobile-money/resolve {"mobileMoneyCode", "phoneNumber", "currency"}')
  })
})

describe('sandbox magic: virtual bank accounts', () => {
  it('lists the bank codes and what the credit call does with each kind of number', () => {
    const text = magicOf([])
    expect(text).toContain('\nVirtual bank accounts\n')
    expect(rowOf(text, '000')).toEqual(['000', 'Sandbox Bank'])
    expect(rowOf(text, '090405')).toEqual(['090405', 'Moniepoint MFB'])
    expect(text).toContain('POST /merchant/api/v1/virtual-bank-account/sandbox/credit {"account_number", "amount", "currency": "NGN"}, NGN 100 to 10000000:')
    expect(rowOf(text, "a virtual account's")?.[1]).toBe('a pay-in KPY-PAY-..., success at once, charge.success; fee 1.5%, cap 2000')
    expect(rowOf(text, "an expired temporary account's")?.[1]).toBe('409 Account has expired')
    expect(rowOf(text, 'any other')?.[1]).toBe('404 Account not found')
  })
})

describe('sandbox magic: pool accounts and USD accounts', () => {
  it('says how pool accounts are made and credited, and how a USD account is opened', () => {
    const text = magicOf([])
    expect(text).toContain('\nPool accounts\n')
    expect(text).toContain('"currency": GHS | KES | XAF | XOF | ZAR, "account_type"?: "bank_account" | "mobile_money" (GHS, KES)}: one reference SBKP<8><currency> per customer e-mail')
    expect(text).toContain('1 to 10000000: a pay-in KPY-PA-..., success and available at once, charge.success (payment_method pool_account); fee 1.5%, cap 2000')
    expect(text).toContain('then {"currency": "USD", "account_holder_reference", "account_reference"}: a 12-digit account')
  })
})

describe('sandbox magic: payouts', () => {
  it('lists the payout test accounts, the fee, the delay and the limits', () => {
    const text = magicOf([])
    expect(text).toContain('\nPayouts\n')
    expect(text).toContain('Fee 0%, flat 30 plus 7.5% VAT')
    expect(text).toContain('processing 60 s on the namespace clock')
    expect(rowOf(text, '035', '0000000000')?.[2]).toBe('failed: Payout failed')
    expect(rowOf(text, '011', '9999999999')?.[2]).toBe('invalid')
    expect(rowOf(text, '033', '1111111111')?.[2]).toBe('processing')
    expect(text).toContain('NGN 1000 to 10000000')
    expect(text).toContain('POST /_sandbox/payouts/<reference>/complete')
  })

  it('names the payout utilities with their lists, the remittance call and the stablecoin wallets', () => {
    const text = magicOf([])
    expect(text).toContain('.../misc/payout-countries-by-currency-code/<currency> list them (public key): US SALA, SERV; GB none shown;')
    expect(text).toContain('USD to US, GB; GBP to GB; any other 400.')
    expect(text).toContain('remittance_data {sender_name, ...}')
    expect(text).toContain('Stablecoin wallets: POST /merchant/api/v1/crypto/wallets {"reference", "currency": USDT | USDC, "network"?: SOL | ETH | TRX (default SOL)')
  })
})

describe('sandbox magic: refunds', () => {
  it('shows the refund delay, the minimum and what completion_status does', () => {
    const text = magicOf([])
    expect(text).toContain('\nRefunds\n')
    expect(text).toContain('a settled pay-in, at least NGN 100.00')
    expect(text).toContain('processing for 60 s on the namespace clock')
    expect(rowOf(text, 'failed')?.[1]).toContain('refund.failed with status_reason')
    expect(text).toContain('POST /_sandbox/refunds/<reference>/complete')
  })
})

describe('sandbox magic: chargebacks', () => {
  it('lists the disputed test card, the calls and the pack timings', () => {
    const text = magicOf([])
    expect(text).toContain('\nChargebacks\n')
    expect(text).toContain('Always disputed: 4084080009900005')
    expect(rowOf(text, '4084080009900005')?.at(-1)).toContain('disputed')
    expect(text).toContain('POST /_sandbox/charges/<reference>/chargeback')
    expect(text).toContain('PATCH /api/v1/chargebacks/<reference>')
    expect(text).toContain('Unanswered 24 h: auto_accepted')
    expect(text).toContain('decided won 48 h after the answer')
  })
})
