/** The texts of the pay with bank area alone (docs/behaviour.md#pay-with-bank). */
export const PWB_MSG = {
  /** the collection's samples (NGN 2023, ZAR 2024) */
  INITIATED: 'Pay With Bank initiated successfully',
  BANKS_LISTED: 'Pay with Bank supported banks retrieved successfully',
  REDIRECT: 'Redirect the customer to authorization.redirect_url to approve the payment at their bank',
  APPROVED_AWAITING: 'Approved by the customer, awaiting confirmation from the bank',
  DECLINED: 'Payment was declined by the customer at the bank',
  ALREADY_APPROVED: 'The customer has already approved this payment',
  // its history line and the checkout page's line for an attempt
  NOTE_APPROVED: 'approved by the customer',
  attempt: (bankName: string) => `Pay with bank at ${bankName}`,
  /** a bank_code the packs do not list for the currency */
  unknownBank: (currency: string) => `must be the code of a bank of GET /merchant/api/v1/charge/pay-with-bank/banks?currency=${currency}`,
  /** the checkout's scripted customer when the packs hold no bank for the outcome asked */
  noTestBank: (currency: string, want: string) => `no bank of the active packs in ${currency} ends as ${want}: give one`,
} as const
