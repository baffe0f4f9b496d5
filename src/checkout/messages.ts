/** The texts of the checkout area alone (docs/behaviour.md#checkout). */
export const CHECKOUT_MSG = {
  CREATED: 'Charge created successfully',
  PENDING: 'Awaiting payment',
  IN_PROGRESS: 'Payment in progress',
  CANCELLED: 'Payment cancelled by the customer',
  EXPIRED: 'Checkout expired',
  NOT_OPEN: 'This checkout is no longer open for payment',
  CHANNEL_NOT_OFFERED: 'This payment channel is not offered for this checkout',
  NO_ATTEMPT: 'No payment attempt is in progress',
  CHECKOUT_CANCELLED: 'Checkout cancelled',
  /** a flat split whose shares need a larger amount (`min`: `NGN7150`), with its code */
  splitMinimum: (min: string) => `Split payment can only be applied on ${min} and above using the selected split configuration`,
  SPLIT_MINIMUM_CODE: 'AA027',
  ended: (status: string) => `Checkout ${status}`,
  /** its first history line */
  INITIALIZED: 'checkout initialized',
  // its history lines about its attempts (`tx`: the attempt's transaction reference)
  attemptStarted: (label: string, tx: string, status: string) => `${label} attempt ${tx}: ${status}`,
  attemptSucceeded: (tx: string) => `${tx} succeeded`,
  attemptEnded: (tx: string, status: string, message: string) => `${tx} ${status}: ${message}`,
  attemptAfterEnd: (tx: string, status: string) => `${tx} ${status} after the checkout ended`,
  transferStopped: (tx: string) => `${tx}: no transfer arrives by itself now that the checkout ended`,
} as const
