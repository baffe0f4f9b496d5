import type { Kit } from '../engine/kit.js'
import { BALANCE_CURRENCIES, type Balances, type Entry } from '../engine/ledger.js'
import type { HistoryRow } from '../engine/ledger-history.js'
import { newTransactionReference } from '../engine/lifecycle.js'
import { listTime, orderedPage, type ListQuery } from '../http/cursor-list.js'
import { toDecimalString, toMajor } from '../money.js'

/**
 * The merchant's balances (docs/behaviour.md#ledger-and-balances), derived from the ledger: what the namespace
 * opened with (the pack's `opening_balance`, available, in each balance currency) plus every
 * entry, pending until its time, available after.
 */

export { BALANCE_CURRENCIES }

export interface Balance {
  pending_balance: number
  available_balance: number
  issuing_balance?: number
}

/** An item of the balance history (docs/behaviour.md#ledger-and-balances): amounts as strings in major units. */
export interface HistoryItem {
  pointer: string
  amount: string
  currency: string
  balance_before: string
  balance_after: string
  /** when it became available: `date`, as the collection's whole sample writes it (docs/behaviour.md#ledger-and-balances) */
  date: string | null
  description: string
  direction: Entry['direction']
  source: string
  source_reference: string
}

export type HistoryQuery = ListQuery & { direction?: Entry['direction'] }

/** A page of the balance history as the ledger holds it: each row (minor units) with its entry described. */
export interface HistoryPage {
  has_more: boolean
  rows: { row: HistoryRow; entry: Entry }[]
}

export class BalanceService {
  constructor(private readonly kit: Pick<Kit, 'clocks' | 'random' | 'ledger'>) {}

  /** The balances now, by upper-case currency, in minor units (what the dashboard shows). */
  held(ns: string): Balances {
    return this.kit.ledger.balances(ns, this.kit.clocks.now(ns))
  }

  /** GET /balances: by upper-case currency, major units (USD with its issuing balance, always 0 here). */
  balances(ns: string): Record<string, Balance> {
    const out: Record<string, Balance> = {}
    for (const [currency, held] of Object.entries(this.held(ns))) {
      out[currency] = { pending_balance: toMajor(held.pending), available_balance: toMajor(held.available) }
      if (currency === 'USD') out[currency].issuing_balance = 0
    }
    return out
  }

  /** Control: adds `amount` (minor units) to the available balance, as an entry of its own. */
  fund(ns: string, currency: string, amount: number): Record<string, Balance> {
    this.kit.ledger.fund(ns, newTransactionReference(this.kit.random, ns, 'FUND'), currency, amount, this.kit.clocks.now(ns))
    return this.balances(ns)
  }

  /**
   * GET /balances/history: every entry of the available balances, each with the balance of its
   * currency before and after it (in the order the entries became available), newest first; a
   * page reads its own rows only (src/engine/ledger-history.ts).
   */
  history(ns: string, q: HistoryQuery): { has_more: boolean; history: HistoryItem[] } {
    const page = this.historyPage(ns, q)
    return { has_more: page.has_more, history: page.rows.map(({ row, entry }) => historyItem(row, entry)) }
  }

  /** The same page in minor units, each row with its entry (what the dashboard shows). */
  historyPage(ns: string, q: HistoryQuery): HistoryPage {
    const rows = this.kit.ledger.history(ns, this.kit.clocks.now(ns))
    const page = orderedPage(rows, q, (r) => (!q.currency || r.currency === q.currency) && (!q.direction || r.direction === q.direction))
    return { has_more: page.has_more, rows: page.items.map((row) => ({ row, entry: this.kit.ledger.entryOf(ns, row) })) }
  }
}

/** A row of the history as the list answers it: amounts in major units, its entry described. */
function historyItem(row: HistoryRow, e: Entry): HistoryItem {
  const date = listTime(e.available_at)
  return {
    pointer: row.pointer,
    amount: toDecimalString(row.amount),
    currency: row.currency,
    balance_before: toDecimalString(row.before),
    balance_after: toDecimalString(row.after),
    date,
    description: e.description,
    direction: row.direction,
    source: e.source,
    source_reference: e.source_reference,
  }
}
