/** The texts of the bank transfer area alone (docs/behaviour.md#bank-transfer). */
export const TRANSFER_MSG = {
  INITIATED: 'Bank transfer initiated successfully',
  WAITING: 'Awaiting transfer to the account',
  EXPIRED: 'The account expired before a transfer arrived',
  ACCOUNT_NOT_FOUND: 'Account not found',
  ACCOUNT_EXPIRED: 'Account has expired',
  EXCESS_RETURNED: 'The excess was returned to the payer',
  SHORT_RETURNED: 'The transfer was returned to the payer: the amount is short',
  // its history lines (amounts as decimal strings) and the checkout page's line for an attempt
  ACCOUNT_ISSUED: 'temporary account issued',
  arrived: (amount: string, event: string, returned: string | null) => `${amount} arrived (${event})${returned ? `, ${returned} returned` : ''}`,
  attempt: (accountNumber: string) => `Bank transfer to ${accountNumber}`,
} as const
