/**
 * Request bodies several test files send as they are: the body, with what a test changes given
 * over it.
 */

/** POST /merchant/api/v1/virtual-bank-account: a permanent NGN account for Ada Lovelace at the sandbox bank. */
export const virtualAccountBody = (account_reference: string, over: Record<string, unknown> = {}) => ({
  account_name: 'Ada Lovelace',
  account_reference,
  permanent: true,
  bank_code: '000',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  kyc: { bvn: '22222222222' },
  ...over,
})
