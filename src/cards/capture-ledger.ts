import { settlementMs, type Entry, type Ledger } from '../charges/ledger.js'
import { CARD_OPS, type CardOperation, type RecordEntry } from '../charges/types.js'
import type { Settings } from '../scenario/schema.js'

/**
 * What a capture of a pre-authorization brings the merchant (docs/behaviour.md 4.3, 13.4): a
 * capture is a pay-in, so its record carries a credit of its amount net of fee and VAT, pending
 * until it settles. Entries are never edited, so the other ways a capture's money moves are new
 * entries on the same record:
 *
 * - settled early (a later capture, or the control call): a debit dated the credit's settlement
 *   time, which cancels the pending credit, and a credit available now;
 * - voided (only while unsettled): a debit dated the credit's settlement time, so the pending
 *   credit never becomes available.
 */

type Why = 'capture' | 'settled' | 'voided'
type OpEntry = RecordEntry & { why: Why }

const DESCRIPTION: Record<string, string> = {
  capture: 'Capture',
  settled: 'Capture settled',
  voided: 'Capture voided',
}

/** Registers the captures' collection with the ledger (once, by PreauthService). */
export function registerCaptures(ledger: Ledger): void {
  ledger.addSource<CardOperation>({
    collection: CARD_OPS,
    entriesOf: (op) =>
      (op.ledger ?? []).map(
        (e): Entry => ({
          direction: e.direction,
          amount: e.amount,
          available_at: e.available_at,
          currency: op.currency,
          source: 'capture',
          source_reference: op.transaction_reference,
          description: `${DESCRIPTION[e.why] ?? 'Capture'} ${op.transaction_reference} of ${op.payment_reference}`,
          created_at: e.written_at,
        }),
      ),
  })
}

function add(ledger: Ledger, ns: string, op: CardOperation, entry: OpEntry): void {
  ;(op.ledger ??= []).push(entry)
  ledger.noted(ns, op.currency, entry)
}

/** The credit of a capture made now (the caller puts the record in the same turn). */
export function creditCapture(ledger: Ledger, ns: string, op: CardOperation, settings: Settings, nowMs: number): void {
  const at = new Date(nowMs).toISOString()
  const available = new Date(nowMs + settlementMs('card', settings)).toISOString()
  add(ledger, ns, op, { direction: 'credit', amount: op.amount - op.fee - op.vat, available_at: available, written_at: at, why: 'capture' })
}

/** A capture settled before its time: its pending credit becomes available now. */
export function settleCaptureEarly(ledger: Ledger, ns: string, op: CardOperation, nowMs: number): void {
  const credit = op.ledger?.[0]
  if (!credit || Date.parse(credit.available_at) <= nowMs || op.ledger!.length > 1) return
  const at = new Date(nowMs).toISOString()
  add(ledger, ns, op, { direction: 'debit', amount: credit.amount, available_at: credit.available_at, written_at: at, why: 'settled' })
  add(ledger, ns, op, { direction: 'credit', amount: credit.amount, available_at: at, written_at: at, why: 'settled' })
}

/** A capture voided while unsettled: its pending credit never becomes available. */
export function voidCapture(ledger: Ledger, ns: string, op: CardOperation, nowMs: number): void {
  const credit = op.ledger?.[0]
  if (!credit || op.ledger!.length > 1) return
  add(ledger, ns, op, { direction: 'debit', amount: credit.amount, available_at: credit.available_at, written_at: new Date(nowMs).toISOString(), why: 'voided' })
}
