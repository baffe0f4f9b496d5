import { MAX_MAJOR_AMOUNT, toMinor, unitOf } from '../money.js'
import { RATE_DECIMALS, factorOf, type Rate } from '../scenario/rates.js'

/**
 * A conversion's arithmetic (docs/behaviour.md#conversions), exact: the pack's rate for the pair
 * (`rateFor`, src/scenario/rates.ts) multiplies or divides, and either way the answer shows the
 * pack's rate, as the live samples do (NGN to USD and USD to NGN both at NGN per USD). Rates are
 * whole millionths, so every result is integer arithmetic on minor units.
 *
 * The one rounding rule: the converted amount is rounded DOWN to the to-currency's unit (the
 * minor unit; XAF, XOF: a whole franc). The merchant never receives more than the amount is worth
 * at the rate, so a round trip never gains: with half up, NGN 7.20 at 1,440 would buy USD 0.01
 * (0.005 rounded up), which buys back NGN 14.40. With a rate table no round of which gains
 * (`gainingRound`, which the pack schema enforces), no sequence of conversions makes money.
 */

/** `amount` minor units of the from-currency in minor units of the to-currency (which has `decimals` decimals), rounded down to its unit. */
export function convertMinor(amount: number, rate: Rate, decimals: number): number {
  const [num, den] = factorOf(rate)
  const unit = BigInt(unitOf(decimals))
  return Number(((BigInt(amount) * num) / (den * unit)) * unit)
}

/** the largest amount there may be (money.ts), in minor units */
const MAX_MINOR = toMinor(MAX_MAJOR_AMOUNT)

/** whether a converted amount stays within what every amount may be */
export const withinLimit = (minor: number): boolean => minor <= MAX_MINOR

/** A rate as the conversion answers write it: a decimal string with at least two places (`"1440.00"`). */
export function rateString(rate: number): string {
  const [whole, frac = ''] = rate.toFixed(RATE_DECIMALS).replace(/0+$/, '').split('.')
  return `${whole}.${frac.padEnd(2, '0')}`
}
