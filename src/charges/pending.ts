import { createHash } from 'node:crypto'
import { MSG, badRequest, notFound } from '../errors.js'
import type { ChargeBase } from './types.js'

/**
 * SPEC.md 7.2: a step on a charge needs it to exist and still be processing. Unknown: 404
 * `Transaction not found`; succeeded: `Payment has already been completed`; failed:
 * `Transaction has already been completed`.
 */
export function requireProcessing<T extends ChargeBase>(charge: T | undefined): T {
  if (!charge) throw notFound(MSG.TRANSACTION_NOT_FOUND)
  if (charge.status === 'success') throw badRequest(MSG.PAYMENT_COMPLETED)
  if (charge.status === 'failed') throw badRequest(MSG.TRANSACTION_COMPLETED)
  return charge
}

/** Expected PINs and OTPs are kept as this hash, never as the value. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex')

/** The fields every new charge starts with: processing, nothing failed yet, one history line. */
export function newChargeBase<K extends ChargeBase['kind']>(
  o: Pick<ChargeBase, 'transaction_reference' | 'payment_reference' | 'amount' | 'currency' | 'fee' | 'vat' | 'description' | 'customer' | 'response_message'> & {
    kind: K
    metadata?: ChargeBase['metadata']
    /** the first history line's result */
    created: string
    now: string
  },
): ChargeBase & { kind: K } {
  // spelled out, not spread: this runs on every charge and object rest/spread is slow here (the
  // callers add their fields with Object.assign: a literal spreading this costs ~20 µs)
  return {
    kind: o.kind,
    transaction_reference: o.transaction_reference,
    payment_reference: o.payment_reference,
    amount: o.amount,
    currency: o.currency,
    fee: o.fee,
    vat: o.vat,
    status: 'processing',
    description: o.description,
    customer: o.customer,
    metadata: o.metadata ?? null,
    response_message: o.response_message,
    failure_message: null,
    attempts: [],
    history: [{ at: o.now, step: 'created', result: o.created }],
    created_at: o.now,
    updated_at: o.now,
    completed_at: null,
  }
}

/** `{name?, email}` as sent: name only when given. */
export function customerOf(c: { email: string; name?: string }): { email: string; name?: string } {
  return c.name ? { name: c.name, email: c.email } : { email: c.email }
}
