/** The texts of the checkout area alone (docs/behaviour.md 13.1). */
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
  ended: (status: string) => `Checkout ${status}`,
} as const
