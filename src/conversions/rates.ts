import { MAX_MAJOR_AMOUNT, toMinor } from '../money.js'
import { RATE_DECIMALS } from '../scenario/schema.js'

/**
 * A conversion's arithmetic (docs/behaviour.md 13.10), exact: the pack quotes one rate per pair,
 * `BASE/QUOTE: r` meaning one BASE buys r QUOTE (`USD/NGN: 1440`). Converting BASE to QUOTE
 * multiplies by r, QUOTE to BASE divides by it, and either way the answer shows r, as the live
 * samples do (NGN to USD and USD to NGN both at NGN per USD). Rates have at most six decimals, so
 * each is an integer of millionths and every result is integer arithmetic on minor units,
 * rounded half up to the minor unit (the documented NGN 4,000 at 1,870 gives USD 2.14).
 */

const SCALE = 10n ** BigInt(RATE_DECIMALS)

export interface Rate {
  /** the pack's rate, as the quote answers it */
  rate: number
  /** whether converting this way multiplies by the rate (BASE to QUOTE) */
  multiply: boolean
}

/** The rate for converting `from` into `to` under the pack's `conversion_rates`, or null. */
export function rateFor(rates: Record<string, number>, from: string, to: string): Rate | null {
  if (from === to) return null
  const direct = rates[`${from}/${to}`]
  if (direct !== undefined) return { rate: direct, multiply: true }
  const inverse = rates[`${to}/${from}`]
  if (inverse !== undefined) return { rate: inverse, multiply: false }
  return null
}

/** `amount` minor units of the from-currency in minor units of the to-currency, rounded half up. */
export function convertMinor(amount: number, { rate, multiply }: Rate): number {
  const r = BigInt(Math.round(rate * Number(SCALE)))
  const a = BigInt(amount)
  const [num, den] = multiply ? [a * r, SCALE] : [a * SCALE, r]
  return Number((2n * num + den) / (2n * den))
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
