import { toDecimalString } from '../money.js'
import { MSG } from '../errors.js'

/** The texts of the payouts area alone, bulk payouts included (docs/behaviour.md 13.7). */
export const PAYOUT_MSG = {
  INITIATED: 'transfer initiated successfully',
  PROCESSING: 'Payout processing',
  SUCCESS: 'Payout successful',
  RETRIEVED: 'Transaction retrieved successfully',
  FAILED: 'Payout failed',
  FINISHED: 'Payout completed',
  INVALID_BANK: 'Invalid bank provided.',
  INVALID_ACCOUNT: MSG.INVALID_ACCOUNT,
  INVALID_OPERATOR: 'Invalid mobile money operator.',
  DUPLICATE: 'Duplicate Transaction Reference. Please use a unique reference',
  CURRENCY: 'Currency not allowed for this destination',
  COMPLETED: 'Payout has already been completed',
  /** a bank `payouts/availability` says is unavailable (a documented failure reason, docs/behaviour.md 13.7) */
  BANK_UNAVAILABLE: 'Destination bank is not available',
  multipleOf: (n: number, currency: string) => `must be a multiple of ${n} for ${currency}`,
  belowMinimum: (min: number, currency: string) => `Amount is below the minimum payout of ${toDecimalString(min)} ${currency}`,
  aboveMaximum: (max: number, currency: string) => `Amount is above the maximum payout of ${toDecimalString(max)} ${currency}`,
  // docs/behaviour.md 13.7.1
  BULK_INITIATED: 'Bulk Transfer initiated successfully',
  BULK_RETRIEVED: 'Bulk transaction retrieved successfully',
  BULK_ITEMS: 'Payouts retrieved successfully',
  // how the balance history describes an entry of this area's ledger source (docs/behaviour.md 13.4)
  entry: (ref: string, why: string | undefined) => (why ? `Payout ${ref} failed: ${why}` : `Payout ${ref}`),
} as const
