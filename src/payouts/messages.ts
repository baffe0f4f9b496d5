import { toMajor } from '../money.js'

/** The texts of the payouts area alone, bulk payouts included (docs/behaviour.md#payouts). */
export const PAYOUT_MSG = {
  /** the live test environment's recorded text (2026-10-07); the collection's samples write `transfer initiated successfully` */
  INITIATED: 'Transfer initiated successfully.',
  /** a stablecoin payout's: the collection's crypto sample (the only source for one, docs/behaviour.md#stablecoin-payouts) */
  CRYPTO_INITIATED: 'transfer initiated successfully',
  /** the remittance variant's: the bank-remittance sample's text (the payout page of 2026-06 writes it with a final period) */
  REMITTANCE_INITIATED: 'Remittance transfer initiated successfully',
  PROCESSING: 'Payout processing',
  SUCCESS: 'Payout successful',
  RETRIEVED: 'Transaction retrieved successfully',
  FAILED: 'Payout failed',
  FINISHED: 'Payout completed',
  /** 404, as the service's samples answer a bank code of no bank (CONTRACT 15) */
  BANK_NOT_FOUND: 'bank not found',
  /** 404: an operator of no country, or of another currency's country (the samples' text says both) */
  OPERATOR_NOT_FOUND: 'Mobile money operator is not available for this currency or does not exist',
  DUPLICATE: 'Duplicate Transaction Reference. Please use a unique reference',
  CURRENCY: 'Currency not allowed for this destination',
  COMPLETED: 'Payout has already been completed',
  /** a bank `payouts/availability` says is unavailable (a documented failure reason, docs/behaviour.md#payouts) */
  BANK_UNAVAILABLE: 'Destination bank is not available',
  /** `payouts/availability`: the payout page's sample (2026-06-07), the one source of its answer */
  AVAILABILITY: 'Request Completed',
  multipleOf: (n: number, currency: string) => `must be a multiple of ${n} for ${currency}`,
  /** below the minimum or above the maximum: the live test environment's text (409), limits in minor units */
  outOfRange: (min: number, max: number, currency: string) => `You can only transfer an amount between ${currency} ${toMajor(min)} and ${currency} ${toMajor(max)}`,
  // docs/behaviour.md#bulk-payouts
  BULK_INITIATED: 'Bulk Transfer initiated successfully',
  /** a batch the balance does not cover: 400 with the code, as the bulk sample writes it (a single payout's is a 409, MSG.INSUFFICIENT_WALLET) */
  BULK_INSUFFICIENT: 'insufficient funds in disbursement wallet.',
  BULK_INSUFFICIENT_CODE: 'AA021',
  BULK_RETRIEVED: 'Bulk transaction retrieved successfully',
  BULK_ITEMS: 'Payouts retrieved successfully',
  // how the balance history describes an entry of this area's ledger source (docs/behaviour.md#ledger-and-balances)
  entry: (ref: string, why: string | undefined) => (why ? `Payout ${ref} failed: ${why}` : `Payout ${ref}`),
} as const
