import type { Settings } from '../scenario/schema.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Store } from '../store/store.js'
import { NUMBER, STRING } from '../store/validate.js'
import { paymentMethodOf } from './query.js'
import { CHARGES, type ChargeBase, type LedgerEntry } from './types.js'

/**
 * The merchant's ledger (docs/behaviour.md 13.4): append-only entries from which balances are
 * derived. A pay-in that succeeds carries its entry on its own record (`charge.ledger`, written once
 * at success, never changed): its amount net of fee and VAT, pending until its settlement time on
 * the namespace clock, available after. Writing it costs the success nothing but the field: a
 * record of its own would be one more record stored per charge (measured: 5 % more instructions
 * per card charge). Entries that belong to no charge (a control call's funding) are records of
 * the ledger collection.
 */

export const LEDGER = 'ledger'

/** An entry of its own: what made it, in which currency. */
export interface LedgerRecord extends LedgerEntry {
  id: string
  source: 'funding'
  currency: string
  created_at: string
}

export const LEDGER_SPEC: CollectionSpec<LedgerRecord> = {
  name: LEDGER,
  fields: { direction: STRING, source: STRING, currency: STRING, amount: NUMBER, available_at: STRING, created_at: STRING },
}

/** Adds an entry of its own (available at once). */
export function addEntry(store: Store, ns: string, id: string, currency: string, amount: number, nowMs: number): LedgerRecord {
  const at = new Date(nowMs).toISOString()
  const record: LedgerRecord = { id, source: 'funding', direction: 'credit', currency, amount, available_at: at, created_at: at }
  return store.col<LedgerRecord>(ns, LEDGER).put(id, record)
}

/**
 * How long a pay-in takes to settle: a bank transfer at once (the live test environment shows the
 * balance right after the transfer), any other channel after the pack's settlement delay.
 */
export function settlementMs(method: string | null, settings: Settings): number {
  return method === 'bank_transfer' ? 0 : Math.round(settings.settlement_delay_hours * 3_600_000)
}

/** The ledger entry of a pay-in that succeeded now. */
export function payinEntry(charge: ChargeBase, settings: Settings, nowMs: number): LedgerEntry {
  return {
    direction: 'credit',
    amount: charge.amount - charge.fee - charge.vat,
    available_at: new Date(nowMs + settlementMs(paymentMethodOf(charge), settings)).toISOString(),
  }
}

/** The balances the ledger gives at `nowMs`, by currency, in minor units. */
export function ledgerBalances(store: Store, ns: string, nowMs: number): Record<string, { pending: number; available: number }> {
  const out: Record<string, { pending: number; available: number }> = {}
  const add = (currency: string, e: LedgerEntry) => {
    const b = (out[currency] ??= { pending: 0, available: 0 })
    const signed = e.direction === 'credit' ? e.amount : -e.amount
    if (Date.parse(e.available_at) <= nowMs) b.available += signed
    else b.pending += signed
  }
  for (const c of store.col<ChargeBase>(ns, CHARGES).values()) if (c.ledger) add(c.currency, c.ledger)
  for (const r of store.col<LedgerRecord>(ns, LEDGER).values()) add(r.currency, r)
  return out
}
