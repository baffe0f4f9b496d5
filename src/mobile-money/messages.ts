/** The texts of the mobile money area alone (docs/behaviour.md 5). */
export const MM_MSG = {
  AUTH_REQUIRED: 'Authorization required',
  AUTH_CODE: 'AA001',
  OTP_INVALID: 'The OTP you provided is invalid',
  STK_RESENT: 'PIN prompt resent successfully',
  STK_NOT_PENDING: 'No PIN prompt is pending for this transaction',
  WRONG_PIN: 'The PIN entered is incorrect',
  WAITING: 'Waiting for the wallet to answer',
  COMPLETED: 'Payment completed',
  FAILED: 'Charge failed',
  otpSent: (to: string) => `An OTP has been sent to ${to}: enter it to authorize the payment`,
  stkSent: (to: string) => `A PIN prompt has been sent to ${to}: the customer enters the wallet PIN to approve the payment`,
} as const
