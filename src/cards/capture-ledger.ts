import type { Ledger } from '../engine/ledger.js'
import type { CardOperation } from './types.js'
import { payinMoney } from '../money.js'
import { isoAt } from '../time.js'

/**
 * What a capture of a pre-authorization brings the merchant (docs/behaviour.md#preauth-settlement, docs/behaviour.md#ledger-and-balances): a
 * capture is a pay-in, so it is credited its amount net of fee and VAT, pending until it settles.
 * Entries are never edited, so the other ways a capture's money moves are new entries of the
 * same capture:
 *
 * - settled early (a later capture, or the control call): a debit dated the credit's settlement
 *   time, which cancels the pending credit, and a credit available now;
 * - voided (only while unsettled): a debit dated the credit's settlement time, so the pending
 *   credit never becomes available.
 */

/** the ledger source of a capture's entries, declared by the cards area (src/cards/area.ts) */
export const CAPTURE = 'capture'

/**
 * The credit of a capture made now, available after `settlementMs` (`Kinds.settlementMs` of its
 * pre-authorization: the one rule of when a pay-in settles); the caller puts the record in the
 * same turn.
 */
export function creditCapture(ledger: Ledger, ns: string, op: CardOperation, settlementMs: number, nowMs: number): void {
  ledger.post(ns, CAPTURE, op.transaction_reference, {
    direction: 'credit',
    // a card's cost is the merchant's: the customer paid the amount
    amount: payinMoney(op.amount, op.fee, op.vat, 0).credit,
    currency: op.currency,
    available_at: isoAt(nowMs + settlementMs),
    created_at: isoAt(nowMs),
    of: op.payment_reference,
  })
}

/** A capture settled before its time: its pending credit becomes available now. */
export function settleCaptureEarly(ledger: Ledger, ns: string, op: CardOperation, nowMs: number): void {
  ledger.settleEarly(ns, CAPTURE, op.transaction_reference, 'settled', nowMs)
}

/** A capture voided while unsettled: its pending credit never becomes available. */
export function voidCapture(ledger: Ledger, ns: string, op: CardOperation, nowMs: number): void {
  ledger.cancel(ns, CAPTURE, op.transaction_reference, 'voided', nowMs)
}

/** Whether a capture's money has settled (docs/behaviour.md#preauth-settlement): by its entries, as the balance counts them. */
export function captureSettled(ledger: Ledger, ns: string, op: CardOperation, nowMs: number): boolean {
  return ledger.settled(ns, CAPTURE, op.transaction_reference, nowMs)
}
