import { createHash } from 'node:crypto'
import { MSG, badRequest, notFound } from '../http/errors.js'
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
