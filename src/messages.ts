/**
 * The message texts several areas share, and those of the layers below the areas (docs/api.md 7
 * and docs/behaviour.md). A text one area alone answers with is in that area's `messages.ts`
 * (docs/architecture.md, "Services are free of Hono"). The error type that carries them is in
 * errors.ts; only the app's error handler (errorEnvelope in http/envelope.ts) writes the JSON of a
 * refusal.
 */
/** the history line of a step a control call finished (docs/behaviour.md#control-api) */
const BY_CONTROL_CALL = 'completed by control call'

export const MSG = {
  // docs/api.md 7.2
  INVALID_REQUEST: 'Invalid request data',
  TRANSACTION_NOT_FOUND: 'Transaction not found',
  PAYMENT_COMPLETED: 'Payment has already been completed',
  TRANSACTION_COMPLETED: 'Transaction has already been completed',
  DUPLICATE_REFERENCE: 'Duplicate payment reference',
  /** the code the samples write beside it on bank transfers and pay with bank (CONTRACT 15) */
  DUPLICATE_REFERENCE_CODE: 'AA021',
  AUTH_NOT_REQUIRED: 'Authorization is not required for this transaction',
  // docs/api.md 7.3
  SERVICE_UNAVAILABLE: 'Service currently unavailable',
  CONTACT_SUPPORT: 'An error occurred, please contact support',
  TRY_AGAIN: 'An error occurred, please try again',
  INTERNAL: 'Internal server error. It would be nice if you report this to us',
  // docs/behaviour.md#keys-and-namespaces, docs/behaviour.md#http and the sandbox's own
  INVALID_KEY: 'Invalid authorization key',
  LIVE_KEY: 'Live keys are never accepted by the sandbox: use a test secret key (sk_test_...)',
  CHARGE_NOT_FOUND: 'Charge not found',
  ROUTE_NOT_FOUND: 'Route not found',
  /** the plain-text answer of the host to an /api/v1 path that is no API route (docs/behaviour.md#beyond-the-seed) */
  WELCOME: 'Welcome to Kora',
  BODY_TOO_LARGE: 'Request body is too large',
  OTP_NOT_REQUIRED: 'OTP is not required for this transaction',
  FORBIDDEN_CONTROL: 'The control API answers only on loopback unless a control token is set',
  // docs/behaviour.md#status-codes: HTTP node cannot parse, answered by the server before the app
  MALFORMED_REQUEST: 'Malformed HTTP request',
  HEADERS_TOO_LARGE: 'Request header fields are too large',
  CHUNK_EXTENSIONS_TOO_LARGE: 'Request chunk extensions are too large',
  REQUEST_TIMEOUT: 'Request timed out',
  // docs/behaviour.md#container-image: the health check before every port asked for listens
  STARTING: 'paysandbox is starting: not every port it was asked to open listens yet',
  // docs/behaviour.md#proxy: the proxy's own answers
  PROXY_BAD_TARGET: 'The proxy takes CONNECT host:port or a request to an absolute http(s) URL',
  PROXY_HOST_REFUSED: 'The sandbox proxy answers only the intercepted hosts (--proxy-only-intercepted)',
  PROXY_LOOPBACK_REFUSED: "The sandbox proxy does not reach this machine's loopback for a client beyond it",
  PROXY_UPSTREAM_FAILED: 'The proxy could not reach the host',
  // docs/behaviour.md#record: recording through the proxy
  RECORD_WEBHOOK_KEPT: 'Webhook recorded',
  // Success texts (docs/api.md 2)
  CHARGE_RETRIEVED: 'Charge retrieved successfully',
  CHARGE_SUCCESSFUL: 'Charge successful',
  OTP_RESENT: 'OTP resent successfully',
  TRANSFER_RECEIVED: 'Transfer received',
  SUCCESS: 'success',
  /** the pay-ins and payouts lists (CONTRACT 15: as the service's examples answer) */
  TRANSACTIONS_RETRIEVED: 'Transactions retrieved successfully',
  // shared refusals of the areas
  DUPLICATE_TRANSACTION_REFERENCE: 'Duplicate transaction reference',
  INSUFFICIENT_WALLET: 'Insufficient funds in disbursement wallet',
  /** docs/behaviour.md#ledger-and-balances: `limit` formatted, `NGN 50,000,000,000,000.00` */
  intakeLimit: (limit: string) => `Amount refused: a namespace takes in at most ${limit} per currency until it is reset`,
  /** an account or wallet that does not resolve: at the bank resolve (400, the sample's), the wallet resolve (503) and on a payout (409, as seen live: docs/behaviour.md#look-ups, docs/behaviour.md#payouts) */
  INVALID_ACCOUNT: 'Invalid account.',
  /** docs/behaviour.md#keys-and-namespaces: `why` says which limit (NamespaceLimitError) */
  namespaceLimit: (why: string) => `Namespace limit reached: ${why}; restart the sandbox or reuse a key`,
  // the history lines several channels write on a charge (docs/behaviour.md#identity-query-and-history)
  NOTE_PASSED: 'passed',
  NOTE_RESENT: 'resent',
  BY_CONTROL_CALL,
  byControlCall: (outcome: string) => `${BY_CONTROL_CALL}: ${outcome}`,
  // docs/behaviour.md#control-api: the engine's refusals of a control call (Clocks.advance, WebhookDelivery.resendNow)
  CLOCK_SECONDS_PAST_9999: 'would move the clock past the year 9999',
  CLOCK_TARGET_NOT_A_TIME: 'must be an ISO 8601 timestamp or milliseconds since the epoch',
  /** `now` as ISO 8601 */
  clockTargetBefore: (now: string) => `must not be before the namespace's current time (${now}): the clock never moves backwards`,
  CLOCK_TARGET_PAST_9999: 'must not be past the year 9999',
  EVENT_NOT_FOUND: 'Event not found',
  NO_WEBHOOK_URL: 'No webhook URL is set: PUT /_sandbox/webhook-url first',
  // how the balance history describes the ledger's own entries (docs/behaviour.md#ledger-and-balances)
  paymentEntry: (ref: string, why: string | undefined) => `Payment ${ref}${why ? ` ${why}` : ''}`,
  FUNDING_ENTRY: 'Balance funded',
  OPENING_ENTRY: 'Opening balance',
  // docs/behaviour.md#snapshots: a snapshot's ledger entry that takes a balance where none can be
  belowNothing: (balance: string) => `takes the balance to ${balance}: a balance the ledger adds up to is never below nothing`,
  pastIntake: (balance: string, limit: string) => `takes the balance to ${balance}, past ${limit}, the most a namespace takes in`,
} as const

/** docs/api.md 7.4: the failure text of a failed payment attempt. */
export const FAILURE = {
  FRAUD: 'Transaction has been flagged as fraudulent',
  INCORRECT_PIN: 'Incorrect card PIN',
  INSUFFICIENT_FUNDS: 'Card could not be charged due to insufficient funds',
  UNABLE_TO_COMPLETE: 'We are unable to complete this transaction at this time, please try again later',
  OTP_INVALID: 'The OTP entered is invalid',
  WITHDRAWAL_LIMIT: 'Withdrawal limit exceeded',
  CARD_NOT_FOUND: 'Card record was not found',
  TRY_AGAIN: 'An error occurred, please try again',
  REFER_TO_FI: 'Refer to Financial Institution',
  BANK_RESTRICTIONS: 'Card could not be charged due to bank restrictions. Please contact your bank or financial institution',
  NOT_ENROLLED: 'Card not enrolled for online payment. Please contact your bank or financial institution',
  WITHDRAWAL_FREQUENCY: 'Withdrawal frequency exceeded',
  PIN_TRIES_EXCEEDED: 'Pin tries exceeded',
  OTP_ATTEMPTS_EXCEEDED: 'Otp attempts exceeded',
  ABOVE_BANK_LIMIT: 'The amount requested is above the limit permitted by your bank, please contact your bank or financial institution',
  NOT_ALLOWED: 'You are not allowed to make this payment with your card, please contact your bank or financial institution',
  ISSUER_INOPERATIVE: 'Issuer or Switch Inoperative',
  // docs/behaviour.md#card-charges: declined on the 3DS page (not a docs/api.md 7.4 text)
  THREE_DS_DECLINED: '3DS authentication was declined by the cardholder',
} as const

/** the texts docs/api.md 7.4 lists under "Failed transaction messages": FAILURE less the sandbox's own */
export const FAILED_TRANSACTION_MESSAGES: readonly string[] = Object.values(FAILURE).filter(
  (m) => m !== FAILURE.THREE_DS_DECLINED,
)
