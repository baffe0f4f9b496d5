import type { Settings } from '../scenario/schema.js'
import type { Store } from '../store/store.js'
import { paymentMethodOf } from './query.js'
import { CHARGES, type ChargeBase, type LedgerEntry } from './types.js'

/**
 * The merchant's ledger (docs/behaviour.md 13.4): append-only entries from which balances are
 * derived. A pay-in that succeeds carries its entry on its own record (`charge.ledger`, written once
 * at success, never changed): its amount net of fee and VAT, pending until its settlement time on
 * the namespace clock, available after. Writing it costs the success nothing but the field: a
 * record of its own would be one more record stored per charge (measured: 5 % more instructions
 * per card charge).
 */

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
  for (const c of store.col<ChargeBase>(ns, CHARGES).values()) {
    const e = c.ledger
    if (!e) continue
    const b = (out[c.currency] ??= { pending: 0, available: 0 })
    const signed = e.direction === 'credit' ? e.amount : -e.amount
    if (Date.parse(e.available_at) <= nowMs) b.available += signed
    else b.pending += signed
  }
  return out
}
