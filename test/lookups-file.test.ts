import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BALANCE_CURRENCIES, AVAILABILITY_CURRENCIES, bankPayoutCurrency, decimalsOf, parseLookups } from '../src/scenario/lookups.js'

/**
 * fixtures/lookups.json checked on load (docs/behaviour.md#look-ups): the shipped file passes; each
 * bad entry is refused with the file, the entry (a bank or operator by its slug too) and the field.
 */

const shipped = () => JSON.parse(readFileSync(new URL('../fixtures/lookups.json', import.meta.url), 'utf8'))
const refusal = (edit: (l: any) => void): string => {
  const l = shipped()
  edit(l)
  try {
    parseLookups(l, 'lookups.json')
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('accepted')
}

describe('fixtures/lookups.json', () => {
  it('passes as shipped: its currencies are the balance currencies, with their decimals and payout rules', () => {
    expect(() => parseLookups(shipped(), 'lookups.json')).not.toThrow()
    expect(BALANCE_CURRENCIES).toEqual(['NGN', 'KES', 'GHS', 'USD', 'XAF', 'XOF', 'TZS', 'EGP', 'ZAR', 'GBP'])
    expect(['NGN', 'XAF', 'XOF', 'TZS'].map(decimalsOf)).toEqual([2, 0, 0, 2])
    expect(bankPayoutCurrency('ZAR')).toEqual({ country: 'ZA', requires: ['account_name'], availability: true })
    expect(bankPayoutCurrency('USD')?.remittance).toEqual(['AbaRouting', 'BicSwift'])
    expect(AVAILABILITY_CURRENCIES).toEqual(['ZAR'])
  })

  it('refuses each bad entry naming the entry and the field', () => {
    const cases: [(l: any) => void, string][] = [
      [(l) => (l.banks[0].country = 'ng'), 'lookups.json: banks.0 (access).country: must be a two-letter country code in upper case'],
      [(l) => delete l.banks[2].code, 'banks.2 (ecobank).code:'],
      [(l) => (l.mobile_money[0].max = 1), 'mobile_money.0 (safaricom-ke).max: must be at least min'],
      [(l) => l.mobile_money.push({ ...l.mobile_money[0] }), 'slug: safaricom-ke is declared twice'],
      [(l) => (l.wallet_currencies.KES.steps = ['SMS']), 'wallet_currencies.KES.steps.0:'],
      [(l) => (l.wallet_currencies.ZMW = { country: 'ZM', dial_code: '260', digits: 9, steps: ['OTP'] }), 'wallet_currencies.ZMW: ZMW must be declared in currencies'],
      [(l) => (l.payout_currencies.bank_account.ZMW = { country: 'ZM' }), 'payout_currencies.bank_account.ZMW: ZMW must be declared in currencies'],
      [(l) => (l.payout_bank_countries.ZMW = [{ country: 'Zambia', countryCode: 'ZM' }]), 'payout_bank_countries.ZMW: ZMW must be declared in currencies'],
      [(l) => (l.payout_purposes.US[0].code = 'sala'), 'payout_purposes.US.0.code: must be 4-6 capital letters'],
      [(l) => (l.payout_currencies.bank_account.ZAR.requires = ['phone']), 'payout_currencies.bank_account.ZAR.requires.0:'],
      [(l) => (l.payout_currencies.mobile_money.KES.availability = true), 'payout_currencies.mobile_money.KES:'],
      [(l) => (l.currencies.XAF.decimals = 3), 'currencies.XAF.decimals:'],
      [(l) => delete l.currencies.NGN, 'currencies.NGN: NGN must be declared in currencies'],
      [(l) => (l.extra = 1), 'lookups.json: '],
    ]
    for (const [edit, text] of cases) expect(refusal(edit)).toContain(text)
  })
})
