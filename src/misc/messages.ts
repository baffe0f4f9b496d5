/** The texts of the look-ups alone (docs/behaviour.md 13.5). */
export const MISC_MSG = {
  LISTED: 'Successful',
  RESOLVED: 'Request Completed',
  /** the wallet resolve's, as the newest sample writes it (docs/behaviour.md 13.5) */
  WALLET_RESOLVED: 'Request completed',
  /** beside `Invalid account.` when a wallet does not resolve */
  INVALID_ACCOUNT_CODE: 'AA024',
  /** beside `Invalid account.` when a bank account does not resolve */
  UNRESOLVED_BANK_ACCOUNT_CODE: 'AA027',
} as const
