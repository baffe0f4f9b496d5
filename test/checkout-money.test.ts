import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { conversionOf, paymentAmount, settlementAmount } from '../src/checkout/conversion.js'
import { flatMinimum, splitOf } from '../src/checkout/split.js'
import { ApiError } from '../src/errors.js'
import { AREAS } from '../src/areas.js'
import { DEFAULT_PACK_FILE, loadPackFile, packRules } from '../src/scenario/index.js'
import { gainingRound, rateFor } from '../src/scenario/rates.js'
import { convertMinor } from '../src/conversions/rates.js'
import { decimalsOf } from '../src/scenario/lookups.js'

/**
 * The money of a split payment and of a converted checkout (docs/behaviour.md#checkout-split-and-conversion), as
 * properties: a split's shares and the merchant's part are the amount exactly, none negative; a
 * flat split is refused exactly below its minimum; and a checkout's conversions, each rounded down,
 * never credit the merchant more than the amount asked nor let a round of them gain.
 */

const RATES = loadPackFile(DEFAULT_PACK_FILE, packRules(AREAS)).settings!.conversion_rates!
const CURRENCIES = ['NGN', 'USD', 'KES', 'GHS'] as const
const minor = fc.integer({ min: 1, max: 10_000_000_000 })

describe('a split payment', () => {
  it('gives its accounts and the merchant exactly the amount, none negative (percentages rounded down per share)', () => {
    fc.assert(
      fc.property(minor, fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 8 }), (amount, hundredths) => {
        const total = hundredths.reduce((s, x) => s + x, 0)
        fc.pre(total <= 10_000)
        const split = splitOf(amount, 'NGN', 1, { split_type: 'percentage', split_accounts: hundredths.map((h, i) => ({ split_account_reference: `A${i}`, value: h / 100 })) })
        const shares = split.accounts.map((a) => a.amount)
        expect(shares.reduce((s, x) => s + x, 0) + split.merchant_amount).toBe(amount)
        for (const [i, s] of shares.entries()) {
          expect(s).toBeGreaterThanOrEqual(0)
          // never more than its percentage of the amount, and less by under a unit
          expect(s * 10_000).toBeLessThanOrEqual(amount * hundredths[i])
          expect((s + 1) * 10_000).toBeGreaterThan(amount * hundredths[i])
        }
      }),
    )
  })

  it('refuses a flat split exactly below 1.3 times its shares (AA027), and otherwise leaves the merchant the rest', () => {
    fc.assert(
      fc.property(minor, fc.array(fc.integer({ min: 1, max: 1_000_000_000 }), { minLength: 1, maxLength: 5 }), fc.constantFrom(1, 100), (amount, values, unit) => {
        const shares = values.map((v) => v * unit)
        const total = shares.reduce((s, x) => s + x, 0)
        const at = amount * unit
        const request = { split_type: 'flat' as const, split_accounts: shares.map((value, i) => ({ split_account_reference: `A${i}`, value })) }
        const min = flatMinimum(total, unit)
        expect(min % unit).toBe(0)
        expect(min * 10).toBeGreaterThanOrEqual(total * 13)
        expect((min - unit) * 10).toBeLessThan(total * 13)
        if (at < min) {
          expect(() => splitOf(at, 'NGN', unit, request)).toThrow(ApiError)
        } else {
          const split = splitOf(at, 'NGN', unit, request)
          expect(split.merchant_amount).toBe(at - total)
          expect(split.merchant_amount).toBeGreaterThan(0)
        }
      }),
    )
  })
})

describe('a converted checkout', () => {
  /** the conversion asked for, or null when the rates do not serve it (refused by field) */
  const attempt = (rates: Record<string, number>, amount: number, currency: string, payment: string, settlement: string) => {
    try {
      return conversionOf(rates, { amount, currency, payment_currency: payment, settlement_currency: settlement }, () => true)
    } catch {
      return null
    }
  }

  it('at the default pack rates: the customer pays the amount rounded down, and the merchant is credited at most the amount', () => {
    fc.assert(
      fc.property(minor, fc.constantFrom(...CURRENCIES), fc.constantFrom(...CURRENCIES), (amount, currency, payment) => {
        const c = attempt(RATES, amount, currency, payment, currency)
        fc.pre(c !== null)
        const paid = paymentAmount(c!)
        const credited = settlementAmount(c!, paid)
        expect(Number.isSafeInteger(paid) && Number.isSafeInteger(credited)).toBe(true)
        expect(credited).toBeLessThanOrEqual(amount)
      }),
    )
  })

  it('for any rate table without a gaining round: what the merchant is credited, converted back, is never more than the amount', () => {
    const rate = fc.integer({ min: 1, max: 5_000_000_000 }).map((m) => m / 1_000_000)
    const three = fc.constantFrom('NGN', 'USD', 'KES')
    fc.assert(
      fc.property(fc.record({ 'USD/NGN': rate, 'USD/KES': rate }), minor, three, three, three, (rates, amount, currency, payment, settlement) => {
        fc.pre(gainingRound(rates) === null)
        const c = attempt(rates, amount, currency, payment, settlement)
        fc.pre(c !== null)
        const credited = settlementAmount(c!, paymentAmount(c!))
        const home = rateFor(rates, settlement, currency)
        fc.pre(settlement === currency || home !== null)
        const back = settlement === currency ? credited : convertMinor(credited, home!, decimalsOf(currency))
        expect(back).toBeLessThanOrEqual(amount)
      }),
    )
  })
})
