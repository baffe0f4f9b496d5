import { toDecimalString } from '../money.js'
import type { CardCharge, ChargeBase, PaymentMethod } from './types.js'

/**
 * How the charge was paid: its channel, for a checkout the channel of the attempt that paid it, for
 * a virtual account's transfer a bank transfer (docs/behaviour.md 13.3).
 */
export function paymentMethodOf(charge: ChargeBase): PaymentMethod | null {
  if (charge.kind === 'checkout') return (charge as { payment_method?: PaymentMethod | null }).payment_method ?? null
  return charge.kind === 'virtual_account' ? 'bank_transfer' : charge.kind
}

/** The charge query record of docs/api.md 2.8, for any kind of charge. */
export function chargeQueryRecord(charge: ChargeBase) {
  const paid = charge.status === 'success' ? charge.amount : 0
  const base: Record<string, unknown> = {
    reference: charge.payment_reference,
    transaction_reference: charge.transaction_reference,
    status: charge.status,
    amount: toDecimalString(charge.amount),
    amount_paid: toDecimalString(paid),
    fee: toDecimalString(charge.fee),
    vat: toDecimalString(charge.vat),
    currency: charge.currency,
    description: charge.description,
    payment_method: paymentMethodOf(charge),
    created_at: charge.created_at,
    completed_at: charge.completed_at,
  }
  if (charge.status === 'failed' || charge.attempts.length) base.payment_attempts = charge.attempts
  if (charge.kind === 'card') base.card = (charge as CardCharge).card
  if (charge.metadata) base.metadata = charge.metadata
  if (charge.customer) base.customer = charge.customer
  return base
}

/**
 * docs/behaviour.md 8.4: the `data` of a charge.success / charge.failed event. `reference` and
 * `payment_reference` are both the merchant's reference, the sandbox's own is
 * `transaction_reference`, and `metadata` is the charge's as sent (null when none was).
 */
export function chargeEventData(charge: ChargeBase) {
  return {
    reference: charge.payment_reference,
    payment_reference: charge.payment_reference,
    transaction_reference: charge.transaction_reference,
    amount: charge.amount / 100,
    fee: charge.fee / 100,
    currency: charge.currency,
    status: charge.status,
    payment_method: paymentMethodOf(charge),
    metadata: charge.metadata ?? null,
  }
}
