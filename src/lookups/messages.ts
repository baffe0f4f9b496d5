/** The texts of the look-ups alone (docs/behaviour.md#look-ups). */
export const LOOKUPS_MSG = {
  LISTED: 'Successful',
  RESOLVED: 'Request Completed',
  /** the wallet resolve's, as the newest sample writes it (docs/behaviour.md#look-ups) */
  WALLET_RESOLVED: 'Request completed',
  /** beside `Invalid account.` when a wallet does not resolve */
  INVALID_ACCOUNT_CODE: 'AA024',
  /** beside `Invalid account.` when a bank account does not resolve */
  UNRESOLVED_BANK_ACCOUNT_CODE: 'AA027',
  // the payout utilities' (docs/behaviour.md#look-ups): the page's texts, the refusals' the sandbox's own (the page shows a 400, not its text)
  PURPOSES: 'Payment purposes retrieved successfully',
  BANK_COUNTRIES: 'currency countries retrieved successfully',
  UNSUPPORTED_COUNTRY: 'Payment purposes are not available for this country',
  UNSUPPORTED_CURRENCY: 'Bank countries are not available for this currency',
} as const
