import { convertMinor } from '../conversions/index.js'
import { invalid } from '../errors.js'
import { decimalsOf, isBalanceCurrency } from '../scenario/lookups.js'
import { rateFor, type Rate } from '../scenario/rates.js'

/**
 * Dynamic currency conversion on `charges/initialize` (docs/behaviour.md#checkout-split-and-conversion): `currency` is
 * the amount's, `payment_currency` what the customer pays in, `settlement_currency` what the
 * merchant is credited in, each pair at the pack's `conversion_rates` (`rateFor`). Every
 * conversion is the conversions' one rule (`convertMinor`: rounded down to the unit), so the
 * customer never pays more than the amount is worth, and the merchant is never credited more than
 * what the customer paid is worth: no round of charges and conversions makes money.
 */

export interface Conversion {
  /** the amount and currency the merchant asked for */
  currency: string
  amount: number
  payment_currency: string
  settlement_currency: string
  /** the pack's rate from `currency` to `payment_currency`, as the conversions answer it, and which way it serves */
  rate: Rate
  /** from `payment_currency` to `settlement_currency`; null when they are one */
  settlement_rate: Rate | null
}

/** What the customer pays: `amount` of `currency` in `payment_currency`, rounded down. */
export function paymentAmount(c: Conversion): number {
  return convertMinor(c.amount, c.rate, decimalsOf(c.payment_currency))
}

/** What a credit of `minor` in the payment currency is in the settlement currency, rounded down. */
export function settlementAmount(c: Pick<Conversion, 'settlement_currency' | 'settlement_rate'>, minor: number): number {
  return c.settlement_rate ? convertMinor(minor, c.settlement_rate, decimalsOf(c.settlement_currency)) : minor
}

/**
 * The conversion a checkout asks for, or null when it pays and settles in its own currency.
 * Refused 422 per field: a currency the rates do not serve from the one before it, or an amount
 * worth nothing in the payment currency.
 */
export function conversionOf(rates: Record<string, number>, input: { amount: number; currency: string; payment_currency?: string; settlement_currency?: string }, takes: (currency: string) => boolean): Conversion | null {
  const payment = input.payment_currency ?? input.currency
  const settlement = input.settlement_currency ?? input.currency
  if (payment === input.currency && settlement === input.currency) return null
  const rate = payment === input.currency ? { rate: 1, multiply: true } : rateFor(rates, input.currency, payment)
  if (!rate || !takes(payment)) throw invalid({ payment_currency: `must be a currency the checkout takes that the rates convert ${input.currency} into` })
  const settlementRate = settlement === payment ? null : rateFor(rates, payment, settlement)
  if (settlement !== payment && (!settlementRate || !isBalanceCurrency(settlement))) throw invalid({ settlement_currency: `must be a balance currency the rates convert ${payment} into` })
  const c: Conversion = { currency: input.currency, amount: input.amount, payment_currency: payment, settlement_currency: settlement, rate, settlement_rate: settlementRate }
  if (paymentAmount(c) === 0) throw invalid({ amount: `is worth nothing in ${payment} at the rate` })
  return c
}
