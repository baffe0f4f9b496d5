/** The texts of the mobile money area alone (docs/behaviour.md#mobile-money). */
export const MM_MSG = {
  AUTH_REQUIRED: 'Authorization required',
  AUTH_CODE: 'AA001',
  OTP_INVALID: 'The OTP you provided is invalid',
  // the resend calls' answers, with data null, as the service's samples write them
  OTP_RESENT: 'Kindly enter the OTP sent to your phone or email',
  STK_RESENT: 'Kindly authorize transaction with the new STK sent to your phone',
  STK_NOT_PENDING: 'No PIN prompt is pending for this transaction',
  STK_NOT_REQUIRED: 'STK is not required for this transaction',
  // the REDIRECT step: the operator's page (docs/behaviour.md#mobile-money-operator-page)
  REDIRECT: "Redirect the customer to authorization.redirect_url to complete the payment on the operator's page",
  REDIRECT_NOT_PENDING: "The customer is not awaited on the operator's page for this transaction",
  DECLINED: "Payment was declined by the customer on the operator's page",
  NOTE_APPROVED: 'approved by the customer',
  NOTE_DECLINED: 'declined by the customer',
  WRONG_PIN: 'The PIN entered is incorrect',
  WAITING: 'Waiting for the wallet to answer',
  /** a success's message and its data.message, as the service's sample of the STK answer writes them */
  APPROVED: 'Approved by financial institution',
  FAILED: 'Charge failed',
  walletCurrency: (currency: string, number: string) => `must be ${currency} for wallet ${number}`,
  /** a wallet number not of the currency's country code and length (the service's sample) */
  invalidPhone: (number: string) => `Invalid phone number: ${number}`,
  // its history lines and the checkout page's line for an attempt
  PROMPT_ANSWERED: 'answered by the wallet after the prompt delay',
  otpRejected: (left: number) => `invalid (${left} left)`,
  /** the scenario label (the first history line) of a wallet no pack lists */
  anyOtherWallet: (currency: string) => `any other ${currency} wallet: success`,
  NOTE_WRONG_PIN: 'wrong PIN',
  NOTE_PIN_ENTERED: 'PIN entered',
  attempt: (number: string) => `Mobile money ${number}`,
  otpSent: (to: string) => `An OTP has been sent to ${to}: enter it to authorize the payment`,
  stkSent: (to: string) => `A PIN prompt has been sent to ${to}: the customer enters the wallet PIN to approve the payment`,
  /** the checkout's scripted customer when the packs hold no test wallet for the outcome asked */
  noTestWallet: (currency: string, want: string) => `no test wallet of the active packs in ${currency} ends as ${want}: give one`,
} as const
