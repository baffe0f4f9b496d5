/** The texts of the look-ups alone (docs/behaviour.md 13.5). */
export const MISC_MSG = {
  LISTED: 'Successful',
  RESOLVED: 'Request Completed',
  /** the code the resolve sample writes beside `Invalid account.` */
  INVALID_ACCOUNT_CODE: 'AA027',
  // the payout utilities' (docs/behaviour.md 13.5): the page's texts, the refusals' the sandbox's own (the page shows a 400, not its text)
  PURPOSES: 'Payment purposes retrieved successfully',
  BANK_COUNTRIES: 'currency countries retrieved successfully',
  UNSUPPORTED_COUNTRY: 'Payment purposes are not available for this country',
  UNSUPPORTED_CURRENCY: 'Bank countries are not available for this currency',
} as const
