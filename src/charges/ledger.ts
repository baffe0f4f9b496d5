import type { Settings } from '../scenario/schema.js'
import type { Collection, CollectionSpec } from '../store/collection.js'
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

/**
 * How long a pay-in takes to settle: a bank transfer at once (the live test environment shows the
 * balance right after the transfer), any other channel after the pack's settlement delay.
 */
export function settlementMs(method: string | null, settings: Settings): number {
  return method === 'bank_transfer' ? 0 : Math.round(settings.settlement_delay_hours * 3_600_000)
}

/** Writes the ledger entry of a pay-in that succeeded now on its record (the caller saves it). */
export function creditPayin(store: Store, ns: string, charge: ChargeBase, settings: Settings, nowMs: number): void {
  const entry: LedgerEntry = {
    direction: 'credit',
    amount: charge.amount - charge.fee - charge.vat,
    available_at: new Date(nowMs + settlementMs(paymentMethodOf(charge), settings)).toISOString(),
  }
  charge.ledger = entry
  noteEntry(store, ns, charge.currency, entry)
}

/** Adds an entry of its own (available at once). */
export function addEntry(store: Store, ns: string, id: string, currency: string, amount: number, nowMs: number): LedgerRecord {
  const at = new Date(nowMs).toISOString()
  const record: LedgerRecord = { id, source: 'funding', direction: 'credit', currency, amount, available_at: at, created_at: at }
  store.col<LedgerRecord>(ns, LEDGER).put(id, record)
  noteEntry(store, ns, currency, record)
  return record
}

/**
 * The sums of a namespace's entries, kept as entries are written so that reading the balances
 * does not read every charge: built by one pass over the records the first time they are read,
 * then added to. They belong to the charges collection they were built from (a reset makes a new
 * one) and are dropped when a failed write puts records back (`Store.onRestore`).
 */
interface Totals {
  charges: Collection<ChargeBase>
  available: Record<string, number>
  /** entries not available yet when last read: they move to `available` as the clock passes them */
  pending: { currency: string; amount: number; at: number }[]
}

const totalsOfStore = new WeakMap<Store, Map<string, Totals>>()

function totalsMap(store: Store): Map<string, Totals> {
  let m = totalsOfStore.get(store)
  if (!m) {
    const map = new Map<string, Totals>()
    store.onRestore((ns) => map.delete(ns))
    totalsOfStore.set(store, (m = map))
  }
  return m
}

function addTo(t: Totals, currency: string, e: LedgerEntry): void {
  const amount = e.direction === 'credit' ? e.amount : -e.amount
  t.pending.push({ currency, amount, at: Date.parse(e.available_at) })
}

/** A new entry: added to the namespace's sums if they are kept (else the next read counts it). */
function noteEntry(store: Store, ns: string, currency: string, e: LedgerEntry): void {
  const t = totalsMap(store).get(ns)
  if (t && t.charges === store.col<ChargeBase>(ns, CHARGES)) addTo(t, currency, e)
}

/** The balances the ledger gives at `nowMs`, by currency, in minor units. */
export function ledgerBalances(store: Store, ns: string, nowMs: number): Record<string, { pending: number; available: number }> {
  const map = totalsMap(store)
  const charges = store.col<ChargeBase>(ns, CHARGES)
  let t = map.get(ns)
  if (!t || t.charges !== charges) {
    t = { charges, available: {}, pending: [] }
    for (const c of charges.values()) if (c.ledger) addTo(t, c.currency, c.ledger)
    for (const r of store.col<LedgerRecord>(ns, LEDGER).values()) addTo(t, r.currency, r)
    map.set(ns, t)
  }
  const out: Record<string, { pending: number; available: number }> = {}
  const still: Totals['pending'] = []
  for (const p of t.pending) {
    if (p.at <= nowMs) t.available[p.currency] = (t.available[p.currency] ?? 0) + p.amount
    else still.push(p)
  }
  t.pending = still
  for (const [currency, available] of Object.entries(t.available)) out[currency] = { pending: 0, available }
  for (const p of still) (out[p.currency] ??= { pending: 0, available: 0 }).pending += p.amount
  return out
}
