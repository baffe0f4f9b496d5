/**
 * The texts of the conversions area (docs/behaviour.md#conversions). The four successes are the live
 * documentation's, and so is `Rate details not found` (the collection's expired rate reference);
 * the other refusals' texts are the sandbox's own.
 */
export const CONVERSION_MSG = {
  QUOTED: 'Conversion rate retrieved successfully',
  CONVERTED: 'Conversion processed successfully',
  RETRIEVED: 'Conversion retrieved successfully',
  HISTORY: 'Conversion transactions retrieved successfully',
  NOT_FOUND: 'Conversion not found',
  PAIR: 'Currency pair not supported',
  TOO_SMALL: 'Amount is too small to convert',
  TOO_LARGE: 'Amount is too large to convert',
  /** an unknown or expired rate reference: 409 with code AA021, as the collection's sample */
  RATE_NOT_FOUND: 'Rate details not found',
  USED_RATE: 'Rate reference has already been used',
  MISMATCH: 'Conversion details do not match the rate reference',
  // how the balance history describes an entry of this area's ledger source (docs/behaviour.md#ledger-and-balances)
  entry: (ref: string, direction: 'credit' | 'debit', currency: string) => `Conversion ${ref} ${direction === 'debit' ? 'from' : 'to'} ${currency}`,
} as const

/** the code the collection's sample of an expired rate reference carries beside its message */
export const RATE_NOT_FOUND_CODE = 'AA021'

/** the code the live service's single-conversion answer carries beside its message */
export const RETRIEVED_CODE = 'AA000'
