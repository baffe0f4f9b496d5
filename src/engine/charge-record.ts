/**
 * A charge as the sandbox shows it: the record of the query and the lists, the query's answer,
 * its events' data. The query itself (finding the charge, keeping its answer) is charge-query.ts.
 */
import { toDecimalString, toMajor } from '../money.js'
import type { Frozen } from '../store/frozen.js'
import type { Kinds } from './kinds.js'
import type { ChargeBase } from './types.js'

/**
 * The record of a charge the lists are built on (pay-ins, transactions): the query's fields
 * (docs/api.md 2.8), every kind's, then what its kind adds (`Kind.queryExtras`), with the
 * sandbox's own beside them. The query answers `chargeQueryAnswer`.
 */
export function chargeQueryRecord(kinds: Kinds, ns: string, charge: Frozen<ChargeBase>): Record<string, unknown> {
  const kind = kinds.of(charge.kind)
  const paid = charge.status === 'success' ? kinds.money(ns, charge).paid : 0
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
    payment_method: kind.method(charge),
    created_at: charge.created_at,
    completed_at: charge.completed_at,
    // always there, null when none was sent, as the webhook carries it (docs/behaviour.md#card-outcomes-and-query)
    metadata: charge.metadata,
  }
  if (charge.status === 'failed' || charge.attempts.length) base.payment_attempts = charge.attempts
  if (charge.customer) base.customer = charge.customer
  return Object.assign(base, kind.queryExtras(ns, charge))
}

/**
 * Fields of the record no sample of the charge query shows (docs/behaviour.md#card-outcomes-and-query): neither the
 * collection's (2020-21) nor the newer pages' (pool accounts 2026-04, NGN virtual accounts
 * 2026-07), nor docs/api.md 2.8; a bank transfer's `amount_accepted` shows only beside a mismatch's
 * `bank_transfer` (SPEC-BEYOND 3.2).
 */
const NOT_IN_QUERY = new Set(['transaction_reference', 'vat', 'payment_method', 'created_at', 'completed_at', 'metadata', 'amount_expected', 'bank_account', 'auth_model'])

/**
 * `GET /merchant/api/v1/charges/{reference}`'s `data` (docs/behaviour.md#card-outcomes-and-query): the record less
 * what no sample of the query shows, `fee` a number as the newer pages write it.
 */
export function chargeQueryAnswer(kinds: Kinds, ns: string, charge: Frozen<ChargeBase>): Record<string, unknown> {
  const record = chargeQueryRecord(kinds, ns, charge)
  const answer: Record<string, unknown> = {}
  for (const key in record) {
    if (NOT_IN_QUERY.has(key) || (key === 'amount_accepted' && !record.bank_transfer)) continue
    answer[key] = key === 'fee' && typeof record.fee === 'string' ? Number(record.fee) : record[key]
  }
  return answer
}

/**
 * docs/behaviour.md#webhook-payloads: the `data` of a charge.success / charge.failed event, its keys in the
 * documentation's order (a receiver that re-serializes `data` signs these bytes), then the
 * sandbox's own. `reference` and `payment_reference` are both the merchant's reference, the
 * sandbox's own is `transaction_reference`, and `metadata` is the charge's as sent (null when none
 * was).
 */
export function chargeEventData(charge: Frozen<ChargeBase>, kinds: Kinds) {
  return {
    fee: toMajor(charge.fee),
    amount: toMajor(charge.amount),
    status: charge.status,
    currency: charge.currency,
    reference: charge.payment_reference,
    payment_method: kinds.methodOf(charge),
    payment_reference: charge.payment_reference,
    transaction_reference: charge.transaction_reference,
    metadata: charge.metadata ?? null,
  }
}
