/** The texts of the direct debit area alone (docs/behaviour.md#direct-debit). */
export const DD_MSG = {
  CREATED: 'Authorization created',
  moved: (past: string) => `Authorization ${past}`,
  /** each move's word in `moved` */
  PAST: { approve: 'approved', decline: 'declined', suspend: 'suspended', reactivate: 'reactivated', deactivate: 'deactivated' },
  AUTH_NOT_FOUND: 'Authorization not found',
  DUPLICATE_AUTH: 'Duplicate authorization reference',
  cannotMove: (move: string, status: string) => `Cannot ${move} an authorization whose status is ${status}`,
  notActive: (status: string) => `Authorization is not active: its status is ${status}`,
  notActiveUntil: (date: string) => `Authorization is not active until ${date}`,
  NOT_VARIABLE: 'Authorization must be of type variable for variable debit',
  INITIATED: 'Direct debit authorization initiated successfully',
  /** the initiate answer's `description`: what the customer does to activate the mandate */
  tokenPayment: (amount: string) => `To complete your e-mandate activation, please make a token payment of ₦${amount} to the account number provided below`,
  TOKEN_PAID: "Token payment received from the customer's registered account",
  HISTORY_INITIATED: 'initiated by API, awaiting the token payment',
  OVER_CEILING: "Amount exceeds the authorization's ceiling for a single debit",
  OVER_LIMIT: "Amount exceeds the merchant's transaction limit",
  DEBIT_ACCEPTED: 'Debit accepted for processing',
  DEBIT_SUCCESS: 'Debit successful',
  DEBIT_FAILED: 'Debit failed',
  END_DATE_PASSED: 'The end date has passed',
  seeded: (status: string) => `Seeded as ${status}`,
  END_DATE_PAST: 'must not be in the past',
  // the reasons an authorization's moves store (status_update_reason and its history)
  APPROVED: 'Approved by the customer and the bank',
  DECLINED: 'Declined by the customer',
  SUSPENDED: 'Suspended by the merchant',
  REACTIVATED: 'Reactivated by the merchant',
  DEACTIVATED: 'Deactivated by the merchant',
  HISTORY_SEEDED: 'seeded',
  HISTORY_CREATED: 'created',
  /** a debit's description */
  debitDescription: (narration: string) => `Direct Debit: ${narration}`,
  /** a debit's first history line: `amount` in major units */
  debitOf: (amount: number, authorization: string) => `debit of ${amount} on ${authorization}`,
} as const
