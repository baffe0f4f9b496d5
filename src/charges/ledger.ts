import type { Scenarios } from '../scenario/index.js'
import type { Settings } from '../scenario/schema.js'
import type { CollectionSpec } from '../store/collection.js'
import type { Store } from '../store/store.js'
import { NUMBER, STRING } from '../store/validate.js'
import { paymentMethodOf } from './query.js'
import { CHARGES, type ChargeBase, type LedgerEntry } from './types.js'

/**
 * The merchant's ledger (docs/behaviour.md 13.4): append-only entries from which every balance is
 * derived, never a balance edited in place.
 *
 * Entries live on the records that made them: a pay-in that succeeds carries its credit on its own
 * record (`charge.ledger`, written once at success; a record of its own would cost 5 % more
 * instructions per card charge, measured); a payout or a refund carries its debit, and the credit
 * that returns it if it fails; a control call's funding is a record of the ledger collection. Each
 * area that writes entries registers its collection as a source (`Ledger.addSource`), so the
 * balances, the history and the checks read one list whatever made the money move.
 *
 * Every namespace also opens with the pack's `opening_balance`, available, in each balance
 * currency: an entry of no record, dated the start of the namespace clock.
 */

export const LEDGER = 'ledger'

/** the currencies a namespace holds a balance in from the start */
export const BALANCE_CURRENCIES = ['NGN', 'KES', 'GHS', 'USD'] as const
export type BalanceCurrency = (typeof BALANCE_CURRENCIES)[number]

/** An entry as the balances and the history read it: what made it and when, in minor units. */
export interface Entry extends LedgerEntry {
  currency: string
  /** what kind of record made it: `payin`, `payout`, `refund`, `funding`, `opening` ... */
  source: string
  /** the reference of that record */
  source_reference: string
  description: string
  /** when it was written */
  created_at: string
}

/** A collection whose records carry ledger entries, and how to read them off a record. */
export interface LedgerSource<T extends object = any> {
  collection: string
  entriesOf(record: T): Entry[]
}

/** An entry of its own (a funding), a record of the ledger collection. */
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

export type Balances = Record<string, { pending: number; available: number }>

/**
 * The sums of a namespace's entries, kept as entries are written so that reading a balance does
 * not read every record: built by one pass over the sources the first time they are read, then
 * added to. They are dropped when a reset or a failed write changes the records under them
 * (`Store.registerState`).
 */
interface Totals {
  available: Record<string, number>
  /** entries not available yet when last read: they move to `available` as the clock passes them */
  pending: { currency: string; amount: number; at: number }[]
}

const signed = (e: LedgerEntry): number => (e.direction === 'credit' ? e.amount : -e.amount)

export class Ledger {
  readonly #sources: LedgerSource[] = []
  readonly #totals = new Map<string, Totals>()

  constructor(
    private readonly store: Store,
    private readonly scenarios: Scenarios,
  ) {
    const drop = (ns: string) => void this.#totals.delete(ns)
    store.registerState({ reset: drop, restored: drop })
    this.addSource<ChargeBase>({
      collection: CHARGES,
      entriesOf: (c) => (c.ledger ? [payinEntry(c, c.ledger), ...(c.settled_early ?? []).map((e) => payinEntry(c, e, 'settled early'))] : []),
    })
    this.addSource<LedgerRecord>({
      collection: LEDGER,
      entriesOf: (r) => [{ ...r, source: r.source, source_reference: r.id, description: 'Balance funded' }],
    })
  }

  /** Registers a collection whose records carry entries (the module that owns it does, once). */
  addSource<T extends object>(source: LedgerSource<T>): void {
    this.#sources.push(source)
  }

  /** Writes the credit of a pay-in that succeeded now on its record (the caller saves it). */
  creditPayin(ns: string, charge: ChargeBase, settings: Settings, nowMs: number): void {
    const entry: LedgerEntry = {
      direction: 'credit',
      amount: charge.amount - charge.fee - charge.vat,
      available_at: new Date(nowMs + settlementMs(paymentMethodOf(charge), settings)).toISOString(),
    }
    charge.ledger = entry
    this.noted(ns, charge.currency, entry)
  }

  /**
   * A pay-in settled now, before its time (the control call): its pending credit is taken back by
   * a debit due when the credit was, and the same amount is credited, available now. Nothing when
   * it has no credit, or its credit is already available (the caller saves the charge).
   */
  settleEarly(ns: string, charge: ChargeBase, nowMs: number): void {
    const credit = charge.ledger
    if (!credit || charge.settled_early || Date.parse(credit.available_at) <= nowMs) return
    const back: LedgerEntry = { direction: 'debit', amount: credit.amount, available_at: credit.available_at }
    const now: LedgerEntry = { direction: 'credit', amount: credit.amount, available_at: new Date(nowMs).toISOString() }
    charge.settled_early = [back, now]
    this.noted(ns, charge.currency, back)
    this.noted(ns, charge.currency, now)
  }

  /** Adds a funding, available at once, as a record of its own. */
  fund(ns: string, id: string, currency: string, amount: number, nowMs: number): LedgerRecord {
    const at = new Date(nowMs).toISOString()
    const record: LedgerRecord = { id, source: 'funding', direction: 'credit', currency, amount, available_at: at, created_at: at }
    this.store.col<LedgerRecord>(ns, LEDGER).put(id, record)
    this.noted(ns, currency, record)
    return record
  }

  /**
   * Tells the sums of an entry just written on a record of a source (the caller saves the record,
   * in the same turn). Without this call, the entry counts only once the sums are rebuilt.
   */
  noted(ns: string, currency: string, entry: LedgerEntry): void {
    const t = this.#totals.get(ns)
    if (t) t.pending.push({ currency, amount: signed(entry), at: Date.parse(entry.available_at) })
  }

  /** What the namespace opened with, available, in minor units, by balance currency. */
  opening(ns: string): Record<string, number> {
    const amount = this.#openingMinor(ns)
    return Object.fromEntries(BALANCE_CURRENCIES.map((c) => [c, amount]))
  }

  /** the pack's `opening_balance`, in minor units: what each balance currency opens with */
  #openingMinor(ns: string): number {
    return Math.round(this.scenarios.forNs(ns).settings.opening_balance * 100)
  }

  /** The balances at `nowMs` (the opening balance included), by currency, in minor units. */
  balances(ns: string, nowMs: number): Balances {
    const t = this.#settled(ns, nowMs)
    const out: Balances = {}
    for (const [currency, amount] of Object.entries(this.opening(ns))) out[currency] = { pending: 0, available: amount }
    for (const [currency, available] of Object.entries(t.available)) (out[currency] ??= { pending: 0, available: 0 }).available += available
    for (const p of t.pending) (out[p.currency] ??= { pending: 0, available: 0 }).pending += p.amount
    return out
  }

  /** The available balance of one currency at `nowMs`, in minor units. */
  available(ns: string, currency: string, nowMs: number): number {
    // what balances() gives for one currency, without building every currency's (a payout's check)
    const t = this.#settled(ns, nowMs)
    const opening = (BALANCE_CURRENCIES as readonly string[]).includes(currency) ? this.#openingMinor(ns) : 0
    return opening + (t.available[currency] ?? 0)
  }

  /** The sums, with the entries due by `nowMs` moved from pending to available. */
  #settled(ns: string, nowMs: number): Totals {
    const t = this.#sums(ns)
    if (t.pending.length === 0) return t
    const still: Totals['pending'] = []
    for (const p of t.pending) {
      if (p.at <= nowMs) t.available[p.currency] = (t.available[p.currency] ?? 0) + p.amount
      else still.push(p)
    }
    t.pending = still
    return t
  }

  /**
   * Every entry of the namespace that is available at `nowMs`, in the order it became available
   * (its `available_at`; ties in the order written), the opening balance first: what the
   * balance history lists.
   */
  entries(ns: string, nowMs: number): Entry[] {
    const start = new Date(0).toISOString()
    const out: Entry[] = Object.entries(this.opening(ns))
      .filter(([, amount]) => amount > 0)
      .map(([currency, amount]) => ({ direction: 'credit', amount, currency, available_at: start, created_at: start, source: 'opening', source_reference: 'opening', description: 'Opening balance' }))
    for (const source of this.#sources) {
      for (const record of this.store.col<object>(ns, source.collection).values()) out.push(...source.entriesOf(record))
    }
    return out
      .map((e, i) => ({ e, i, at: Date.parse(e.available_at) }))
      .filter((x) => x.at <= nowMs)
      .sort((a, b) => a.at - b.at || Date.parse(a.e.created_at) - Date.parse(b.e.created_at) || a.i - b.i)
      .map((x) => x.e)
  }

  #sums(ns: string): Totals {
    let t = this.#totals.get(ns)
    if (t) return t
    t = { available: {}, pending: [] }
    for (const source of this.#sources) {
      for (const record of this.store.col<object>(ns, source.collection).values()) {
        for (const e of source.entriesOf(record)) t.pending.push({ currency: e.currency, amount: signed(e), at: Date.parse(e.available_at) })
      }
    }
    this.#totals.set(ns, t)
    return t
  }
}

function payinEntry(c: ChargeBase, e: LedgerEntry, why?: string): Entry {
  return {
    ...e,
    currency: c.currency,
    source: 'payin',
    source_reference: c.payment_reference,
    description: `Payment ${c.payment_reference}${why ? ` ${why}` : ''}`,
    created_at: c.completed_at ?? e.available_at,
  }
}
