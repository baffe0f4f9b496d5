import { ApiError } from '../errors.js'
import { toMajor } from '../money.js'
import { CHECKOUT_MSG } from './messages.js'

/**
 * Split payments on `charges/initialize` (docs/behaviour.md#checkout-split-and-conversion): the part of a checkout's
 * amount each split account receives, in minor units, and the merchant's remainder. Exact: a flat
 * share is its value; a percentage share is rounded down to the unit, so the shares never add up to
 * more than their percentages of the amount and the merchant keeps what rounding leaves. Shares
 * plus the merchant's part are always the amount.
 */

export interface SplitAccount {
  split_account_reference: string
  /** a flat share, minor units; or a percentage (of up to 2 decimals) */
  value: number
}

export interface SplitRequest {
  split_type: 'percentage' | 'flat'
  split_accounts: SplitAccount[]
}

export interface Split {
  split_type: 'percentage' | 'flat'
  accounts: { split_account_reference: string; value: number; amount: number }[]
  /** what the merchant keeps of the amount */
  merchant_amount: number
}

/** a flat split needs the amount to be this many times its shares (the sample: NGN 5,500 of shares needs NGN 7,150) */
export const FLAT_SPLIT_FACTOR = [13n, 10n] as const

/** The smallest amount (minor units, on the currency's `unit`) a flat split of shares totalling `shares` may be applied on. */
export function flatMinimum(shares: number, unit: number): number {
  const [num, den] = FLAT_SPLIT_FACTOR
  const step = BigInt(unit)
  // rounded up to the unit: the amount must reach the factor of the shares
  return Number(((BigInt(shares) * num + den * step - 1n) / (den * step)) * step)
}

/**
 * The split of `amount` (minor units of `currency`, whose unit is `unit` minor units): refused with
 * 400 `AA027` when a flat split's shares need a larger amount. Percentages over 100 in total are
 * refused by the request's schema.
 */
export function splitOf(amount: number, currency: string, unit: number, request: SplitRequest): Split {
  const shares = request.split_accounts.map((a) =>
    request.split_type === 'flat' ? a.value : Number((BigInt(amount) * BigInt(Math.round(a.value * 100))) / (10000n * BigInt(unit))) * unit,
  )
  const total = shares.reduce((s, x) => s + x, 0)
  if (request.split_type === 'flat') {
    const min = flatMinimum(total, unit)
    if (amount < min) throw new ApiError(400, CHECKOUT_MSG.splitMinimum(`${currency}${toMajor(min)}`), null, undefined, CHECKOUT_MSG.SPLIT_MINIMUM_CODE)
  }
  return {
    split_type: request.split_type,
    accounts: request.split_accounts.map((a, i) => ({ split_account_reference: a.split_account_reference, value: a.value, amount: shares[i] })),
    merchant_amount: amount - total,
  }
}
