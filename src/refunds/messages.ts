/** The texts of the refunds area alone (docs/behaviour.md#refunds). */
export const REFUND_MSG = {
  INITIATED: 'Refund successfully initiated',
  RETRIEVED: 'Refund details retrieved successfully',
  LISTED: 'Refunds retrieved successfully',
  COMPLETED: 'Refund completed',
  FAILED: 'Refund failed',
  NOT_FOUND: 'Refund not found',
  ALREADY_COMPLETED: 'Refund has already been completed',
  NOT_SETTLED: 'Transaction has not yet been settled',
  NOT_SUCCESSFUL: 'Refund can only be requested on a successful transaction',
  CURRENCY: 'Refund not supported for this currency, please contact support',
  FULL_DONE: 'A full reversal has already been processed for this transaction',
  exists: (ref: string) => `Refund already exists with reference ${ref}`,
  /** the refunds page's sample (2025-07-24): the amount as a plain number, `NGN 2000` */
  above: (currency: string, major: number) => `Amount can't be more than ${currency} ${major}`,
  below: (money: string) => `Refund amount cannot be less than ${money}`,
  noFull: (money: string) => `A full refund cannot be initiated for this transaction. Please enter an amount less than or equal to ${money}`,
  max: (money: string) => `The maximum refundable amount for this transaction is ${money}`,
  // how the balance history describes an entry of this area's ledger source (docs/behaviour.md#ledger-and-balances)
  entry: (ref: string, why: string | undefined, of: string | undefined) => (why ? `Refund ${ref} failed: ${why}` : `Refund ${ref} of ${of}`),
} as const
